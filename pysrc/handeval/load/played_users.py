"""The Locust users of the played scenarios (``scenarios.PLAYED``): tables played as a game
server plays them (``handeval.load.play``), unary (``*.record``) or over one Tables
stream per user (``*.stream``).

Every request is one Locust request: a record user's Evaluate steps and its Settle
(type = the method), a stream user's messages (type ``Tables``, its settles
``TableSettle``); name = ``scenario@batch``; response time = from sending the step to
its answer (choosing the next action is not timed). Every answer is checked: an item
error, a closed table, a missing suggestion or offer fails the request with that reason
(``ITEM_ERROR ERROR_REASON_…``, ``TABLE_CLOSED …``, ``NO_SUGGESTION``, …) and the game is
dropped; a stream that ends fails its step and the user opens a new one, starting each
of its tables again from its record (as a client resumes after a failover).

A record user plays one game at a time, step after step. A stream user holds ``batch``
tables (default 8) on its stream and sends one step at a time, the tables in turn: the
same concurrency as a record user, its tables' steps interleaved on one stream.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import time
from typing import Dict, List, Optional

from locust import User, events, task
from locust.user.wait_time import constant_pacing

from handeval.load import scenarios
from handeval.load.play import TABLES, Step, Table, Unplayable
from handeval.load.table_wire import RecordWire, StreamWire
from handeval.load.tables_stream import StreamEnded, TablesStream

#: A game longer than this many steps is a failure (a record holds at most 208 plays).
MAX_STEPS = 600
_games = itertools.count()
_log = logging.getLogger("handeval.load")
_logged: set = set()
#: Per scenario, the games played to the end by this process and the requests they took
#: (written at the end of a run for bench-load: games/s = requests/s over requests a game).
_played: Dict[str, List[int]] = {}


def _count_game(scenario: str, requests: int) -> None:
    got = _played.setdefault(scenario, [0, 0])
    got[0] += 1
    got[1] += requests


@events.test_stop.add_listener
def _write_played(**_kw):
    where = os.environ.get("HANDEVAL_LOAD_CPU_DIR")
    if where and _played:
        with open(os.path.join(where, f"played-{os.getpid()}.json"), "w", encoding="utf-8") as f:
            json.dump(_played, f)


class Failed(Exception):
    """A failed step, counted by Locust under ``code`` alone (the details vary per step;
    the first of each code is logged with them)."""

    def __init__(self, code: str, details: str = ""):
        super().__init__(code)
        self.code = code
        if code not in _logged:
            _logged.add(code)
            _log.warning("played step failed: %s %s", code, details)

    def __repr__(self) -> str:
        return self.code

    __str__ = __repr__


class PlayedUser(User):
    abstract = True
    scenario = ""

    def wait_time(self):
        rate = getattr(self.environment.parsed_options, "rate_per_user", 0.0)
        return constant_pacing(1.0 / rate)(self) if rate else 0.0

    def on_start(self):
        opts = self.environment.parsed_options
        mix = scenarios.parse_mix(getattr(opts, "mix", scenarios.DEFAULT_MIX))
        batch = {n: b for n, _, b in mix}.get(self.scenario, scenarios.PLAYED[self.scenario].batch)
        self.batch, self.label = batch, f"{self.scenario}@{batch}"
        self.timeout = getattr(opts, "call_timeout", 10.0)
        seed = getattr(opts, "seed", 1)
        self.rng = random.Random(f"{seed}/{self.scenario}/{os.getpid()}/{next(_games)}")
        self.game = self.scenario.partition(".")[0]
        self.channel = type(self).channel_of(self.environment)

    def new_table(self) -> Table:
        return TABLES[self.game](random.Random(self.rng.getrandbits(64)))

    def fire(self, kind: str, ms: float, length: int, exc: Optional[Exception]) -> None:
        self.environment.events.request.fire(
            request_type=kind, name=self.label, response_time=ms, response_length=length, exception=exc, context={}
        )


def _next_step(table: Table, step: Step, answer) -> Optional[Step]:
    if step.kind == "settle":
        return None
    if table.steps >= MAX_STEPS:
        raise Unplayable("TOO_MANY_STEPS", f"{table.game}: {table.steps} steps")
    return table.blind() if answer is None else table.next(answer)


class RecordUser(PlayedUser):
    abstract = True

    def on_start(self):
        super().on_start()
        self.stubs = {rpc: self.channel.unary_unary(scenarios.method_path(rpc)) for rpc in ("Evaluate", "Settle")}

    @task
    def play_game(self):
        import grpc

        table = self.new_table()
        wire = RecordWire(table)
        step: Optional[Step] = table.start()
        sent = 0
        while step is not None:
            rpc, payload = wire.encode(step)
            sent += 1
            raw, exc = b"", None
            t0 = time.perf_counter()
            try:
                raw = self.stubs[rpc](payload, timeout=self.timeout)
                ms = (time.perf_counter() - t0) * 1000.0
                step = _next_step(table, step, wire.decode(rpc, raw))
            except grpc.RpcError as e:
                ms, exc = (time.perf_counter() - t0) * 1000.0, Failed(e.code().name, e.details() or "")
            except Unplayable as e:
                exc = Failed(e.code, e.details)
            self.fire(rpc, ms, len(raw), exc)
            if exc is not None:
                return
        _count_game(self.scenario, sent)


class StreamUser(PlayedUser):
    abstract = True

    def on_start(self):
        super().on_start()
        self.wire = StreamWire()
        self.stream: Optional[TablesStream] = None
        self.tables: List[Optional[Table]] = [None] * self.batch
        self.steps: List[Optional[Step]] = [None] * self.batch
        self.turn = 0

    def on_stop(self):
        if self.stream is not None:
            self.stream.close()
            self.stream = None

    @task
    def table_step(self):
        i = self.turn % self.batch
        self.turn += 1
        if self.stream is None:
            self.stream = TablesStream(self.channel)
        table, step = self.tables[i], self.steps[i]
        if table is None or step is None:
            table = self.tables[i] = self.new_table()
            step = table.start()
        name = f"t{i}"
        payload = self.wire.encode(name, table, step)
        raw, exc, nxt = b"", None, None
        t0 = time.perf_counter()
        try:
            raw = self.stream.send(payload)
            ms = (time.perf_counter() - t0) * 1000.0
            nxt = _next_step(table, step, self.wire.decode(name, table, raw, payload))
        except StreamEnded as e:
            ms, exc = (time.perf_counter() - t0) * 1000.0, Failed(e.code, e.details)
            self._resume()
        except Unplayable as e:
            exc = Failed(e.code, e.details)
            self.tables[i] = None  # this game is dropped; the next start replaces it
        self.fire("TableSettle" if step.kind == "settle" else "Tables", ms, len(raw), exc)
        table.sent += 1
        if exc is None:
            self.steps[i] = nxt
            if nxt is None:
                _count_game(self.scenario, table.sent)
                self.tables[i] = None

    def _resume(self) -> None:
        """After the stream ended: a new stream, each table started again from its record
        (which holds every action sent; the one in flight included)."""
        if self.stream is not None:
            self.stream.close()
        self.stream = None
        for j, t in enumerate(self.tables):
            if t is not None:
                self.steps[j] = Step("start", t.viewer)


def user_classes(channel_of, module: str) -> dict:
    """One Locust user class per played scenario, named like the locustfile's
    (``TienlenRecordUser``, ``DachuStreamUser``), getting their channels from
    ``channel_of(environment)``; ``module``: the locustfile's name."""
    out = {}
    for s in scenarios.PLAYED.values():
        name = "".join(p.capitalize() for p in s.name.split(".")) + "User"
        base = StreamUser if s.name.endswith(".stream") else RecordUser
        out[name] = type(
            name,
            (base,),
            {
                "scenario": s.name,
                "weight": s.weight,
                "__doc__": s.about,
                "channel_of": staticmethod(channel_of),
                "__module__": module,
            },
        )
    return out

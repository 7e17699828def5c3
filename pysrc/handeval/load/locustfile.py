"""Locust users of the handeval gRPC service: one user class per load scenario.

Run it with Locust (``pip install '.[load]'`` in a checkout, ``pip install 'handeval[load]'``
beside an installed wheel)::

    locust -f "$(python -m handeval.load locustfile)" -H 127.0.0.1:50051       # web UI on :8089
    handeval bench-load --target 127.0.0.1:50051 --users 16 --run-time 10    # headless

Each user sends the units of its scenario (``handeval.load.scenarios``) back to back:
one call per unit for a batch scenario, a whole game's calls for a game flow. Every call
is one Locust request: type = the gRPC method, name = ``scenario@batch``, the response
time and size, and for a failure the gRPC status code (``RESOURCE_EXHAUSTED``, …) or
``ITEM_ERRORS`` when an OK answer reports items as errors (the scenarios send valid
items only).
The played scenarios' users (whole games played from the answers, as unary records or
on a Tables stream) are ``handeval.load.played_users``'.

Options added to Locust's own (forwarded from the master to its workers):
``--mix name[=weight][@batch],...`` (weights are shares of the users; "default" is the
default mix), ``--channels`` (connections per process), ``--pool`` (pre-built units per
scenario), ``--seed``, ``--call-timeout``, ``--rate-per-user`` (units per second per
user, 0 = back to back), ``--allow-remote`` (without it the host must be a loopback
address), ``--no-decode`` (skip the item-error check).

gRPC's blocking client and gevent: Locust runs every user as a greenlet in one thread;
a plain blocking gRPC call would stop that thread, so one call at a time per process.
``grpc.experimental.gevent.init_gevent()`` (called here, in every Locust process, before
any channel exists) makes gRPC wait for completions in gevent's thread pool, so the
users' calls overlap; the pool may grow to 1,024 threads so no user waits for one.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import grpc
from locust import User, events, task
from locust.runners import WorkerRunner
from locust.user.wait_time import constant_pacing

from handeval.load import played_users, scenarios
from handeval.load.target import RemoteTargetRefused, Unreachable, checked_target, probe, tree_cpu_seconds

CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", 64 << 20),
    ("grpc.max_send_message_length", 64 << 20),
    ("grpc.use_local_subchannel_pool", 1),  # one TCP connection per channel
    ("grpc.lb_policy_name", "round_robin"),
]  # dns:/// of a headless Service: every pod


class GrpcStatus(Exception):
    """A failed call, reported to Locust by its status code alone (so the failures table
    counts by status code; the details vary per call)."""

    def __init__(self, code: str, details: str = ""):
        super().__init__(code)
        self.code, self.details = code, details

    def __repr__(self) -> str:
        return self.code

    __str__ = __repr__


@events.init_command_line_parser.add_listener
def _options(parser):
    g = parser.add_argument_group("handeval")
    g.add_argument(
        "--mix",
        default=scenarios.DEFAULT_MIX,
        help=f"scenarios name[=weight][@batch],... (default: {scenarios.DEFAULT_MIX!r}, every scenario)",
    )
    g.add_argument("--channels", type=int, default=4, help="gRPC connections per Locust process (default 4)")
    g.add_argument("--pool", type=int, default=8, help="pre-built units per scenario (default 8)")
    g.add_argument("--seed", type=int, default=1, help="random seed of the requests (default 1)")
    g.add_argument("--call-timeout", type=float, default=10.0, help="deadline of each call in seconds (default 10)")
    g.add_argument(
        "--rate-per-user",
        type=float,
        default=0.0,
        help="units per second per user (open loop); default 0: back to back",
    )
    g.add_argument(
        "--allow-remote", action="store_true", default=False, help="allow a host that is not a loopback address"
    )
    g.add_argument(
        "--no-decode",
        dest="decode",
        action="store_false",
        default=True,
        help="do not parse responses (by default each is parsed and item errors fail the call)",
    )


#: Seconds the master (or the single process) waits for a TCP connection to the target
#: before the run starts.
PROBE_TIMEOUT = 1.0

_state: Dict[str, object] = {"target": None, "channels": [], "next": 0}
_units: Dict[tuple, List[List[scenarios.Call]]] = {}


@events.init.add_listener
def _init(environment, **_kw):
    # gevent-friendly gRPC, in this process (after Locust's --processes fork), before any channel.
    import gevent
    from grpc.experimental import gevent as grpc_gevent

    if os.environ.get("HANDEVAL_LOAD_PLAIN_GRPC") != "1":  # =1: without it, to measure what it changes
        grpc_gevent.init_gevent()
    # One pool thread per call in flight (threads start on demand; a worker does not
    # know its share of the users before the run).
    hub = gevent.get_hub()
    hub.threadpool.maxsize = max(hub.threadpool.maxsize, 1024)
    # The event loop's clock is cached since Locust started, before the imports of this
    # file; --run-time's timer, armed next, would fire that much early.
    hub.loop.update_now()
    if isinstance(environment.runner, WorkerRunner) or environment.parsed_options is None:
        return
    opts = environment.parsed_options
    try:
        mix = scenarios.parse_mix(opts.mix)
    except ValueError as e:
        raise SystemExit(f"locust: {e}") from None
    if environment.host:
        try:
            target = checked_target(environment.host, opts.allow_remote)
            # An unreachable server fails here, in about a second, not after the whole
            # run of UNAVAILABLE calls.
            probe(target, min(PROBE_TIMEOUT, opts.call_timeout))
        except (RemoteTargetRefused, Unreachable) as e:
            raise SystemExit(f"locust: {e}") from None
    # The mix picks the user classes and their weights (the master dispatches the users).
    by_scenario = {cls.scenario: cls for cls in environment.user_classes}
    chosen = []
    for name, weight, _batch in mix:
        cls = by_scenario[name]
        cls.weight = weight
        chosen.append(cls)
    environment.user_classes = chosen


def _channel(environment):
    opts = environment.parsed_options
    host = environment.host or "127.0.0.1:50051"
    if _state["target"] != host:
        for ch in _state["channels"]:
            ch.close()
        target = checked_target(host, getattr(opts, "allow_remote", False))
        _state["channels"] = [
            grpc.insecure_channel(target, options=CHANNEL_OPTIONS) for _ in range(max(1, getattr(opts, "channels", 4)))
        ]
        _state["target"] = host
    _state["next"] += 1
    channels = _state["channels"]
    return channels[_state["next"] % len(channels)]


@events.quitting.add_listener
def _close(**_kw):
    for ch in _state["channels"]:
        ch.close()
    _state["channels"], _state["target"] = [], None


@events.spawning_complete.add_listener
def _users_per_scenario(**_kw):
    """Say which scenarios of the mix got no user (Locust shares the users by weight; with
    fewer users than scenarios, or a small weight, some get none)."""
    environment = _env.get("environment")
    runner = getattr(environment, "runner", None)
    if runner is None or isinstance(runner, WorkerRunner):
        return
    counts = getattr(runner, "target_user_classes_count", None) or {}
    idle = [cls.scenario for cls in environment.user_classes if counts.get(cls.__name__, 0) == 0]
    if idle:
        message = unused_message(idle, sum(counts.values()), len(environment.user_classes))
        logging.getLogger("handeval.load").warning(message)
        where = os.environ.get("HANDEVAL_LOAD_CPU_DIR")
        if where:
            Path(where, "unused.txt").write_text("\n".join(idle) + "\n", encoding="utf-8")


def unused_message(idle: List[str], users: int, scenarios_in_mix: int) -> str:
    return (
        f"no user for {len(idle)} of the mix's {scenarios_in_mix} scenarios ({', '.join(idle)}): {users} users "
        f"shared by weight; give at least {scenarios_in_mix} users (-u), or raise their weights"
    )


@events.quit.add_listener
def _final_stats(**_kw):
    """Locust rewrites PREFIX_stats.csv and PREFIX_failures.csv once a second while it
    runs, so its last rewrite can miss the calls that ended after it; its printed summary
    counts them. Write PREFIX_final_stats.csv and PREFIX_final_failures.csv from the same
    final statistics Locust prints (handeval's report reads them when present: one
    total), and PREFIX_per_second.csv."""
    env = _env.get("environment")
    if env is None or isinstance(env.runner, WorkerRunner):
        return
    prefix = getattr(env.parsed_options, "csv_prefix", None)
    if not prefix:
        return
    from locust.stats import PERCENTILES_TO_REPORT, StatsCSV

    writer = StatsCSV(env, PERCENTILES_TO_REPORT)
    with open(f"{prefix}_final_stats.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(writer.requests_csv_columns)
        writer._requests_data_rows(w)
    with open(f"{prefix}_final_failures.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(writer.failures_columns)
        writer._failures_data_rows(w)
    # Locust's own count of the requests of each second (by the second each call ended in,
    # on the clock of the process that made it; a master holds its workers' counts): the
    # exact rate per second, which PREFIX_stats_history.csv holds only as a ten-second
    # average (Locust's current_rps, zero for the first seconds).
    with open(f"{prefix}_per_second.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Timestamp", "Type", "Name", "Requests", "Failures"])
        stats = env.stats
        for entry in [*stats.entries.values(), stats.total]:
            for t in sorted(entry.num_reqs_per_sec):
                w.writerow(
                    [t, entry.method or "", entry.name, entry.num_reqs_per_sec[t], entry.num_fail_per_sec.get(t, 0)]
                )


_env: Dict[str, Any] = {}


@events.init.add_listener
def _keep_environment(environment, **_kw):
    _env["environment"] = environment


_cpu: Dict[str, float] = {}


@events.test_start.add_listener
def _cpu_start(environment=None, **_kw):
    _cpu["t0"] = time.process_time()
    _cpu["wall0"] = time.monotonic()
    pid = os.environ.get("HANDEVAL_LOAD_SERVER_PID")
    if pid and not isinstance(getattr(environment, "runner", None), WorkerRunner):
        _cpu["server0"] = tree_cpu_seconds(int(pid)) or 0.0


@events.test_stop.add_listener
def _cpu_stop(**_kw):
    # The generator's own cost: each Locust process (master and workers) writes the CPU
    # seconds it used during the run when handeval bench-load asks for them; the master
    # (or the single process) also the seconds of load and, given the server's process
    # id, the server's CPU seconds over exactly those.
    where = os.environ.get("HANDEVAL_LOAD_CPU_DIR")
    if where and "t0" in _cpu:
        Path(where, f"cpu-{os.getpid()}.txt").write_text(f"{time.process_time() - _cpu.pop('t0')}\n")
        wall = time.monotonic() - _cpu.pop("wall0")
        if "server0" in _cpu:
            server = (tree_cpu_seconds(int(os.environ["HANDEVAL_LOAD_SERVER_PID"])) or 0.0) - _cpu.pop("server0")
            Path(where, "server.json").write_text(json.dumps({"load_s": wall, "server_cpu_s": server}))


class HandevalUser(User):
    """A user of one scenario; the concrete classes below set ``scenario``."""

    abstract = True
    scenario = ""
    _next = 0

    def wait_time(self):
        rate = getattr(self.environment.parsed_options, "rate_per_user", 0.0)
        return constant_pacing(1.0 / rate)(self) if rate else 0.0

    def on_start(self):
        opts = self.environment.parsed_options
        batch = {n: b for n, _, b in scenarios.parse_mix(getattr(opts, "mix", scenarios.DEFAULT_MIX))}.get(
            self.scenario, scenarios.SCENARIOS[self.scenario].batch
        )
        key = (self.scenario, batch, getattr(opts, "pool", 8), getattr(opts, "seed", 1))
        if key not in _units:  # shared by the users of this process
            _units[key] = scenarios.units(self.scenario, batch, key[2], key[3])
        self.units = _units[key]
        self.label = f"{self.scenario}@{batch}"
        self.timeout = getattr(opts, "call_timeout", 10.0)
        self.decode = getattr(opts, "decode", True)
        ch = _channel(self.environment)
        self.stubs = {rpc: ch.unary_unary(scenarios.method_path(rpc)) for rpc in scenarios.RPCS}
        self._next = hash((self.scenario, id(self))) % len(self.units)

    @task
    def unit(self):
        calls = self.units[self._next % len(self.units)]
        self._next += 1
        for c in calls:
            self.send(c)

    def send(self, c: scenarios.Call) -> None:
        exc: Optional[Exception] = None
        raw = b""
        t0 = time.perf_counter()
        try:
            raw = self.stubs[c.rpc](c.payload, timeout=self.timeout)
            if self.decode:
                n = scenarios.item_errors(c.rpc, raw)
                if n:
                    exc = GrpcStatus("ITEM_ERRORS", f"{n} of {c.items} items")
        except grpc.RpcError as e:
            exc = GrpcStatus(e.code().name, e.details() or "")
        self.environment.events.request.fire(
            request_type=c.rpc,
            name=self.label,
            response_time=(time.perf_counter() - t0) * 1000.0,
            response_length=len(raw),
            exception=exc,
            context={"items": c.items},
        )


def _class_name(scenario: str) -> str:
    return "".join(part.capitalize() for part in scenario.replace(".", "_").split("_")) + "User"


# One Locust user class per scenario (SswPackedUser, TienlenFlowUser, …), weights and
# batches from the default mix unless --mix says otherwise.
for _s in scenarios.SCENARIOS.values():
    globals()[_class_name(_s.name)] = type(
        _class_name(_s.name),
        (HandevalUser,),
        {"scenario": _s.name, "weight": _s.weight, "__doc__": _s.about, "__module__": __name__},
    )
del _s
# The played scenarios' users (TienlenRecordUser, DachuStreamUser, …): handeval.load.played_users.
globals().update(played_users.user_classes(_channel, __name__))

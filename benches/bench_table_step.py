"""Server CPU per game step (越式13张 and 打儲): a step on a Tables stream against the same
step as a unary Evaluate record call, and against a bare grpc.aio unary call and a bare
stream message of the same request and answer sizes. docs/benchmarks.md ("Table steps")
quotes it.

A step is what a game server sends for each action: one action appended, and the state
as the next seat with a decision sees it (``viewer``) with a default suggestion
(``suggest {}``: the fast heuristic) answered. The games are played first, as the load
scenarios play them (``handeval.load.play``, unary, not measured), so every step of every
case is a real step of a distinct game; then each case sends them:

* ``stream``: the steps on Tables streams (CALLERS streams, DEPTH tables stepping at once
  on each, their steps multiplexed as a game server carries its tables: each written when
  its table's last answer came, the answers in order; the tables started from their
  empty records before the window);
* ``record``: the same steps as unary Evaluate calls (the record so far, ``viewer``,
  ``suggest``);
* ``bare unary`` and ``bare stream``: the floor (``handeval.load.floor --sized``), called
  unary and on streams with requests of each stream step's length that ask for an answer
  of its answer's length: the cost of the Python gRPC stack alone for the same bytes.

The cases run in interleaved windows (RUNS rounds of every case, each window new games
of its own), CALLERS * DEPTH steps in flight in every case (the unary ones from as many
callers over CALLERS connections), back to back; the CPU is the server process's
(every thread's, ``on_cpu_ns`` of benches/bench_wire.py) over the window, divided by the
steps answered. Prints the medians and the ratios: stream / bare unary (the issue's
target: <= 0.35), record / bare unary, stream / record.

Run: ``nice -n 10 python benches/bench_table_step.py`` (about two minutes on two cores;
``--games N`` per window, ``--runs N``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import statistics
import sys
from pathlib import Path
from typing import Dict, List

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_wire import OPTIONS, on_cpu_ns  # noqa: E402  (the server CPU, as the wire bench reads it)

from handeval.load import scenarios, target  # noqa: E402
from handeval.load.play import TABLES  # noqa: E402
from handeval.load.table_wire import RecordWire  # noqa: E402
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, tables_pb2 as tb, tienlen_pb2 as tl  # noqa: E402

RUNS = 3
GAMES = 32  # per window: one a lane
CALLERS = 8  # streams (the stream cases)
DEPTH = 4  # tables stepping at once on each stream; the unary cases call from CALLERS * DEPTH lanes
TABLES_METHOD = "/handeval.v2.Handeval/Tables"


def play_games(stub_of, game: str, n: int, seed: int) -> List[tuple]:
    """``n`` whole games played as the load scenarios play them (unary, not measured):
    each game's empty record and its steps ``(field, action, seat)``: the action appended
    and the seat whose view the step asks, the seat that decided the next action (for
    the last action, its own)."""
    rng = random.Random(f"bench-table-step/{game}/{seed}")
    out = []
    while len(out) < n:
        table = TABLES[game](random.Random(rng.getrandbits(64)))
        wire = RecordWire(table)
        empty = type(table.record)()
        empty.CopyFrom(table.record)
        step, acts = table.start(), []
        while step.kind != "settle":
            rpc, payload = wire.encode(step)
            answer = wire.decode(rpc, stub_of(rpc)(payload, timeout=30))
            decider = table.viewer  # the seat whose view this answer is
            step = table.next(answer)
            if step.kind == "action":
                acts.append((step.field, step.action, decider))
        if acts:  # (an instant win has no step)
            deciders = [d for _, _, d in acts]
            out.append((empty, [(f, a, deciders[min(k + 1, len(acts) - 1)]) for k, (f, a, _) in enumerate(acts)]))
    return out


def requests(game: str, games: List[tuple], stub_of) -> Dict[str, list]:
    """Per game: its TableStart; its steps on a stream, as unary record calls, and as the
    floor's sized requests (a stream step's length, asking for its answer's length, read
    from handeval's answer to the same step as a record call: the contract makes them
    the same state)."""
    out: Dict[str, list] = {"start": [], "stream": [], "record": [], "sized": []}
    suggest = common_pb2.SuggestQuery()  # the default: the fast heuristic
    item = {
        "tienlen": (tl.TienlenEvaluateRequest, tl.TienlenEvaluateItem),
        "dachu": (dc.DachuEvaluateRequest, dc.DachuEvaluateItem),
    }
    for g, (empty, steps) in enumerate(games):
        name = f"g{g}"
        start = tb.TablesRequest(table=name)
        getattr(start.start, game).record.CopyFrom(empty)
        request_of, item_of = item[game]
        ev = pb.EvaluateRequest(**{game: request_of(items=[item_of(game=empty)])})
        rec = getattr(ev, game).items[0].game
        rec.suggest.CopyFrom(suggest)
        stream, record, sized = [], [], []
        for at, (field, action, seat) in enumerate(steps):
            req = tb.TablesRequest(table=name, viewer=seat, suggest=suggest)
            req.action.at = at
            getattr(req.action, field).CopyFrom(action)
            if game == "tienlen":
                rec.actions.append(action)
            else:
                {"deal": rec.deal_actions, "call": rec.calls, "play": rec.plays}[field].append(action)
            rec.viewer = seat
            body, call = req.SerializeToString(), ev.SerializeToString()
            result = getattr(pb.EvaluateResponse.FromString(stub_of("Evaluate")(call, timeout=30)), game).results[0]
            assert result.WhichOneof("result") == "game", result
            answer = tb.TablesResponse(table=name, actions=at + 1, **{game: result.game}).ByteSize()
            stream.append(body)
            record.append(call)
            sized.append(answer.to_bytes(4, "big") + body[4:])
        out["start"].append(start.SerializeToString())
        out["stream"].append(stream)
        out["record"].append(record)
        out["sized"].append(sized)
    return out


class Mux:
    """One stream shared by several tables, as a game server carries them: each table's
    step is written when it is ready (up to DEPTH steps in flight), and the answers, which
    come in the order of the requests, are handed back in that order."""

    def __init__(self, ch):
        self.call = ch.stream_stream(TABLES_METHOD)()
        self.pending: collections.deque = collections.deque()
        self.lock = asyncio.Lock()
        self.reader = asyncio.ensure_future(self._read())

    async def send(self, body: bytes) -> bytes:
        answer = asyncio.get_running_loop().create_future()
        async with self.lock:  # the write order is the answers' order
            self.pending.append(answer)
            await self.call.write(body)
        return await answer

    async def _read(self) -> None:
        while (msg := await self.call.read()) is not grpc.aio.EOF:
            self.pending.popleft().set_result(msg)

    async def close(self) -> None:
        await self.call.done_writing()
        await self.reader


async def _window(target_: str, case: str, reqs: Dict[str, list], pid: int) -> float:
    """One window: CALLERS * DEPTH lanes, each playing its share of the games one after
    another, step by step (a step waits for the answer before); the stream cases carry
    DEPTH lanes on each of CALLERS streams, the unary ones call on their own. The server's
    CPU seconds per step."""
    games = list(range(len(reqs["stream"])))
    lanes = CALLERS * DEPTH
    shares = [games[k::lanes] for k in range(lanes)]
    key = "record" if case == "record" else "stream" if case == "stream" else "sized"
    # One connection per stream (and per DEPTH unary lanes): as many connections both ways.
    chans = [grpc.aio.insecure_channel(target_, options=OPTIONS) for _ in range(CALLERS)]
    unary = [ch.unary_unary(scenarios.method_path("Evaluate")) for ch in chans]
    muxes = [Mux(ch) for ch in chans] if case in ("stream", "bare stream") else []
    if case == "stream":  # the tables, opened before the window
        for k, share in enumerate(shares):
            for g in share:
                await muxes[k % CALLERS].send(reqs["start"][g])
    elif not muxes:
        await asyncio.gather(*(unary[c](reqs[key][g][0], timeout=30) for c, g in enumerate(games[:CALLERS])))

    async def lane(k: int) -> int:
        n = 0
        for g in shares[k]:
            for body in reqs[key][g]:
                if muxes:
                    await muxes[k % CALLERS].send(body)
                else:
                    await unary[k % CALLERS](body, timeout=30)
                n += 1
        return n

    cpu0 = on_cpu_ns(pid)
    done = sum(await asyncio.gather(*(lane(k) for k in range(lanes))))
    cpu1 = on_cpu_ns(pid)
    for mux in muxes:
        await mux.close()
    await asyncio.gather(*(ch.close() for ch in chans))
    return (cpu1 - cpu0) / 1e9 / done


CASES = ("stream", "record", "bare unary", "bare stream")


def measure(games: int = GAMES, runs: int = RUNS, print_=print, cases=CASES) -> dict:
    handeval = target.SpawnedServer(1).wait_serving()
    floor = target.SpawnedServer(kind="floor", extra=("--sized",)).wait_serving()
    try:
        load_before = target.machine_info()["loadavg_1_5_15"]
        with grpc.insecure_channel(handeval.target, options=OPTIONS) as ch:
            stubs = {rpc: ch.unary_unary(scenarios.method_path(rpc)) for rpc in ("Evaluate", "Settle")}
            windows = {
                game: [requests(game, play_games(stubs.get, game, games, r), stubs.get) for r in range(runs)]
                for game in TABLES
            }
        cpu: Dict[tuple, list] = {}
        for r in range(runs):
            for game in TABLES:
                for case in cases:
                    server = handeval if case in ("stream", "record") else floor
                    got = asyncio.run(_window(server.target, case, windows[game][r], server.proc.pid))
                    cpu.setdefault((game, case), []).append(got)
        load_after = target.machine_info()["loadavg_1_5_15"]
    finally:
        handeval.stop()
        floor.stop()
    table = {}
    print_(
        f"server CPU per game step, {runs} interleaved windows per case, {games} games each, {CALLERS} streams x "
        f"{DEPTH} tables stepping at once (unary: {CALLERS * DEPTH} callers); "
        f"load average {load_before} -> {load_after}"
    )
    for game in TABLES:
        steps = sum(len(s) for w in windows[game] for s in w["stream"])
        size = statistics.mean(len(b) for w in windows[game] for s in w["stream"] for b in s)
        rec = statistics.mean(len(b) for w in windows[game] for s in w["record"] for b in s)
        print_(f"{game}: {steps} distinct steps; a stream step {size:.0f} B, a record call {rec:.0f} B on average")
        med = {case: statistics.median(cpu[(game, case)]) if (game, case) in cpu else float("nan") for case in CASES}
        for case in cases:
            runs_us = ", ".join(f"{x * 1e6:.0f}" for x in cpu[(game, case)])
            print_(f"  {case:<12} {med[case] * 1e6:>8.1f} µs per step (windows: {runs_us})")
        ratios = {
            "stream / bare unary": med["stream"] / med["bare unary"],
            "record / bare unary": med["record"] / med["bare unary"],
            "stream / record": med["stream"] / med["record"],
            "bare stream / bare unary": med["bare stream"] / med["bare unary"],
        }
        for k, v in ratios.items():
            print_(f"  {k:<26} x{v:.2f}" + ("   (target <= 0.35)" if k == "stream / bare unary" else ""))
        table[game] = {"us_per_step": {c: med[c] * 1e6 for c in CASES}, "ratios": ratios}
    return table


def test_table_step(capsys):
    """The table above, printed (no timing threshold: it asserts only that the figures
    are real)."""
    with capsys.disabled():
        print()
        table = measure(games=8, runs=1)
    assert all(v > 0 for g in table.values() for v in g["us_per_step"].values())


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=GAMES, help=f"games per window (default {GAMES})")
    ap.add_argument("--runs", type=int, default=RUNS, help=f"windows per case (default {RUNS})")
    ap.add_argument("--cases", default=",".join(CASES), help="the cases measured, comma-separated (default: all)")
    a = ap.parse_args()
    measure(a.games, a.runs, cases=[c.strip() for c in a.cases.split(",")])

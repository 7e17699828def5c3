"""Server CPU of `handeval serve` against the floor of a Python gRPC server: a bare
grpc.aio server built from the same protos (benches/floor_server.py) that answers each
call with fixed, pre-serialized bytes the size of handeval's answer to the same request.
Both servers run in one run and are called at once in every measuring window (open
loop: the same schedule of calls to each), so load from other jobs hits them alike; the
CPU is the server process's own (every thread, /proc/<pid>/task/*/schedstat). Each case
is measured in RUNS windows, interleaved with the other cases; the table gives the
medians and the per-window ratios. docs/benchmarks.md ("gRPC wire") quotes it.

Cases (十三水, the game answered in Rust over the wire): a 1,000-row card-string
Evaluate (per row), unary Evaluate and Compare, a 4-seat Settle (per call), 100,000
packed rows (per row) — each case sends distinct requests in turn (256 rows, pairs or
deals for a per-call case, 8 batches for a batch case), never one repeated — and the delay a
worst-shape request (a Compare `order` item of
300,000 rows, on a server whose --max-batch lets it in) causes to a one-row call sent while it runs.

Run: ``python benches/bench_wire.py`` (or ``python -m pytest benches/bench_wire.py -s``).
``python benches/bench_wire.py --in-process`` times ``_core.wire_answer`` alone on the same
request bytes (thread CPU, best of five), and whether the servicer answers each case on
its event loop or in the thread pool. ``--baseline-python PATH`` adds a second
``handeval serve`` run by another interpreter (an older build's install) to the same
windows: how this build's server CPU compares with that build's, case by case.
"""

from __future__ import annotations

import asyncio
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load import scenarios, target as load
from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.deck import DECK

HERE = Path(__file__).resolve().parent
OPTIONS = [
    ("grpc.max_receive_message_length", 64 << 20),
    ("grpc.max_send_message_length", 64 << 20),
    ("grpc.use_local_subchannel_pool", 1),
]
#: Measuring windows per case (the runs), seconds per window.
RUNS = 3
SECONDS = 2.0


def C(cards) -> common_pb2.Cards:
    return common_pb2.Cards(cards=list(cards))


#: Distinct requests per case, sent in turn: per-call cases see a different row, pair or
#: deal on each call (one request repeated would keep its cards in the caches and its
#: branches predicted, flattering the figure); batch cases rotate a few distinct batches.
DISTINCT_CALLS = 256
DISTINCT_BATCHES = 8


def cases():
    """name -> (rpc, distinct request bytes (sent in turn), rows per call, calls/s to each
    server). Every request of a case has the same length (the floor tells requests apart by
    RPC and length)."""
    rng = random.Random(7)

    def ev(**kw):
        return pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(**kw)).SerializeToString()

    def row_item(cards):
        return ssw.ShisanshuiEvaluateItem(row=C(cards))

    def compare(pair):
        item = ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C(pair[:5]), b=C(pair[5:])))
        return pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(items=[item])).SerializeToString()

    def settle(deck):
        deal = [scenarios._arrangement(deck[13 * s : 13 * s + 13]) for s in range(4)]
        players = [
            ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(front=C(f), middle=C(m), back=C(b)))
            for f, m, b in deal
        ]
        return pb.SettleRequest(
            shisanshui=ssw.ShisanshuiSettleRequest(deals=[ssw.ShisanshuiDeal(base=10, players=players)])
        ).SerializeToString()

    def packed():
        return b"".join(bytes(rng.sample(range(52), 5)) for _ in range(100_000))

    return {
        "Evaluate, 1,000 card-string rows": (
            "Evaluate",
            [ev(items=[row_item(rng.sample(DECK, 5)) for _ in range(1000)]) for _ in range(DISTINCT_BATCHES)],
            1000,
            100,
        ),
        "Evaluate, one row": (
            "Evaluate",
            [ev(items=[row_item(rng.sample(DECK, 5))]) for _ in range(DISTINCT_CALLS)],
            1,
            500,
        ),
        "Compare, one pair": ("Compare", [compare(rng.sample(DECK, 10)) for _ in range(DISTINCT_CALLS)], 1, 500),
        "Settle, one 4-seat deal": ("Settle", [settle(rng.sample(DECK, 52)) for _ in range(DISTINCT_CALLS)], 1, 500),
        "Evaluate, 100,000 packed rows": (
            "Evaluate",
            [ev(packed_rows=packed()) for _ in range(DISTINCT_BATCHES)],
            100_000,
            40,
        ),
    }


#: Targets: the most server CPU handeval may spend per case, as a multiple of the floor's.
TARGETS = {
    "Evaluate, 1,000 card-string rows": 2.0,
    "Evaluate, one row": 1.15,
    "Compare, one pair": 1.15,
    "Settle, one 4-seat deal": 1.25,
    "Evaluate, 100,000 packed rows": 1.3,
}


#: Rows of the worst-shape request (the bench's server takes batches this large).
WORST_ROWS = 300_000


def worst_request() -> bytes:
    """A Compare `order` item of WORST_ROWS rows: one item, long work (decoding, keys,
    one sort)."""
    rng = random.Random(3)
    rows = [C(rng.sample(DECK, 5)) for _ in range(WORST_ROWS)]
    return pb.CompareRequest(
        shisanshui=ssw.ShisanshuiCompareRequest(
            items=[ssw.ShisanshuiCompareItem(order=ssw.ShisanshuiRowList(rows=rows))]
        )
    ).SerializeToString()


def on_cpu_ns(pid: int) -> int:
    """Nanoseconds every thread of ``pid`` has run (schedstat: finer than clock ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that just ended
    return total


class Floor:
    """benches/floor_server.py on a free port, answering with ``answers``."""

    def __init__(self, answers: dict):
        self._file = tempfile.NamedTemporaryFile(suffix=".pickle")
        pickle.dump(answers, self._file)
        self._file.flush()
        self.port = load.free_port()
        self.target = f"127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([sys.executable, str(HERE / "floor_server.py"), str(self.port), self._file.name])

    def wait_serving(self, timeout: float = 60.0) -> Floor:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"floor server exited with {self.proc.returncode}")
            try:
                with grpc.insecure_channel(self.target) as ch:
                    if health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1).status == 1:
                        return self
            except grpc.RpcError:
                time.sleep(0.1)
        raise RuntimeError("floor server not serving")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)
        self._file.close()


def window(servers, rpc: str, payloads: list, rate: float, seconds: float) -> list:
    """Server CPU seconds per call of each server over one window of ``seconds`` in which
    all get the same open-loop stream of ``rate`` calls/s, the requests ``payloads`` in
    turn."""

    async def run():
        chans = [[grpc.aio.insecure_channel(s.target, options=OPTIONS) for _ in range(4)] for s in servers]
        stubs = [[c.unary_unary(scenarios.method_path(rpc)) for c in cs] for cs in chans]
        await asyncio.gather(*(stub(p, timeout=60) for row in stubs for stub in row for p in payloads[:3]))  # warm-up
        loop = asyncio.get_running_loop()
        done, tasks = [0] * len(servers), set()

        async def call(k, stub, payload):
            await stub(payload, timeout=60)
            done[k] += 1

        cpu0 = [on_cpu_ns(s.proc.pid) for s in servers]
        t0, sent = loop.time(), 0
        while loop.time() < t0 + seconds:
            while sent < (loop.time() - t0) * rate:
                for k, row in enumerate(stubs):
                    t = asyncio.ensure_future(call(k, row[sent % len(row)], payloads[sent % len(payloads)]))
                    tasks.add(t)
                    t.add_done_callback(tasks.discard)
                sent += 1
            await asyncio.sleep(0.001)
        await asyncio.gather(*list(tasks))
        cpu1 = [on_cpu_ns(s.proc.pid) for s in servers]
        await asyncio.gather(*(c.close() for cs in chans for c in cs))
        return [(b - a) / 1e9 / n for a, b, n in zip(cpu0, cpu1, done)]

    return asyncio.run(run())


def small_call_delay(server, big, small: list, probes: int = 20) -> list:
    """Wall seconds a one-row Evaluate takes, per probe (the requests ``small`` in turn):
    alone (``big`` None) or while the worst-shape request ``big`` runs (sent again and
    again, so every probe meets it in flight)."""

    async def run():
        async with (
            grpc.aio.insecure_channel(server.target, options=OPTIONS) as a,
            grpc.aio.insecure_channel(server.target, options=OPTIONS) as b,
        ):
            big_call, small_call = (
                a.unary_unary(scenarios.method_path("Compare")),
                b.unary_unary(scenarios.method_path("Evaluate")),
            )
            running = big is not None

            async def keep_busy():
                while running:
                    await big_call(big, timeout=120)

            busy = asyncio.ensure_future(keep_busy())
            if big is not None:
                await asyncio.sleep(0.5)  # the first big call has arrived
            out = []
            for i in range(probes):
                t = time.perf_counter()
                await small_call(small[i % len(small)], timeout=60)
                out.append(time.perf_counter() - t)
                await asyncio.sleep(0.05)
            running = False
            await busy
            return out

    return asyncio.run(run())


def measure(print_=print, baseline_python=None) -> dict:
    """Runs every case RUNS times against both servers; prints and returns the table.
    ``baseline_python``: also a second ``handeval serve`` run by that interpreter (another
    build's install), called in the same windows: its CPU per call and ours over it."""
    all_cases = cases()
    extra = ("--max-message-bytes", str(64 << 20), "--max-batch", str(WORST_ROWS + 1))
    handeval = load.SpawnedServer(1, extra=extra).wait_serving()
    baseline = floor = None
    try:
        if baseline_python:
            baseline = load.SpawnedServer(1, extra=extra, python=baseline_python).wait_serving()
        answers: dict = {}
        with grpc.insecure_channel(handeval.target, options=OPTIONS) as ch:
            for name, (rpc, reqs, _, _) in all_cases.items():
                lengths = {len(r) for r in reqs}
                assert len(lengths) == 1, f"{name}: one request length per case (the floor's key)"
                assert not lengths & answers.setdefault(rpc, {}).keys(), "the floor tells cases apart by length"
                for req in reqs:
                    out = ch.unary_unary(scenarios.method_path(rpc))(req, timeout=60)
                    resp = getattr(pb, f"{rpc}Response").FromString(out).shisanshui
                    assert not any(r.WhichOneof("result") == "error" for r in resp.results), name  # real answers
                # The floor answers each of the case's requests with one answer of the size of
                # handeval's (answers of one case differ in size by a few varint bytes at most).
                answers[rpc][len(reqs[0])] = out
        floor = Floor(answers).wait_serving()
        servers = [floor, handeval] + ([baseline] if baseline else [])
        load_before = load.machine_info()["loadavg_1_5_15"]
        per = {name: [[] for _ in servers] for name in all_cases}
        for _ in range(RUNS):
            for name, (rpc, reqs, _, rate) in all_cases.items():
                for got, cpu in zip(per[name], window(servers, rpc, reqs, rate, SECONDS)):
                    got.append(cpu)
        small = all_cases["Evaluate, one row"][1]
        alone = small_call_delay(handeval, None, small)
        busy = small_call_delay(handeval, worst_request(), small)
        load_after = load.machine_info()["loadavg_1_5_15"]
    finally:
        for server in (handeval, baseline, floor):
            if server is not None:
                server.stop()
    table = {}
    print_(
        f"server CPU, handeval serve (1 worker) vs the bare grpc.aio floor, {RUNS} windows of {SECONDS:g} s "
        f"per case, all called at once (load before {load_before}, after {load_after}):"
    )
    head = f"  {'case':<34} {'unit':<5} {'floor':>10} {'handeval':>10} {'ratio':>6} {'target':>7}   per window"
    print_(head + (f"   {'baseline':>10} {'ratio':>6}  handeval/baseline per window" if baseline else ""))
    for name, cpu in per.items():
        f, h = cpu[0], cpu[1]
        rows = all_cases[name][2]
        ratios = [b / a for a, b in zip(f, h)]
        unit = "row" if rows > 1 else "call"
        fm, hm, rm = statistics.median(f) / rows, statistics.median(h) / rows, statistics.median(ratios)
        table[name] = (fm, hm, rm)
        line = (
            f"  {name:<34} {unit:<5} {_time(fm):>10} {_time(hm):>10} {rm:>5.2f}x {TARGETS[name]:>6.2f}x"
            f"   {' '.join(f'{x:.2f}' for x in ratios)}"
        )
        if baseline:
            b = cpu[2]
            over = [x / y for x, y in zip(h, b)]
            bm = statistics.median(b) / rows
            table[name] += (bm, statistics.median(over))
            line += (
                f"   {_time(bm):>10} {statistics.median([y / x for x, y in zip(f, b)]):>5.2f}x"
                f"  {statistics.median(over):.3f} ({' '.join(f'{x:.2f}' for x in over)})"
            )
        print_(line)
    table["small call delay"] = (statistics.median(alone), statistics.median(busy), max(busy))
    print_(
        f"  a one-row Evaluate: {statistics.median(alone) * 1e3:.2f} ms alone; while a {WORST_ROWS:,}-row Compare order "
        f"runs: median {statistics.median(busy) * 1e3:.2f} ms, worst {max(busy) * 1e3:.2f} ms "
        f"(added delay target ≤ 50 ms)"
    )
    return table


def test_wire_vs_floor(capsys):
    """The table above, printed (no timing threshold: it asserts only that the figures
    are real)."""
    with capsys.disabled():
        print()
        table = measure()
    assert all(v[0] > 0 and v[1] > 0 for v in table.values())


def _time(seconds: float) -> str:
    """``12.34 µs``, or ``21.5 ns`` below a tenth of a µs (packed rows)."""
    return f"{seconds * 1e9:.1f} ns" if seconds < 1e-7 else f"{seconds * 1e6:.2f} µs"


def _load_core(path: str):
    """Another build's extension module (its ``_core.abi3.so``), loaded under its own
    name in this process."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_core", path)
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    return core


def _answer_cpu(core, rpc: str, reqs: list, calls: int) -> float:
    """Thread CPU seconds per ``core.wire_answer`` of one round of ``calls`` calls, the
    requests in turn."""
    answer, make_call = core.wire_answer, core.WireCall
    t = time.thread_time()
    for i in range(calls):
        answer(rpc, reqs[i % len(reqs)], make_call(None), 10**6, 1000, False)
    return (time.thread_time() - t) / calls


def _pricing_cpu(core, rpc: str, reqs: list, calls: int, budget: float) -> float:
    """The same for ``core.wire_inline`` (the servicer's pricing of a request)."""
    inline = core.wire_inline
    t = time.thread_time()
    for i in range(calls):
        inline(rpc, reqs[i % len(reqs)], budget)
    return (time.thread_time() - t) / calls


def in_process(print_=print, baseline_core=None) -> dict:
    """Thread CPU of ``_core.wire_answer`` alone per case (best of five rounds, the case's
    requests in turn), of ``_core.wire_inline`` pricing it, and where the servicer runs
    the case (inline on the event loop, or the thread pool). ``baseline_core``: another
    build's ``_core.abi3.so``, timed in the same process, its rounds interleaved with
    this build's."""
    from handeval import _core
    from handeval.server import service

    cores = {"this build": _core}
    if baseline_core:
        cores["baseline"] = _load_core(baseline_core)
    out = {}
    print_("in process: _core.wire_answer alone and _core.wire_inline's pricing, thread CPU, best of five rounds:")
    for name, (rpc, reqs, rows, _) in cases().items():
        calls = max(20, 200_000 // rows) if rows < 1000 else (200 if rows == 1000 else 20)
        best = dict.fromkeys(cores, float("inf"))
        for _ in range(5):
            for who, core in cores.items():
                best[who] = min(best[who], _answer_cpu(core, rpc, reqs, calls))
        priced = min(_pricing_cpu(_core, rpc, reqs, calls, service.INLINE_SECONDS) for _ in range(5))
        inline = all(_core.wire_inline(rpc, r, service.INLINE_SECONDS) for r in reqs)
        answer = best["this build"]
        out[name] = answer
        per_row = f", {answer / rows * 1e9:,.1f} ns a row" if rows > 1 else ""
        line = f"  {name:<34} {answer * 1e6:>9.2f} µs a call{per_row}; priced in {priced * 1e6:.2f} µs"
        line += f" ({'inline' if inline else 'thread pool'})"
        if baseline_core:
            base = best["baseline"]
            line += f"; baseline {base * 1e6:.2f} µs, this / baseline {answer / base:.3f}"
        print_(line)
    return out


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--in-process", action="store_true", help="time _core.wire_answer alone, no servers")
    ap.add_argument(
        "--baseline-core",
        metavar="PATH",
        help="with --in-process: also time another build's _core.abi3.so, rounds interleaved",
    )
    ap.add_argument(
        "--baseline-python",
        metavar="PATH",
        help="also measure `handeval serve` run by this interpreter (another build's install) in the same windows",
    )
    args = ap.parse_args()
    if args.in_process:
        in_process(baseline_core=args.baseline_core)
    else:
        measure(baseline_python=args.baseline_python)

"""The gRPC path against the in-process Python API, in the same run: each group's
baseline is the in-process call doing the same work (so the ratio is the cost of going
through gRPC), or, for the concurrency groups, the one-worker server.

Starts its own servers (`handeval serve`, 1 and 2 workers) on free loopback ports.
Games or functions not in this build (越式13张, 打儲, shisanshui.arrange) are skipped:
missing in Python, or answered UNIMPLEMENTED by the server.

Run: ``python -m pytest benches/bench_grpc.py -q`` (or ``bash scripts/bench_all.sh``).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import random
import sys
from pathlib import Path

import grpc
import pytest

from handeval import shisanshui as ssw_api
from handeval.load import scenarios, target as load
from handeval.v2 import (
    common_pb2,
    dachu_pb2 as dc,
    handeval_pb2 as pb,
    handeval_pb2_grpc,
    shisanshui_pb2 as ssw,
    tienlen_pb2 as tl,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.deck import DECK


def C(text: str) -> common_pb2.Cards:
    return common_pb2.Cards(cards=text.split())


def arrangement(p) -> ssw.ShisanshuiArrangement:
    return ssw.ShisanshuiArrangement(**{k: C(v) for k, v in p.items()})


rng = random.Random(7)
ROWS = [rng.sample(DECK, 5) for _ in range(10_000)]
ROW_STRINGS = [" ".join(r) for r in ROWS]
IDS_10K = bytes(DECK.index(c) for r in ROWS for c in r)
IDS_1M = b"".join(bytes(rng.sample(range(52), 5)) for _ in range(200_000)) * 5  # 1,000,000 rows
PAIRS = [(" ".join(t[:5]), " ".join(t[5:])) for t in (rng.sample(DECK, 10) for _ in range(1000))]  # one deck per pair
DEALS = []
for _ in range(200):
    deck = rng.sample(DECK, 52)
    DEALS.append(
        [
            dict(
                zip(
                    ("front", "middle", "back"),
                    (" ".join(x) for x in scenarios._arrangement(deck[13 * s : 13 * s + 13])),
                )
            )
            for s in range(4)
        ]
    )
OPTIONS = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20)]


def _server(workers):
    s = load.SpawnedServer(workers, extra=("--max-message-bytes", str(64 << 20))).wait_serving()
    return s


@pytest.fixture(scope="module")
def server1():
    s = _server(1)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def server2():
    s = _server(2)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def stub(server1):
    with grpc.insecure_channel(server1.target, options=OPTIONS) as ch:
        yield handeval_pb2_grpc.HandevalStub(ch)


def call_or_skip(fn, req, timeout=60):
    try:
        return fn(req, timeout=timeout)
    except grpc.RpcError as e:
        if e.code() == grpc.StatusCode.UNIMPLEMENTED:
            pytest.skip(f"server: UNIMPLEMENTED ({e.details()})")
        raise


def api_or_skip(module, name):
    try:
        fn = getattr(importlib.import_module(f"handeval.{module}"), name)
    except (ImportError, AttributeError):
        pytest.skip(f"handeval.{module}.{name} not in this build")
    return fn


def evaluate_req(**kw):
    return pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(**kw))


# ---- one 十三水 row per call ----

G_UNARY = "grpc: 十三水 classify, one row per call"


def test_unary_baseline_inprocess_classify(benchmark):
    benchmark.group = G_UNARY
    benchmark.extra_info["items"] = 1
    benchmark(ssw_api.classify, ROW_STRINGS[0])


def test_unary_grpc_evaluate(benchmark, stub):
    benchmark.group = G_UNARY
    benchmark.extra_info["items"] = 1
    req = evaluate_req(items=[ssw.ShisanshuiEvaluateItem(row=C(ROW_STRINGS[0]))])
    r = benchmark(stub.Evaluate, req, timeout=10)
    assert r.shisanshui.results[0].row.cards.cards == ssw_api.classify(ROW_STRINGS[0]).cards


def test_unary_grpc_packed(benchmark, stub):
    benchmark.group = G_UNARY
    benchmark.extra_info["items"] = 1
    benchmark(stub.Evaluate, evaluate_req(packed_rows=IDS_10K[:5]), timeout=10)


# ---- 10,000 十三水 rows per call ----

G_10K = "grpc: 十三水 classify, 10,000 rows per call"


def test_10k_baseline_inprocess_classify_loop(benchmark):
    """The work the server does for 10,000 string items: classify each (full Row)."""
    benchmark.group = G_10K
    benchmark.extra_info["items"] = len(ROWS)
    benchmark(lambda: [ssw_api.classify(r) for r in ROW_STRINGS])


def test_10k_inprocess_classify_many(benchmark):
    benchmark.group = G_10K
    benchmark.extra_info["items"] = len(ROWS)
    benchmark(ssw_api.classify_many, ROW_STRINGS)


def test_10k_inprocess_categories_from_ids(benchmark):
    benchmark.group = G_10K
    benchmark.extra_info["items"] = len(ROWS)
    benchmark(ssw_api.categories_from_ids, IDS_10K)


def test_10k_grpc_evaluate_strings(benchmark, stub):
    benchmark.group = G_10K
    benchmark.extra_info["items"] = len(ROWS)
    req = evaluate_req(items=[ssw.ShisanshuiEvaluateItem(row=C(r)) for r in ROW_STRINGS])
    r = benchmark(stub.Evaluate, req, timeout=60)
    assert len(r.shisanshui.results) == len(ROWS)


def test_10k_grpc_evaluate_packed(benchmark, stub):
    benchmark.group = G_10K
    benchmark.extra_info["items"] = len(ROWS)
    r = benchmark(stub.Evaluate, evaluate_req(packed_rows=IDS_10K), timeout=60)
    assert r.shisanshui.packed_categories == ssw_api.categories_from_ids(IDS_10K)


# ---- 1,000,000 packed rows per call ----

G_1M = "grpc: 十三水 packed rows, 1,000,000 per call"


def test_1m_baseline_inprocess_categories_from_ids(benchmark):
    benchmark.group = G_1M
    benchmark.extra_info["items"] = len(IDS_1M) // 5
    benchmark(ssw_api.categories_from_ids, IDS_1M)


def test_1m_grpc_evaluate_packed(benchmark, stub):
    benchmark.group = G_1M
    benchmark.extra_info["items"] = len(IDS_1M) // 5
    r = benchmark(stub.Evaluate, evaluate_req(packed_rows=IDS_1M), timeout=60)
    assert len(r.shisanshui.packed_categories) == len(IDS_1M) // 5


# ---- Compare and Settle, batched ----

G_CMP = "grpc: 十三水 compare, 1,000 pairs per call"


def test_compare_baseline_inprocess_loop(benchmark):
    benchmark.group = G_CMP
    benchmark.extra_info["items"] = len(PAIRS)
    benchmark(lambda: [ssw_api.compare(a, b) for a, b in PAIRS])


def test_compare_grpc(benchmark, stub):
    benchmark.group = G_CMP
    benchmark.extra_info["items"] = len(PAIRS)
    req = pb.CompareRequest(
        shisanshui=ssw.ShisanshuiCompareRequest(
            items=[ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C(a), b=C(b))) for a, b in PAIRS]
        )
    )
    r = benchmark(stub.Compare, req, timeout=60)
    assert [x.comparison for x in r.shisanshui.results[:50]] == [ssw_api.compare(a, b) for a, b in PAIRS[:50]]


G_SETTLE = "grpc: 十三水 settle, 200 four-seat deals per call"


def test_settle_baseline_inprocess_loop(benchmark):
    benchmark.group = G_SETTLE
    benchmark.extra_info["items"] = len(DEALS)
    benchmark(lambda: [ssw_api.settle(d, base=10) for d in DEALS])


def test_settle_grpc(benchmark, stub):
    benchmark.group = G_SETTLE
    benchmark.extra_info["items"] = len(DEALS)
    deals = [
        ssw.ShisanshuiDeal(base=10, players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in d])
        for d in DEALS
    ]
    r = benchmark(stub.Settle, pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=deals)), timeout=60)
    assert list(r.shisanshui.results[0].settlement.deltas) == ssw_api.settle(DEALS[0], base=10).deltas


# ---- games merged later: 越式13张, 打儲, 十三水 arrange ----

PLAYS = []
for _ in range(1000):
    r = rng.choice(scenarios.RANKS)
    PLAYS.append(" ".join(rng.sample([r + s for s in "shdc"], rng.choice((1, 2, 3)))))
G_TL = "grpc: 越式13张 classify, 1,000 plays per call"
G_DC = "grpc: 打儲 classify, 1,000 plays per call"


def test_tienlen_baseline_inprocess_loop(benchmark):
    classify = api_or_skip("tienlen", "classify")
    benchmark.group = G_TL
    benchmark.extra_info["items"] = len(PLAYS)
    benchmark(lambda: [classify(p) for p in PLAYS])


def test_tienlen_grpc(benchmark, stub):
    benchmark.group = G_TL
    benchmark.extra_info["items"] = len(PLAYS)
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(items=[tl.TienlenEvaluateItem(play=C(p)) for p in PLAYS])
    )
    first = call_or_skip(stub.Evaluate, req).tienlen.results
    assert [r.play.cards.cards for r in first[:50]] == [api_or_skip("tienlen", "classify")(p).cards for p in PLAYS[:50]]
    benchmark(stub.Evaluate, req, timeout=60)


def test_dachu_baseline_inprocess_loop(benchmark):
    classify = api_or_skip("dachu", "classify")
    benchmark.group = G_DC
    benchmark.extra_info["items"] = len(PLAYS)
    benchmark(lambda: [classify(p, "red") for p in PLAYS])


def test_dachu_grpc(benchmark, stub):
    benchmark.group = G_DC
    benchmark.extra_info["items"] = len(PLAYS)
    req = pb.EvaluateRequest(
        dachu=dc.DachuEvaluateRequest(
            items=[dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=C(p), chu=dc.DACHU_COLOUR_RED)) for p in PLAYS]
        )
    )
    first = call_or_skip(stub.Evaluate, req).dachu.results
    assert [r.play.cards.cards for r in first[:50]] == [
        api_or_skip("dachu", "classify")(p, "red").cards for p in PLAYS[:50]
    ]
    benchmark(stub.Evaluate, req, timeout=60)


HANDS = [" ".join(rng.sample(DECK, 13)) for _ in range(4)]
G_ARR = "grpc: 十三水 arrange, 4 hands per call"


def test_arrange_baseline_inprocess_arrange_many(benchmark):
    arrange_many = api_or_skip("shisanshui", "arrange_many")
    benchmark.group = G_ARR
    benchmark.extra_info["items"] = len(HANDS)
    benchmark.pedantic(arrange_many, args=(HANDS,), rounds=3, iterations=1)


def test_arrange_grpc(benchmark, stub):
    benchmark.group = G_ARR
    benchmark.extra_info["items"] = len(HANDS)
    req = pb.ArrangeRequest(
        shisanshui=ssw.ShisanshuiArrangeRequest(items=[ssw.ShisanshuiArrangeItem(hand=C(h)) for h in HANDS])
    )
    call_or_skip(stub.Arrange, req, timeout=300)
    benchmark.pedantic(stub.Arrange, args=(req,), kwargs={"timeout": 300}, rounds=3, iterations=1)


# ---- concurrency: one server worker vs two ----


def _concurrent(target, payload: bytes, n: int, channels: int = 8):
    """``n`` concurrent Evaluate calls (pre-serialised ``payload``) over ``channels``
    connections (separate connections so SO_REUSEPORT can spread them over workers)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # grpc.aio binds its calls to the current loop
    opts = OPTIONS + [("grpc.use_local_subchannel_pool", 1)]

    async def setup():
        chans = [grpc.aio.insecure_channel(target, options=opts) for _ in range(channels)]
        return chans, [c.unary_unary(scenarios.method_path("Evaluate")) for c in chans]

    chans, calls = loop.run_until_complete(setup())

    async def burst():
        await asyncio.gather(*(calls[i % channels](payload, timeout=60) for i in range(n)))

    def run():
        loop.run_until_complete(burst())

    def close():
        loop.run_until_complete(asyncio.gather(*(c.close() for c in chans)))
        loop.close()
        asyncio.set_event_loop(None)

    return run, close


UNARY_PAYLOAD = evaluate_req(items=[ssw.ShisanshuiEvaluateItem(row=C(ROW_STRINGS[1]))]).SerializeToString()
PACKED_PAYLOAD = evaluate_req(packed_rows=IDS_1M[:500_000]).SerializeToString()  # 100,000 rows
G_W_UNARY = "grpc workers: 256 concurrent one-row calls"
G_W_PACKED = "grpc workers: 8 concurrent 100,000-row packed calls"


@pytest.mark.parametrize("workers", [1, 2], ids=["baseline_1_worker", "2_workers"])
def test_workers_unary(benchmark, request, workers):
    srv = request.getfixturevalue(f"server{workers}")
    benchmark.group = G_W_UNARY
    benchmark.extra_info["items"] = 256
    run, close = _concurrent(srv.target, UNARY_PAYLOAD, 256)
    try:
        benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=1)
    finally:
        close()


@pytest.mark.parametrize("workers", [1, 2], ids=["baseline_1_worker", "2_workers"])
def test_workers_packed(benchmark, request, workers):
    srv = request.getfixturevalue(f"server{workers}")
    benchmark.group = G_W_PACKED
    benchmark.extra_info["items"] = 8 * 100_000
    run, close = _concurrent(srv.target, PACKED_PAYLOAD, 8)
    try:
        benchmark.pedantic(run, rounds=8, iterations=1, warmup_rounds=1)
    finally:
        close()


# ---- server CPU per unary call: handeval vs a bare grpc.aio server, same run ----


def _overhead_payloads():
    deal = DEALS[0]
    return {
        "Evaluate (one row)": ("Evaluate", evaluate_req(items=[ssw.ShisanshuiEvaluateItem(row=C(ROW_STRINGS[1]))])),
        "Compare (one pair)": (
            "Compare",
            pb.CompareRequest(
                shisanshui=ssw.ShisanshuiCompareRequest(
                    items=[ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C(PAIRS[0][0]), b=C(PAIRS[0][1])))]
                )
            ),
        ),
        "Settle (one 4-seat deal)": (
            "Settle",
            pb.SettleRequest(
                shisanshui=ssw.ShisanshuiSettleRequest(
                    deals=[
                        ssw.ShisanshuiDeal(
                            base=10, players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in deal]
                        )
                    ]
                )
            ),
        ),
    }


# ---- the servicer's own cost per call, in process (no gRPC stack): what handeval adds
# per call beside the grpc.aio machinery (benches/bench_wire.py compares whole servers
# with the bare grpc.aio floor) ----


class _Context:
    """The two methods of a grpc.aio context that a successful call uses."""

    def time_remaining(self):
        return 60.0

    def peer(self):
        return "ipv4:127.0.0.1:1"


def _api_call(name):
    """The Python API call that does the work of one overhead payload."""
    if name.startswith("Evaluate"):
        return lambda: ssw_api.classify(ROW_STRINGS[1])
    if name.startswith("Compare"):
        return lambda: ssw_api.compare(PAIRS[0][0], PAIRS[0][1])
    players = [dict(p) for p in DEALS[0]]
    return lambda: ssw_api.settle(players, base=10)


@pytest.mark.parametrize("name", list(_overhead_payloads()))
@pytest.mark.parametrize("path", ["baseline_python_api", "servicer"])
def test_servicer_in_process(benchmark, name, path):
    """One call of the HandevalService coroutine (request bytes in: decoding, limits and
    the work in Rust, metrics; answer bytes out) vs the Python API call alone, in one
    group per payload."""
    from concurrent.futures import ThreadPoolExecutor

    from handeval.server import service
    from handeval.server.config import ServerConfig

    benchmark.group = f"servicer in process: {name}"
    benchmark.extra_info["items"] = 1
    if path.startswith("baseline"):
        benchmark(_api_call(name))
        return
    rpc, req = _overhead_payloads()[name]
    svc, ctx = service.HandevalService(ServerConfig(), ThreadPoolExecutor(1)), _Context()
    method, data = getattr(svc, rpc), req.SerializeToString()  # the servicer takes the request's bytes
    loop = asyncio.new_event_loop()

    async def hundred():
        for _ in range(100):
            await method(data, ctx)

    try:
        benchmark.extra_info["items"] = 100
        benchmark(lambda: loop.run_until_complete(hundred()))
    finally:
        loop.close()

"""Long and worst-shape 十三水 requests (answered in Rust over the wire) do not hold the
server's event loop: the work runs in the thread pool with the GIL released, so a small
call from another client is answered while a long one is in flight; and a huge field
fails at its bound before anything in it is read."""

from __future__ import annotations

import random

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.deck import DECK

from grpc_fixtures import C, ServerProcess, metric_value, wait_for


@pytest.fixture(scope="module")
def long_server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("ssw-long"), "--threads", "1", "--max-samples", "20000")
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


def inflight(server) -> float:
    return metric_value(server.metrics(), "handeval_inflight_requests")


def test_small_call_is_answered_while_a_long_arrange_runs(long_server):
    """64 hands of Monte-Carlo arrangement at 20,000 samples (seconds per hand) are in
    flight (the in-flight gauge says so); a one-row Evaluate from another client is
    answered, and the long call is still running when it is (event order, no clock)."""
    server = long_server
    rng = random.Random(5)
    hands = [ssw.ShisanshuiArrangeItem(hand=C(rng.sample(DECK, 13))) for _ in range(64)]
    long_req = pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=hands, samples=20_000))
    small_req = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=C("As Ks Qs Js Ts".split()))])
    )
    with server.channel() as long_ch, server.channel() as small_ch:
        fut = handeval_pb2_grpc.HandevalStub(long_ch).Arrange.future(long_req, timeout=600)
        wait_for(lambda: inflight(server) >= 1 or fut.done(), timeout=60, what="the long call to be in flight")
        assert not fut.done(), "the long call ended before the small one was sent; make it longer"
        r = handeval_pb2_grpc.HandevalStub(small_ch).Evaluate(small_req, timeout=60)
        assert r.shisanshui.results[0].row.category == ssw.SHISANSHUI_CATEGORY_STRAIGHT_FLUSH
        assert not fut.done()  # answered while the long call runs
        fut.cancel()
    wait_for(lambda: inflight(server) == 0, timeout=120, what="the cancelled call to stop")


def test_a_call_cancelled_while_queued_logs_its_stop(long_server):
    """--threads 1: a second long Arrange is in flight beside the first (the in-flight
    gauge reaches 2), waiting for its turn or in its first turn (turns pass between sample
    blocks, see scheduler.py); cancelled there, the server logs the stop of that call while
    the first still runs (the operator sees every stopped call)."""
    server = long_server
    rng = random.Random(11)

    def long_req():
        hands = [ssw.ShisanshuiArrangeItem(hand=C(rng.sample(DECK, 13))) for _ in range(64)]
        return pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=hands, samples=20_000))

    marker = '"event": "stopped"'
    before = server.log().count(marker)
    with server.channel() as ch_a, server.channel() as ch_b:
        first = handeval_pb2_grpc.HandevalStub(ch_a).Arrange.future(long_req(), timeout=600)
        wait_for(lambda: inflight(server) >= 1 or first.done(), timeout=60, what="the first call to be in flight")
        queued = handeval_pb2_grpc.HandevalStub(ch_b).Arrange.future(long_req(), timeout=600)
        wait_for(lambda: inflight(server) >= 2 or first.done(), timeout=60, what="the second call to be queued")
        assert not first.done(), "the first call ended before the second was queued; make it longer"
        assert queued.cancel()
        wait_for(
            lambda: server.log().count(marker) > before,
            timeout=60,
            what="the server to log the queued call's stop",
            server=server,
        )
        assert not first.done()  # the queued call's stop was logged while the first still ran
        first.cancel()
    wait_for(lambda: inflight(server) == 0, timeout=120, what="the cancelled calls to stop")


def test_settle_with_a_huge_carried_list_fails_at_its_bound(long_server):
    """500,000 `carried` entries for 4 players: the deal's error names `carried` and its
    length, found before the players are read."""
    rng = random.Random(9)
    deck = rng.sample(DECK, 52)
    players = [
        ssw.ShisanshuiPlayer(
            arrangement=ssw.ShisanshuiArrangement(
                front=C(deck[13 * s : 13 * s + 3]),
                middle=C(deck[13 * s + 3 : 13 * s + 8]),
                back=C(deck[13 * s + 8 : 13 * s + 13]),
            )
        )
        for s in range(4)
    ]
    deal = ssw.ShisanshuiDeal(players=players, carried=[common_pb2.Carried(amount=5)] * 500_000)
    with long_server.channel() as ch:
        res = (
            handeval_pb2_grpc.HandevalStub(ch)
            .Settle(pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=[deal])), timeout=60)
            .shisanshui.results
        )
    assert res[0].error.field == "deals[0].carried"
    assert res[0].error.message == "has 500000 entries for 4 players"


def test_a_huge_order_item_counts_its_rows_against_the_batch_limit(long_server):
    """An `order` item's rows count as items: 10,001 rows on a server of --max-batch
    10,000 (the default) fail the request as TOO_LARGE naming `shisanshui.items`."""
    rows = [C(random.Random(i).sample(DECK, 5)) for i in range(10_001)]
    req = pb.CompareRequest(
        shisanshui=ssw.ShisanshuiCompareRequest(
            items=[ssw.ShisanshuiCompareItem(order=ssw.ShisanshuiRowList(rows=rows))]
        )
    )
    with long_server.channel() as ch, pytest.raises(grpc.RpcError) as e:
        handeval_pb2_grpc.HandevalStub(ch).Compare(req, timeout=60)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert e.value.details().startswith("shisanshui.items: 10002 items (counting the rows of order items)")

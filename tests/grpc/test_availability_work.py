"""Availability against work attacks: no request runs on the event loop unless it is small
in bytes and in work; pooled calls compute in fair turns (a small call is answered while
huge ones run); a request over the work budget is refused with TOO_LARGE naming the budget
and the field. Events and hang guards, no clocks: each test waits for a state (an attack
in flight) and checks what is answered while it lasts."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from handeval import _core
from handeval.server import service
from handeval.server.config import ServerConfig
from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw
from harness import work_attacks as attacks_work

from grpc_fixtures import FakeContext, ServerProcess, metric_value, settle_request, wait_for

#: Longest any wait of these tests may take before it counts as a hang.
HANG_GUARD = 60.0

EVENT_LOOP_ATTACKS = [
    "huge_row",
    "many_long_rows",
    "huge_suit_order",
    "repeated_rules",
    "repeated_row_size",
    "hand_after_empty_row",
    "small_suggest",
]


@pytest.mark.parametrize("name", EVENT_LOOP_ATTACKS)
def test_event_loop_attacks_run_off_the_loop_and_a_tiny_call_is_answered_meanwhile(name, monkeypatch):
    """Each request of the event-loop stall attacks (16 MiB of card tokens in rows, a
    16 MiB suit_order, 8 M repeated singular fields, hands behind empty rows) is held at
    the start of its work until a new client's tiny call has been answered: the tiny call
    is answered while the attack's work is in progress, which it cannot be when the attack
    runs on the event loop (the loop would wait in the held work)."""
    rpc = attacks_work.REQUESTS[name][0]
    attack = attacks_work.request(name)
    release, entered = threading.Event(), threading.Event()
    real = _core.wire_answer

    def held(rpc_, data, *args):
        if data is attack:
            entered.set()
            release.wait(HANG_GUARD)  # the hang guard: the attack goes on after it anyway
        return real(rpc_, data, *args)

    monkeypatch.setattr(service._core, "wire_answer", held)

    async def scenario():
        with ThreadPoolExecutor(8) as ex:
            svc = service.HandevalService(ServerConfig(), ex)
            attacking = asyncio.ensure_future(svc._call(rpc, attack, FakeContext()))
            # The attack's work has begun (inline, the loop is held in it until the guard).
            await asyncio.get_running_loop().run_in_executor(None, entered.wait, HANG_GUARD)
            try:
                tiny = await asyncio.wait_for(svc._call("Evaluate", attacks_work.TINY, FakeContext()), HANG_GUARD)
                answered_during = not attacking.done()
            finally:
                release.set()
            try:
                await asyncio.wait_for(attacking, HANG_GUARD)
            except RuntimeError:  # refused: INVALID_ARGUMENT (see the next test)
                pass
            return tiny, answered_during

    tiny, answered_during = asyncio.run(scenario())
    assert answered_during, "the tiny call was answered only after the attack's work"
    row = pb.EvaluateResponse.FromString(tiny).shisanshui.results[0].row
    assert row.category == ssw.SHISANSHUI_CATEGORY_HIGH_CARD and list(row.cards.cards) == ["As", "Ks", "Qs"]


@pytest.mark.parametrize("name", EVENT_LOOP_ATTACKS)
def test_event_loop_attacks_are_not_priced_for_the_loop(name):
    rpc = attacks_work.REQUESTS[name][0]
    assert not _core.wire_inline(rpc, attacks_work.request(name), service.INLINE_SECONDS)


@pytest.mark.parametrize(
    "name, field",
    [
        ("huge_row", "shisanshui.items[0].row"),
        ("many_long_rows", "shisanshui.items[0].row"),
        ("hand_after_empty_row", "shisanshui.items[0].hand"),
        ("huge_suit_order", "shisanshui.rules.suit_order"),
    ],
)
def test_shapes_no_answer_can_come_of_fail_at_their_field(name, field):
    """More card entries in a row or hand than a deck holds, or a suit order longer than
    4 letters: INVALID_ARGUMENT naming the field, found before the rest is read."""
    with pytest.raises(_core.WireError) as ei:
        _core.wire_answer("Evaluate", attacks_work.request(name), _core.WireCall(None), 10_000, 10_000, True)
    assert ei.value.code == "INVALID_ARGUMENT"
    assert ei.value.field == field


def test_small_requests_still_run_inline():
    """The fast shapes stay on the loop: rows of up to 5 short tokens, packed rows,
    small rules, each singular field once."""
    rows = attacks_work._evaluate(attacks_work._item("row", attacks_work._cards(["As", "Ks", "Qs", "Js", "Ts"])) * 500)
    assert _core.wire_inline("Evaluate", rows, service.INLINE_SECONDS)
    packed = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            packed_rows=bytes(range(5)) * 10_000, row_size=5, rules=ssw.ShisanshuiRules(suit_order="shdc")
        )
    ).SerializeToString()
    assert _core.wire_inline("Evaluate", packed, service.INLINE_SECONDS)
    # Past the small size, the shape decides: rows of 6 tokens are no row of the fast path.
    six = attacks_work._evaluate(
        attacks_work._item("row", attacks_work._cards(["As", "Ks", "Qs", "Js", "Ts", "9s"])) * 100
    )
    assert len(six) > service.INLINE_BYTES
    assert not _core.wire_inline("Evaluate", six, service.INLINE_SECONDS)
    # Any request of at most INLINE_BYTES that asks no suggestion: inline.
    assert _core.wire_inline("Settle", settle_request(1).SerializeToString(), service.INLINE_SECONDS)


# ---- the request work budget ----


def _error(e: grpc.RpcError):
    """(field, description, ErrorInfo.reason) of an INVALID_ARGUMENT's details."""
    raw = dict(e.trailing_metadata() or ()).get("grpc-status-details-bin")
    status = status_pb2.Status.FromString(raw)
    bad, info = error_details_pb2.BadRequest(), error_details_pb2.ErrorInfo()
    for d in status.details:
        if d.Is(bad.DESCRIPTOR):
            d.Unpack(bad)
        elif d.Is(info.DESCRIPTOR):
            d.Unpack(info)
    v = bad.field_violations[0]
    return v.field, v.description, info.reason


@pytest.fixture(scope="module")
def budget_server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("grpc-budget"), "--max-request-work", "1000")
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


def _arrange(hands, samples):
    return pb.ArrangeRequest(
        shisanshui=ssw.ShisanshuiArrangeRequest(
            items=[
                ssw.ShisanshuiArrangeItem(
                    hand=common_pb2.Cards(cards=attacks_work.DECK[13 * (i % 4) : 13 * (i % 4) + 13])
                )
                for i in range(hands)
            ],
            samples=samples,
        )
    )


def test_requests_over_the_work_budget_are_too_large(budget_server):
    from handeval.v2 import handeval_pb2_grpc

    with budget_server.channel() as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        cases = [
            (stub.Arrange, _arrange(10, 100), "shisanshui.items", "10 items × (100 samples + 1) = 1010"),
            (
                stub.Evaluate,
                pb.EvaluateRequest(
                    shisanshui=ssw.ShisanshuiEvaluateRequest(packed_rows=bytes(range(5)) * 1001, row_size=5)
                ),
                "shisanshui.packed_rows",
                "1001 packed_rows",
            ),
            (stub.Settle, settle_request(1001), "shisanshui.deals", "1001 deals"),
            # a suggestion's search counts 32 units per determinization: 1 + 64 × 32 = 2049
            (
                stub.Evaluate,
                pb.EvaluateRequest.FromString(attacks_work.request("small_suggest")),
                "tienlen.items",
                "1 items + 1 suggestions of 64 determinizations in all × 32 = 2049",
            ),
        ]
        for rpc, req, field, what in cases:
            with pytest.raises(grpc.RpcError) as ei:
                rpc(req, timeout=HANG_GUARD)
            assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            got_field, description, reason = _error(ei.value)
            assert got_field == field
            assert reason == "ERROR_REASON_TOO_LARGE"
            assert what in description and "--max-request-work" in description and "1000" in description
        # Within the budget: answered.
        assert len(stub.Arrange(_arrange(10, 99), timeout=HANG_GUARD).shisanshui.results) == 10
        assert len(stub.Settle(settle_request(1000), timeout=HANG_GUARD).shisanshui.results) == 1000
        within = pb.EvaluateRequest.FromString(attacks_work.request("small_suggest"))
        within.tienlen.items[0].game.suggest.effort = 31  # 1 + 31 × 32 = 993
        assert stub.Evaluate(within, timeout=HANG_GUARD).tienlen.results[0].game.suggestion.action.cards.cards


# ---- fair turns: small calls are answered while huge ones run ----


def _inflight(server) -> float:
    return metric_value(server.metrics(), "handeval_inflight_requests")


def _raw(ch, rpc):
    return ch.unary_unary(f"/handeval.v2.Handeval/{rpc}", request_serializer=None, response_deserializer=None)


@pytest.mark.parametrize(
    "attack, rpc, flags", [("huge_arranges", "Arrange", ("--max-request-work", "0")), ("suggest_batch", "Evaluate", ())]
)
def test_small_calls_are_answered_while_huge_work_takes_every_thread(tmp_path, attack, rpc, flags):
    """Work starvation on a server of 2 compute threads, by two requests of either
    Arranges of 10,000 hands × 10,000 samples (hours of CPU; the budget off) or
    suggestions (托管) for 1,000 越式13张 records at the largest effort (tens of CPU-seconds;
    the searches give up their turns between determinizations). Once both are in flight,
    a one-hand Arrange and a small Settle (both pooled) are answered while the two run on;
    then the two are cancelled and stop."""
    s = ServerProcess(tmp_path, "--threads", "2", *flags).wait_serving()
    try:
        huge = attacks_work.request(attack)
        with s.channel() as ch1, s.channel() as ch2, s.channel() as new:
            bigs = [_raw(c, rpc).future(huge, timeout=3600) for c in (ch1, ch2)]
            wait_for(
                lambda: _inflight(s) >= 2 or any(b.done() for b in bigs),
                timeout=HANG_GUARD,
                what=f"both {attack} requests in flight",
                server=s,
            )
            from handeval.v2 import handeval_pb2_grpc

            stub = handeval_pb2_grpc.HandevalStub(new)
            one = stub.Arrange(_arrange(1, 0), timeout=HANG_GUARD)
            assert one.shisanshui.results[0].answer.best.arrangement.back.cards
            small = settle_request(8)
            assert len(small.SerializeToString()) > service.INLINE_BYTES  # pooled, not inline
            assert len(stub.Settle(small, timeout=HANG_GUARD).shisanshui.results) == 8
            assert not any(b.done() for b in bigs), (
                f"a {attack} request ended: the small calls were not answered during it"
            )
            before = s.log().count("the call was cancelled; stopped")
            for b in bigs:
                b.cancel()
            wait_for(
                lambda: s.log().count("the call was cancelled; stopped") >= before + 2,
                timeout=HANG_GUARD,
                what=f"the cancelled {attack} requests to stop",
                server=s,
            )
    finally:
        s.terminate()


def test_a_small_pooled_call_goes_before_queued_big_ones(tmp_path):
    """Big pooled work: three Settles of 40,000 越式13张 records (seconds each) on a server
    of 2 compute threads, all in flight (one more than there are threads), then a small
    Settle: it is answered before any of the three ends (first come first served, it would
    wait for the third, which waits for one of the first two)."""
    s = ServerProcess(
        tmp_path,
        "--threads",
        "2",
        "--max-batch",
        "100000",
        "--max-message-bytes",
        str(64 << 20),
        "--max-request-work",
        "0",
    ).wait_serving()
    try:
        settle = attacks_work.request("tienlen_settle_10k")
        big = pb.SettleRequest.FromString(settle)
        body = big.tienlen.SerializeToString() * 4
        big = pb.SettleRequest()
        big.tienlen.MergeFromString(body)
        data = big.SerializeToString()
        opts = [("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)]
        chans = [s.channel(options=opts) for _ in range(3)]
        try:
            bigs = [_raw(c, "Settle").future(data, timeout=600) for c in chans]
            wait_for(
                lambda: _inflight(s) >= 3 or any(b.done() for b in bigs),
                timeout=HANG_GUARD,
                what="three big Settles in flight",
                server=s,
            )
            assert not any(b.done() for b in bigs), "a big Settle ended before the small call was sent"
            with s.channel() as new:
                from handeval.v2 import handeval_pb2_grpc

                small = handeval_pb2_grpc.HandevalStub(new).Settle(settle_request(8), timeout=HANG_GUARD)
            assert len(small.shisanshui.results) == 8
            assert not any(b.done() for b in bigs), "a big Settle ended before the small call was answered"
            for b in bigs:
                assert len(pb.SettleResponse.FromString(b.result(timeout=600)).tienlen.results) == 40_000
        finally:
            for c in chans:
                c.close()
    finally:
        s.terminate()

"""The v2 contract for game servers in any language, end to end against a real
`handeval serve`: reasons (an ErrorReason on every item error, google.rpc.ErrorInfo on
request errors), one field-path style, the inputs that must not be accepted silently,
the bounds that follow from 52 cards, and whole games played from game records (the
state, the legal actions and the settlement all come from the service)."""

from __future__ import annotations

import random

import grpc
import pytest

from handeval import dachu, tienlen
from handeval.server.client import bad_request_fields, error_info
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, tienlen_pb2 as tl
from harness.deck import TL_DECK

from grpc_fixtures import C, N

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS
RED = dc.DACHU_COLOUR_RED
HAS_RECORDS = hasattr(tienlen, "Game") and hasattr(dachu, "Game")
records = pytest.mark.skipif(not HAS_RECORDS, reason="the game records of the Python API (tienlen.Game, dachu.Game)")


def act(seat, cards=None, kind=None):
    if cards is None or cards == "pass":
        return common_pb2.PlayAction(seat=seat, kind=kind or PASS)
    return common_pb2.PlayAction(seat=seat, kind=PLAY, cards=C(cards))


def tl_evaluate(stub, *items, rules=None):
    return stub.Evaluate(
        pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(rules=rules, items=items)), timeout=30
    ).tienlen.results


def dc_evaluate(stub, *items, rules=None):
    return stub.Evaluate(
        pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(rules=rules, items=items)), timeout=30
    ).dachu.results


# ---- reasons and request error details ----


def test_item_errors_carry_a_reason_enum(stub):
    res = tl_evaluate(
        stub,
        tl.TienlenEvaluateItem(play=C("3s Zz")),
        tl.TienlenEvaluateItem(play=C("3s 3s")),
        tl.TienlenEvaluateItem(play=C("3s 9h")),
        tl.TienlenEvaluateItem(play=C(["3s 4s"])),
    )
    assert [r.error.reason for r in res] == [
        common_pb2.ERROR_REASON_BAD_CARD,
        common_pb2.ERROR_REASON_DUPLICATE_CARD,
        common_pb2.ERROR_REASON_NOT_A_PLAY,
        common_pb2.ERROR_REASON_BAD_CARD,
    ]
    assert all(r.error.field.startswith(f"items[{i}]") for i, r in enumerate(res))


def test_request_errors_carry_bad_request_and_error_info(stub):
    req = pb.CompareRequest(
        tienlen=tl.TienlenCompareRequest(
            rules=tl.TienlenRules(rake_percent=101), items=[tl.TienlenCompareItem(play=C("4s"), table=C("3s"))]
        )
    )
    with pytest.raises(grpc.RpcError) as ei:
        stub.Compare(req, timeout=10)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(ei.value)[0][0] == "tienlen.rules.rake_percent"
    reason, metadata = error_info(ei.value)
    assert reason == "ERROR_REASON_BAD_RULE" and metadata == {"field": "tienlen.rules.rake_percent"}
    with pytest.raises(grpc.RpcError) as ei:
        stub.Evaluate(pb.EvaluateRequest(), timeout=10)
    assert error_info(ei.value)[0] == "ERROR_REASON_INVALID"


# ---- inputs refused, not accepted silently ----


def test_silently_accepted_inputs_are_refused(stub):
    hands = [C(TL_DECK[i::4][:13]) for i in range(4)]
    res = tl_evaluate(stub, tl.TienlenEvaluateItem(round_state=tl.TienlenRoundQuery(hands=hands[:3], players=4)))
    assert res[0].error.field == "items[0].round_state.hands"
    assert res[0].error.reason == common_pb2.ERROR_REASON_WRONG_COUNT
    hand = C("3h 5s 5h 5d 9s Ts")
    res = dc_evaluate(
        stub,
        dc.DachuEvaluateItem(timeout_play=dc.DachuTimeoutPlayQuery(chu=RED)),
        dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand=hand, chu=RED, shown_triple=C("7s 7h 7d"))),
        dc.DachuEvaluateItem(timeout_play=dc.DachuTimeoutPlayQuery(hand=hand, chu=RED, shown_triple=C("7s 7h 7d"))),
        dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand=hand)),
        dc.DachuEvaluateItem(
            deal=dc.DachuDealQuery(
                hands=hands, actions=[dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_DEAL, seat=2)]
            )
        ),
    )
    assert (res[0].error.field, res[0].error.reason) == (
        "items[0].timeout_play.hand",
        common_pb2.ERROR_REASON_WRONG_COUNT,
    )
    assert (res[1].error.field, res[1].error.reason) == (
        "items[1].legal_plays.shown_triple",
        common_pb2.ERROR_REASON_CARD_NOT_IN_HAND,
    )
    assert res[2].error.field == "items[2].timeout_play.shown_triple"
    assert res[3].error.field == "items[3].legal_plays.chu"  # no 儲 colour: not a guess
    assert (res[4].error.field, res[4].error.reason) == (
        "items[4].deal.actions[0].seat",
        common_pb2.ERROR_REASON_INCONSISTENT,
    )
    start = dc.DachuCallingStart(chu_side=[0])
    both = dc.DachuDeal(
        outcome=dc.DachuOutcome(
            calling=dc.DachuCallingQuery(start=start, calls=[dc.DachuCall(call=dc.DACHU_CALL_KIND_PING_DA, seat=0)]),
            chu_side=[1],
            places=[0, 1, 2, 3],
        )
    )
    r = stub.Settle(pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[both])), timeout=10).dachu.results[0]
    assert (r.error.field, r.error.reason) == ("deals[0].outcome.chu_side", common_pb2.ERROR_REASON_INCONSISTENT)


def test_a_chop_round_sent_twice_is_refused(stub):
    rnd = tl.TienlenRound(actions=[act(0, "2h"), act(1, "4s 4h 4d 4c"), act(2), act(3), act(0)])
    deal = tl.TienlenDeal(
        outcome=tl.TienlenOutcome(remaining=[C("3s"), C(""), C("3c"), C("3d")], winner=1, chops=[rnd, rnd])
    )
    r = stub.Settle(pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[deal])), timeout=10).tienlen.results[0]
    assert (r.error.field, r.error.reason) == ("deals[0].outcome.chops[1]", common_pb2.ERROR_REASON_INCONSISTENT)
    deal.outcome.chops.pop()
    r = stub.Settle(pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[deal])), timeout=10).tienlen.results[0]
    assert r.WhichOneof("result") == "settlement", r


def test_records_longer_than_52_cards_allow_are_invalid_argument(stub):
    hands = [C(TL_DECK[i::4][:13]) for i in range(4)]
    game = tl.TienlenGameRecord(hands=hands, actions=[act(i % 4) for i in range(52 * 4 + 1)])
    with pytest.raises(grpc.RpcError) as ei:
        tl_evaluate(stub, tl.TienlenEvaluateItem(play=C("3s")), tl.TienlenEvaluateItem(game=game))
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(ei.value)[0][0] == "tienlen.items[1].game.actions"
    assert error_info(ei.value)[0] == "ERROR_REASON_TOO_LARGE"
    calling = dc.DachuCallingQuery(
        start=dc.DachuCallingStart(chu_side=[0]), calls=[dc.DachuCall(call=dc.DACHU_CALL_KIND_PING_DA)] * 17
    )
    with pytest.raises(grpc.RpcError) as ei:
        dc_evaluate(stub, dc.DachuEvaluateItem(calling=calling))
    assert bad_request_fields(ei.value)[0][0] == "dachu.items[0].calling.calls"
    assert error_info(ei.value)[0] == "ERROR_REASON_TOO_LARGE"


# ---- 越式13张 game records ----


def _tl_state_equals(st, g):
    assert st.over == g.over
    assert (st.winner if st.HasField("winner") else None) == g.winner
    assert (st.to_move if st.HasField("to_move") else None) == g.turn
    assert [list(h.cards) for h in st.hands] == g.held
    assert list(st.played_any) == g.played_any and list(st.passed) == g.passed
    assert ([list(p.cards.cards) for p in st.offers[0].plays] if g.turn is not None else []) == (
        [p.cards for p in g.legal_plays] if g.turn is not None else []
    )
    assert [(o.seat, [p.cards.cards[:] for p in o.plays]) for o in st.offers[1 if g.turn is not None else 0 :]] == [
        (seat, [p.cards for p in plays]) for seat, plays in g.chop_offers
    ]
    assert (list(st.table.cards.cards) if st.HasField("table") else None) == (g.table.cards if g.table else None)


@records
@pytest.mark.parametrize("seed", range(3))
def test_tienlen_whole_game_from_the_record(stub, seed):
    """Every decision from the service's state of the record: the offers (the seat to move
    and the passed seats that may chop), until the game is over; then Settle the record.
    Each state equals the Python API's Game."""
    rng = random.Random(seed)
    deck = rng.sample(TL_DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    record = tl.TienlenGameRecord(hands=[C(h) for h in hands])
    actions = []
    for _ in range(52 * 4):
        st = tl_evaluate(stub, tl.TienlenEvaluateItem(game=record))[0]
        assert st.WhichOneof("result") == "game", st
        st = st.game
        _tl_state_equals(st, tienlen.replay(hands, actions))
        if st.over:
            break
        offers = list(st.offers)
        o = rng.choice(offers) if len(offers) > 1 and rng.random() < 0.5 else offers[0]
        if o.plays and (not o.may_pass or rng.random() < 0.7):
            cards = list(rng.choice(o.plays).cards.cards)
            actions.append((o.seat, cards))
            record.actions.append(act(o.seat, cards))
        else:
            actions.append((o.seat, "pass"))
            record.actions.append(act(o.seat))
    assert st.over
    tricks = list(st.tricks)
    assert tricks[0].first_action == 0 and tricks[-1].last_action == len(actions) - 1
    assert all(t.over for t in tricks[:-1])
    r = stub.Settle(
        pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[tl.TienlenDeal(record=record, base=10)])), timeout=10
    ).tienlen.results[0]
    assert r.WhichOneof("result") == "settlement", r
    want = tienlen.replay(hands, actions).settle(10)
    assert list(r.settlement.deltas) == want.deltas and r.settlement.winner == want.winner


@records
def test_tienlen_record_errors_name_the_action_and_its_reason(stub):
    rng = random.Random(5)
    while True:  # a deal without an instant win (one would end the game at once)
        deck = rng.sample(TL_DECK, 52)
        hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
        if tienlen.Game(hands).turn is not None:
            break
    leader = tienlen.Game(hands).turn
    nxt = (leader + 1) % 4
    other = (leader + 2) % 4
    cases = [
        ([act(leader, hands[leader][:1]), act(other, hands[other][-1:])], 1, common_pb2.ERROR_REASON_NOT_YOUR_TURN),
        ([act(leader, hands[leader][:1]), act(nxt, hands[other][-1:])], 1, common_pb2.ERROR_REASON_CARD_NOT_IN_HAND),
        ([act(leader, hands[leader][:1]), act(nxt, ["Zz"])], 1, common_pb2.ERROR_REASON_BAD_CARD),
    ]
    items = [
        tl.TienlenEvaluateItem(game=tl.TienlenGameRecord(hands=[C(h) for h in hands], actions=a)) for a, _, _ in cases
    ]
    res = tl_evaluate(stub, *items)
    for i, ((_, k, reason), r) in enumerate(zip(cases, res)):
        assert r.error.field.startswith(f"items[{i}].game.actions[{k}]"), r
        assert r.error.reason == reason, r


# ---- 打儲 game records ----


@records
@pytest.mark.parametrize("seed", range(3))
def test_dachu_whole_game_from_the_record(stub, seed):
    """Deal (the legal deal actions), call (random legal calls), play (the legal plays or
    a pass) from the service's state of the record until it is over; Settle the record.
    The final state equals dachu.replay_game's."""
    rng = random.Random(seed)
    deck = rng.sample(TL_DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    record = dc.DachuGameRecord(hands=[C(h) for h in hands])
    for _ in range(400):
        st = dc_evaluate(stub, dc.DachuEvaluateItem(game=record))[0]
        assert st.WhichOneof("result") == "game", st
        st = st.game
        if st.phase == dc.DACHU_PHASE_DEAL:
            record.deal_actions.append(
                st.deal.legal_actions[0] if rng.random() < 0.8 else rng.choice(st.deal.legal_actions)
            )
        elif st.phase == dc.DACHU_PHASE_CALLING:
            record.calls.append(rng.choice(st.calling.legal_actions))
        elif st.phase == dc.DACHU_PHASE_PLAY:
            p = st.play
            if p.legal_plays and (not p.may_pass or rng.random() < 0.7):
                record.plays.append(act(p.to_move, list(rng.choice(p.legal_plays).cards.cards)))
            else:
                record.plays.append(act(p.to_move))
        else:
            break
    assert st.phase == dc.DACHU_PHASE_OVER
    if st.HasField("play"):
        g = dachu.replay_game(
            hands,
            [_dc_deal(a) for a in record.deal_actions],
            [(N(dc.DachuCallKind, c.call), c.seat) for c in record.calls],
            [("play", a.seat, list(a.cards.cards)) if a.kind == PLAY else ("pass", a.seat) for a in record.plays],
        )
        assert list(st.play.places) == g.places and st.play.over == g.over
        # Trick ends: the tricks cover the plays in order, every one but the last is over,
        # won by its last play (or the 3h played out for a holder who sits out).
        tricks = list(st.play.tricks)
        if record.plays:
            assert tricks[0].first_action == 0 and tricks[-1].last_action == len(record.plays) - 1
        assert all(b.first_action == a.last_action + 1 for a, b in zip(tricks, tricks[1:]))
        assert all(t.over for t in tricks[:-1])
        for t in tricks:
            if t.over:
                seats = [a.seat for a in record.plays[t.first_action : t.last_action + 1] if a.kind == PLAY]
                assert t.won_by == (seats[-1] if seats else st.play.auto_lead)
    r = stub.Settle(
        pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[dc.DachuDeal(record=record, base=2)])), timeout=10
    ).dachu.results[0]
    assert r.WhichOneof("result") == "settlement", r
    assert sum(r.settlement.deltas) == 0


def _dc_deal(a):
    kind = N(dc.DachuDealActionKind, a.kind)
    if kind in ("deal", "finish"):
        return (kind,)
    if kind == "cheng_chu":
        return (kind, a.seat, N(dc.DachuColour, a.colour)) if a.colour else (kind, a.seat)
    return (kind, a.seat, list(a.cards.cards))


@records
def test_dachu_record_actions_of_a_phase_not_begun_are_refused(stub):
    hands = [C(TL_DECK[i::4][:13]) for i in range(4)]
    record = dc.DachuGameRecord(hands=hands, calls=[dc.DachuCall(call=dc.DACHU_CALL_KIND_PING_DA, seat=0)])
    r = dc_evaluate(stub, dc.DachuEvaluateItem(game=record))[0]
    assert (r.error.field, r.error.reason) == ("items[0].game.calls[0]", common_pb2.ERROR_REASON_ILLEGAL_ACTION)


def test_unknown_enum_values_name_their_field(stub):
    """An enum number the service does not know (a newer client's) is the item's error
    naming the field, not a guess."""
    res = dc_evaluate(
        stub,
        dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=C("3s"), chu=7)),
        dc.DachuEvaluateItem(
            calling=dc.DachuCallingQuery(start=dc.DachuCallingStart(chu_side=[0]), calls=[dc.DachuCall(call=9, seat=1)])
        ),
    )
    assert res[0].error.field == "items[0].play.chu"
    assert res[1].error.field == "items[1].calling.calls[0].call"

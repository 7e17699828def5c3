"""越式13张 answered on the wire in Rust (rust/handeval-wire/src/tienlen.rs), called as the
servicer calls it (`_core.wire_answer` on the request's bytes): the bounds checked before
any work, the rules decoded from their message, and a game record's tricks equal to the
ones the Python API's Game gives action by action."""

from __future__ import annotations

import random

import pytest

from handeval import _core, tienlen
from handeval.v2 import common_pb2, handeval_pb2 as pb, tienlen_pb2 as tl
from harness.deck import TL_DECK as DECK

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS


def C(cards):
    return common_pb2.Cards(cards=list(cards))


def act(seat, cards=None, kind=None):
    if cards is None:
        return common_pb2.PlayAction(seat=seat, kind=kind or PASS)
    return common_pb2.PlayAction(seat=seat, kind=kind or PLAY, cards=C(cards))


def answer(rpc, req, max_batch=1000):
    out = _core.wire_answer(rpc, req.SerializeToString(), _core.WireCall(None), max_batch, 1000, True)
    assert out is not None, "越式13张 is answered in Rust"
    return getattr(pb, f"{rpc}Response").FromString(out).tienlen


def evaluate(*items, rules=None):
    return answer("Evaluate", pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(rules=rules, items=items))).results


def bad(rpc, req):
    with pytest.raises(_core.WireError) as ei:
        answer(rpc, req)
    return ei.value.code, ei.value.field, ei.value.reason


def test_a_huge_round_fails_at_its_bound_before_any_work():
    huge = [act(0, ["3s"])] * 600_000
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(
            items=[tl.TienlenEvaluateItem(round_state=tl.TienlenRoundQuery(actions=huge))]
        )
    )
    assert bad("Evaluate", req) == ("INVALID_ARGUMENT", "tienlen.items[0].round_state.actions", "too_large")
    # Within the bound, the first bad action is named, not the ones after it.
    turns = [act(0, ["3s"]), act(1), act(2, kind=common_pb2.ACTION_KIND_TIMEOUT)] + [act(3, ["Zz"])] * 200
    r = evaluate(tl.TienlenEvaluateItem(round_state=tl.TienlenRoundQuery(actions=turns)))[0]
    assert r.error.field == "items[0].round_state.actions[2].kind", r


def test_settle_bounds_and_the_batch_limit():
    rounds = [tl.TienlenRound(actions=[act(0, ["3s"])])] * 53
    req = pb.SettleRequest(
        tienlen=tl.TienlenSettleRequest(deals=[tl.TienlenDeal(outcome=tl.TienlenOutcome(chops=rounds))])
    )
    assert bad("Settle", req) == ("INVALID_ARGUMENT", "tienlen.deals[0].outcome.chops", "too_large")
    req = pb.CompareRequest(tienlen=tl.TienlenCompareRequest(items=[tl.TienlenCompareItem()] * 3))
    with pytest.raises(_core.WireError) as ei:
        _core.wire_answer("Compare", req.SerializeToString(), _core.WireCall(None), 2, 1000, False)
    assert (ei.value.field, ei.value.reason) == ("tienlen.items", "too_large")


@pytest.mark.parametrize(
    "rules, field",
    [
        (tl.TienlenRules(rake_percent=101), "tienlen.rules.rake_percent"),
        (tl.TienlenRules(rake_percent=-1), "tienlen.rules.rake_percent"),
        (tl.TienlenRules(turn_after_chop=9), "tienlen.rules.turn_after_chop"),
    ],
)
def test_bad_rules_fail_the_request(rules, field):
    req = pb.CompareRequest(tienlen=tl.TienlenCompareRequest(rules=rules, items=[tl.TienlenCompareItem()]))
    assert bad("Compare", req) == ("INVALID_ARGUMENT", field, "bad_rule")


def test_rules_reach_the_core():
    rng = random.Random(1)
    while True:  # a deal without an instant win
        deck = rng.sample(DECK, 52)
        hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
        if tienlen.Game(hands).turn is not None:
            break
    rules = tl.TienlenRules(first_lead_must_contain_lowest=True, turn_after_chop=tl.TIENLEN_TURN_AFTER_CHOP_RESUME)
    st = evaluate(tl.TienlenEvaluateItem(game=tl.TienlenGameRecord(hands=[C(h) for h in hands])), rules=rules)[0].game
    want = tienlen.Game(hands, rules=tienlen.Rules(first_lead_must_contain_lowest=True, turn_after_chop="resume"))
    assert st.must_contain == want.must_contain == st.first_lead.card and st.first_lead.must_contain
    assert [list(p.cards.cards) for p in st.offers[0].plays] == [p.cards for p in want.legal_plays]


def _tricks_from_the_api(hands, actions):
    """[leader, first, last, over, won_by] per trick, from the Python API's Game action by
    action (a trick ends when the game's round changes)."""
    g, tricks = tienlen.Game(hands), []
    for k, a in enumerate(actions):
        round_before, leader = g.round, g.leader
        g = g.apply(a)
        if not tricks or round_before != tricks[-1][0]:
            tricks.append([round_before, leader, k, k, False, None])
        tricks[-1][3] = k
        if g.round != round_before:
            tricks[-1][4:] = [True, g.leader]
    return [t[1:] for t in tricks]


@pytest.mark.parametrize("seed", range(6))
def test_game_tricks_equal_the_api_games(seed):
    rng = random.Random(seed)
    deck = rng.sample(DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(rng.choice([2, 3, 4]))]
    g, actions = tienlen.Game(hands), []
    while not g.over:
        choices = [(g.turn, p.cards) for p in g.legal_plays] + [(g.turn, "pass")] * (3 if g.may_pass else 0)
        choices += [(s, p.cards) for s, plays in g.chop_offers for p in plays]
        a = rng.choice(choices)
        g = g.apply(a)
        actions.append(a)
        if rng.random() < 0.2 or g.over:
            record = tl.TienlenGameRecord(
                hands=[C(h) for h in hands], actions=[act(s, None if c == "pass" else c) for s, c in actions]
            )
            st = evaluate(tl.TienlenEvaluateItem(game=record))[0].game
            got = [
                [t.leader, t.first_action, t.last_action, t.over, t.won_by if t.HasField("won_by") else None]
                for t in st.tricks
            ]
            assert got == _tricks_from_the_api(hands, actions)
            assert st.round == g.round

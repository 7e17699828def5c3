"""The gRPC paths of 十三水 arrange / best_response, 越式13张 (tienlen) and 打儲 (dachu)
end to end against a real `handeval serve`: every answer equals the Python API's, whole
games are driven through the stateless flow items (越式13张 `first_leader` /
`round_state`, 打儲 `deal` / `calling` / `timeout_play`), and illegal actions come back
as per-item errors naming the action."""

from __future__ import annotations

import json
import random
from pathlib import Path

import grpc
import pytest

from handeval import dachu, shisanshui, tienlen
from handeval.server.client import bad_request_fields
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, shisanshui_pb2 as ssw, tienlen_pb2 as tl
from harness.deck import TL_DECK

from grpc_fixtures import C, E, N
from strategies import DC_DECLARING_HANDS

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS
RED = dc.DACHU_COLOUR_RED


def act(seat, cards):
    """A PlayAction from the API's ``(seat, cards | "pass")``."""
    if cards == "pass":
        return common_pb2.PlayAction(seat=seat, kind=PASS)
    return common_pb2.PlayAction(seat=seat, kind=PLAY, cards=C(cards))


VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "seed_examples.json").read_text(encoding="utf-8"))


# ---- 十三水 arrange / best_response ----


def _choice_tuple(c):
    a = c.arrangement
    return (list(a.front.cards), list(a.middle.cards), list(a.back.cards), pytest.approx(c.expected))


def _py_choice(a):
    return (list(a.front), list(a.middle), list(a.back), a.expected)


def test_arrange_equals_python(stub):
    hands = [
        VECTORS["shisanshui_special"][2]["cards"],
        "2s 3d 5c 6c 7c 8d 9s Td 2c 4c Jc Kc Ac",
        "Qs Qh Qd 2h 5h 7h 9h Jh Ks Kh Kd 4s 4h",
    ]
    items = [ssw.ShisanshuiArrangeItem(hand=C(h)) for h in hands]
    items.insert(1, ssw.ShisanshuiArrangeItem(hand=C("As As")))
    req = pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=items, opponents=3, top_k=2, seed=7))
    res = stub.Arrange(req, timeout=60).shisanshui.results
    assert [r.WhichOneof("result") for r in res] == ["answer", "error", "answer", "answer"]
    assert res[1].error.field == "items[1].hand" and "As" in res[1].error.message
    for h, r in zip(hands, [res[0], res[2], res[3]]):
        want = shisanshui.arrange(h, opponents=3, top_k=2, seed=7)
        a = r.answer
        assert _choice_tuple(a.best) == _py_choice(want)
        assert N(ssw.ShisanshuiSpecialKind, a.special) == want.special
        assert a.declare_special == want.declare_special
        assert [_choice_tuple(x) for x in a.alternatives] == [_py_choice(x) for x in want.alternatives]
    assert res[0].answer.special == ssw.SHISANSHUI_SPECIAL_KIND_LIU_DUI_BAN


def test_best_response_equals_python(stub):
    players = VECTORS["shisanshui_score"][1]["players"]
    mine = " ".join(players[1][k] for k in ("front", "middle", "back"))
    opponents = [players[0], players[2], players[3]]
    item = ssw.ShisanshuiBestResponseItem(
        cards=C(mine),
        opponents=[
            ssw.ShisanshuiArrangement(front=C(p["front"]), middle=C(p["middle"]), back=C(p["back"])) for p in opponents
        ],
    )
    req = pb.ArrangeRequest(
        shisanshui=ssw.ShisanshuiArrangeRequest(
            items=[
                ssw.ShisanshuiArrangeItem(hand=C("As")),
                ssw.ShisanshuiArrangeItem(best_response=item),
                ssw.ShisanshuiArrangeItem(best_response=ssw.ShisanshuiBestResponseItem(cards=C("As Ks"))),
            ]
        )
    )
    res = stub.Arrange(req, timeout=60).shisanshui.results
    assert res[1].WhichOneof("result") == "answer", res[1]
    assert _choice_tuple(res[1].answer.best) == _py_choice(shisanshui.best_response(mine, opponents))
    assert res[0].error.field == "items[0].hand"
    assert res[2].error.field.startswith("items[2].best_response"), res[2]


# ---- 越式13张 ----


def test_tienlen_beats_seed_vectors(stub):
    cases = VECTORS["tienlen_beats"]
    req = pb.CompareRequest(
        tienlen=tl.TienlenCompareRequest(
            items=[tl.TienlenCompareItem(play=C(c["play"]), table=C(c["table"])) for c in cases]
            + [tl.TienlenCompareItem(play=C("3s 9h"), table=C("4s"))]
        )
    )
    res = stub.Compare(req, timeout=10).tienlen.results
    assert [r.beats for r in res[:-1]] == [c["expected"] for c in cases]
    assert [r.beats for r in res[:-1]] == [tienlen.beats(c["play"], c["table"]) for c in cases]
    assert res[-1].WhichOneof("result") == "error" and res[-1].error.field.startswith(f"items[{len(cases)}]")


def test_tienlen_classify_instant_win_and_legal_plays(stub):
    plays = ["3s", "5h 5s", "7s 8d 9h", "4s 4h 5s 5h 6s 6h", "7s 7h 7d 7c", "3s 4h"]
    hands = VECTORS["tienlen_instant_win"][0]["hands"]
    hand = "3s 3h 4d 5c 6s 7h 9d 9c Ts Jh Qd Kc 2s"
    items = (
        [tl.TienlenEvaluateItem(play=C(p)) for p in plays]
        + [tl.TienlenEvaluateItem(hand=C(h)) for h in hands]
        + [tl.TienlenEvaluateItem(legal_plays=tl.TienlenLegalPlaysQuery(hand=C(hand), table=C("8h")))]
    )
    res = stub.Evaluate(pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=items)), timeout=10).tienlen.results
    for p, r in zip(plays[:-1], res):
        assert (N(tl.TienlenPlayKind, r.play.kind), list(r.play.cards.cards)) == (
            tienlen.classify(p).kind,
            tienlen.classify(p).cards,
        )
    assert res[len(plays) - 1].error.field == f"items[{len(plays) - 1}].play"
    assert res[len(plays) - 1].error.reason == common_pb2.ERROR_REASON_NOT_A_PLAY
    got = [N(tl.TienlenInstantWinKind, r.hand.kind) for r in res[len(plays) : len(plays) + len(hands)]]
    assert got == VECTORS["tienlen_instant_win"][0]["expected_instant"]
    want = tienlen.legal_plays(hand, table="8h", passed=False)
    assert [(N(tl.TienlenPlayKind, p.kind), list(p.cards.cards)) for p in res[-1].legal_plays.plays] == [
        (p.kind, p.cards) for p in want
    ]


def _tl_lines(m):
    return [
        (
            N(tl.TienlenLineKind, x.kind),
            x.seat,
            x.other if x.HasField("other") else None,
            x.multiplier,
            x.amount,
            list(x.cards.cards),
            x.text,
        )
        for x in m.lines
    ]


def _tl_py_lines(s):
    return [(x.kind, x.seat, x.other, x.multiplier, x.amount, list(x.cards), x.text) for x in s.lines]


def test_tienlen_settle_seed_vectors_typed(stub):
    chop = VECTORS["tienlen_chop_rounds"]
    inst = VECTORS["tienlen_instant_win"][0]
    rem = VECTORS["tienlen_remaining"]
    deals = [
        tl.TienlenDeal(chop_round=tl.TienlenRound(actions=[act(s, p) for s, p in c["round"]]), base=c["base"])
        for c in chop
    ]
    deals.append(tl.TienlenDeal(instant=tl.TienlenInstantDeal(hands=[C(h) for h in inst["hands"]]), base=inst["base"]))
    deals += [
        tl.TienlenDeal(
            outcome=tl.TienlenOutcome(remaining=[C(""), C(c["cards"])], winner=0, played_any=[True, c["played_any"]]),
            base=c["base"],
        )
        for c in rem
    ]
    rules = tienlen.Rules(rake_percent=0)
    req = pb.SettleRequest(tienlen=tl.TienlenSettleRequest(rules=tl.TienlenRules(rake_percent=0), deals=deals))
    res = stub.Settle(req, timeout=10).tienlen.results
    assert all(r.WhichOneof("result") == "settlement" for r in res), res
    for c, r in zip(chop, res):
        assert [{"from": t.from_seat, "to": t.to_seat, "amount": t.amount} for t in r.settlement.transfers] == c[
            "expected_transfers"
        ]
    s = res[len(chop)].settlement
    want = tienlen.settle_instant(inst["hands"], inst["base"], rules=rules)
    assert list(s.deltas) == inst["expected_deltas"] == want.deltas
    assert _tl_lines(s) == _tl_py_lines(want) and s.lines
    assert [N(tl.TienlenInstantWinKind, x) for x in s.instant] == want.instant
    for c, r in zip(rem, res[len(chop) + 1 :]):
        want = tienlen.settle(["", c["cards"]], 0, c["base"], played_any=[True, c["played_any"]], rules=rules)
        assert list(r.settlement.deltas) == [c["expected_pay"], -c["expected_pay"]] == want.deltas
        assert _tl_lines(r.settlement) == _tl_py_lines(want)
        assert (list(r.settlement.pays), list(r.settlement.theoretical), r.settlement.winner) == (
            want.pays,
            want.theoretical,
            0,
        )


def _tl_round_query(turns, hands=None, leader=None, check=None):
    q = tl.TienlenRoundQuery(actions=[act(s, p) for s, p in turns], hands=[C(h) for h in hands or ()])
    if leader is not None:
        q.leader = leader
    if check is not None:
        q.check.CopyFrom(act(*check))
    return tl.TienlenEvaluateItem(round_state=q)


def _evaluate_ok(stub, game, request_cls, items):
    """Evaluate ``items`` of ``game``; every result must be an answer, not an error."""
    resp = stub.Evaluate(pb.EvaluateRequest(**{game: request_cls(items=list(items))}), timeout=10)
    res = getattr(resp, game).results
    for r in res:
        assert r.WhichOneof("result") != "error", r
    return res


def _tl_eval(stub, *items):
    return _evaluate_ok(stub, "tienlen", tl.TienlenEvaluateRequest, items)


@pytest.mark.parametrize("seed", range(3))
def test_tienlen_whole_game_through_round_state(stub, seed):
    """A whole game where every decision comes from the service: who leads, whose turn,
    the legal plays, whether the round ended; each answer equals the Python API's."""
    rng = random.Random(seed)
    deck = rng.sample(TL_DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    held = [set(h) for h in hands]
    dealt = [" ".join(h) for h in hands]
    first = _tl_eval(
        stub, tl.TienlenEvaluateItem(first_leader=tl.TienlenFirstLeaderQuery(hands=[C(h) for h in dealt]))
    )[0].first_leader
    want = tienlen.first_leader(hands)
    assert (first.seat, first.card, first.must_contain) == (want.seat, want.card, want.must_contain)
    first_round, leader, rounds, played = True, first.seat, [], [False] * 4
    winner = None
    while winner is None:
        turns = []
        while True:
            q = _tl_round_query(turns, dealt if first_round else None, None if first_round else leader)
            st = _tl_eval(stub, q)[0].round_state
            py = tienlen.round_state(
                turns, leader=None if first_round else leader, first_lead=want if first_round else None
            )
            assert [(p.seat, list(p.play.cards.cards)) for p in st.plays] == [(s, p.cards) for s, p in py.plays]
            assert (st.to_move if st.HasField("to_move") else None, st.over, list(st.passed)) == (
                py.to_move,
                py.over,
                py.passed,
            )
            if st.over:
                leader = st.next_leader
                break
            seat = st.to_move
            table = " ".join(st.plays[-1].play.cards.cards) if st.plays else None
            lp = tl.TienlenLegalPlaysQuery(hand=C(sorted(held[seat])), passed=seat in st.passed)
            if table:
                lp.table.CopyFrom(C(table))
            plays = _tl_eval(stub, tl.TienlenEvaluateItem(legal_plays=lp))[0].legal_plays.plays
            action = " ".join(rng.choice(plays).cards.cards) if plays and (not table or rng.random() < 0.7) else "pass"
            checked = _tl_eval(
                stub,
                _tl_round_query(turns, dealt if first_round else None, None if first_round else leader, (seat, action)),
            )[0].round_state
            assert checked.check.allowed, checked.check.message
            turns.append([seat, action])
            if action != "pass":
                held[seat] -= set(action.split())
                played[seat] = True
                if not held[seat]:
                    winner = seat
                    break
        rounds.append(turns)
        first_round = False
    remaining = [" ".join(sorted(h)) for h in held]
    deal = tl.TienlenDeal(
        outcome=tl.TienlenOutcome(
            remaining=[C(r) for r in remaining],
            winner=winner,
            played_any=played,
            chops=[tl.TienlenRound(actions=[act(s, p) for s, p in r]) for r in rounds],
        ),
        base=10,
    )
    s = stub.Settle(pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[deal])), timeout=10).tienlen.results[0]
    assert s.WhichOneof("result") == "settlement", s
    py = tienlen.settle(remaining, winner, 10, played_any=played, chops=rounds)
    assert list(s.settlement.deltas) == py.deltas and sum(py.deltas) + py.rake == 0
    assert _tl_lines(s.settlement) == _tl_py_lines(py)


def test_tienlen_illegal_action_names_it(stub):
    hands = [" ".join(TL_DECK[i::4][:13]) for i in range(4)]  # seat 0 holds 3s
    res = stub.Evaluate(
        pb.EvaluateRequest(
            tienlen=tl.TienlenEvaluateRequest(
                items=[
                    _tl_round_query([[0, "3s"], [1, "3c"], [2, "3c"]], hands),  # 3c played twice
                    _tl_round_query([[0, "3s"]], hands, check=(2, "4d")),  # out of turn: allowed = false
                    _tl_round_query([[0, "3s"], [1, "Zz"]], hands),
                ]
            )
        ),
        timeout=10,
    ).tienlen.results
    assert res[0].error.field.startswith("items[0].round_state.actions[2]") and "3c" in res[0].error.message
    assert not res[1].round_state.check.allowed and res[1].round_state.check.message
    assert res[1].round_state.check.reason == common_pb2.ERROR_REASON_NOT_YOUR_TURN  # the reason apply would give
    assert res[1].round_state.to_move == 1
    assert res[2].error.field.startswith("items[2].round_state.actions[1]") and "Zz" in res[2].error.message
    assert res[2].error.reason == common_pb2.ERROR_REASON_BAD_CARD


def test_tienlen_bad_rule_value_is_invalid_argument(stub):
    """A bad 越式13张 rule value fails the request naming the option, even when no item
    would have used it."""
    req = pb.CompareRequest(
        tienlen=tl.TienlenCompareRequest(
            rules=tl.TienlenRules(rake_percent=500), items=[tl.TienlenCompareItem(play=C("4s"), table=C("3s"))]
        )
    )
    with pytest.raises(grpc.RpcError) as ei:
        stub.Compare(req, timeout=10)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert bad_request_fields(ei.value)[0][0] == "tienlen.rules.rake_percent"


@pytest.mark.parametrize(
    "msg, cls",
    [(ssw.ShisanshuiRules, shisanshui.Rules), (tl.TienlenRules, tienlen.Rules), (dc.DachuRules, dachu.Rules)],
    ids=["shisanshui", "tienlen", "dachu"],
)
def test_every_rule_option_is_in_the_rules_message(msg, cls):
    """Each game's rules message carries every option of its Python Rules, under the same
    name and with a field type that holds the default; all are proto3 optional."""
    fields = msg.DESCRIPTOR.fields
    assert {f.name for f in fields} == set(cls.__match_args__)
    assert all(f.has_presence for f in fields)
    defaults = cls()

    def roundtrip(f):
        value = getattr(defaults, f.name)
        if f.enum_type is not None:  # an enum option: its values name the API's strings
            return N(_enum(f), getattr(msg(**{f.name: E(_enum(f), value)}), f.name))
        return getattr(msg(**{f.name: value}), f.name)

    assert cls(**{f.name: roundtrip(f) for f in fields}) == defaults


def _enum(f):
    """The generated enum wrapper of field ``f`` of ``msg``."""
    from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

    return EnumTypeWrapper(f.enum_type)


def _rules_call(stub, rpc, game, request, rules):
    """``rpc`` with ``request`` under ``rules``: the game's response, or the RpcError."""
    request.rules.CopyFrom(rules)
    try:
        return getattr(getattr(stub, rpc)(getattr(pb, f"{rpc}Request")(**{game: request}), timeout=10), game)
    except grpc.RpcError as e:
        return e


def _assert_bad_rule(answer, field):
    assert isinstance(answer, grpc.RpcError) and answer.code() == grpc.StatusCode.INVALID_ARGUMENT, answer
    assert bad_request_fields(answer)[0][0] == field


def test_tienlen_turn_after_chop(stub):
    """RULES 2.4's example: seat 1 (passed) chops seat 2's 2 during seat 3's turn."""

    def call(rules):
        req = tl.TienlenEvaluateRequest(
            items=[_tl_round_query([(0, "9s"), (1, "pass"), (2, "2s"), (1, "7s 7h 7d 7c")])]
        )
        return _rules_call(stub, "Evaluate", "tienlen", req, rules)

    assert call(tl.TienlenRules()).results[0].round_state.to_move == 2  # from the chopper
    assert call(tl.TienlenRules(turn_after_chop=tl.TIENLEN_TURN_AFTER_CHOP_RESUME)).results[0].round_state.to_move == 3
    _assert_bad_rule(call(tl.TienlenRules(turn_after_chop=9)), "tienlen.rules.turn_after_chop")


def test_dachu_jiao_round_up(stub):
    """繳 at base 1 x 1 is half a unit: rounded up to 1 (default) or down to 0."""

    def deltas(rules):
        req = dc.DachuSettleRequest(
            deals=[dc.DachuDeal(outcome=dc.DachuOutcome(chu_side=[0, 2], surrendered=[1, 3]), base=1)]
        )
        return list(_rules_call(stub, "Settle", "dachu", req, rules).results[0].settlement.deltas)

    assert deltas(dc.DachuRules()) == [1, -1, 1, -1] == dachu.settle([0, 2], base=1, surrendered=[1, 3]).deltas
    assert deltas(dc.DachuRules(jiao_round_up=False)) == [0, 0, 0, 0]


def test_dachu_declare_once_per(stub):
    """RULES 3.5: two players may each 夢踹 (default "player_and_kind"), not with "game"."""
    hands = DC_DECLARING_HANDS
    deal, chuai = dc.DACHU_DEAL_ACTION_KIND_DEAL, dc.DACHU_DEAL_ACTION_KIND_MENG_CHUAI
    actions = [dc.DachuDealAction(kind=deal)] * 5 + [
        dc.DachuDealAction(kind=chuai, seat=0, cards=C("5s 5h 5d")),
        dc.DachuDealAction(kind=chuai, seat=1, cards=C("6h 6d 6c")),
    ]

    def call(rules):
        req = dc.DachuEvaluateRequest(
            items=[dc.DachuEvaluateItem(deal=dc.DachuDealQuery(hands=[C(h) for h in hands], actions=actions))]
        )
        return _rules_call(stub, "Evaluate", "dachu", req, rules)

    assert call(dc.DachuRules()).results[0].deal.multiplier == 4
    once = call(dc.DachuRules(declare_once_per=dc.DACHU_DECLARE_ONCE_PER_GAME)).results[0]
    assert once.error.field.startswith("items[0].deal.actions[6]") and "once per game" in once.error.message, once
    _assert_bad_rule(call(dc.DachuRules(declare_once_per=99)), "dachu.rules.declare_once_per")


# ---- 打儲 ----


def test_dachu_beats_seed_vectors(stub):
    for chu in ("red", "black"):
        cases = [c for c in VECTORS["dachu_beats"] if c["chu"] == chu]
        req = pb.CompareRequest(
            dachu=dc.DachuCompareRequest(
                items=[
                    dc.DachuCompareItem(play=C(c["play"]), table=C(c["table"]), chu=E(dc.DachuColour, chu))
                    for c in cases
                ]
            )
        )
        res = stub.Compare(req, timeout=10).dachu.results
        assert [r.beats for r in res] == [c["expected"] for c in cases]
        assert [r.beats for r in res] == [dachu.beats(c["play"], c["table"], chu) for c in cases]


def test_dachu_chu_is_per_item(stub):
    """An item without its 儲 colour is that item's error; the rest of a mixed batch is
    answered."""
    req = pb.CompareRequest(
        dachu=dc.DachuCompareRequest(
            items=[
                dc.DachuCompareItem(play=C("4s"), table=C("3s")),
                dc.DachuCompareItem(play=C("4s"), table=C("3s"), chu=RED),
            ]
        )
    )
    res = stub.Compare(req, timeout=10).dachu.results
    assert res[0].error.field == "items[0].chu" and res[0].error.reason == common_pb2.ERROR_REASON_INVALID
    assert res[1].beats


def test_dachu_every_rule_option_reaches_the_api(stub):
    # mixed_ace_pair off: one 儲A + one plain A is not a pair
    items = [dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=C("Ah As"), chu=RED))]
    on = stub.Evaluate(pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=items)), timeout=10)
    off = stub.Evaluate(
        pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(rules=dc.DachuRules(mixed_ace_pair=False), items=items)),
        timeout=10,
    )
    assert on.dachu.results[0].play.kind == dc.DACHU_PLAY_KIND_PAIR
    assert off.dachu.results[0].WhichOneof("result") == "error"


def test_dachu_classify_legal_and_timeout_plays(stub):
    plays = ["Ah Ad", "As 2s 3s", "5s 5h 5d", "9s", "3s 5h"]
    hand = "3h 4s 5d 6c 9s 9h Ts Jd Qc Kh Ah 2s 2d"
    items = [dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=C(p), chu=RED)) for p in plays] + [
        dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand=C(hand), table=C("8d"), chu=RED)),
        dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand=C(hand), first_lead=True, chu=RED)),
        dc.DachuEvaluateItem(timeout_play=dc.DachuTimeoutPlayQuery(hand=C(hand), first_lead=True, chu=RED)),
        dc.DachuEvaluateItem(timeout_play=dc.DachuTimeoutPlayQuery(hand=C(hand), table=C("8d"), chu=RED)),
        dc.DachuEvaluateItem(timeout_play=dc.DachuTimeoutPlayQuery(hand=C("4s 5d"), first_lead=True, chu=RED)),
    ]
    res = stub.Evaluate(pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=items)), timeout=10).dachu.results
    assert [N(dc.DachuPlayKind, r.play.kind) for r in res[:4]] == [dachu.classify(p, "red").kind for p in plays[:4]]
    assert res[0].play.kind == dc.DACHU_PLAY_KIND_DU_CHU
    assert res[4].error.field == "items[4].play.cards"
    n = len(plays)
    assert [list(p.cards.cards) for p in res[n].legal_plays.plays] == [
        p.cards for p in dachu.legal_plays(hand, "8d", "red")
    ]
    assert [list(p.cards.cards) for p in res[n + 1].legal_plays.plays] == [
        p.cards for p in dachu.legal_plays(hand, None, "red", first_lead=True)
    ]
    t = res[n + 2].timeout_play
    assert not t.passes and list(t.cards.cards) == dachu.timeout_play(hand, None, "red", first_lead=True)
    # Following 8d: the rightmost column is 2s 2d, and 2s beats the 8.
    t = res[n + 3].timeout_play
    assert not t.passes and list(t.cards.cards) == dachu.timeout_play(hand, "8d", "red") == ["2s"]
    assert res[n + 4].error.field.startswith(f"items[{n + 4}].timeout_play.hand"), res[n + 4]


def test_dachu_timeout_play_takes_the_columns_as_shown(stub):
    """The hand as the client shows it (RULES 3.7) reaches the API whole: explicit columns,
    ``surrendered``; both hand forms at once, and an empty column, are item errors."""
    columns = [["Kh"], ["9c"], ["4d", "4h", "4s"]]
    q = dc.DachuTimeoutPlayQuery
    items = [
        dc.DachuEvaluateItem(timeout_play=x)
        for x in [
            q(columns=[C(" ".join(c)) for c in columns], chu=RED),
            q(columns=[C(" ".join(c)) for c in reversed(columns)], chu=RED),
            q(hand=C("3h 3s 3d 5c"), first_lead=True, surrendered=True, chu=RED),
            q(hand=C("Kh"), columns=[C("9c")], chu=RED),
            q(columns=[C("Kh"), C("")], chu=RED),
        ]
    ]
    res = stub.Evaluate(pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=items)), timeout=10).dachu.results
    assert list(res[0].timeout_play.cards.cards) == dachu.timeout_play(columns, None, "red") == ["4d"]
    assert list(res[1].timeout_play.cards.cards) == dachu.timeout_play(columns[::-1], None, "red") == ["Kh"]
    assert list(res[2].timeout_play.cards.cards) == dachu.timeout_play(
        "3h 3s 3d 5c", None, "red", first_lead=True, surrendered=True
    )
    assert res[3].error.field == "items[3].timeout_play.columns"
    assert res[3].error.reason == common_pb2.ERROR_REASON_INCONSISTENT
    assert res[4].error.field.startswith("items[4].timeout_play.columns"), res[4]


def _dc_deal_action(t):
    kind, rest = t[0], t[1:]
    k = E(dc.DachuDealActionKind, kind)
    if kind == "cheng_chu":
        return dc.DachuDealAction(kind=k, seat=rest[0], colour=E(dc.DachuColour, rest[1] if len(rest) > 1 else None))
    if kind in ("meng_xuan", "meng_chuai"):
        return dc.DachuDealAction(kind=k, seat=rest[0], cards=C(rest[1]))
    return dc.DachuDealAction(kind=k)


def _dc_eval(stub, *items):
    return _evaluate_ok(stub, "dachu", dc.DachuEvaluateRequest, items)


@pytest.mark.parametrize("seed", range(6))
def test_dachu_whole_game_deal_calling_settle(stub, seed):
    """Deal with random declarations, call with random legal calls, settle: every state
    the service answers equals the Python state machine's, and the actions come from the
    service's legal actions."""
    rng = random.Random(seed)
    deck = rng.sample(TL_DECK, 52)
    hands = [" ".join(deck[13 * i : 13 * i + 13]) for i in range(4)]
    first_seat = rng.randrange(4)
    py = dachu.Deal(hands, first_seat)
    query = dc.DachuDealQuery(hands=[C(h) for h in hands], first_seat=first_seat)
    while True:
        st = _dc_eval(stub, dc.DachuEvaluateItem(deal=query))[0].deal
        assert [_dc_deal_action(a) for a in py.legal_actions] == list(st.legal_actions)
        assert (st.dealt, st.finished, st.multiplier, st.declared, st.first_leader) == (
            py.dealt,
            py.finished,
            py.multiplier,
            py.declared,
            py.first_leader,
        )
        assert [list(h.cards) for h in st.held] == [list(h) for h in py.held]
        if st.finished:
            assert (N(dc.DachuColour, st.chu), list(st.chu_side), N(dc.DachuTeams, st.teams)) == (
                py.chu,
                list(py.chu_side),
                py.teams,
            )
            break
        pick = rng.choice(list(st.legal_actions)) if rng.random() < 0.3 else st.legal_actions[0]
        query.actions.append(pick)
        py = py.apply(_py_action(pick))
    calling = dc.DachuCallingQuery(deal=query)
    pyc = py.calling()
    while True:
        st = _dc_eval(stub, dc.DachuEvaluateItem(calling=calling))[0].calling
        assert [(N(dc.DachuCallKind, a.call), a.seat) for a in st.legal_actions] == list(pyc.legal_actions)
        assert (
            st.turn if st.HasField("turn") else None,
            st.multiplier,
            st.over,
            N(dc.DachuCallingPhase, st.phase),
        ) == (pyc.turn, pyc.multiplier, pyc.over, pyc.phase)
        if st.over:
            assert (
                list(st.playing),
                list(st.surrendered),
                list(st.bei_bao_da),
                N(dc.DachuCallingOutcome, st.outcome),
            ) == (list(pyc.playing), list(pyc.surrendered), list(pyc.bei_bao_da), pyc.outcome)
            break
        call = rng.choice(list(st.legal_actions))
        calling.calls.append(call)
        pyc = pyc.apply((N(dc.DachuCallKind, call.call), call.seat))
    places = list(st.playing)
    rng.shuffle(places)
    play = st.outcome == dc.DACHU_CALLING_OUTCOME_PLAY
    deal = dc.DachuDeal(outcome=dc.DachuOutcome(calling=calling, places=places if play else ()), base=10)
    r = stub.Settle(pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[deal])), timeout=10).dachu.results[0]
    assert r.WhichOneof("result") == "settlement", r
    want = pyc.settle(places if pyc.outcome == "play" else None, base=10)
    s = r.settlement
    assert list(s.deltas) == want.deltas and sum(want.deltas) == 0
    assert [(N(dc.DachuLineKind, x.kind), x.seat, x.amount, x.text) for x in s.lines] == [
        (x.kind, x.seat, x.amount, x.text) for x in want.lines
    ]
    assert (N(dc.DachuVerdict, s.verdict), s.wipe_out, s.result_multiplier, list(s.theoretical)) == (
        want.verdict,
        want.wipe_out,
        want.result_multiplier,
        want.theoretical,
    )


def _py_action(a):
    kind = N(dc.DachuDealActionKind, a.kind)
    if kind in ("deal", "finish"):
        return (kind,)
    if kind == "cheng_chu":
        return (kind, a.seat, N(dc.DachuColour, a.colour)) if a.colour else (kind, a.seat)
    return (kind, a.seat, list(a.cards.cards))


def test_dachu_illegal_actions_name_them(stub):
    hands = [" ".join(TL_DECK[i::4][:13]) for i in range(4)]
    deal = dc.DachuDealQuery(
        hands=[C(h) for h in hands],
        actions=[
            dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_DEAL),
            dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_FINISH),
        ],
    )
    start = dc.DachuCallingStart(chu_side=[0, 2])
    c = dachu.Calling([0, 2])
    wrong = next(s for s in range(4) if s != c.turn)
    res = stub.Evaluate(
        pb.EvaluateRequest(
            dachu=dc.DachuEvaluateRequest(
                items=[
                    dc.DachuEvaluateItem(deal=deal),
                    dc.DachuEvaluateItem(
                        calling=dc.DachuCallingQuery(
                            start=start, calls=[dc.DachuCall(call=dc.DACHU_CALL_KIND_CHUAI, seat=wrong)]
                        )
                    ),
                    dc.DachuEvaluateItem(calling=dc.DachuCallingQuery(start=start, calls=[dc.DachuCall(seat=c.turn)])),
                    dc.DachuEvaluateItem(deal=dc.DachuDealQuery(hands=[C(h) for h in hands[:3]])),
                ]
            )
        ),
        timeout=10,
    ).dachu.results
    assert res[0].error.field.startswith("items[0].deal.actions[1]"), res[0]
    assert res[1].error.field.startswith("items[1].calling.calls[0]") and str(wrong) in res[1].error.message, res[1]
    assert res[2].error.field == "items[2].calling.calls[0].call", res[2]
    assert res[3].error.field == "items[3].deal.hands" and res[3].error.reason == common_pb2.ERROR_REASON_WRONG_COUNT


def test_dachu_settle_typed_equals_python(stub):
    cases = [
        dict(chu_side=[0], places=[1, 0, 2, 3], multiplier=2),
        dict(chu_side=[0, 2], places=[0, 2, 1, 3]),
        dict(chu_side=[1, 3], places=[], escaped=[2], multiplier=4),
        dict(chu_side=[1, 3], places=[0, 1, 2, 3], carried=[5, None, 5, None], base=10),
    ]
    deals = []
    for c in cases:
        d = dc.DachuDeal(
            outcome=dc.DachuOutcome(chu_side=c["chu_side"], places=c["places"]),
            escaped=c.get("escaped", ()),
            base=c.get("base", 1),
        )
        if "multiplier" in c:
            d.outcome.multiplier = c["multiplier"]
        for x in c.get("carried", ()):
            d.carried.add(**({} if x is None else {"amount": x}))
        deals.append(d)
    deals.append(dc.DachuDeal(outcome=dc.DachuOutcome(chu_side=[0, 1, 2], places=[0, 1, 2, 3])))  # three 儲 holders
    res = stub.Settle(pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=deals)), timeout=10).dachu.results
    for c, r in zip(cases, res):
        want = dachu.settle(
            c["chu_side"],
            c["places"] or None,
            base=c.get("base", 1),
            multiplier=c.get("multiplier"),
            escaped=c.get("escaped", ()),
            carried=c.get("carried"),
        )
        assert r.WhichOneof("result") == "settlement", r
        assert list(r.settlement.deltas) == want.deltas
        assert [(N(dc.DachuLineKind, x.kind), x.seat, x.amount, x.text) for x in r.settlement.lines] == [
            (x.kind, x.seat, x.amount, x.text) for x in want.lines
        ]
        # Regression: a −20 line carried "2 × base × 2"; every line's text states its own amount.
        for x in r.settlement.lines:
            assert x.text.endswith(f"= {abs(x.amount)}"), x
    assert res[-1].error.field.startswith(f"deals[{len(cases)}].outcome.chu_side"), res[-1]

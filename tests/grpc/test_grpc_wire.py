"""The server's answers, written in Rust (rust/handeval-wire: the request's bytes in, the
answer's bytes out), equal the messages built
from the Python API's results for the same input, field by field: two paths from the
core to the user, checked against each other."""

from __future__ import annotations

from hypothesis import given, settings

from handeval import _core, shisanshui as ssw
from handeval.v2 import common_pb2, handeval_pb2, shisanshui_pb2 as pb
from harness.deck import DECK, RANKS

from strategies import ssw_deal as deal  # 2-4 seats, specials, fouls, caps, rules


def settlement_from_fields(s) -> pb.ShisanshuiSettlement:
    """The message by field name from ``to_dict()``: independent of wire.rs."""
    d = s.to_dict()
    pairs = []
    for p in d["pairs"]:
        p = dict(p)
        if p["scooper"] is None:
            del p["scooper"]  # proto3 optional: unset
        p["kind"] = pb.ShisanshuiPairKind.Value("SHISANSHUI_PAIR_KIND_" + p["kind"].upper())
        pairs.append(pb.ShisanshuiPair(**p))
    return pb.ShisanshuiSettlement(
        waters=d["waters"],
        deltas=d["deltas"],
        pairwise=[common_pb2.IntRow(values=r) for r in d["pairwise"]],
        fouls=d["fouls"],
        specials=[
            pb.ShisanshuiSpecialKind.Value("SHISANSHUI_SPECIAL_KIND_" + x.upper()) if x else 0 for x in d["specials"]
        ],
        home_runs=d["home_runs"],
        theoretical=d["theoretical"],
        rake=d["rake"],
        pairs=pairs,
    )


def _cards(cards) -> common_pb2.Cards:
    return common_pb2.Cards(cards=list(cards))


def wire_settlement(players, base, carried, rules) -> bytes:
    """The server's answer to Settle of this deal, as the serialized ShisanshuiSettlement."""
    seats = []
    for p in players:
        if "special" in p:
            kind = pb.ShisanshuiSpecialKind.Value("SHISANSHUI_SPECIAL_KIND_" + p["special"].upper())
            seats.append(pb.ShisanshuiPlayer(special=pb.ShisanshuiDeclaredSpecial(kind=kind, cards=_cards(p["cards"]))))
        else:
            seats.append(
                pb.ShisanshuiPlayer(
                    arrangement=pb.ShisanshuiArrangement(
                        front=_cards(p["front"]), middle=_cards(p["middle"]), back=_cards(p["back"])
                    )
                )
            )
    deal = pb.ShisanshuiDeal(
        players=seats,
        base=base,
        carried=[common_pb2.Carried(amount=c) if c is not None else common_pb2.Carried() for c in carried or ()],
    )
    r = rules.to_dict() if rules is not None else {}
    wire_rules = pb.ShisanshuiRules(
        suit_tiebreak=r.get("suit_tiebreak", True),
        home_run_min_opponents=r.get("home_run_min_opponents", 3),
        rake_percent=r.get("rake_percent", 0),
    )
    request = handeval_pb2.SettleRequest(shisanshui=pb.ShisanshuiSettleRequest(rules=wire_rules, deals=[deal]))
    answer = _core.wire_answer("Settle", request.SerializeToString(), _core.WireCall(), 10_000, 1_000, False)
    result = handeval_pb2.SettleResponse.FromString(answer).shisanshui.results[0]
    assert result.WhichOneof("result") == "settlement", result
    return result.settlement.SerializeToString()


@settings(max_examples=400, deadline=None)
@given(deal())
def test_shisanshui_settlement_wire_form_is_its_message(case):
    players, base, carried, rules = case
    s = ssw.settle(players, base=base, carried=carried, rules=rules)
    wire = wire_settlement(players, base, carried, rules)
    assert pb.ShisanshuiSettlement.FromString(wire) == settlement_from_fields(s)
    assert wire == settlement_from_fields(s).SerializeToString()  # also byte for byte


def test_wire_form_covers_every_field_kind():
    """Seeded deals until each kind of value has been written at least once (a scoop, a
    home run, a declared special, a foul, a rake, a cap), each checked like above: no
    field is left at its default by accident of the random draws."""
    import random

    rng = random.Random(12)
    seen = set()
    for _ in range(20_000):
        cards = rng.sample(DECK, 52)
        players = []
        for i in range(4):
            h = sorted(cards[13 * i : 13 * i + 13], key=lambda c: RANKS.index(c[0]))
            sid = ssw.special(h)
            players.append({"special": sid, "cards": h} if sid else {"front": h[:3], "middle": h[3:8], "back": h[8:]})
        if rng.random() < 0.3:
            h = sorted(cards[:13], key=lambda c: RANKS.index(c[0]))
            players[0] = {"front": h[10:], "middle": h[:5], "back": h[5:10]}  # fouled
        base, carried, rules = (
            rng.choice([1, 10, 10**9]),
            [None, 50, None, None],
            ssw.Rules(rake_percent=rng.choice([0, 5])),
        )
        s = ssw.settle(players, base=base, carried=carried, rules=rules)
        assert pb.ShisanshuiSettlement.FromString(
            wire_settlement(players, base, carried, rules)
        ) == settlement_from_fields(s)
        seen |= {
            k
            for k, hit in [
                ("scoop", any(p.scooper is not None for p in s.pairs)),
                ("home run", any(s.home_runs)),
                ("special", any(s.specials)),
                ("foul", any(s.fouls)),
                ("rake", s.rake > 0),
                ("capped", s.deltas[1] != s.theoretical[1]),
            ]
            if hit
        }
        if len(seen) == 6:
            break
    assert len(seen) == 6, seen

"""托管 (docs/suggest.md): ``tienlen.Game.suggest`` and ``dachu.Game/Deal/Calling.suggest``
— always accepted by ``apply``, deterministic for a seed, blind to the other seats' hidden
cards, and the same from Python, the CLI (``--suggest``) and the wire (``suggest`` in a
game record)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from handeval import HandevalError, _core, dachu, tienlen
from handeval.v2 import common_pb2, dachu_pb2, handeval_pb2 as pb, tienlen_pb2
from harness.deck import TL_DECK as DECK

from strategies import DC_HANDS

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS


def deal(rng, players):
    cards = DECK[:]
    rng.shuffle(cards)
    return [" ".join(cards[13 * p : 13 * p + 13]) for p in range(players)]


def random_tienlen(seed, players, steps, rules=None):
    """A game after `steps` random legal actions (chops out of turn included)."""
    rng = random.Random(seed)
    g = tienlen.Game(deal(rng, players), rules=rules)
    for _ in range(steps):
        if g.over:
            break
        offers = g.chop_offers
        if offers and rng.random() < 0.3:
            s, plays = rng.choice(offers)
            g = g.apply((s, rng.choice(plays).cards))
            continue
        choices = [(g.turn, p.cards) for p in g.legal_plays] + ([(g.turn, "pass")] if g.may_pass else [])
        g = g.apply(rng.choice(choices))
    return g


TL_RULES = [
    tienlen.Rules(),
    tienlen.Rules(
        first_lead_must_contain_lowest=True,
        turn_after_chop="resume",
        unplayed_loser_adds_multipliers=False,
        rake_percent=0,
    ),
]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    steps=st.integers(0, 60),
    rules=st.sampled_from(TL_RULES),
    effort=st.sampled_from([None, 0, 2]),
)
def test_tienlen_suggestions_are_legal_and_deterministic(seed, players, steps, rules, effort):
    g = random_tienlen(seed, players, steps, rules)
    if g.over:
        with pytest.raises(HandevalError) as e:
            g.suggest(effort=effort)
        assert e.value.reason == "game_over"
        return
    a = g.suggest(seed=seed, effort=effort)
    assert a[0] == g.turn
    g.apply(a)  # accepted
    assert g.suggest(seed=seed, effort=effort) == a
    best = g.suggestions(seed=seed, effort=effort)
    assert best[0][0] == a and all(isinstance(s, float) for _, s in best)
    for s, _ in g.chop_offers:
        c = g.suggest(s, seed=seed, effort=effort)
        if c is not None:
            g.apply(c)


def test_tienlen_hidden_cards_do_not_matter():
    # Seat 0 leads 3s; the other three hold different cards in the two games, with the
    # same counts: seat 1's suggestion is the same.
    mine = "4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2s 2c 4c"
    rest = [c for c in DECK if c not in mine.split() and c != "3s"]

    def deal_rest(k):
        while True:
            r = rest[:]
            random.Random(k).shuffle(r)
            h = ["3s " + " ".join(r[0:12]), mine, " ".join(r[12:25]), " ".join(r[25:38])]
            if tienlen.instant_winner(h)[1] is None:
                return h
            k += 100

    a, b = deal_rest(1), deal_rest(2)
    assert a != b
    ga, gb = (tienlen.replay(h, [(0, "3s")]) for h in (a, b))
    for effort in (0, 4):
        assert ga.suggest(1, seed=3, effort=effort) == gb.suggest(1, seed=3, effort=effort)


def test_bad_arguments_are_handeval_errors():
    g = tienlen.Game(deal(random.Random(1), 4))
    for kwargs, field in [
        ({"effort": 65}, "effort"),
        ({"effort": -1}, "effort"),
        ({"seed": -1}, "seed"),
        ({"effort": "x"}, "effort"),
        ({"seat": 9}, "seat"),
    ]:
        with pytest.raises(HandevalError) as e:
            g.suggest(**kwargs)
        assert e.value.field == field, (kwargs, e.value)
    other = (g.turn + 1) % 4
    with pytest.raises(HandevalError) as e:
        g.suggest(other)
    assert e.value.reason == "not_your_turn"


def dachu_game(seed, plays=0):
    rng = random.Random(seed)
    hands = deal(rng, 4)
    d = dachu.Deal(hands)
    while not d.finished:
        acted = False
        for s in range(4):
            a = d.suggest(s)
            if a is not None:
                d, acted = d.apply(a), True
                break
        if not acted:
            d = d.apply(("deal",) if d.dealt < 13 else ("finish",))
    c = d.calling()
    while not c.over:
        call = c.suggest(d.hands[c.turn], d.chu)
        assert call in c.legal_actions
        c = c.apply(call)
    g = dachu.Game(d, c)
    for _ in range(plays):
        if g.over:
            break
        g = g.apply(rng.choice(g.legal_actions))
    return hands, d, c, g


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), plays=st.integers(0, 50), effort=st.sampled_from([None, 2]))
def test_dachu_suggestions_are_legal_and_deterministic(seed, plays, effort):
    _, _, _, g = dachu_game(seed, plays)
    if g.over:
        with pytest.raises(HandevalError):
            g.suggest(effort=effort)
        return
    a = g.suggest(seed=seed, effort=effort)
    assert a[1] == g.turn
    g.apply(a)
    assert g.suggest(seed=seed, effort=effort) == a
    assert g.suggestions(seed=seed, effort=effort)[0][0] == a


def test_a_game_played_by_suggest_alone_ends():
    g = tienlen.Game(deal(random.Random(7), 3))
    while not g.over:
        offers = [s for s, _ in g.chop_offers]
        a = next((x for x in (g.suggest(s) for s in offers) if x is not None), None) or g.suggest()
        g = g.apply(a)
    assert sum(g.settle().deltas) + g.settle().rake == 0
    _, _, _, d = dachu_game(11)
    while not d.over and not d.decided:
        d = d.apply(d.suggest())


# ---- the CLI and the wire give the same answer as Python ----

CMD = [sys.executable, "-m", "handeval"]


def cli(*args):
    p = subprocess.run(CMD + [str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def wire(rpc, req, game):
    out = _core.wire_answer(rpc, req.SerializeToString(), _core.WireCall(None), 1000, 1000, True)
    return getattr(getattr(pb, f"{rpc}Response").FromString(out), game)


def tl_action_text(a):
    return f"{a[0]} {a[1] if a[1] == 'pass' else ' '.join(a[1])}"


@pytest.mark.parametrize("seed,effort", [(3, 0), (4, 3)])
def test_tienlen_python_cli_and_wire_agree(seed, effort):
    g = random_tienlen(seed, 4, 9)
    hands = [" ".join(h) for h in g.hands]
    want = g.suggest(seed=seed, effort=effort)
    out = cli(
        "tienlen",
        "game",
        "--json",
        "--hands",
        *hands,
        "--actions",
        "; ".join(tl_action_text(a) for a in g.history),
        "--suggest",
        "--seed",
        seed,
        "--effort",
        effort,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["suggest"] == {"seat": want[0], "action": want[1]}
    acts = [
        common_pb2.PlayAction(seat=s, kind=PASS)
        if a == "pass"
        else common_pb2.PlayAction(seat=s, kind=PLAY, cards=common_pb2.Cards(cards=a))
        for s, a in g.history
    ]
    rec = tienlen_pb2.TienlenGameRecord(
        hands=[common_pb2.Cards(cards=h.split()) for h in hands],
        actions=acts,
        suggest=common_pb2.SuggestQuery(seed=seed, effort=effort),
    )
    res = wire(
        "Evaluate",
        pb.EvaluateRequest(
            tienlen=tienlen_pb2.TienlenEvaluateRequest(items=[tienlen_pb2.TienlenEvaluateItem(game=rec)])
        ),
        "tienlen",
    ).results[0]
    s = res.game.suggestion.action
    assert (s.seat, "pass" if s.kind == PASS else list(s.cards.cards)) == tuple(want)
    assert len(res.game.suggestion.alternatives) == len(g.suggestions(seed=seed, effort=effort))
    # Unasked, no suggestion; a bad effort is named.
    rec.ClearField("suggest")
    res = wire(
        "Evaluate",
        pb.EvaluateRequest(
            tienlen=tienlen_pb2.TienlenEvaluateRequest(items=[tienlen_pb2.TienlenEvaluateItem(game=rec)])
        ),
        "tienlen",
    ).results[0]
    assert not res.game.HasField("suggestion")
    rec.suggest.effort = 999
    res = wire(
        "Evaluate",
        pb.EvaluateRequest(
            tienlen=tienlen_pb2.TienlenEvaluateRequest(items=[tienlen_pb2.TienlenEvaluateItem(game=rec)])
        ),
        "tienlen",
    ).results[0]
    assert res.error.field.endswith("suggest.effort"), res
    out = cli("tienlen", "game", "--hands", *hands, "--suggest", "--effort", 999)
    assert out.returncode == 2 and "effort" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_dachu_python_cli_and_wire_agree():
    hands = DC_HANDS
    g = dachu.replay_game(
        hands, [("deal",)] * 9 + [("cheng_chu", 1, "red"), ("finish",)], [("ping_da", 1)], [("play", 0, "3h 3s")]
    )
    want = g.suggest(seed=2, effort=2)
    out = cli(
        "dachu",
        "game",
        "--json",
        "--hands",
        *hands,
        "--actions",
        "deal*9; cheng_chu 1 red; finish",
        "--calls",
        "ping_da 1",
        "--plays",
        "play 0 3h 3s",
        "--suggest",
        "--seed",
        2,
        "--effort",
        2,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["suggest"]
    assert (got["action"], got["seat"]) == want[:2] and (got["cards"] or []) == (list(want[2]) if len(want) > 2 else [])
    deal_actions = [dachu_pb2.DachuDealAction(kind=dachu_pb2.DACHU_DEAL_ACTION_KIND_DEAL)] * 9 + [
        dachu_pb2.DachuDealAction(
            kind=dachu_pb2.DACHU_DEAL_ACTION_KIND_CHENG_CHU, seat=1, colour=dachu_pb2.DACHU_COLOUR_RED
        ),
        dachu_pb2.DachuDealAction(kind=dachu_pb2.DACHU_DEAL_ACTION_KIND_FINISH),
    ]
    rec = dachu_pb2.DachuGameRecord(
        hands=[common_pb2.Cards(cards=h.split()) for h in hands],
        deal_actions=deal_actions,
        calls=[dachu_pb2.DachuCall(call=dachu_pb2.DACHU_CALL_KIND_PING_DA, seat=1)],
        plays=[common_pb2.PlayAction(seat=0, kind=PLAY, cards=common_pb2.Cards(cards=["3h", "3s"]))],
        suggest=common_pb2.SuggestQuery(seed=2, effort=2),
    )
    res = wire(
        "Evaluate",
        pb.EvaluateRequest(dachu=dachu_pb2.DachuEvaluateRequest(items=[dachu_pb2.DachuEvaluateItem(game=rec)])),
        "dachu",
    ).results[0]
    assert not res.HasField("error"), res.error
    s = res.game.play.suggestion.action
    assert ("pass" if s.kind == PASS else "play", s.seat) == want[:2]
    assert list(s.cards.cards) == (list(want[2]) if len(want) > 2 else [])

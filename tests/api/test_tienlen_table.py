"""越式13张's table model through Python (docs/rules.md §2.4, docs/api.md): the chop window
of each reading of ``chop_window`` against an oracle written here from the rule book's
words, a seat's ``view`` and its ``offers``, and 托管 for a chop out of turn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from handeval import HandevalError, tienlen
from harness.deck import DECK

WINDOWS = ["first_actor", "strict", "own_pass", "open"]


def _deal(rng: random.Random, players: int) -> list[list[str]]:
    deck = rng.sample(DECK, 52)
    return [deck[13 * i : 13 * i + 13] for i in range(players)]


def _window_open(window: str, since: list[tuple[int, str]], seat: int) -> bool:
    """RULES 2.4 [v5], read from its words: may ``seat`` (which has passed and did not make
    the play on the table) chop that play, given the actions made since it (all passes)?"""
    if window == "strict":  # only right after the play
        return not since
    if window == "first_actor":  # no other player has acted since (its own pass as the next in turn)
        return not since or (len(since) == 1 and since[0][0] == seat)
    if window == "own_pass":  # as first_actor, or right after its own pass on that play
        return not since or since[-1][0] == seat
    return True  # open: as long as it is the play on the table


def _random_game(rng: random.Random, rules: tienlen.Rules, players: int):
    """A game played through the table's offers (chops out of turn included), with, before
    each action, the oracle's and the engine's say on every passed seat's chop."""
    hands = _deal(rng, players)
    g = tienlen.Game(hands, rules=rules)
    while not g.over:
        yield g
        views = [g.view(s) for s in range(players)]
        offers = [o for v in views for o in v["offers"]]
        passes = [o for o in offers if o[0][1] == "pass"]
        action, _ = rng.choice(passes) if passes and rng.random() < 0.4 else rng.choice(offers)
        g = g.apply(tuple(action))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), window=st.sampled_from(WINDOWS))
def test_the_chop_window_agrees_with_the_rule_books_words(seed, players, window):
    """Every state of random games under each reading: a passed seat is offered a chop
    exactly when the oracle's window is open and it holds a special that beats the table;
    every offered chop is accepted and a chop outside the window is refused."""
    rng = random.Random(seed)
    rules = tienlen.Rules(chop_window=window)
    for g in _random_game(rng, rules, players):
        trick = g.tricks[-1] if g.tricks and not g.tricks[-1][3] else None
        for seat in range(players):
            chops = [a for a, acting in g.view(seat)["offers"] if acting == "may_act"]
            if g.table is None or trick is None or seat not in g.passed or seat == g.table_seat:
                assert chops == []
                continue
            actions = g.history[trick[1] :]
            last_play = max(i for i, (_, a) in enumerate(actions) if a != "pass")
            since = actions[last_play + 1 :]
            holds = tienlen.legal_plays(g.held[seat], g.table, passed=True)
            want = _window_open(window, since, seat) and bool(holds)
            assert bool(chops) == want, (window, actions, seat)
            for a in chops:
                assert g.check(a) is None
            if holds and not want:
                e = g.check((seat, holds[0].cards))
                assert e.reason == "illegal_action" and f"chop_window={window}" in e.description


def test_chop_window_readings_by_hand():
    """RULES 2.4's readings on one round: seat 0 leads 9♠, seat 1 plays a 2, seats 2 and 3
    pass; who may chop with a bomb now."""
    hands = [
        "3s 9s 3h 4h 5h 6h 8h 9h Th Jh Qh Kh Ah",
        "2s 4s 5s 6s 8s Ts Js Qs Ks As 3c 4c 5c",
        "7s 7h 7d 7c 3d 4d 5d 6d 8d 9d Td Jd Qd",
        "2h 2d 2c 6c 8c 9c Tc Jc Qc Kc Ac Kd Ad",
    ]
    record = [(0, "9s"), (1, "2s"), (2, "pass")]
    bomb = (2, "7s 7h 7d 7c")
    for window, ok_now, ok_after_3 in [
        ("first_actor", True, False),
        ("strict", False, False),
        ("own_pass", True, False),
        ("open", True, True),
    ]:
        g = tienlen.replay(hands, record, rules=tienlen.Rules(chop_window=window))
        assert (g.check(bomb) is None) == ok_now, window
        g3 = g.apply((3, "pass"))
        assert (g3.check(bomb) is None) == ok_after_3, window
    assert tienlen.Rules().chop_window == "first_actor"
    with pytest.raises(HandevalError, match="chop_window") as e:
        tienlen.Game(hands, rules=tienlen.Rules(chop_window="later"))
    assert e.value.field.startswith("rules")


def test_a_view_and_its_offers():
    """The view holds the viewer's cards only; its offers are the actions it may send, with
    how it may act; 托管 answers a seat that may chop out of turn."""
    hands = [
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d",
        "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h",
        "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Kc Qc",
        "3c 4c 5c 6c 7c 8c 9c Tc Jc Ad As Ac Ah",
    ]
    g = tienlen.replay(hands, [(0, "3s"), (1, "4h"), (2, "5d"), (3, "pass"), (0, "2d")])
    turn = g.view(1)
    assert [h is None for h in turn["held"]] == [True, False, True, True]
    assert {acting for _, acting in turn["offers"]} == {"turn"}
    assert [a for a, _ in turn["offers"]] == [[1, p.cards] for p in g.legal_plays] + [[1, "pass"]]
    chop = g.view(3)
    assert chop["offers"] == [[[3, ["As", "Ac", "Ad", "Ah"]], "may_act"]]
    assert g.view(2)["offers"] == [] and g.view(0)["offers"] == []
    # 托管 for the chop: the chop, or None (let the play go on); both among its choices.
    a = g.suggest(3)
    assert a is None or [a[0], a[1]] in [x for x, _ in chop["offers"]]
    assert sorted([x for x, _ in g.suggestions(3)], key=str) == sorted([None, (3, ["As", "Ac", "Ad", "Ah"])], key=str)
    with pytest.raises(HandevalError) as e:
        g.suggest(2)
    assert e.value.reason == "not_your_turn"

"""Game records: tienlen.Game / replay and dachu.Game / replay_game own every
game's flow and check every action against the record (docs/rules.md §2.4, §3.4, §3.4a)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings, strategies as st

from handeval import HandevalError, dachu, tienlen

from strategies import DC_HANDS, TL_HANDS

DC_DEAL = [("deal",)] * 9 + [("cheng_chu", 1, "red"), ("finish",)]


def _err(fn, *args):
    with pytest.raises(HandevalError) as ei:
        fn(*args)
    return ei.value


# ---------------------------------------------------------------- 越式13张


def test_tienlen_checks_every_action_against_the_record():
    g = tienlen.Game(TL_HANDS)
    assert (g.turn, g.round, g.leader, g.players) == (0, 0, 0, 4)
    # The example: a seat playing a card from another seat's hand.
    e = g.check((0, "As"))
    assert e.reason == "card_not_in_hand" and e.field == "action.cards" and "seat 3" in e.description
    e = _err(g.apply, (1, "3h"))
    assert e.reason == "not_your_turn" and e.field == "action.seat"
    assert g.check((0, "3s 5s")).reason == "not_a_play"
    assert g.check((0, "pass")).reason == "illegal_action"
    g = g.apply((0, "5s"))
    assert g.check((1, "4h")).reason == "does_not_beat"
    assert g.check((1, "5s")).reason == "card_not_in_hand"
    e = _err(tienlen.replay, TL_HANDS, [(0, "5s"), (1, "6h"), (1, "7h")])
    assert (e.field, e.reason) == ("actions[2].seat", "not_your_turn")
    e = _err(tienlen.replay, TL_HANDS, [(0, "5s"), (1, "3h 4h")])
    assert (e.field, e.reason) == ("actions[1].cards", "not_a_play")
    e = _err(tienlen.replay, TL_HANDS, [(0, "pass")] * 209)
    assert (e.field, e.reason) == ("actions", "too_large")
    e = _err(tienlen.Game, TL_HANDS[:3] + ["3c 4c"])
    assert e.reason == "wrong_count" and e.field == "hands[3]"


def test_tienlen_rounds_chops_and_settlement_from_the_record():
    rec = [(0, "3s"), (1, "4h"), (2, "5d"), (3, "pass"), (0, "2d")]
    g = tienlen.replay(TL_HANDS, rec)
    assert g.turn == 1 and g.table.top == "2d" and g.table_seat == 0 and g.passed == [3]
    # Seat 3 passed and holds four aces: offered a chop, out of turn.
    assert [(s, [p.cards for p in ps]) for s, ps in g.chop_offers] == [(3, [["As", "Ac", "Ad", "Ah"]])]
    assert g.check((3, "Jc")).reason == "illegal_action"
    g = g.apply((3, "Ad As Ac Ah"))
    assert g.turn == 0 and g.chop_offers == []
    g = g.apply((0, "pass")).apply((1, "pass")).apply((2, "pass"))
    assert (g.round, g.leader, g.turn, g.table) == (1, 3, 3, None)
    assert g.chops == [(0, 3, 3)]
    assert g.held[3] == ["3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc"]
    g = g.apply((3, "3c 4c 5c 6c 7c 8c 9c Tc Jc"))
    assert g.over and g.winner == 3 and g.turn is None
    assert g.check((0, "pass")).reason == "game_over"
    s = g.settle(base=10)
    assert s.winner == 3 and s.chops == [-30, 0, 0, 30] and sum(s.deltas) + s.rake == 0
    # The same as the outcome-based settle, given what the record derives.
    s2 = tienlen.settle([" ".join(h) for h in g.held], 3, 10, chops=[(0, 3, 30)])
    assert s2.deltas == s.deltas
    assert g.to_dict()["winner"] == 3 and g.to_dict()["chop_offers"] == []
    assert pickle.loads(pickle.dumps(g)) == g and hash(pickle.loads(pickle.dumps(g))) == hash(g)


def test_tienlen_must_contain_and_instant_win():
    g = tienlen.Game(TL_HANDS, rules=tienlen.Rules(first_lead_must_contain_lowest=True))
    assert g.must_contain == "3s" and all("3s" in p.cards for p in g.legal_plays)
    assert g.check((0, "4s")).reason == "illegal_action"
    hands = [
        "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ac Ad",
        "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As Ah",
        "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Kc Qc",
        "3c 4c 5c 6c 7c 8c 9c Tc Jc 2c 2d 2s 2h",
    ]
    g = tienlen.Game(hands)
    assert g.over and g.instant is not None and g.turn is None
    s = g.settle(base=10)
    assert s.instant[g.winner] is not None and sum(s.deltas) + s.rake == 0


def test_outcome_settle_rejects_inconsistent_and_huge_chop_records():
    chop = [[3, "2d"], [0, "pass"], [1, "pass"], [2, "8s 8h 9s 9h Ts Th Js Jh"], [3, "pass"]]
    remaining = ["", "3s 4s", "5s", "6s"]
    assert tienlen.settle(remaining, 0, 10, chops=[chop]).chops == [0, 0, 40, -40]
    # The same round sent twice is settled once: refused.
    e = _err(tienlen.settle, remaining, 0, 10, None, [chop, chop])
    assert e.reason == "inconsistent" and e.field.startswith("chops[1][")
    # More rounds than 52 cards allow: refused before any work.
    e = _err(tienlen.settle, remaining, 0, 10, None, [chop] * 100_000)
    assert (e.field, e.reason) == ("chops", "too_large")
    e = _err(tienlen.chop_transfers, [[0, "pass"]] * 100_000, 10)
    assert (e.field, e.reason) == ("round", "too_large")


def _deal(seed, players):
    deck = [r + s for r in "3456789TJQKA2" for s in "shdc"]
    random.Random(seed).shuffle(deck)
    return [" ".join(deck[13 * p : 13 * p + 13]) for p in range(players)]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    picks=st.lists(st.integers(0, 10**6), min_size=50, max_size=50),
)
def test_tienlen_random_games_are_checked_and_zero_sum(seed, players, picks):
    g = tienlen.Game(_deal(seed, players))
    n = 0
    while not g.over:
        pick = picks[n % len(picks)]
        n += 1
        assert n <= 208
        choices = [(g.turn, p) for p in g.legal_plays]
        choices += [(s, p) for s, ps in g.chop_offers for p in ps]
        if g.may_pass:
            choices.append((g.turn, "pass"))
        for seat, p in choices[:3]:
            assert g.check((seat, p)) is None
        wrong = (g.turn + 1 + pick % (players - 1)) % players
        if wrong not in g.passed and g.legal_plays:
            assert g.check((wrong, g.legal_plays[0])).reason in ("not_your_turn", "card_not_in_hand")
        seat, p = (g.turn, "pass") if g.may_pass and pick % 3 == 0 else choices[pick % len(choices)]
        g = g.apply((seat, p))
        # Trick ends (Game.tricks) as the plays and passes make them (below).
        _check_tricks(
            g, _trick_ends([(s, None if c == "pass" else c) for s, c in g.history], range(players), first_out_ends=True)
        )
    # A round's leader is who won the one before (RULES 2.4).
    assert all(b[0] == a[4] for a, b in zip(g.tricks, g.tricks[1:]))
    assert tienlen.replay(g.hands, g.history) == g
    s = g.settle(base=3)
    assert sum(s.deltas) + s.rake == 0
    assert sum(len(h) for h in g.held) + sum(len(c) for _, c in g.history if c != "pass") == 13 * players


# ---------------------------------------------------------------- 打儲


def _dc_start(rules=None, calls=(("ping_da", 1),)):
    return dachu.replay_game(DC_HANDS, DC_DEAL, list(calls), [], rules=rules)


def test_dachu_turns_tricks_and_reasons():
    g = _dc_start()
    assert (g.turn, g.chu, g.chu_side, g.multiplier, g.playing) == (0, "red", [1], 2, [0, 1, 2, 3])
    assert g.legal_plays[0].cards == ["3h"] and all("3h" in p.cards for p in g.legal_plays)
    assert g.check(("play", 0, "4s")).reason == "illegal_action" and g.check(("play", 0, "3h")) is None
    e = _err(g.apply, ("play", 1, "4h"))
    assert (e.reason, e.field) == ("not_your_turn", "action.seat")
    assert _err(g.apply, ("play", 0, "4s")).reason == "illegal_action"
    assert _err(g.apply, ("play", 0, "4h")).reason == "card_not_in_hand"
    assert _err(g.apply, ("pass", 0)).reason == "illegal_action"
    g = g.apply(("play", 0, "3h"))
    assert _err(g.apply, ("play", 1, "2h 4h")).reason == "not_a_play"
    g = g.apply(("pass", 1)).apply(("play", 2, "4d")).apply(("play", 3, "5c"))
    assert _err(g.apply, ("play", 0, "4s")).reason == "does_not_beat"
    g = g.apply(("pass", 0)).apply(("play", 1, "6h")).apply(("pass", 2)).apply(("pass", 3)).apply(("pass", 0))
    assert (g.turn, g.table, g.leader) == (1, None, 1)
    e = _err(dachu.replay_game, DC_HANDS, DC_DEAL, [("ping_da", 1)], [("play", 0, "3h"), ("play", 2, "4d")])
    assert (e.field, e.reason) == ("plays[1].seat", "not_your_turn")
    e = _err(dachu.replay_game, DC_HANDS, DC_DEAL, [("ping_da", 1)], [("pass", 0)] * 209)
    assert (e.field, e.reason) == ("plays", "too_large")
    assert pickle.loads(pickle.dumps(g)) == g
    assert g.to_dict()["turn"] == 1


def test_dachu_pass_is_final_option():
    assert dachu.Rules().pass_is_final is False
    g = dachu.replay_game(
        DC_HANDS,
        DC_DEAL,
        [("ping_da", 1)],
        [("play", 0, "3h"), ("pass", 1), ("play", 2, "4d")],
        rules=dachu.Rules(pass_is_final=True),
    )
    assert g.turn == 3 and g.passed == [1]
    g = g.apply(("pass", 3)).apply(("play", 0, "5s"))
    assert g.turn == 2


def test_dachu_surrendered_side_and_timeout():
    g = _dc_start(calls=[("jiao", 1)])
    assert g.over and g.decided == "surrender" and g.turn is None
    s = g.settle(base=10)
    assert s.verdict is None and sum(s.deltas) == 0
    g = _dc_start().apply(("timeout", 0))
    assert g.history == [("play", 0, ["3h"])]


def _random_dc_game(seed, picks, rules=None):
    hands = _deal(seed, 4)
    deal = dachu.Deal(hands, rules=rules)
    while not deal.finished:
        deal = deal.apply(("deal",) if deal.dealt < 13 else ("finish",))
    calling = deal.calling()
    k = 0
    while not calling.over:
        acts = calling.legal_actions
        calling = calling.apply(acts[picks[k % len(picks)] % len(acts)])
        k += 1
    return deal, calling, dachu.Game(deal, calling)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), min_size=40, max_size=40), final=st.booleans())
def test_dachu_random_games(seed, picks, final):
    deal, calling, g = _random_dc_game(seed, picks, dachu.Rules(pass_is_final=final))
    early = None
    n = 0
    while not g.over:
        n += 1
        assert n <= 208
        early = early or g.decided
        pick = picks[n % len(picks)]
        wrong = (g.turn + 1 + pick % 3) % 4
        assert _err(g.apply, ("pass", wrong)).reason == "not_your_turn"
        acts = g.legal_actions
        g = g.apply(acts[pick % len(acts)])
        # Trick ends (Game.tricks) as the plays and passes make them (below).
        history = [(a[1], a[2] if a[0] == "play" else None) for a in g.history]
        _check_tricks(g, _trick_ends(history, g.playing, owner=g.auto_lead, lead=g.auto_lead, pass_is_final=final))
        # A trick is led by its first action's seat, but one after an automatic 3♥ lead.
        assert all(t[0] == history[t[1]][0] for t in g.tricks[g.auto_lead is not None :])
    assert _err(g.apply, ("pass", 0)).reason == "game_over"
    s = g.settle(base=5)
    assert sum(s.deltas) == 0
    if g.decided != "surrender":
        assert sorted(g.places) == g.playing
        assert early is None or early == g.decided
        assert s.verdict == g.decided and s.wipe_out == g.wipe_out
        again = dachu.replay_game(
            deal.hands, deal.history, calling.history, g.history, rules=dachu.Rules(pass_is_final=final)
        )
        assert again == g


def test_dachu_game_needs_its_own_finished_deal_and_calling():
    deal = dachu.Deal(DC_HANDS)
    e = _err(dachu.Game, deal, dachu.Calling([0]))
    assert e.field in ("deal", "calling")
    finished = dachu.replay_game(DC_HANDS, DC_DEAL, [("ping_da", 1)], [])
    assert finished.turn == 0
    d = deal
    for a in DC_DEAL:
        d = d.apply(a)
    e = _err(dachu.Game, d, dachu.Calling([2]).apply(("ping_da", 2)))
    assert e.reason == "inconsistent"


def test_dachu_replay_game_refuses_a_record_by_the_phase_it_lacks():
    """replay_game replays by the core's record (the service's too): an action of a
    phase that has not begun names the first such action; a record that stops before
    the play is refused by the step it lacks."""
    unfinished = DC_DEAL[:-1]
    e = _err(dachu.replay_game, DC_HANDS, unfinished, [("ping_da", 1)], [])
    assert (e.field, e.reason, e.action_index) == ("calls[0]", "illegal_action", 0)
    e = _err(dachu.replay_game, DC_HANDS, unfinished, [], [("play", 0, "3h")])
    assert (e.field, e.reason) == ("plays[0]", "illegal_action")
    e = _err(dachu.replay_game, DC_HANDS, unfinished, [], [])
    assert (e.field, e.reason) == ("deal", "illegal_action")
    e = _err(dachu.replay_game, DC_HANDS, DC_DEAL, [], [("play", 0, "3h")])
    assert (e.field, e.reason) == ("plays[0]", "illegal_action")
    # A malformed entry is named where it stands, before anything is replayed.
    e = _err(dachu.replay_game, DC_HANDS, DC_DEAL, [("ping_da", 1)], [("play", 0, "3h"), ("play", 9, "4d")])
    assert (e.field, e.reason, e.action_index) == ("plays[1].seat", "out_of_range", 1)


# ---------------------------------------------------------------- trick ends (Game.tricks)
# Each game's trick ends, worked out here from the record's plays and passes alone and
# compared with Game.tricks, [(leader, first_action, last_action, over, won_by)], after
# every action of the random games above, and on short records below.


def _trick_ends(history, seats, *, first_out_ends=False, owner=None, lead=None, pass_is_final=True):
    """Trick ends of a record of ``(seat, cards | None)`` (None: a pass) from 13-card hands.
    A trick ends once every seat still holding cards has passed on its last play, but that
    play's seat. The game ends inside its trick: when a seat goes out (``first_out_ends``,
    越式13张) or when at most one seat holds cards (打儲). ``owner`` / ``lead``: the first
    trick's table seat and leader when they are not its first action's. ``pass_is_final``:
    a pass holds for the rest of the trick (else until the next play)."""
    left = dict.fromkeys(seats, 13)
    out, passed = [], set()
    for k, (seat, cards) in enumerate(history):
        if not out or out[-1][3]:
            out.append([seat if lead is None or out else lead, k, k, False, None])
            passed = set()
            owner = owner if len(out) == 1 else None
        out[-1][2] = k
        if cards is None:
            passed.add(seat)
        else:
            owner = seat
            left[seat] -= len(cards)
            if not pass_is_final:
                passed = set()
        holding = [s for s in seats if left[s] > 0]
        game_over = len(holding) < len(left) if first_out_ends else len(holding) <= 1
        if not game_over and all(s == owner or s in passed for s in holding):
            out[-1][3:] = [True, owner]
    return [tuple(t) for t in out]


def _check_tricks(g, ends):
    assert g.tricks == ends and g.to_dict()["tricks"] == [list(t) for t in ends]
    assert pickle.loads(pickle.dumps(g)).tricks == ends
    # The model's own sanity: the tricks cover the record in order, only the last open.
    assert [t[1] for t in ends] == [0] + [t[2] + 1 for t in ends[:-1]]
    assert ends[-1][2] == len(g.history) - 1 and all(t[3] for t in ends[:-1])


def test_tienlen_tricks_of_a_short_game_and_an_instant_win():
    g = tienlen.replay(
        TL_HANDS, [(0, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "2c 2d")]
    )
    assert g.tricks == [(0, 0, 3, True, 0), (0, 4, 4, False, None)]
    deck = [c for hand in _deal(7, 4) for c in hand.split() if c[0] != "2"]
    twos = tienlen.Game(
        ["2s 2c 2d 2h " + " ".join(deck[:9])] + [" ".join(deck[9 + 13 * i : 22 + 13 * i]) for i in range(3)]
    )
    assert (twos.instant, twos.over, twos.tricks) == ("four_twos", True, [])


def test_dachu_tricks_of_a_short_record():
    g = dachu.replay_game(
        DC_HANDS,
        DC_DEAL,
        [("ping_da", 1)],
        [
            ("play", 0, "3h"),
            ("pass", 1),
            ("play", 2, "4d"),
            ("play", 3, "5c"),
            ("pass", 0),
            ("play", 1, "6h"),
            ("pass", 2),
            ("pass", 3),
            ("pass", 0),
            ("play", 1, "7h"),
        ],
    )
    assert g.tricks == [(0, 0, 8, True, 1), (1, 9, 9, False, None)]
    assert _dc_start().tricks == []

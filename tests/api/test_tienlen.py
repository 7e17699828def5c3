"""越式13张 (docs/rules.md §2): seed vectors, exhaustive checks of small families against
an independent Python model of the rules, hypothesis properties, rounds, settlement and
bad input."""

import itertools
from collections import Counter

import pytest
from hypothesis import assume, given, settings, strategies as st

import handeval
from handeval import HandevalError, tienlen as tl
from harness.deck import DECK

# --- an independent model of RULES 2.1-2.3, written from the rule book ----------------

ORDER_RANKS = "3456789TJQKA2"  # low to high
ORDER_SUITS = "scdh"  # ♠ < ♣ < ♦ < ♥
TWO = 12


def strength(card):
    return ORDER_RANKS.index(card[0]) * 4 + ORDER_SUITS.index(card[1])


def ref_classify(cards):
    """(kind, len, top strength) or None when the set is not a play."""
    if not cards:
        return None
    cs = sorted(cards, key=strength)
    n = len(cs)
    count = Counter(ORDER_RANKS.index(c[0]) for c in cs)
    ranks = sorted(count)
    consecutive = ranks[-1] - ranks[0] + 1 == len(ranks)
    top = strength(cs[-1])
    if len(count) == 1:
        if n == 4 and ranks[0] == TWO:
            return None  # four 2s are an instant win, never played
        return ({1: "single", 2: "pair", 3: "triple", 4: "bomb"}[n], n, top)
    if len(count) == n and n >= 3 and TWO not in count and consecutive:
        return ("straight", n, top)
    if all(v == 2 for v in count.values()) and len(count) in (3, 4) and TWO not in count and consecutive:
        return ("three_pair_run" if len(count) == 3 else "four_pair_run", n, top)
    return None


def ref_beats(b, a):
    (kb, nb, tb), (ka, na, ta) = b, a
    if kb == ka and nb == na:
        return tb // 4 > ta // 4 if kb == "bomb" else tb > ta
    single2 = ka == "single" and ta // 4 == TWO
    pair2 = ka == "pair" and ta // 4 == TWO
    if kb == "three_pair_run":
        return single2
    if kb == "bomb":
        return single2 or pair2 or ka == "three_pair_run"
    if kb == "four_pair_run":
        return single2 or pair2 or ka in ("three_pair_run", "bomb")
    return False


def by_rank(rank):
    return [c for c in DECK if c[0] == rank]


def pair_runs(length):
    runs = []
    for lo in range(0, 12 - length + 1):
        ranks = ORDER_RANKS[lo : lo + length]
        for choice in itertools.product(*(itertools.combinations(by_rank(r), 2) for r in ranks)):
            runs.append([c for p in choice for c in p])
    return runs


BOMBS = [by_rank(r) for r in ORDER_RANKS[:12]]
SINGLE_TWOS = [[c] for c in by_rank("2")]
PAIRS_OF_TWOS = [list(p) for p in itertools.combinations(by_rank("2"), 2)]
TRIPLES_OF_TWOS = [list(p) for p in itertools.combinations(by_rank("2"), 3)]


# --- seed vectors ------------------------------------------------------------------


def test_seed_beats(vectors):
    for v in vectors["tienlen_beats"]:
        assert tl.beats(v["play"], v["table"]) is v["expected"], v["source"]
        assert tl.beats_many([(v["play"], v["table"])]) == [v["expected"]], v["source"]


def test_seed_remaining_payments(vectors):
    for v in vectors["tienlen_remaining"]:
        played = v["played_any"]
        s = tl.settle(
            ["", v["cards"]], winner=0, base=v["base"], played_any=[True, played], rules=tl.Rules(rake_percent=0)
        )
        assert s.pays[1] == v["expected_pay"], v["source"]
        assert s.deltas == [v["expected_pay"], -v["expected_pay"]], v["source"]
        # The breakdown explains the whole amount.
        assert -sum(line.amount for line in s.lines if line.seat == 1) == v["expected_pay"], v["source"]


def test_seed_remaining_breakdown(vectors):
    v = vectors["tienlen_remaining"][0]  # 10 × (5 + 3 + 5) = 130
    s = tl.settle(["", v["cards"]], 0, v["base"], rules=tl.Rules(rake_percent=0))
    items = sorted((line.kind, line.multiplier, line.amount) for line in s.lines if line.seat == 1)
    assert items == [("bomb", 3, -30), ("cards", 5, -50), ("red_two", 5, -50)]
    overlap = tl.special_groups(vectors["tienlen_remaining"][1]["cards"])
    assert sorted(k for k, _ in overlap[0]) == ["bomb", "three_pair_run"] and overlap[1] == 5
    overlap = tl.special_groups(vectors["tienlen_remaining"][2]["cards"])
    assert [k for k, _ in overlap[0]] == ["four_pair_run"] and overlap[1] == 4


def test_seed_chop_rounds(vectors):
    for v in vectors["tienlen_chop_rounds"]:
        assert tl.chop_transfers(v["round"], v["base"]) == v["expected_transfers"], v["source"]
        state = tl.round_state(v["round"])
        assert state.over and state.to_move is None, v["source"]


def test_seed_instant_win(vectors):
    for v in vectors["tienlen_instant_win"]:
        assert [tl.instant_win(h) for h in v["hands"]] == v["expected_instant"], v["source"]
        s = tl.settle_instant(v["hands"], v["base"], rules=tl.Rules(rake_percent=0))
        assert s.deltas == v["expected_deltas"], v["source"]
        assert s.rake == 0 and s.instant == v["expected_instant"]
        # With the default 5% rake the winner gives up 5% of 850, rounded toward zero.
        s = tl.settle_instant(v["hands"], v["base"])
        assert s.rake == 42 and s.deltas[0] == 850 - 42 and sum(s.deltas) + s.rake == 0


def test_seed_cap(vectors):
    for v in vectors["cap"]:
        assert handeval.cap(v["theoretical"], v["carried"]) == v["expected"], v["source"]


def test_seed_cap_through_settle(vectors):
    # 越式13张 例2: +200/-60/-80/-60 with carried 80/70/100/20 -> +80/-30/-40/-10.
    v = next(x for x in vectors["cap"] if "越式" in x["source"])
    remaining = ["", "3s 4s 5s 6s 7s 8s", "3h 4h 5h 6h 7h 8h 9h Th", "3d 4d 5d 6d 7d 8d"]
    s = tl.settle(remaining, 0, 10, carried=v["carried"], rules=tl.Rules(rake_percent=0))
    assert s.theoretical == v["theoretical"]
    assert s.deltas == v["expected"]
    assert [line.amount for line in s.lines if line.kind == "cap"] == [-120, 30, 40, 50]


# --- exhaustive small families -----------------------------------------------------


def test_all_singles_against_all_singles():
    pairs = [(a, b) for a in DECK for b in DECK if a != b]
    got = tl.beats_many(pairs)
    assert got == [strength(a) > strength(b) for a, b in pairs]
    assert sum(got) == 52 * 51 // 2


def test_all_pairs_against_all_pairs():
    all_pairs = [list(p) for r in ORDER_RANKS for p in itertools.combinations(by_rank(r), 2)]
    assert len(all_pairs) == 78
    cases = [(a, b) for a in all_pairs for b in all_pairs if not set(a) & set(b)]
    got = tl.beats_many(cases)
    expected = [ref_beats(ref_classify(a), ref_classify(b)) for a, b in cases]
    assert got == expected
    # Spot-check the rule's own words: rank first, then the suit of the highest card.
    assert tl.beats("5h 5s", "5d 5c") and not tl.beats("5d 5c", "5h 5s")
    assert tl.beats("6s 6c", "5h 5d")


def test_every_special_against_every_two_type():
    specials = (
        [("three_pair_run", r) for r in pair_runs(3)]
        + [("bomb", b) for b in BOMBS]
        + [("four_pair_run", r) for r in pair_runs(4)]
    )
    assert len(specials) == 10 * 6**3 + 12 + 9 * 6**4
    chop = {  # RULES 2.3, columns single 2 / pair of 2s; three 2s are never chopped
        "three_pair_run": (True, False, False),
        "bomb": (True, True, False),
        "four_pair_run": (True, True, False),
    }
    for col, twos in enumerate((SINGLE_TWOS, PAIRS_OF_TWOS, TRIPLES_OF_TWOS)):
        cases = [(s, t) for _, s in specials for t in twos]
        got = tl.beats_many(cases)
        expected = [chop[k][col] for k, _ in specials for _ in twos]
        assert got == expected, ["single 2", "pair of 2s", "three 2s"][col]
        # And a 2-type never beats a special.
        back = tl.beats_many([(t, s) for s, t in cases[:: max(1, len(cases) // 3000)]])
        assert not any(back)


def test_specials_against_specials_and_plain_plays():
    runs3 = pair_runs(3)[::37]
    runs4 = pair_runs(4)[::211]
    plays = (
        runs3
        + BOMBS
        + runs4
        + [["As"], ["Ks", "Kh"], ["Qs", "Qh", "Qd"], ["9s", "Ts", "Jh"], ["3d", "4d", "5d", "6d", "7d"]]
    )
    cases = [(a, b) for a in plays for b in plays if not set(a) & set(b)]
    got = tl.beats_many(cases)
    assert got == [ref_beats(ref_classify(a), ref_classify(b)) for a, b in cases]
    # Specials never follow a plain (non-2) play.
    for sp in runs3 + BOMBS + runs4:
        for plain in (["As"], ["3s", "4s", "5s"], ["Kd", "Kc"]):
            if not set(sp) & set(plain):
                assert not tl.beats(sp, plain)


# --- properties --------------------------------------------------------------------

cards_st = st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True)


@given(cards_st)
@settings(max_examples=800, deadline=None)
def test_classify_matches_the_model(cards):
    ref = ref_classify(cards)
    if ref is None:
        with pytest.raises(HandevalError, match="not a play"):
            tl.classify(cards)
    else:
        p = tl.classify(cards)
        assert (p.kind, len(p.cards), p.strength) == ref
        assert p.cards == sorted(cards, key=strength) and p.top == p.cards[-1]


@st.composite
def two_plays(draw):
    hand = draw(st.lists(st.sampled_from(DECK), min_size=2, max_size=13, unique=True))
    plays = tl.legal_plays(hand)
    a = draw(st.sampled_from(plays))
    rest = [p for p in plays if not set(p.cards) & set(a.cards)]
    assume(rest)
    return a, draw(st.sampled_from(rest))


@given(two_plays())
@settings(max_examples=800, deadline=None)
def test_beats_is_irreflexive_and_asymmetric(ab):
    a, b = ab
    assert not (tl.beats(a, b) and tl.beats(b, a))
    assert tl.beats(a, b) == ref_beats((a.kind, len(a), a.strength), (b.kind, len(b), b.strength))
    # Irreflexive: an equal-strength play never beats (compare keys, since a set cannot be
    # on the table and in the hand at once).
    key = (a.kind, len(a), a.strength)
    assert not ref_beats(key, key)
    with pytest.raises(HandevalError, match="both in the play and on the table"):
        tl.beats(a, a)


@given(
    st.lists(st.sampled_from(DECK), min_size=0, max_size=9, unique=True),
    st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_legal_plays_is_every_beating_subset_weakest_first(hand, table, passed):
    table = [c for c in table if c not in hand]
    t = ref_classify(table)
    if t is None:
        table, t, passed = None, None, False
    subsets = [list(s) for k in range(1, len(hand) + 1) for s in itertools.combinations(hand, k)]
    expected = set()
    for s in subsets:
        p = ref_classify(s)
        if p is None:
            continue
        if t is not None and not (ref_beats(p, t) and (not passed or p[0] in tl.SPECIAL_KINDS)):
            continue
        expected.add(tuple(sorted(s, key=strength)))
    got = tl.legal_plays(hand, table, passed)
    assert {tuple(p.cards) for p in got} == expected
    keys = [(tl.KINDS.index(p.kind), len(p), p.strength) for p in got]
    assert keys == sorted(keys)


def brute_groups(cards):
    """Largest total multiplier of disjoint groups, trying every multiset of
    (group, lowest rank) that fits in the rank counts (2s never group)."""
    count = Counter(ORDER_RANKS.index(c[0]) for c in cards if c[0] != "2")
    counts = [count.get(r, 0) for r in range(12)]
    shapes = (
        [(4, lo, 4, 2) for lo in range(9)] + [(3, lo, 1, 4) for lo in range(12)] + [(2, lo, 3, 2) for lo in range(10)]
    )

    def rec(i):
        if i == len(shapes):
            return 0
        mult, lo, span, per = shapes[i]
        best, taken = rec(i + 1), 0
        while all(counts[r] >= per for r in range(lo, lo + span)):
            for r in range(lo, lo + span):
                counts[r] -= per
            taken += 1
            best = max(best, taken * mult + rec(i + 1))
        for r in range(lo, lo + span):
            counts[r] += per * taken
        return best

    return rec(0)


@st.composite
def group_heavy_hands(draw):
    # Few ranks, so that bombs and pair runs overlap often.
    lo = draw(st.integers(0, 8))
    ranks = ORDER_RANKS[lo : lo + draw(st.integers(2, 6))] + "2"
    pool = [c for c in DECK if c[0] in ranks]
    return draw(st.lists(st.sampled_from(pool), min_size=0, max_size=13, unique=True))


@given(st.one_of(group_heavy_hands(), st.lists(st.sampled_from(DECK), max_size=13, unique=True)))
@settings(max_examples=600, deadline=None)
def test_special_groups_are_the_brute_force_maximum(hand):
    groups, total = tl.special_groups(hand)
    assert total == brute_groups(hand)
    used = [c for _, g in groups for c in g]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    assert sum(tl.SPECIAL_KINDS[k] for k, _ in groups) == total
    for kind, g in groups:
        assert tl.classify(g).kind == kind


@st.composite
def deals(draw):
    deck = draw(st.permutations(DECK))
    players = draw(st.integers(2, 4))
    winner = draw(st.integers(0, players - 1))
    remaining, at = [], 0
    for seat in range(players):
        n = 0 if seat == winner else draw(st.integers(1, 13))
        remaining.append(deck[at : at + n])
        at += n
    chops = draw(
        st.lists(st.tuples(st.integers(0, players - 1), st.integers(0, players - 1), st.integers(0, 400)), max_size=3)
    )
    chops = [{"from": f, "to": t, "amount": a} for f, t, a in chops if f != t]
    carried = draw(st.lists(st.one_of(st.none(), st.integers(0, 5000)), min_size=players, max_size=players))
    return remaining, winner, chops, carried


@given(deals(), st.integers(1, 100), st.integers(0, 20))
@settings(max_examples=400, deadline=None)
def test_settlement_zero_sum_capped_and_itemised(deal, base, rake):
    remaining, winner, chops, carried = deal
    s = tl.settle(remaining, winner, base, chops=chops, carried=carried, rules=tl.Rules(rake_percent=rake))
    assert sum(s.deltas) + s.rake == 0
    assert sum(s.theoretical) == 0
    for seat, c in enumerate(carried):
        if c is not None:
            assert abs(s.capped[seat]) <= c
        assert sum(line.amount for line in s.lines if line.seat == seat) == s.deltas[seat]
    assert all(tl.LineKind(line.kind) == line.kind for line in s.lines)
    # 抽水 from the winner's positive amount only (RULES 2.6); losers keep what chops gave.
    assert s.rake == max(s.capped[winner], 0) * rake // 100
    assert all(s.deltas[seat] == s.capped[seat] for seat in range(len(remaining)) if seat != winner)
    # Each loser's payment is base × (cards, or 26 with no card played, + multipliers).
    for seat, h in enumerate(remaining):
        if seat == winner:
            continue
        twos = sum(5 if c[1] in "hd" else 2 for c in h if c[0] == "2")
        first = 26 if len(h) == 13 else len(h)
        assert s.pays[seat] == base * (first + twos + brute_groups(h))
    assert s.pays[winner] == 0
    assert s.theoretical[winner] == sum(s.pays) + sum(c["amount"] for c in chops if c["to"] == winner) - sum(
        c["amount"] for c in chops if c["from"] == winner
    )


@given(st.permutations(DECK), st.integers(2, 4))
@settings(max_examples=200, deadline=None)
def test_instant_settlement_is_zero_sum(deck, players):
    hands = [deck[13 * i : 13 * i + 13] for i in range(players)]
    wins, best = tl.instant_winner(hands)
    if best is None:
        with pytest.raises(HandevalError, match="no hand holds an instant win"):
            tl.settle_instant(hands, 10)
        return
    s = tl.settle_instant(hands, 10)
    assert sum(s.deltas) + s.rake == 0 and s.winner == best


# --- instant wins ------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, kind",
    [
        ("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s", "dragon"),
        ("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h 2s", "six_pair_run"),
        ("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 9s 9h 2s", "five_pair_run"),
        ("3s 3h 3d 5s 5h 5d 7s 7h 7d 9s 9h 9d 2s", "four_triples"),
        ("3s 3h 3d 3c 5s 5h 5d 7s 7h 7d 9s 9h 9d", "four_triples"),
        ("3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 2s", "six_pairs"),
        ("3s 3h 3d 3c 7s 7h 9s 9h Js Jh Ks 2d 2s", "six_pairs"),
        ("2s 2h 2d 2c 3s 5s 7s 9s Js Ks 4d 6d 8d", "four_twos"),
        ("Ts Th Js Jh Qs Qh Ks Kh As Ah 2s 2h 5d", "five_pair_run"),
        ("3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Ah 2s", None),
    ],
)
def test_instant_win_types(hand, kind):
    assert tl.instant_win(hand) == kind


def test_several_instant_wins_compare():
    # The higher type wins; the same type compares ranks from the top, then the suit.
    dragon = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    six_pairs_k = "3h 3c 5h 5c 7h 7c 9h 9c Jh Jc Kh Kc 4c"
    six_pairs_k_low = "3d 5d 5s 7d 9d Tc Jd Qh Kd Qd 4d 6d 8d"
    wins, best = tl.instant_winner([six_pairs_k, dragon])
    assert best == 1 and [w.kind for w in wins] == ["six_pairs", "dragon"]
    a = "3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 4c"
    b = "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc 4s"
    assert tl.instant_winner([b, a])[1] == 1  # K♥ beats K♦
    c = "3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Ad Ac 4s"
    assert tl.instant_winner([a, c])[1] == 1  # AA beats KK
    assert tl.instant_win(six_pairs_k_low) is None


# --- rounds ------------------------------------------------------------------------


def test_round_turns_passes_and_chops():
    r = [[0, "Ks"], [1, "2s"], [2, "pass"]]
    s = tl.round_state(r)
    assert (s.to_move, s.passed, s.over, s.table.cards) == (3, [2], False, ["2s"])
    assert tl.may_play(r, 3, "2h")
    assert not tl.may_play(r, 3, "Ah")
    assert "seat 3's turn" in tl.check_action(r, 0, "2h")
    # Seat 2 passed: only a special that chops the table.
    assert "has passed" in tl.check_action(r, 2, "2h")
    assert tl.may_play(r, 2, "9s 9h 9d 9c") and tl.may_play(r, 2, "4s 4h 5s 5h 6s 6h")
    r += [[2, "9s 9h 9d 9c"], [3, "pass"], [0, "pass"], [1, "pass"]]
    s = tl.round_state(r)
    assert s.over and s.next_leader == 2 and s.to_move is None
    assert tl.chop_transfers(r, 10) == [{"from": 1, "to": 2, "amount": 30}]
    assert "round is over" in tl.check_action(r, 3, "pass")


def test_round_errors_name_the_action():
    with pytest.raises(HandevalError, match=r"round\[1\].*not higher") as e:
        tl.round_state([[0, "5s"], [1, "4s"]])
    assert e.value.field == "round[1]"
    with pytest.raises(HandevalError, match=r"round\[1\].*seat 1's turn"):
        tl.round_state([[0, "5s"], [2, "6s"]])
    with pytest.raises(HandevalError, match="may not pass"):
        tl.round_state([[0, "pass"]])
    with pytest.raises(HandevalError, match="may only chop"):
        tl.round_state([[0, "Ks"], [1, "3s 3h 4s 4h 5s 5h"]])


def test_three_players_and_two_players():
    r = [[0, "3s"], [1, "4s"], [2, "pass"], [0, "pass"]]
    assert tl.round_state(r, players=3).next_leader == 1
    with pytest.raises(HandevalError, match="seat 3 is not in the game"):
        tl.round_state([[0, "3s"], [3, "4s"]], players=3)
    assert tl.round_state([[1, "3s"], [0, "pass"]], players=2).next_leader == 1


def test_first_lead_rule_option():
    hands = ["4s 5s 9h", "3c Kd", "3h 7c"]
    lead = tl.first_leader(hands)
    assert (lead.seat, lead.card, lead.must_contain) == (1, "3c", False)
    assert tl.round_state([[1, "Kd"]], players=3, first_lead=lead).to_move == 2
    strict = tl.first_leader(hands, rules=handeval.Rules(tienlen=tl.Rules(first_lead_must_contain_lowest=True)))
    assert strict.must_contain
    assert "must contain 3c" in tl.check_action([], 1, "Kd", players=3, first_lead=strict)
    assert tl.may_play([], 1, "3c", players=3, first_lead=strict)
    with pytest.raises(HandevalError, match="seat 0 does not hold 3c"):
        tl.round_state([[0, "4s"]], players=3, leader=0, first_lead=lead)


def test_legal_plays_examples():
    hand = "3s 3h 4s 4h 5s 5h 2d 7c 7d 7h 7s"
    leads = tl.legal_plays(hand)
    assert leads[0].cards == ["3s"] and leads[-1].kind == "bomb"
    assert [p.kind for p in tl.legal_plays(hand, "2h")] == ["three_pair_run", "bomb"]
    assert [p.cards for p in tl.legal_plays(hand, "Ks")] == [["2d"]]
    assert tl.legal_plays(hand, "Ks", passed=True) == []
    assert [p.kind for p in tl.legal_plays(hand, tl.classify("2s"), passed=True)] == ["three_pair_run", "bomb"]


# --- rules objects and breakdown ---------------------------------------------------


def test_rules_objects():
    r = tl.Rules(rake_percent=0)
    remaining = ["", "3s 4s"]
    assert tl.settle(remaining, 0, 100, rules=r).deltas == [200, -200]
    assert tl.settle(remaining, 0, 100, rules=handeval.Rules(tienlen=r)).deltas == [200, -200]
    assert tl.settle(remaining, 0, 100).deltas == [190, -200]
    no_card = ["", "3s 4h 5d 6c 8s 9h Td Jc Qs Kh Ad 2s 2h"]
    assert tl.settle(no_card, 0, 1, rules=r).pays[1] == 26 + 2 + 5
    assert tl.settle(no_card, 0, 1, rules=tl.Rules(unplayed_loser_adds_multipliers=False, rake_percent=0)).pays[1] == 26
    with pytest.raises(HandevalError, match="rules"):
        tl.settle(remaining, 0, 1, rules="strict")
    with pytest.raises(HandevalError, match="rake_percent"):
        tl.settle(remaining, 0, 1, rules=tl.Rules(rake_percent=101))


def test_breakdown_chops_cap_and_rake():
    s = tl.settle(["", "3s 5s", "4d"], 0, 10, chops=[{"from": 2, "to": 1, "amount": 40}], carried=[None, 30, None])
    kinds = [(line.kind, line.seat, line.amount) for line in s.lines]
    assert ("chop", 2, -40) in kinds and ("chop", 1, 40) in kinds
    assert ("win", 0, 20) in kinds and ("win", 0, 10) in kinds
    assert s.theoretical == [30, 20, -50]
    for seat in range(3):
        assert sum(line.amount for line in s.lines if line.seat == seat) == s.deltas[seat]
    assert sum(s.deltas) + s.rake == 0
    assert s.to_dict()["lines"][0]["kind"] == "cards"


# --- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, message",
    [
        ("Ks As 2h", "a straight may not contain a 2"),
        ("3s 4s", "not a pair"),
        ("3s 3h 4s 4h", "two pairs"),
        ("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h", "cannot arise in play"),
        ("2s 2h 2d 2c", "four 2s cannot arise in play"),
        ("3s 5s 6s", "not consecutive"),
        ("", "empty"),
        ("3s 3s", "duplicate card 3s"),
        ("3x", "suit"),
    ],
)
def test_sets_that_are_not_plays(cards, message):
    with pytest.raises(HandevalError, match=message):
        tl.classify(cards)


def test_bad_input_is_a_clear_error():
    fourteen = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s 2h"
    with pytest.raises(HandevalError, match="13 cards"):
        tl.instant_win(fourteen)
    with pytest.raises(HandevalError, match="at most 13"):
        tl.legal_plays(fourteen)
    with pytest.raises(HandevalError, match=r"remaining\[1\].*at most 13"):
        tl.settle(["", fourteen], 0, 1)
    with pytest.raises(HandevalError, match="seat 4 is not in the game"):
        tl.settle(["", "3s", "4s", "5s"], 4, 1)
    with pytest.raises(HandevalError, match="seat 5 is not in the game"):
        tl.chop_transfers([[0, "3s"], [5, "4s"]], 10)
    with pytest.raises(HandevalError, match=r"chops\[0\].from.*seat 7"):
        tl.settle(["", "3s"], 0, 1, chops=[{"from": 7, "to": 0, "amount": 1}])
    with pytest.raises(HandevalError, match=r"winner \(seat 1\) has cards left"):
        tl.settle(["3s", "4s"], 1, 1)
    with pytest.raises(HandevalError, match=r"card 4s is also in remaining\[1\]"):
        tl.settle(["", "4s", "4s 5s"], 0, 1)
    with pytest.raises(HandevalError, match=r"also in hands\[0\]"):
        tl.settle_instant(["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"] * 2, 1)
    with pytest.raises(HandevalError, match="no cards left but is not the winner"):
        tl.settle(["", ""], 0, 1)
    with pytest.raises(HandevalError, match="played no card"):
        tl.settle(["", "3s"], 0, 1, played_any=[True, False])
    with pytest.raises(HandevalError, match="base"):
        tl.settle(["", "3s"], 0, -5)
    with pytest.raises(HandevalError, match="base"):
        tl.settle(["", "3s"], 0, "10")
    with pytest.raises(HandevalError, match="2 to 4 players"):
        tl.settle([""], 0, 1)
    with pytest.raises(HandevalError, match="already played"):
        tl.round_state([[0, "3s"], [1, "3s"]])
    with pytest.raises(HandevalError, match="both in the hand and on the table"):
        tl.legal_plays("3s 4s", "4s")
    with pytest.raises(HandevalError, match="passed"):
        tl.legal_plays("3s 4s", None, passed=True)
    with pytest.raises(HandevalError, match=r"round\[0\]"):
        tl.chop_transfers([[0]], 1)
    with pytest.raises(HandevalError, match="overflows"):
        tl.settle(["", "3s 4s"], 0, 2**62)
    [err] = tl.beats_many([("3s",)])
    assert isinstance(err, HandevalError) and err.field == "pairs[0]" and "pair" in err.description


def item_error(x, field, text):
    """A ``*_many`` item that holds the HandevalError its input raises."""
    assert isinstance(x, HandevalError), x
    assert x.field == field and text in x.description, (x.field, x.description)
    assert str(x) == f"{x.field}: {x.description}"


def test_batched_calls_give_each_item_its_result_or_error():
    assert tl.classify_many(["3s", ["4s", "4h"], tl.classify("5s 6s 7s")]) == ["single", "pair", "straight"]
    assert tl.beats_many([(tl.classify("4s"), "3s"), (["3s"], ["4s"])]) == [True, False]
    single, bad = tl.classify_many(["3s", "3s 4s"])
    assert single == "single"
    item_error(bad, "sets[1]", "not a play")
    out = tl.beats_many([("4s", "3s"), ("5s", "3s 4s"), ("4x", "3s"), ("4s", "4s"), ("3s",), (tl.classify("2s"), "3h")])
    assert out[0] is True and out[5] is True
    item_error(out[1], "pairs[1][1]", "not a pair")
    item_error(out[2], "pairs[2][0]", "bad card")
    item_error(out[3], "pairs[3].play", "both in the play and on the table")
    item_error(out[4], "pairs[4]", "expected a (play, table) pair")
    # Each error is the one the single call raises.
    with pytest.raises(HandevalError, match="not a pair"):
        tl.beats("5s", "3s 4s")
    # Errors about the call as a whole still raise.
    with pytest.raises(HandevalError, match="pairs"):
        tl.beats_many("4s 3s")
    with pytest.raises(HandevalError, match="sets"):
        tl.classify_many(None)
    with pytest.raises(HandevalError, match="rules"):
        tl.beats_many([("4s", "3s")], rules="strict")


def test_settle_takes_chop_rounds_or_transfers(vectors):
    # The seed's chop round inside a game: seat 1 pays 10 × (2 + 2 + 4) = 80 to seat 3.
    v = vectors["tienlen_chop_rounds"][0]
    remaining = ["", "3c 9d", "Ts", "Jd"]
    plain = tl.settle(remaining, 0, 10, rules=tl.Rules(rake_percent=0))
    by_round = tl.settle(remaining, 0, 10, chops=[v["round"]], rules=tl.Rules(rake_percent=0))
    by_transfer = tl.settle(remaining, 0, 10, chops=tl.chop_transfers(v["round"], 10), rules=tl.Rules(rake_percent=0))
    as_tuple = tl.settle(remaining, 0, 10, chops=[(1, 3, 80)], rules=tl.Rules(rake_percent=0))
    assert by_round == by_transfer == as_tuple
    assert by_round.chops == [0, -80, 0, 80]
    assert [a - b for a, b in zip(by_round.deltas, plain.deltas)] == [0, -80, 0, 80]
    with pytest.raises(HandevalError, match=r"chops\[0\]\[1\].*not higher"):
        tl.settle(remaining, 0, 10, chops=[[[0, "5s"], [1, "4s"]]])
    with pytest.raises(HandevalError, match=r"chops\[0\]"):
        tl.settle(remaining, 0, 10, chops=[[[0, "3s"], [5, "4s"]]])
    with pytest.raises(HandevalError, match=r"chops\[1\]: card 3c was played by seat 0 but is still in remaining\[1\]"):
        tl.settle(remaining, 0, 10, chops=[v["round"], [[0, "3c"], [1, "pass"], [2, "pass"], [3, "pass"]]])
    full = ["", "3s 4h 5d 6c 8s 9h Td Jc Qs Kh Ad 2s 2h", "8c"]
    with pytest.raises(HandevalError, match=r"chops\[0\]: seat 1 played 7s .* holds 13 cards"):
        tl.settle(full, 0, 10, chops=[[[0, "2d"], [1, "7s 7h 7d 7c"]]])


# --- the native result and rule classes ----------------------------------------------


def test_play_fields_and_helpers():
    p = tl.classify("5s 5h 6s 6h 7s 7h")
    assert (p.kind, p.kind_zh, p.cards, p.top, p.strength) == (
        "three_pair_run",
        "3连对",
        ["5s", "5h", "6s", "6h", "7s", "7h"],
        "7h",
        19,
    )
    assert p.is_special and len(p) == 6 and not tl.classify("2h").is_special
    assert p.to_dict() == {"kind": "three_pair_run", "kind_zh": "3连对", "cards": p.cards, "top": "7h", "strength": 19}
    assert tl.Play("single", "单张", ["3s"], "3s", 0) == tl.legal_plays("3s 3h")[0]
    with pytest.raises(HandevalError, match="top"):
        p.replace(cards="8s 8h 9s 9h Ts Th")  # the other fields no longer match
    # The constructor checks that the cards make the play it describes.
    with pytest.raises(HandevalError, match="strength") as e:
        tl.Play("single", "单张", ["3s"], "3s", 5)
    assert e.value.field == "strength"
    with pytest.raises(HandevalError, match="kind"):
        tl.Play("pair", "对子", ["3s"], "3s", 0)
    with pytest.raises(HandevalError, match="not a pair"):
        tl.Play("pair", "对子", ["3s", "4s"], "4s", 4)


def test_a_play_passed_back_is_used_as_is():
    table = tl.classify("9s 9h")
    hand = "Ts Th 2s 2h 3c"
    assert tl.legal_plays(hand, table) == tl.legal_plays(hand, "9s 9h")
    assert tl.beats(tl.classify("Ts Th"), table) and tl.why_not(table, tl.classify("Ts Th"))
    st = tl.round_state([[0, table], [1, tl.classify("2s 2h")]])
    assert st.table == tl.classify("2s 2h") and st.plays[0] == (0, table)
    assert tl.settle(["", [*table.cards]], 0, 1).deltas == tl.settle(["", "9s 9h"], 0, 1).deltas


def test_every_function_taking_rules_reads_them():
    # Validation of each option at construction: tests/api/test_native_types.py.
    with pytest.raises(HandevalError) as e:
        tl.Rules(rake_percent=500)
    assert e.value.field == "rules.rake_percent"
    # handeval.Rules bundles the native part; every function taking rules= reads it.
    bundle = handeval.Rules(tienlen=tl.Rules(rake_percent=0))
    assert bundle.tienlen == tl.Rules(rake_percent=0)
    assert tl.settle(["", "3s"], 0, 10, rules=bundle).rake == 0
    for fn, args in [
        (tl.beats, ("4s", "3s")),
        (tl.beats_many, ([("4s", "3s")],)),
        (tl.first_leader, (["3s", "4s"],)),
        (tl.round_state, ([[0, "3s"]],)),
        (tl.check_action, ([], 0, "3s")),
        (tl.may_play, ([], 0, "3s")),
        (tl.chop_transfers, ([[0, "3s"]], 1)),
        (tl.settle, (["", "3s"], 0, 1)),
        (tl.settle_instant, (["2s 2h 2d 2c 3s 4s 5s 6s 7s 8s 9s Ts Js", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah Qs"], 1)),
    ]:
        fn(*args, rules=bundle)
        with pytest.raises(HandevalError, match="rules"):
            fn(*args, rules={"rake_percent": 0})


def test_constants_are_the_rule_books():
    # The module's lists come from the core; RULES 2.2, 2.5 and 2.6 fix them.
    assert tl.KINDS == ("single", "pair", "triple", "straight", "three_pair_run", "bomb", "four_pair_run")
    assert tl.SPECIAL_KINDS == {"three_pair_run": 2, "bomb": 3, "four_pair_run": 4}
    assert tl.INSTANT_WINS == ("four_twos", "six_pairs", "four_triples", "five_pair_run", "six_pair_run", "dragon")
    assert [
        tl.instant_win(h) for h in ("2s 2h 2d 2c 3s 4s 5s 6s 7s 8s 9s Ts Js", "3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 2c")
    ] == list(tl.INSTANT_WINS[:2])


def test_line_kind_enum_matches_the_proto_and_the_strings():
    pb = pytest.importorskip("handeval.v2.tienlen_pb2")
    names = [n for n in pb.TienlenLineKind.keys() if n != "TIENLEN_LINE_KIND_UNSPECIFIED"]
    assert [k.name for k in tl.LineKind] == [n.removeprefix("TIENLEN_LINE_KIND_") for n in names]
    for k in tl.LineKind:
        assert k == k.value and hash(k) == hash(k.value) and str(k) == f"{k}" == k.value
    assert {tl.LineKind.CHOP} == {"chop"} and tl.LineKind("rake") is tl.LineKind.RAKE

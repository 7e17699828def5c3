"""十三水 (docs/rules.md §1): seed vectors, a differential test against treys, an
independent Python oracle for the special hands, properties and bad input."""

import itertools
import random
import re

import pytest
from hypothesis import given, settings, strategies as st

import handeval
from handeval import HandevalError, shisanshui as ssw
from harness.deck import DECK, RANKS, SUITS

from strategies import ssw_deal as deal

rank_of = {c: RANKS.index(c[0]) for c in DECK}


# --- seed vectors -------------------------------------------------------------------


def test_seed_scores(vectors):
    for v in vectors["shisanshui_score"]:
        s = ssw.settle(v["players"], base=v["base"])
        assert s.waters == v["expected_waters"], v["source"]
        if "expected_pairwise_for_seat0" in v:
            assert s.pairwise[0] == v["expected_pairwise_for_seat0"], v["source"]
        assert s.deltas == [v["base"] * w for w in s.waters]


def test_seed_specials(vectors):
    waters = {sid: w for sid, _, w in ssw.SPECIALS}
    for v in vectors["shisanshui_special"]:
        assert ssw.special(v["cards"]) == v["expected"]
        assert waters[v["expected"]] == v["waters"]
        assert ssw.special_hand(v["cards"]).waters == v["waters"]


def test_seed_breakdown_explains_scoop_and_home_run(vectors):
    v = vectors["shisanshui_score"][1]
    s = ssw.settle(v["players"])
    first = s.pairs[0]
    assert (first.a, first.b, first.kind, first.rows) == (0, 1, "rows", [3, 1, 1])
    assert first.scooper == 0 and first.home_run and first.waters == 20
    assert s.home_runs == [True, False, False, False]
    assert s.to_dict()["pairs"][0]["waters"] == 20


# --- classification and order -------------------------------------------------------


@pytest.mark.parametrize(
    "cards, category",
    [
        ("As Ks Qs Js Ts", "straight_flush"),
        ("5d 4d 3d 2d Ad", "straight_flush"),
        ("9c 9d 9h 9s 2c", "four_of_a_kind"),
        ("9c 9d 9h 2s 2c", "full_house"),
        ("Ac 9c 7c 5c 2c", "flush"),
        ("Ac 2d 3h 4s 5c", "straight"),
        ("Qc Kd Ah 2s 3c", "high_card"),
        ("7c 7d 7h Ks 2c", "three_of_a_kind"),
        ("7c 7d Kh Ks 2c", "two_pair"),
        ("7c 7d Kh Qs 2c", "pair"),
        ("7c 7d 7h", "three_of_a_kind"),
        ("7c 7d 8h", "pair"),
        ("7c 8c 9c", "high_card"),  # no straights or flushes in a front
    ],
)
def test_classify(cards, category):
    row = ssw.classify(cards)
    assert row.category == category
    assert row.category in ssw.CATEGORIES
    assert sorted(row.cards) == sorted(handeval.parse_cards(cards))


def test_wheel_order_and_option():
    # (rows compared with each other share no card: one deck, RULES §0)
    wheel, six, king, top = "Ad 2c 3h 4s 5s", "2d 3c 4h 5d 6s", "9d Tc Jh Qs Kd", "Td Jc Qh Ks As"
    assert ssw.compare(wheel, six) == -1 and ssw.compare(top, king) == 1
    alt = ssw.Rules(a2345="second_highest")
    assert ssw.compare(wheel, king, rules=alt) == 1 and ssw.compare(wheel, top, rules=alt) == -1
    assert ssw.compare(wheel, king, rules=handeval.Rules(shisanshui=alt)) == 1
    assert ssw.classify(wheel).cards[-1] == "Ad"  # the ace is the last card of A2345


def test_suit_tiebreak_and_option():
    a, b = "Ks Kd 7h 5c 3c", "Kh Kc 7s 5d 3d"
    assert ssw.compare(a, b) == 1 and ssw.compare(b, a) == -1
    assert ssw.compare(a, b, rules=ssw.Rules(suit_tiebreak=False)) == 0
    # ♠ > ♥ > ♣ > ♦ by default; a different house order flips it.
    assert ssw.compare("Ac 9d 7d", "Ad 9c 7c") == 1
    assert ssw.compare("Ac 9d 7d", "Ad 9c 7c", rules=ssw.Rules(suit_order="shdc")) == -1


def test_is_foul():
    assert not ssw.is_foul("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h")
    assert ssw.is_foul("Qs Qh Qd", "Js Jh Jd 3c 4d", "Ks Kh Kd 4s 4h")
    assert not ssw.is_foul("8s 8h Kd", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")  # equal: allowed
    assert ssw.is_foul("8s 8h Ac", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")


def _treys_rank(evaluator, Card, cards):
    tc = [Card.new(c) for c in cards]
    return evaluator.evaluate(tc[:2], tc[2:])


def test_order_refines_treys_on_100k_random_pairs():
    treys = pytest.importorskip("treys")
    evaluator, Card = treys.Evaluator(), treys.Card
    rng = random.Random(20261129)
    strictly, ties = 0, 0
    for _ in range(100_000):
        ten = rng.sample(DECK, 10)
        a, b = ten[:5], ten[5:]
        ra, rb = _treys_rank(evaluator, Card, a), _treys_rank(evaluator, Card, b)
        ours = ssw.compare(a, b)
        if ra != rb:
            strictly += 1
            assert ours == (1 if ra < rb else -1), (a, b)  # treys: lower is stronger
        else:
            ties += 1
            assert ours != 0, (a, b)  # ours decides by suit
    assert strictly > 90_000 and ties > 0


def test_strength_matches_treys_classes_exactly_on_random_hands():
    # Stronger than refinement: equal strength <=> equal treys rank.
    treys = pytest.importorskip("treys")
    evaluator, Card = treys.Evaluator(), treys.Card
    rng = random.Random(7)
    seen = {}
    for _ in range(20_000):
        h = rng.sample(DECK, 5)
        s, r = ssw.classify(h).strength, _treys_rank(evaluator, Card, h)
        assert seen.setdefault(s, r) == r


def three_rows(n):
    """Three rows of n cards from one deck (rows sharing a card do not compare)."""
    return st.lists(st.sampled_from(DECK), min_size=3 * n, max_size=3 * n, unique=True).map(
        lambda c: (c[:n], c[n : 2 * n], c[2 * n :])
    )


@given(st.one_of(three_rows(5), three_rows(3)), st.booleans())
def test_compare_antisymmetric_and_transitive(rows, tiebreak):
    r = ssw.Rules(suit_tiebreak=tiebreak)
    a, b, c = rows
    ab, bc, ac = ssw.compare(a, b, r), ssw.compare(b, c, r), ssw.compare(a, c, r)
    assert ab == -ssw.compare(b, a, r)
    with pytest.raises(HandevalError, match="also in a"):
        ssw.compare(a, a, r)
    if ab >= 0 and bc >= 0:
        assert ac >= 0
        if ab > 0 or bc > 0:
            assert ac > 0
    if tiebreak and sorted(a) != sorted(b):
        assert ab != 0


def test_classify_many_matches_single():
    rng = random.Random(3)
    rows = [rng.sample(DECK, 5) for _ in range(2000)] + [" ".join(rng.sample(DECK, 3)) for _ in range(100)]
    assert ssw.classify_many(rows) == [ssw.classify(r).category for r in rows]


def test_classify_many_reports_each_bad_row_in_place():
    rows = ["As Ks Qs Js Ts", 5, "As As Ks", "2s 3s", "Xx 2s 3s", ["2c", "2d", "2h"]]
    out = ssw.classify_many(rows)
    assert len(out) == len(rows)
    assert out[0] == "straight_flush" and out[5] == "three_of_a_kind"
    for i in (1, 2, 3, 4):
        assert isinstance(out[i], HandevalError), out[i]
        with pytest.raises(HandevalError) as single:
            ssw.classify(rows[i])
        # The very error the single call raises; its place in the list names the row.
        assert (out[i].field, out[i].description) == (single.value.field, single.value.description)
        assert str(out[i]) == str(single.value)


def test_categories_from_ids_matches_classify():
    rng = random.Random(5)
    rows = [rng.sample(range(52), 5) for _ in range(3000)]
    out = ssw.categories_from_ids(bytes(i for r in rows for i in r))
    assert [ssw.CATEGORIES[b] for b in out] == [ssw.classify([DECK[i] for i in r]).category for r in rows]
    fronts = [rng.sample(range(52), 3) for _ in range(300)]
    out = ssw.categories_from_ids(bytes(i for r in fronts for i in r), row_size=3)
    assert [ssw.CATEGORIES[b] for b in out] == [ssw.classify([DECK[i] for i in r]).category for r in fronts]
    for data, size, word in [
        (bytes([1, 2, 3, 4]), 5, "whole number"),
        (bytes([1, 2, 3, 4, 52]), 5, "data[0]"),
        (bytes([1, 2, 3, 4, 5, 1, 2, 3, 4, 4]), 5, "data[1]"),
        (b"", 4, "row_size"),
        ("abc", 3, "bytes"),
    ]:
        with pytest.raises(HandevalError, match=re.escape(word)):
            ssw.categories_from_ids(data, size)


# --- special hands: an independent oracle ------------------------------------------

STRAIGHT5 = [{12, 0, 1, 2, 3}] + [set(range(lo, lo + 5)) for lo in range(9)]
STRAIGHT3 = [{12, 0, 1}] + [set(range(lo, lo + 3)) for lo in range(11)]


def _is_straight(cards):
    ranks = {rank_of[c] for c in cards}
    table = STRAIGHT3 if len(cards) == 3 else STRAIGHT5
    return len(ranks) == len(cards) and ranks in table


def _is_flush(cards):
    return len({c[1] for c in cards}) == 1


def _splits_into(cards, row_ok):
    for middle in itertools.combinations(cards, 5):
        if not row_ok(middle):
            continue
        rest = [c for c in cards if c not in middle]
        for back in itertools.combinations(rest, 5):
            front = [c for c in rest if c not in back]
            if row_ok(back) and row_ok(front):
                return True
    return False


def oracle_makes(cards, sid):
    counts = [0] * 13
    for c in cards:
        counts[rank_of[c]] += 1
    suits = {c[1] for c in cards}
    if sid == "zhizun_qinglong":
        return len(suits) == 1
    if sid == "yitiaolong":
        return all(counts)
    if sid == "shier_huangzu":
        return all(rank_of[c] >= 9 for c in cards)
    if sid == "san_tonghuashun":
        return _splits_into(cards, lambda r: _is_flush(r) and _is_straight(r))
    if sid == "san_fen_tianxia":
        return counts.count(4) == 3
    if sid == "quan_da":
        return all(rank_of[c] >= 6 for c in cards)
    if sid == "quan_xiao":
        return all(rank_of[c] <= 6 for c in cards)
    if sid == "cou_yi_se":
        return suits <= {"h", "d"} or suits <= {"s", "c"}
    if sid == "si_tao_santiao":
        return sum(n >= 3 for n in counts) == 4
    if sid == "wu_dui_santiao":
        return any(
            n >= 3 and sum((m - 3 * (i == j)) // 2 for j, m in enumerate(counts)) >= 5 for i, n in enumerate(counts)
        )
    if sid == "liu_dui_ban":
        return sum(n // 2 for n in counts) >= 6
    if sid == "san_shunzi":
        return _splits_into(cards, _is_straight)
    if sid == "san_tonghua":
        return _splits_into(cards, _is_flush)
    raise AssertionError(sid)


def oracle_special(cards):
    return next((sid for sid, _, _ in ssw.SPECIALS if oracle_makes(cards, sid)), None)


def _pick(draw, pool, n):
    return draw(st.lists(st.sampled_from(sorted(pool)), min_size=n, max_size=n, unique=True))


@st.composite
def built_special(draw):
    """A hand built to make one special, then maybe one card swapped (a near miss)."""
    sid = draw(st.sampled_from([s for s, _, _ in ssw.SPECIALS]))
    ranks = list(range(13))
    if sid == "zhizun_qinglong":
        s = draw(st.sampled_from(SUITS))
        hand = [r + s for r in RANKS]
    elif sid == "yitiaolong":
        hand = [r + draw(st.sampled_from(SUITS)) for r in RANKS]
    elif sid == "shier_huangzu":
        hand = _pick(draw, [c for c in DECK if rank_of[c] >= 9], 13)
    elif sid in ("quan_da", "quan_xiao", "cou_yi_se"):
        colour = draw(st.sampled_from(["hd", "sc"]))
        pool = {
            "quan_da": [c for c in DECK if rank_of[c] >= 6],
            "quan_xiao": [c for c in DECK if rank_of[c] <= 6],
            "cou_yi_se": [c for c in DECK if c[1] in colour],
        }[sid]
        hand = _pick(draw, pool, 13)
    elif sid in ("san_fen_tianxia", "si_tao_santiao", "wu_dui_santiao", "liu_dui_ban"):
        shape = {
            "san_fen_tianxia": [4, 4, 4, 1],
            "si_tao_santiao": [3, 3, 3, 3, 1],
            "wu_dui_santiao": [3, 2, 2, 2, 2, 2],
            "liu_dui_ban": [2] * 6 + [1],
        }[sid]
        rs = draw(st.permutations(ranks))[: len(shape)]
        hand = []
        for r, n in zip(rs, shape):
            hand += [RANKS[r] + s for s in draw(st.permutations(SUITS))[:n]]
    else:  # the three split specials
        while True:
            rows = []
            for size in (3, 5, 5):
                suit = draw(st.sampled_from(SUITS))
                if sid == "san_tonghua":
                    rows.append(_pick(draw, [c for c in DECK if c[1] == suit], size))
                else:
                    window = sorted(draw(st.sampled_from(STRAIGHT3 if size == 3 else STRAIGHT5)))
                    rows.append(
                        [
                            RANKS[r] + (suit if sid == "san_tonghuashun" else draw(st.sampled_from(SUITS)))
                            for r in window
                        ]
                    )
            hand = [c for row in rows for c in row]
            if len(set(hand)) == 13:
                break
    if draw(st.booleans()):  # near miss: swap one card for one outside the hand
        out = draw(st.sampled_from(hand))
        new = draw(st.sampled_from([c for c in DECK if c not in hand]))
        hand = [new if c == out else c for c in hand]
    return sid, hand


@settings(max_examples=300, deadline=None)
@given(built_special())
def test_specials_agree_with_oracle(case):
    sid, hand = case
    assert ssw.makes_special(hand, sid) == oracle_makes(hand, sid)
    assert ssw.special(hand) == oracle_special(hand)
    found = ssw.special_hand(hand)
    if found and found.split:
        assert sorted(c for row in found.split for c in row) == sorted(hand)
        assert [len(r) for r in found.split] == [3, 5, 5]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True))
def test_specials_agree_with_oracle_on_random_hands(hand):
    assert ssw.special(hand) == oracle_special(hand)


# --- settlement properties ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(deal())
def test_settle_is_zero_sum_and_capped(case):
    players, base, carried, rules = case
    s = ssw.settle(players, base=base, carried=carried, rules=rules)
    n = len(players)
    assert sum(s.waters) == 0 and sum(s.deltas) + s.rake == 0
    assert all(s.pairwise[i][j] == -s.pairwise[j][i] for i in range(n) for j in range(n))
    assert s.waters == [sum(row) for row in s.pairwise]
    assert s.theoretical == [base * w for w in s.waters]
    if carried:
        assert all(c is None or abs(d) <= c for d, c in zip(s.deltas, carried))
    for p in s.pairs:  # the breakdown explains every number
        raw = sum(p.rows) if p.kind != "special" else p.waters
        mult = (2 if p.scooper is not None else 1) * (2 if p.home_run else 1)
        if p.kind != "special":
            assert p.waters == raw * mult


# --- bad input -----------------------------------------------------------------------

GOOD = [
    {"front": "Qs Qh Qd", "middle": "2h 5h 7h 9h Jh", "back": "Ks Kh Kd 4s 4h"},
    {"front": "2s 3d 5c", "middle": "6c 7c 8d 9s Td", "back": "2c 4c Jc Kc Ac"},
]


@pytest.mark.parametrize(
    "players, kwargs, words",
    [
        (GOOD[:1], {}, ["players", "2 to 4"]),
        (GOOD * 2 + GOOD[:1], {}, ["2 to 4"]),
        (GOOD, {"base": -1}, ["base", "positive"]),
        (GOOD, {"base": "10"}, ["base", "integer"]),
        ([GOOD[0], dict(GOOD[1], front="Qs 3d 5c")], {}, ["Qs", "players[0].front"]),
        ([GOOD[0], dict(GOOD[1], front="3d 5c")], {}, ["players[1].front", "3 cards"]),
        ([GOOD[0], dict(GOOD[1], front="3d 5c Xx")], {}, ["players[1].front", '"Xx"']),
        ([GOOD[0], {"front": "2s 3d 5c", "middle": "6c 7c 8d 9s Td"}], {}, ["players[1]", "back"]),
        ([GOOD[0], {"special": "dragon", "cards": "2s 3d"}], {}, ["players[1].special", "dragon"]),
        (
            [GOOD[0], {"special": "yitiaolong", "cards": "2s 3d 5c 6c 7c 8d 9s Td 2c 4c Jc Kc Ac"}],
            {},
            ["players[1]", "yitiaolong"],
        ),
        ([GOOD[0], "nope"], {}, ["players[1]", "dict"]),
        (GOOD, {"carried": [10]}, ["carried", "1 entries"]),
        (GOOD, {"carried": [10, -1]}, ["carried[1]", "negative"]),
        (GOOD, {"base": 2**62}, ["overflow"]),
        (GOOD, {"rules": "strict"}, ["rules"]),
    ],
)
def test_settle_bad_input(players, kwargs, words):
    with pytest.raises(HandevalError) as e:
        ssw.settle(players, **kwargs)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_fouls_rejected_when_foul_scoring_is_off():
    fouled = {"front": "Ks Kh Kd", "middle": "2h 3h 4d 6d 8s", "back": "Qs Qh 9d 9c 5s"}
    assert ssw.settle([fouled, GOOD[1]]).fouls == [True, False]
    with pytest.raises(HandevalError, match=r"players\[0\].*fouled"):
        ssw.settle([fouled, GOOD[1]], rules=ssw.Rules(foul_scoring=False))


@pytest.mark.parametrize(
    "call",
    [
        lambda: ssw.classify("As Ks"),
        lambda: ssw.classify("As Ks Qs Js Ts 9s"),
        lambda: ssw.compare("As Ks Qs", "As Ks Qs Js Ts"),
        lambda: ssw.is_foul("As Ks Qs", "As 2d 3d 4d 5d", "6c 7c 8c 9c Tc"),
        lambda: ssw.special("As Ks"),
        lambda: ssw.special(None),
        lambda: ssw.makes_special("2s 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "nope"),
        lambda: ssw.classify_many("As Ks Qs Js Ts"),
    ],
)
def test_bad_rows_are_handeval_errors(call):
    with pytest.raises(HandevalError):
        call()


def test_python_rules_defaults_equal_core_defaults():
    # rules=None uses the core's defaults directly; they must be what Rules() holds.
    rng = random.Random(11)
    for _ in range(300):
        ten = rng.sample(DECK, 10)
        a, b = ten[:5], ten[5:]
        assert ssw.compare(a, b) == ssw.compare(a, b, rules=ssw.Rules())


def test_compare_refuses_rows_sharing_a_card():
    """RULES §0 (one deck): the core refuses two rows holding the same card; the binding
    passes its error through with the field of the second row."""
    with pytest.raises(HandevalError) as e:
        ssw.compare("As Ks Qs Js Ts", "As Kd Qd Jd Td")
    assert e.value.field == "b" and "As" in e.value.description


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.lists(st.sampled_from(DECK), min_size=0, max_size=6).map(" ".join),
            st.lists(st.sampled_from(DECK), min_size=3, max_size=5, unique=True),
            st.sampled_from(["As Kx Qs", "10s 10h 10d", "♠A ♥K ♦Q", "As,Ks,Qs", 7, None, b"As Ks Qs"]),
        ),
        max_size=12,
    )
)
def test_classify_many_item_is_what_classify_gives(rows):
    out = ssw.classify_many(rows)
    assert len(out) == len(rows)
    for row, item in zip(rows, out):
        try:
            want = ssw.classify(row).category
        except HandevalError as e:
            assert isinstance(item, HandevalError) and (item.field, item.description) == (e.field, e.description)
        else:
            assert item == want

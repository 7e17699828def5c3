"""越式13张 through the Python API: classify+beats of (play, table) pairs — one call per
pair and batched (``beats_many``) — and ``settle``, each against a small pure-Python
reference of the same rules measured in the same run (the baselines); and ``legal_plays``
of 13-card hands (to set against the core's criterion figure)."""

import random
from collections import Counter

from handeval import tienlen as tl
from harness.deck import DECK

from hands13 import HANDS13

ORDER_RANKS = "3456789TJQKA2"
ORDER_SUITS = "scdh"
STRENGTH = {c: ORDER_RANKS.index(c[0]) * 4 + ORDER_SUITS.index(c[1]) for c in DECK}


# --- the pure-Python reference (baseline) ------------------------------------------


def ref_classify(cards):
    cs = sorted(cards, key=STRENGTH.__getitem__)
    n = len(cs)
    count = Counter(STRENGTH[c] // 4 for c in cs)
    ranks = sorted(count)
    consecutive = ranks[-1] - ranks[0] + 1 == len(ranks)
    top = STRENGTH[cs[-1]]
    if len(count) == 1:
        if n == 4 and ranks[0] == 12:
            raise ValueError("four 2s")
        return ({1: "single", 2: "pair", 3: "triple", 4: "bomb"}[n], n, top)
    if len(count) == n and n >= 3 and 12 not in count and consecutive:
        return ("straight", n, top)
    if all(v == 2 for v in count.values()) and len(count) in (3, 4) and 12 not in count and consecutive:
        return ("three_pair_run" if len(count) == 3 else "four_pair_run", n, top)
    raise ValueError("not a play")


def ref_beats(b, a):
    (kb, nb, tb), (ka, na, ta) = ref_classify(b), ref_classify(a)
    if kb == ka and nb == na:
        return tb // 4 > ta // 4 if kb == "bomb" else tb > ta
    single2 = ka == "single" and ta // 4 == 12
    pair2 = ka == "pair" and ta // 4 == 12
    if kb == "three_pair_run":
        return single2
    if kb == "bomb":
        return single2 or pair2 or ka == "three_pair_run"
    if kb == "four_pair_run":
        return single2 or pair2 or ka in ("three_pair_run", "bomb")
    return False


SHAPES = [(4, lo, 4, 2) for lo in range(9)] + [(3, lo, 1, 4) for lo in range(12)] + [(2, lo, 3, 2) for lo in range(10)]


def ref_groups(cards):
    count = Counter(STRENGTH[c] // 4 for c in cards if c[0] != "2")
    counts = [count.get(r, 0) for r in range(12)]

    def rec(i):
        if i == len(SHAPES):
            return 0
        mult, lo, span, per = SHAPES[i]
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


def ref_settle(remaining, winner, base, rake_percent=5):
    deltas = [0] * len(remaining)
    for seat, h in enumerate(remaining):
        if seat == winner:
            continue
        twos = sum(5 if c[1] in "hd" else 2 for c in h if c[0] == "2")
        pay = base * ((26 if len(h) == 13 else len(h)) + twos + ref_groups(h))
        deltas[seat] -= pay
        deltas[winner] += pay
    rake = sum(d * rake_percent // 100 for d in deltas if d > 0)
    return [d - d * rake_percent // 100 if d > 0 else d for d in deltas], rake


# --- data ---------------------------------------------------------------------------

rng = random.Random(7)


def _pair():
    deck = rng.sample(DECK, 26)
    table = rng.choice(tl.legal_plays(deck[:13]))
    play = rng.choice(tl.legal_plays(deck[13:]))
    return play.cards, table.cards


PAIRS = [_pair() for _ in range(5_000)]
PAIR_STRINGS = [(" ".join(b), " ".join(a)) for b, a in PAIRS]
assert tl.beats_many(PAIRS) == [ref_beats(b, a) for b, a in PAIRS]


def _deal():
    deck = rng.sample(DECK, 52)
    winner = rng.randrange(4)
    rem, at = [], 0
    for seat in range(4):
        n = 0 if seat == winner else rng.randint(1, 13)
        rem.append(deck[at : at + n])
        at += n
    return rem, winner


DEALS = [_deal() for _ in range(500)]
assert all(tl.settle(r, w, 10).deltas == ref_settle(r, w, 10)[0] for r, w in DEALS)


# --- classify + beats ---------------------------------------------------------------


def test_pairs_baseline_python_reference(benchmark):
    benchmark.group = "classify+beats 5,000 (play, table) pairs"
    benchmark.extra_info["items"] = len(PAIRS)
    benchmark(lambda: [ref_beats(b, a) for b, a in PAIRS])


def test_pairs_handeval_beats_loop(benchmark):
    benchmark.group = "classify+beats 5,000 (play, table) pairs"
    benchmark.extra_info["items"] = len(PAIRS)
    benchmark(lambda: [tl.beats(b, a) for b, a in PAIRS])


def test_pairs_handeval_beats_many(benchmark):
    benchmark.group = "classify+beats 5,000 (play, table) pairs"
    benchmark.extra_info["items"] = len(PAIRS)
    out = benchmark(tl.beats_many, PAIRS)
    assert len(out) == len(PAIRS)


def test_pairs_handeval_beats_many_strings(benchmark):
    benchmark.group = "classify+beats 5,000 (play, table) pairs"
    benchmark.extra_info["items"] = len(PAIRS)
    benchmark(tl.beats_many, PAIR_STRINGS)


def test_one_pair_baseline_python_reference(benchmark):
    benchmark.group = "classify+beats, one call per pair"
    benchmark.extra_info["items"] = 1
    b, a = PAIRS[0]
    benchmark(ref_beats, b, a)


def test_one_pair_handeval_beats(benchmark):
    benchmark.group = "classify+beats, one call per pair"
    benchmark.extra_info["items"] = 1
    b, a = PAIRS[0]
    benchmark(tl.beats, b, a)


# --- settle -------------------------------------------------------------------------


def test_settle_baseline_python_reference(benchmark):
    benchmark.group = "settle 500 four-player games"
    benchmark.extra_info["items"] = len(DEALS)
    benchmark(lambda: [ref_settle(r, w, 10) for r, w in DEALS])


def test_settle_handeval(benchmark):
    benchmark.group = "settle 500 four-player games"
    benchmark.extra_info["items"] = len(DEALS)
    benchmark(lambda: [tl.settle(r, w, 10) for r, w in DEALS])


# --- legal_plays ----------------------------------------------------------------------


def test_legal_plays_13_card_hands(benchmark):
    """Every lead of each of the 32 hands of ``hands13.txt``, one call per hand: compare
    with ``tienlen::legal_plays`` of ``cargo bench -p handeval-core --bench plays`` (the
    same hands; no Python baseline in this group)."""
    benchmark.group = f"tienlen legal_plays, {len(HANDS13)} 13-card hands"
    benchmark.extra_info["items"] = len(HANDS13)
    out = benchmark(lambda: [tl.legal_plays(h) for h in HANDS13])
    assert all(out)

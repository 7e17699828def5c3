"""打儲 classify + beats throughput through the Python API: one ``dachu.beats`` call per
(play, table) pair — the baseline — against one ``dachu.beats_many`` call for all pairs
(parsing under the GIL, classify + beats with it released), in the same run. The
conftest prints items/s and the ratio to the baseline; run
``python -m pytest benches/bench_dachu.py -q``."""

import random

from handeval import dachu

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
N = 2000
GROUP = f"dachu classify+beats, {N:,} pairs"


def _pairs(n, seed=1):
    """n (play, table) pairs of real plays with no shared card; every kind appears."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deck = DECK[:]
        rng.shuffle(deck)
        p = rng.choice(dachu.legal_plays(deck[:13], None, "red")).cards
        t = rng.choice(dachu.legal_plays(deck[13:26], None, "red")).cards
        out.append((p, t))
    return out


PAIRS = _pairs(N)
PAIR_STRINGS = [(" ".join(p), " ".join(t)) for p, t in PAIRS]
EXPECTED = [dachu.beats(p, t, "red") for p, t in PAIRS]


def test_beats_baseline_single_calls(benchmark):
    benchmark.group = GROUP
    benchmark.extra_info["items"] = N
    out = benchmark(lambda: [dachu.beats(p, t, "red") for p, t in PAIRS])
    assert out == EXPECTED


def test_beats_many_batched(benchmark):
    benchmark.group = GROUP
    benchmark.extra_info["items"] = N
    out = benchmark(dachu.beats_many, PAIRS, "red")
    assert out == EXPECTED


def test_beats_many_batched_strings(benchmark):
    benchmark.group = GROUP
    benchmark.extra_info["items"] = N
    out = benchmark(dachu.beats_many, PAIR_STRINGS, "red")
    assert out == EXPECTED


def test_legal_plays_single_hand(benchmark):
    """For scale: all legal leads of one 13-card hand (no baseline in this group)."""
    benchmark.group = "dachu legal_plays, one 13-card hand"
    benchmark.extra_info["items"] = 1
    hand = "3h 4s 5d 6c 7s 7h 7d 9s Ts Jd Qc Kh Ah"
    assert benchmark(dachu.legal_plays, hand, None, "red")

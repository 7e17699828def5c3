"""打儲 through the Python API: classify + beats throughput — one ``dachu.beats`` call per
(play, table) pair, the baseline, against one ``dachu.beats_many`` call for all pairs
(parsing under the GIL, classify + beats with it released), in the same run — and
``legal_plays`` of 13-card hands (to set against the core's criterion figure). The
conftest prints items/s and the ratio to the baseline; run
``python -m pytest benches/bench_dachu.py -q -o python_files='bench_*.py'``."""

import random

from handeval import dachu
from harness.deck import DECK

from hands13 import HANDS13

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


def test_legal_plays_13_card_hands(benchmark):
    """Every lead of each of the 32 hands of ``hands13.txt``, one call per hand: compare
    with ``dachu::legal_plays`` of ``cargo bench -p handeval-core --bench plays`` (the
    same hands; no Python baseline in this group)."""
    benchmark.group = f"dachu legal_plays, {len(HANDS13)} 13-card hands"
    benchmark.extra_info["items"] = len(HANDS13)
    out = benchmark(lambda: [dachu.legal_plays(h, None, "red") for h in HANDS13])
    assert all(out)

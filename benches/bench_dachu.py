"""打儲 classify + beats throughput: one Python call per pair (the baseline) against one
batched call for all pairs (``dachu.beats_many``, GIL released), measured in the same run.

Run: ``python -m pytest benches/bench_dachu.py --benchmark-only``. The batched test
reports ``pairs_per_second`` and ``speedup_vs_single_calls`` (the ratio to the baseline
``test_beats_single_calls``) in its ``extra_info`` and prints them.
"""

import random
import time

import pytest

from handeval import dachu

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
N = 2000


def _pairs(n, seed=1):
    """n (play, table) pairs of real plays with no shared card: every kind appears."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deck = DECK[:]
        rng.shuffle(deck)
        hand, rest = deck[:13], deck[13:]
        plays = dachu.legal_plays(hand, None, "red")
        p = rng.choice(plays).cards
        follow = dachu.legal_plays(rest[:13], None, "red")
        t = rng.choice(follow).cards
        out.append((p, t))
    return out


PAIRS = _pairs(N)
_baseline = {}


def _single():
    return [dachu.beats(p, t, "red") for p, t in PAIRS]


def _batched():
    return dachu.beats_many(PAIRS, "red")


def test_beats_single_calls(benchmark):
    """Baseline: one ``dachu.beats`` call per pair."""
    benchmark.group = "dachu classify+beats"
    result = benchmark(_single)
    _baseline["mean"] = benchmark.stats.stats.mean
    benchmark.extra_info["pairs_per_second"] = round(N / benchmark.stats.stats.mean)
    assert len(result) == N


def test_beats_batched(benchmark):
    """One ``dachu.beats_many`` call for all pairs; ratio against the baseline above."""
    benchmark.group = "dachu classify+beats"
    result = benchmark(_batched)
    assert result == _single()
    base = _baseline.get("mean")
    if base is None:  # baseline not selected: measure it here, in the same run
        t0 = time.perf_counter()
        for _ in range(5):
            _single()
        base = (time.perf_counter() - t0) / 5
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["pairs_per_second"] = round(N / mean)
    benchmark.extra_info["baseline"] = "test_beats_single_calls"
    benchmark.extra_info["speedup_vs_single_calls"] = round(base / mean, 2)
    print(f"\ndachu classify+beats: single calls {N / base:,.0f} pairs/s, batched {N / mean:,.0f} pairs/s, "
          f"batched/single = {base / mean:.1f}x")

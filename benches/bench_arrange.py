"""Speed of the 十三水 arrangement solver (pytest-benchmark).

    python -m pytest benches/bench_arrange.py --benchmark-only -p no:randomly

* one ``arrange`` call against the named baseline ``python_bruteforce_greedy``: a pure-
  Python search over all 72,072 splits (row strengths from ``shisanshui.classify``, the
  greedy objective) — the solver does more work (expected waters, not a lexicographic max)
  and is reported as a speed ratio over that baseline;
* ``arrange_many`` throughput in hands/s (GIL released, rayon on every core) against the
  baseline ``arrange_loop``: the same hands one ``arrange`` call at a time.

Each solver benchmark stores ``ratio_vs_<baseline>`` (baseline mean / solver mean) and
hands/s in ``extra_info`` and prints them.
"""

import itertools
import os
import random

import pytest

from handeval import shisanshui

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
HANDS = [random.Random(i).sample(DECK, 13) for i in range(2000)]
HAND = HANDS[0]
_means = {}


def _python_bruteforce_greedy(hand):
    """All 72,072 splits in pure Python: strongest back, then middle, foul-free."""
    idx = range(13)
    s5 = {c: shisanshui.classify([hand[i] for i in c]).strength for c in itertools.combinations(idx, 5)}
    s3 = {c: shisanshui.classify([hand[i] for i in c]).strength for c in itertools.combinations(idx, 3)}
    best = None
    for back, sb in s5.items():
        rest = [i for i in idx if i not in back]
        for middle in itertools.combinations(rest, 5):
            sm = s5[middle]
            if sm > sb:
                continue
            front = tuple(i for i in rest if i not in middle)
            if s3[front] > sm:
                continue
            key = (sb, sm)
            if best is None or key > best[0]:
                best = (key, front, middle, back)
    return best


def _record(benchmark, name, baseline=None, hands=None):
    mean = benchmark.stats.stats.mean
    _means[name] = mean
    if hands:
        benchmark.extra_info["hands_per_s"] = round(hands / mean)
    if baseline in _means:
        ratio = _means[baseline] / mean
        benchmark.extra_info[f"ratio_vs_{baseline}"] = round(ratio, 1)
        print(f"\n{name}: {mean * 1e6:.0f} µs; {ratio:.1f}x faster than {baseline}"
              + (f"; {hands / mean:,.0f} hands/s" if hands else ""))


def test_baseline_python_bruteforce_greedy(benchmark):
    best = benchmark.pedantic(_python_bruteforce_greedy, args=(HAND,), rounds=3, iterations=1)
    assert best is not None
    _record(benchmark, "python_bruteforce_greedy")


def test_arrange_one_call(benchmark):
    a = benchmark(shisanshui.arrange, HAND)
    assert len(a.front) == 3
    _record(benchmark, "arrange", "python_bruteforce_greedy")


def test_baseline_arrange_loop(benchmark):
    hands = HANDS[:500]
    out = benchmark.pedantic(lambda: [shisanshui.arrange(h) for h in hands], rounds=3, iterations=1)
    assert len(out) == len(hands)
    _record(benchmark, "arrange_loop", hands=len(hands))


def test_arrange_many_throughput(benchmark):
    hands = HANDS[:500]
    out = benchmark.pedantic(shisanshui.arrange_many, args=(hands,), rounds=3, iterations=1)
    assert len(out) == len(hands)
    benchmark.extra_info["cpus"] = os.cpu_count()
    _record(benchmark, "arrange_many", "arrange_loop", hands=len(hands))

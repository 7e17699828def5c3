"""Speed of the 十三水 arrangement solver (pytest-benchmark).

    python -m pytest benches/bench_arrange.py -q

* one ``arrange`` call against the named baseline ``python_bruteforce_greedy``: a pure-
  Python search over all 72,072 splits (row strengths from ``shisanshui.classify``, the
  greedy objective) — the solver does more work (expected waters, not a lexicographic max)
  and is reported as a speed ratio over that baseline;
* ``arrange_many`` throughput in hands/s (GIL released, rayon on every core) against the
  baseline ``arrange_loop``: the same hands one ``arrange`` call at a time.

The Rust search against the search it replaced (same answers, measured interleaved on the
same hands) is ``cargo run --release -p handeval-core --features bench --example arrange_speed`` and the
criterion group ``arrange`` (docs/arrange.md, Speed).

Follows benches/conftest.py: every benchmark sets ``benchmark.group`` and
``extra_info["items"]`` (hands per call); the run ends with hands/s and the ratio to the
group's baseline (the benchmark named ``baseline``).
"""

import itertools
import os
import random

from handeval import shisanshui
from harness.deck import DECK

HANDS = [random.Random(i).sample(DECK, 13) for i in range(500)]
HAND = HANDS[0]


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


def test_one_hand_baseline_python_bruteforce_greedy(benchmark):
    benchmark.group = "arrange: one hand"
    benchmark.extra_info["items"] = 1
    best = benchmark.pedantic(_python_bruteforce_greedy, args=(HAND,), rounds=3, iterations=1)
    assert best is not None


def test_one_hand_arrange(benchmark):
    benchmark.group = "arrange: one hand"
    benchmark.extra_info["items"] = 1
    a = benchmark(shisanshui.arrange, HAND)
    assert len(a.front) == 3


def test_many_baseline_arrange_loop(benchmark):
    benchmark.group = "arrange: 500 hands"
    benchmark.extra_info["items"] = len(HANDS)
    out = benchmark.pedantic(lambda: [shisanshui.arrange(h) for h in HANDS], rounds=3, iterations=1)
    assert len(out) == len(HANDS)


def test_many_arrange_many(benchmark):
    benchmark.group = "arrange: 500 hands"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark.extra_info["cpus"] = os.cpu_count()
    out = benchmark.pedantic(shisanshui.arrange_many, args=(HANDS,), rounds=3, iterations=1)
    assert len(out) == len(HANDS)


# ---- Monte-Carlo re-ranking: the cost per sample (what --max-samples of the server
# bounds: a hand with samples runs to its end once started) ----


def test_samples_baseline_exact_arrange(benchmark):
    benchmark.group = "arrange: one hand, samples=1000"
    benchmark.extra_info["items"] = 1
    a = benchmark(shisanshui.arrange, HAND)
    assert len(a.front) == 3


def test_samples_arrange_1000(benchmark):
    """One hand with samples=1000 on every core; time per hand / 1000 = per sample."""
    benchmark.group = "arrange: one hand, samples=1000"
    benchmark.extra_info["items"] = 1
    benchmark.extra_info["cpus"] = os.cpu_count()
    a = benchmark.pedantic(shisanshui.arrange, args=(HAND,), kwargs={"samples": 1000}, rounds=5, iterations=1)
    assert len(a.front) == 3

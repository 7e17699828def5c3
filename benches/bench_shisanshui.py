"""十三水 five-card classification through the Python API, single calls and batched,
against treys (a pure-Python Cactus-Kev evaluator) in the same run."""

import random

import pytest

from handeval import shisanshui as ssw

treys = pytest.importorskip("treys")

RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "shdc"]
rng = random.Random(1)
HANDS = [rng.sample(DECK, 5) for _ in range(10_000)]
HAND_STRINGS = [" ".join(h) for h in HANDS]
EVALUATOR = treys.Evaluator()
TREYS_HANDS = [[treys.Card.new(c) for c in h] for h in HANDS]


def _treys_class(h):
    return EVALUATOR.get_rank_class(EVALUATOR.evaluate(h[:2], h[2:]))


def test_single_baseline_treys(benchmark):
    benchmark.group = "classify 5 cards, one call per hand"
    benchmark.extra_info["items"] = 1
    h = TREYS_HANDS[0]
    benchmark(_treys_class, h)


def test_single_handeval(benchmark):
    benchmark.group = "classify 5 cards, one call per hand"
    benchmark.extra_info["items"] = 1
    benchmark(ssw.classify, HANDS[0])


def test_single_handeval_string(benchmark):
    benchmark.group = "classify 5 cards, one call per hand"
    benchmark.extra_info["items"] = 1
    benchmark(ssw.classify, HAND_STRINGS[0])


def test_batch_baseline_treys_loop(benchmark):
    benchmark.group = "classify 10,000 hands"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(lambda: [_treys_class(h) for h in TREYS_HANDS])


def test_batch_handeval_loop(benchmark):
    benchmark.group = "classify 10,000 hands"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(lambda: [ssw.classify(h).category for h in HANDS])


def test_batch_handeval_classify_many(benchmark):
    benchmark.group = "classify 10,000 hands"
    benchmark.extra_info["items"] = len(HANDS)
    out = benchmark(ssw.classify_many, HANDS)
    assert len(out) == len(HANDS)


def test_batch_handeval_classify_many_strings(benchmark):
    benchmark.group = "classify 10,000 hands"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(ssw.classify_many, HAND_STRINGS)


IDS = bytes(DECK.index(c) for h in HANDS for c in h)


def test_batch_handeval_categories_from_ids(benchmark):
    benchmark.group = "classify 10,000 hands"
    benchmark.extra_info["items"] = len(HANDS)
    out = benchmark(ssw.categories_from_ids, IDS)
    assert len(out) == len(HANDS)

"""十三水 row classification and comparison through the Python API, single calls and
batched, against treys (a pure-Python Cactus-Kev evaluator) on pre-converted treys cards,
in the same run; the single calls also against the public C evaluators' fastest calls
(peers): eval7 (``evaluate`` on pre-built ``eval7.Card``s) and phevaluator (its C
function ``_pheval.evaluate_5cards`` on card ids), and against the floor of a call into
the extension (``_core._call_floor``: same signature, no work, a cached object). Run:
``python3 -m pytest benches/bench_shisanshui.py -q`` (eval7 and phevaluator come with the
``bench`` extra; without them their benchmarks are skipped); the summary at the end
prints items/s and the ratio to each group's baseline and peers (docs/benchmarks.md)."""

import random

import pytest

from handeval import _core, shisanshui as ssw
from harness.deck import DECK

treys = pytest.importorskip("treys")

rng = random.Random(1)
HANDS = [rng.sample(DECK, 5) for _ in range(10_000)]
HAND_STRINGS = [" ".join(h) for h in HANDS]
EVALUATOR = treys.Evaluator()
TREYS_HANDS = [[treys.Card.new(c) for c in h] for h in HANDS]
IDS = bytes(DECK.index(c) for h in HANDS for c in h)

# A fixed example row, and a disjoint second row for comparisons.
ONE = "As Kd Qh Js 9c"
TWO = "2s 3s 4s 5s 7d"
ONE_TREYS = [treys.Card.new(c) for c in ONE.split()]
TWO_TREYS = [treys.Card.new(c) for c in TWO.split()]


def _treys_class(h):
    return EVALUATOR.get_rank_class(EVALUATOR.evaluate(h[:2], h[2:]))


def _treys_compare(a, b):
    # treys ranks 1 (best) .. 7462: lower is stronger
    ra, rb = EVALUATOR.evaluate(a[:2], a[2:]), EVALUATOR.evaluate(b[:2], b[2:])
    return (ra < rb) - (ra > rb)


# ---- one call: many iterations per round, so the timer's own cost (~0.1 µs) does not
# weigh on calls of a few hundred ns, and every contender is timed the same way


def _per_call(benchmark, fn, *args):
    return benchmark.pedantic(fn, args, iterations=2000, rounds=40, warmup_rounds=2)


def _peer(benchmark, group):
    benchmark.group = group
    benchmark.extra_info["items"] = 1
    benchmark.extra_info["peer"] = True


def _eval7():
    eval7 = pytest.importorskip("eval7")
    return eval7, [eval7.Card(c) for c in ONE.split()], [eval7.Card(c) for c in TWO.split()]


def _phevaluator():
    pytest.importorskip("phevaluator")
    from phevaluator import _pheval
    from phevaluator.card import Card

    return _pheval.evaluate_5cards, [Card.to_id(c) for c in ONE.split()], [Card.to_id(c) for c in TWO.split()]


def test_single_peer_eval7(benchmark):
    eval7, one, _ = _eval7()
    _peer(benchmark, "classify one 5-card row")
    _per_call(benchmark, eval7.evaluate, one)


def test_single_peer_phevaluator_c(benchmark):
    ev5, one, _ = _phevaluator()
    _peer(benchmark, "classify one 5-card row")
    _per_call(benchmark, ev5, *one)


def test_single_floor_pyo3_call(benchmark):
    benchmark.group = "classify one 5-card row"
    benchmark.extra_info["items"] = 1
    _per_call(benchmark, _core._call_floor, ONE)


def test_compare_peer_eval7(benchmark):
    eval7, one, two = _eval7()
    evaluate = eval7.evaluate

    def compare(a, b):  # higher is stronger
        ra, rb = evaluate(a), evaluate(b)
        return (ra > rb) - (ra < rb)

    _peer(benchmark, "compare two 5-card rows")
    assert _per_call(benchmark, compare, one, two) == 1


def test_compare_peer_phevaluator_c(benchmark):
    ev5, one, two = _phevaluator()

    def compare(a, b):  # lower is stronger
        ra, rb = ev5(*a), ev5(*b)
        return (ra < rb) - (ra > rb)

    _peer(benchmark, "compare two 5-card rows")
    assert _per_call(benchmark, compare, one, two) == 1


def test_single_baseline_treys(benchmark):
    benchmark.group = "classify one 5-card row"
    benchmark.extra_info["items"] = 1
    _per_call(benchmark, _treys_class, ONE_TREYS)


def test_single_handeval_string(benchmark):
    benchmark.group = "classify one 5-card row"
    benchmark.extra_info["items"] = 1
    assert _per_call(benchmark, ssw.classify, ONE).category == "high_card"


def test_single_handeval_list(benchmark):
    benchmark.group = "classify one 5-card row"
    benchmark.extra_info["items"] = 1
    _per_call(benchmark, ssw.classify, ONE.split())


def test_compare_baseline_treys(benchmark):
    benchmark.group = "compare two 5-card rows"
    benchmark.extra_info["items"] = 1
    assert _per_call(benchmark, _treys_compare, ONE_TREYS, TWO_TREYS) == 1


def test_compare_handeval_strings(benchmark):
    benchmark.group = "compare two 5-card rows"
    benchmark.extra_info["items"] = 1
    assert _per_call(benchmark, ssw.compare, ONE, TWO) == 1


# ---- 10,000 rows


def test_batch_baseline_treys_loop(benchmark):
    benchmark.group = "classify 10,000 rows"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(lambda: [_treys_class(h) for h in TREYS_HANDS])


def test_batch_handeval_loop(benchmark):
    benchmark.group = "classify 10,000 rows"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(lambda: [ssw.classify(h).category for h in HAND_STRINGS])


def test_batch_handeval_classify_many_strings(benchmark):
    benchmark.group = "classify 10,000 rows"
    benchmark.extra_info["items"] = len(HANDS)
    out = benchmark(ssw.classify_many, HAND_STRINGS)
    assert out[:50] == [ssw.classify(h).category for h in HAND_STRINGS[:50]]


def test_batch_handeval_classify_many_lists(benchmark):
    benchmark.group = "classify 10,000 rows"
    benchmark.extra_info["items"] = len(HANDS)
    benchmark(ssw.classify_many, HANDS)


def test_batch_handeval_categories_from_ids(benchmark):
    benchmark.group = "classify 10,000 rows"
    benchmark.extra_info["items"] = len(HANDS)
    out = benchmark(ssw.categories_from_ids, IDS)
    assert [ssw.CATEGORIES[b] for b in out[:50]] == ssw.classify_many(HAND_STRINGS[:50])

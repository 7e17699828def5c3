"""One 十三水 ``classify`` / ``compare`` call from Python against the public C evaluators'
fastest calls, over many distinct rows, in one process, interleaved.

    python benches/single_call.py [--rows 1000] [--rounds 300] [--seed 1]
                                  [--baseline-core PATH/_core.abi3.so]

Every contender walks the same ``--rows`` distinct random rows (and pairs of rows for
``compare``) in the same loop shape, one call per row: ``for x in xs: f(x)`` for a call
taking one argument, ``for a, b, c, d, e in xs: f(a, b, c, d, e)`` for phevaluator's C
function of five card ids, ``for a, b in pairs: f(a, b)`` for a comparison. A round is one
walk over all the rows; the rounds of all contenders are interleaved, in a new random order
each round, so load from other jobs hits them alike. The table gives, per call, the
fastest round (the least disturbed) and the median round, loop included; the empty loops
of both shapes are timed too.
Fixed-input figures (the same row every call: the branch predictor and the caches see one
row only, which flatters every contender) are printed apart, labelled as such.

eval7 and phevaluator come with the ``bench`` extra (``pip install '.[bench]'``; skipped
when missing). ``--baseline-core`` loads another build of the extension (e.g. a starting
commit's ``_core.abi3.so``) under its own name in the same process. See
docs/benchmarks.md."""

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path

from handeval import _core, shisanshui as ssw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.deck import DECK

ONE, TWO = "As Kd Qh Js 9c", "2s 3s 4s 5s 7d"


def distinct_rows(n, seed):
    """``n`` distinct random 5-card rows, each in a random order, as card lists."""
    rng, seen, out = random.Random(seed), set(), []
    while len(out) < n:
        row = rng.sample(DECK, 5)
        key = frozenset(row)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


def distinct_pairs(n, seed):
    """``n`` distinct pairs of rows dealt from one deck each (no card in both)."""
    rng, seen, out = random.Random(f"pairs/{seed}"), set(), []
    while len(out) < n:
        t = rng.sample(DECK, 10)
        key = (frozenset(t[:5]), frozenset(t[5:]))
        if key not in seen:
            seen.add(key)
            out.append((t[:5], t[5:]))
    return out


def _loop(shape):
    """A function walking ``xs`` with ``f`` in one loop shape (compiled once, so every
    contender of a shape runs the same bytecode)."""
    body = {
        "one": "for x in xs:\n        f(x)",
        "five": "for a, b, c, d, e in xs:\n        f(a, b, c, d, e)",
        "pair": "for a, b in xs:\n        f(a, b)",
        "none": "for x in xs:\n        pass",
        "none5": "for a, b, c, d, e in xs:\n        pass",
    }[shape]
    ns = {}
    exec(f"def walk(f, xs):\n    {body}\n", ns)
    return ns["walk"]


def contenders(rows, pairs, baseline_core):
    """``{name: (walk, f, inputs, kind)}``; kind: "row" or "pair" (what one call does)."""
    text = [" ".join(r) for r in rows]
    text_pairs = [(" ".join(a), " ".join(b)) for a, b in pairs]
    one, five, pair = _loop("one"), _loop("five"), _loop("pair")
    out = {
        "empty loop: for x in xs": (_loop("none"), None, text, "row"),
        "floor: _core._call_floor(str) -> cached object": (one, _core._call_floor, text, "row"),
        "handeval classify(str) -> Row": (one, ssw.classify, text, "row"),
        "handeval compare(str, str) -> int": (pair, ssw.compare, text_pairs, "pair"),
        "handeval classify_many(1000 str), per row": (None, ssw.classify_many, text, "row"),
    }
    if baseline_core:
        spec = importlib.util.spec_from_file_location("_core", baseline_core)
        base = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(base)
        out["baseline classify(str)"] = (one, base.ssw_classify, text, "row")
        out["baseline compare(str, str)"] = (pair, base.ssw_compare, text_pairs, "pair")
    try:
        from phevaluator import _pheval
        from phevaluator.card import Card

        ev5 = _pheval.evaluate_5cards
        ids = [tuple(Card.to_id(c) for c in r) for r in rows]
        id_pairs = [(tuple(Card.to_id(c) for c in a), tuple(Card.to_id(c) for c in b)) for a, b in pairs]

        def ph_compare(a, b):
            ra, rb = ev5(*a), ev5(*b)
            return (ra < rb) - (ra > rb)

        out["empty loop: for a, b, c, d, e in xs"] = (_loop("none5"), None, ids, "row")
        out["phevaluator C evaluate_5cards(5 ints)"] = (five, ev5, ids, "row")
        out["phevaluator compare (two C calls)"] = (pair, ph_compare, id_pairs, "pair")
    except ImportError:
        pass
    try:
        import eval7

        cards = [[eval7.Card(c) for c in r] for r in rows]
        card_pairs = [([eval7.Card(c) for c in a], [eval7.Card(c) for c in b]) for a, b in pairs]

        def e7_compare(a, b, evaluate=eval7.evaluate):
            ra, rb = evaluate(a), evaluate(b)
            return (ra > rb) - (ra < rb)

        out["eval7 evaluate(5 Cards)"] = (one, eval7.evaluate, cards, "row")
        out["eval7 compare (two evaluate)"] = (pair, e7_compare, card_pairs, "pair")
    except ImportError:
        pass
    return out


def fixed(cs):
    """The same contenders on one fixed row (or pair), repeated: labelled apart."""
    out = {}
    for name, (walk, f, xs, kind) in cs.items():
        if walk is None or f is None:
            continue
        first = xs[0]
        if name.startswith("handeval classify") or name.startswith("floor") or name.startswith("baseline classify"):
            first = ONE
        elif name.startswith("handeval compare") or name.startswith("baseline compare"):
            first = (ONE, TWO)
        out[f"{name} [fixed row]"] = (walk, f, [first] * len(xs), kind)
    return out


def measure(cs, rounds, seed):
    """Nanoseconds per call of each contender, one list entry per round, rounds interleaved
    (in a new random order each round, so no contender always follows the same one)."""
    times = {name: [] for name in cs}
    clock = time.perf_counter_ns
    rng = random.Random(seed)
    order = list(cs.items())
    for _ in range(rounds):
        rng.shuffle(order)
        for name, (walk, f, xs, _kind) in order:
            if walk is None:  # a batch call: the whole list in one call
                t0 = clock()
                f(xs)
                t1 = clock()
            else:
                t0 = clock()
                walk(f, xs)
                t1 = clock()
            times[name].append((t1 - t0) / len(xs))
    return times


def table(times, title):
    best = {n: min(v) for n, v in times.items()}
    print(f"\n{title}")
    print(f"{'call':<62} {'fastest ns':>10} {'median ns':>10}")
    for name, v in times.items():
        print(f"{name:<62} {best[name]:>10.1f} {statistics.median(v):>10.1f}")
    return best


def ratio_lines(best, suffix=""):
    ph = best.get("phevaluator C evaluate_5cards(5 ints)" + suffix)
    cl = best["handeval classify(str) -> Row" + suffix]
    cp = best["handeval compare(str, str) -> int" + suffix]
    if ph:
        pc = best["phevaluator compare (two C calls)" + suffix]
        print(f"classify vs phevaluator's C call: x{ph / cl:.2f} (>1: classify is faster)")
        print(f"compare vs phevaluator's compare: x{pc / cp:.2f}; vs ONE phevaluator C call: x{ph / cp:.2f}")
    return ph and ph / cl


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1000, help="distinct rows (and pairs) walked per round (default 1000)")
    ap.add_argument("--rounds", type=int, default=300, help="rounds per contender, interleaved (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline-core", help="path of another _core.abi3.so to measure as the baseline")
    args = ap.parse_args()
    if args.rows < 1000:
        ap.error("--rows must be at least 1000 (figures over fewer distinct inputs flatter every contender)")
    rows, pairs = distinct_rows(args.rows, args.seed), distinct_pairs(args.rows, args.seed)
    cs = contenders(rows, pairs, args.baseline_core)
    load = os.getloadavg()
    print(
        f"{args.rows:,} distinct rows and {len(pairs):,} distinct pairs, {args.rounds} interleaved rounds; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    times = measure({**cs, **fixed(cs)}, args.rounds, args.seed)
    best = table(
        {n: v for n, v in times.items() if not n.endswith("[fixed row]")},
        f"varied rows: each call a different row of the {args.rows:,}, loop included",
    )
    ratio_lines(best)
    floor = best["floor: _core._call_floor(str) -> cached object"]
    print(
        f"classify - floor: {best['handeval classify(str) -> Row'] - floor:.1f} ns; "
        f"compare - floor: {best['handeval compare(str, str) -> int'] - floor:.1f} ns"
    )
    if args.baseline_core:
        print(
            f"classify vs baseline: x{best['baseline classify(str)'] / best['handeval classify(str) -> Row']:.2f}; "
            f"compare vs baseline: x{best['baseline compare(str, str)'] / best['handeval compare(str, str) -> int']:.2f}"
        )
    fbest = table(
        {n: v for n, v in times.items() if n.endswith("[fixed row]")},
        "FIXED row (the same row every call: flatters every contender; for comparison only)",
    )
    ratio_lines(fbest, " [fixed row]")


if __name__ == "__main__":
    main()

"""One 十三水 ``classify`` / ``compare`` call from Python, interleaved in one process with
the public C evaluators' fastest calls and with the floor of a call into the extension;
optionally with another build of the extension as the baseline (e.g. the starting commit's
``_core.abi3.so``, loaded under its own name in the same process).

    python benches/single_call.py [--baseline-core PATH/_core.abi3.so] [--rounds 300]

Each contender is timed in many short rounds (2,000 calls each), the rounds of all
contenders interleaved, so load from other jobs hits them alike; the table gives the
fastest round (the least disturbed) and the median round, per call. eval7 and phevaluator
come with the ``bench`` extra (skipped when missing). See docs/benchmarks.md."""

import argparse
import importlib.util
import statistics
import timeit

from handeval import _core
from handeval import shisanshui as ssw

ONE, TWO = "As Kd Qh Js 9c", "2s 3s 4s 5s 7d"


def contenders(baseline_core):
    out = {
        "floor: _core._call_floor(str) -> cached object": ("f(a)", {"f": _core._call_floor, "a": ONE}),
        "handeval classify(str) -> Row": ("f(a)", {"f": ssw.classify, "a": ONE}),
        "handeval compare(str, str) -> int": ("f(a, b)", {"f": ssw.compare, "a": ONE, "b": TWO}),
    }
    if baseline_core:
        spec = importlib.util.spec_from_file_location("_core", baseline_core)
        base = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(base)
        out["baseline classify(str)"] = ("f(a)", {"f": base.ssw_classify, "a": ONE})
        out["baseline compare(str, str)"] = ("f(a, b)", {"f": base.ssw_compare, "a": ONE, "b": TWO})
    try:
        import eval7

        one, two = [eval7.Card(c) for c in ONE.split()], [eval7.Card(c) for c in TWO.split()]

        def e7_compare(a, b, evaluate=eval7.evaluate):
            ra, rb = evaluate(a), evaluate(b)
            return (ra > rb) - (ra < rb)

        out["eval7 evaluate(5 Cards)"] = ("f(a)", {"f": eval7.evaluate, "a": one})
        out["eval7 compare (two evaluate)"] = ("f(a, b)", {"f": e7_compare, "a": one, "b": two})
    except ImportError:
        pass
    try:
        from phevaluator import _pheval
        from phevaluator.card import Card

        ev5 = _pheval.evaluate_5cards
        one, two = [Card.to_id(c) for c in ONE.split()], [Card.to_id(c) for c in TWO.split()]

        def ph_compare(a, b):
            ra, rb = ev5(*a), ev5(*b)
            return (ra < rb) - (ra > rb)

        out["phevaluator C evaluate_5cards(5 ints)"] = ("f(a, b, c, d, e)", dict(zip("abcde", one), f=ev5))
        out["phevaluator compare (two C calls)"] = ("f(a, b)", {"f": ph_compare, "a": one, "b": two})
    except ImportError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline-core", help="path of another _core.abi3.so to measure as the baseline")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--number", type=int, default=2000)
    args = ap.parse_args()
    cs = contenders(args.baseline_core)
    timers = {name: timeit.Timer(stmt, globals=g) for name, (stmt, g) in cs.items()}
    times = {name: [] for name in cs}
    for _ in range(args.rounds):
        for name, t in timers.items():
            times[name].append(t.timeit(args.number) / args.number * 1e9)
    best = {n: min(v) for n, v in times.items()}
    print(f"{'call':<45} {'fastest ns':>10} {'median ns':>10}")
    for name in cs:
        print(f"{name:<45} {best[name]:>10.1f} {statistics.median(times[name]):>10.1f}")
    ph = best.get("phevaluator C evaluate_5cards(5 ints)")
    if ph:
        print(f"classify vs phevaluator's C call: x{ph / best['handeval classify(str) -> Row']:.2f} (>1: faster)")
        print(f"compare vs phevaluator's compare: x{best['phevaluator compare (two C calls)'] / best['handeval compare(str, str) -> int']:.2f}")
        print(f"compare vs ONE phevaluator C call: x{ph / best['handeval compare(str, str) -> int']:.2f}")
    floor = best["floor: _core._call_floor(str) -> cached object"]
    print(f"classify - floor: {best['handeval classify(str) -> Row'] - floor:.1f} ns; compare - floor: {best['handeval compare(str, str) -> int'] - floor:.1f} ns")
    if args.baseline_core:
        print(f"classify vs baseline: x{best['baseline classify(str)'] / best['handeval classify(str) -> Row']:.2f}; "
              f"compare vs baseline: x{best['baseline compare(str, str)'] / best['handeval compare(str, str) -> int']:.2f}")


if __name__ == "__main__":
    main()

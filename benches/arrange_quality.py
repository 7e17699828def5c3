#!/usr/bin/env python3
"""Quality of the 十三水 arrangement solver (a benchmark script, not a test).

Runs the Rust example ``arrange_quality`` (release build, every core) and prints its
numbers with 95% confidence intervals, plus machine, date and command, as reported in
docs/arrange.md:

* solver vs the greedy arranger: >= 100,000 4-player deals, full RULES scoring, seat 0
  plays the solver and seats 1-3 the greedy arranger; mean waters per hand of seat 0, and
  the paired gain (the same deal with seat 0 playing greedy too);
* solver vs the solver on the iteration-0 tables, the same way;
* the mean gap between a Monte-Carlo best response (best non-dominated split over
  ``--mc-select`` sampled opponent deals) and the solver, both scored on ``--mc-eval``
  fresh deals, on a fixed set of hands.

    python benches/arrange_quality.py [--deals 100000] [--mc-hands 40] ...
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def fmt(s):
    lo, hi = s["ci95"]
    return f"{s['mean']:+.3f}  (95% CI {lo:+.3f} .. {hi:+.3f}, n={s['n']})"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mc-hands", type=int, default=40)
    p.add_argument("--mc-select", type=int, default=1000)
    p.add_argument("--mc-eval", type=int, default=2000)
    p.add_argument("--json", type=pathlib.Path, help="also write the raw numbers here")
    a = p.parse_args(argv)
    cmd = [
        "cargo",
        "run",
        "--release",
        "--quiet",
        "-p",
        "handeval-core",
        "--features",
        "train",
        "--example",
        "arrange_quality",
        "--",
        "--deals",
        str(a.deals),
        "--seed",
        str(a.seed),
        "--mc-hands",
        str(a.mc_hands),
        "--mc-select",
        str(a.mc_select),
        "--mc-eval",
        str(a.mc_eval),
    ]
    started = datetime.datetime.now(datetime.timezone.utc)
    out = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True).stdout
    r = json.loads(out)
    cpu = (
        next(
            (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
            platform.processor(),
        )
        if os.path.exists("/proc/cpuinfo")
        else platform.processor()
    )
    print(f"date     {started:%Y-%m-%d %H:%M} UTC")
    print(f"machine  {cpu}, {os.cpu_count()} cores ({r['threads']} threads), {platform.system()} {platform.release()}")
    print(f"command  python benches/arrange_quality.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print(f"tables   iteration {r['tables_iteration']}")
    print()
    print(f"vs greedy, seat-0 waters/hand        {fmt(r['vs_greedy'])}")
    print(f"vs greedy, paired gain over greedy   {fmt(r['vs_greedy_paired_gain'])}")
    print(f"vs iteration-0 tables, waters/hand   {fmt(r['vs_iter0'])}")
    print(f"vs iteration-0, paired gain          {fmt(r['vs_iter0_paired_gain'])}")
    print(
        f"MC best response − solver (waters)   {fmt(r['mc_gap'])}"
        f"   [{r['mc_hands']} hands, {r['mc_select']} + {r['mc_eval']} deals each]"
    )
    print(f"solver's exact value on those hands  {fmt(r['solver_mc_value'])}")
    print(f"table model − exact value            {fmt(r['table_minus_mc_value'])}")
    print(f"seconds  {r['seconds']}")
    if a.json:
        a.json.write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Regenerate the 十三水 arrangement tables (docs/arrange.md).

Runs the Rust example ``train_arrange`` (feature ``train`` of the core; simulated
4-player deals; iteration 0 with
greedy arrangers, then players using the solver with the previous iteration's tables,
damped, until the tables stop moving) and writes the shipped files

    rust/handeval-core/src/shisanshui/arrange/data/tables.bin        (last iteration)
    rust/handeval-core/src/shisanshui/arrange/data/tables_iter0.bin  (iteration 0)

which the core crate embeds with ``include_bytes!``: rebuild afterwards
(``pip install -e .`` or ``cargo build``). Deterministic for a given --seed and --deals
(whatever the number of threads). The defaults are the example's, the run that made the
shipped tables (``sim::DEALS``, ``SEED``, ``MAX_ITERATIONS``, ``TOLERANCE`` in
rust/handeval-core/src/shisanshui/arrange/sim.rs): about 2–3 minutes of CPU.
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "rust/handeval-core/src/shisanshui/arrange/data"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # Unset options are not passed: the example's defaults (sim.rs) apply.
    p.add_argument("--deals", type=int, help="4-player deals per iteration")
    p.add_argument("--seed", type=int)
    p.add_argument("--max-iterations", type=int)
    p.add_argument("--tolerance", type=float, help="stop when no row's cumulative distribution moves more than this")
    p.add_argument("--out", type=pathlib.Path, default=DATA)
    a = p.parse_args(argv)
    cmd = ["cargo", "run", "--release", "--quiet", "-p", "handeval-core", "--features", "train"]
    cmd += ["--example", "train_arrange", "--"]
    for flag, value in (("--deals", a.deals), ("--seed", a.seed), ("--max-iterations", a.max_iterations)):
        if value is not None:
            cmd += [flag, str(value)]
    if a.tolerance is not None:
        cmd += ["--tolerance", str(a.tolerance)]
    cmd += ["--out", str(a.out)]
    print("$", " ".join(cmd), file=sys.stderr)
    run = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
    for line in run.stdout.splitlines():
        it = json.loads(line)
        d = "—" if it["distance"] is None else f"{it['distance']:.4f}"
        print(f"iteration {it['iteration']}: {it['hands']} hands (counts), distance {d}, {it['seconds']} s")
    print(f"wrote {a.out}/tables.bin and {a.out}/tables_iter0.bin; rebuild to embed them")


if __name__ == "__main__":
    main()

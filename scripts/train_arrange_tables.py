#!/usr/bin/env python3
"""Regenerate the 十三水 arrangement tables (docs/arrange.md).

Runs the Rust example ``train_arrange`` (simulated 4-player deals; iteration 0 with
greedy arrangers, then players using the solver with the previous iteration's tables,
damped, until the tables stop moving) and writes the shipped files

    rust/handeval-core/src/shisanshui/arrange/data/tables.bin        (last iteration)
    rust/handeval-core/src/shisanshui/arrange/data/tables_iter0.bin  (iteration 0)

which the core crate embeds with ``include_bytes!``: rebuild afterwards
(``pip install -e .`` or ``cargo build``). Deterministic for a given --seed and --deals
(whatever the number of threads). Default run: about 2–3 minutes of CPU.
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
    p.add_argument("--deals", type=int, default=25_000, help="4-player deals per iteration (default 25000)")
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--max-iterations", type=int, default=8)
    p.add_argument(
        "--tolerance",
        type=float,
        default=0.02,
        help="stop when no row's cumulative distribution moves more than this (default 0.02)",
    )
    p.add_argument("--out", type=pathlib.Path, default=DATA)
    a = p.parse_args(argv)
    cmd = [
        "cargo",
        "run",
        "--release",
        "--quiet",
        "-p",
        "handeval-core",
        "--example",
        "train_arrange",
        "--",
        "--deals",
        str(a.deals),
        "--seed",
        str(a.seed),
        "--max-iterations",
        str(a.max_iterations),
        "--tolerance",
        str(a.tolerance),
        "--out",
        str(a.out),
    ]
    print("$", " ".join(cmd), file=sys.stderr)
    run = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
    for line in run.stdout.splitlines():
        it = json.loads(line)
        d = "—" if it["distance"] is None else f"{it['distance']:.4f}"
        print(f"iteration {it['iteration']}: {it['hands']} hands (counts), distance {d}, {it['seconds']} s")
    print(f"wrote {a.out}/tables.bin and {a.out}/tables_iter0.bin; rebuild to embed them")


if __name__ == "__main__":
    main()

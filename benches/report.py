#!/usr/bin/env python3
"""The tables of a ``scripts/bench_all.sh`` run, written to ``benchmarks-latest.md`` in the
run's results folder (not committed: docs/benchmarks.md holds the analysis and the current
figures): criterion, pytest-benchmark, and the Locust load runs (``handeval bench-load
--json-out``, each summarised from Locust's CSV by handeval.load.report).

    python benches/report.py --results DIR --out DIR/benchmarks-latest.md
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import List

from handeval.load.target import machine_info


def _fmt_rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"


def _fmt_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e9:.1f} ns"


def criterion_rows(root: Path, since: float) -> List[dict]:
    """[{name, ns_per_row}] of criterion benchmarks with an element throughput, from
    ``<root>/**/new/{benchmark,estimates}.json`` written after ``since``."""
    rows = []
    for bj in sorted(root.glob("**/new/benchmark.json")):
        ej = bj.with_name("estimates.json")
        if not ej.exists() or ej.stat().st_mtime < since:
            continue
        b, e = json.loads(bj.read_text()), json.loads(ej.read_text())
        elements = (b.get("throughput") or {}).get("Elements") or 1
        rows.append(
            {
                "name": b.get("full_id") or f"{b.get('group_id')}/{b.get('function_id')}",
                "ns_per_row": e["mean"]["point_estimate"] / elements,
                "elements": elements,
            }
        )
    return rows


def load_rows(files: List[Path]) -> List[str]:
    L = [
        "## gRPC load (Locust)",
        "",
        "`handeval bench-load --spawn-server --run-time S ...` against a fresh `handeval serve` per run "
        "(the flags of each run are in `scripts/bench_all.sh`): Locust users back to back, one process "
        "unless `--processes`. Client and server share the machine's cores; CPU µs/req is CPU time "
        "during the run divided by requests (server: all its processes; generator: every Locust process). "
        "Locust's percentiles are whole milliseconds below 100 ms.",
        "",
        "| run | workers | method name | users | req/s | items/s | avg ms | p50 ms | p95 ms | p99 ms | max ms "
        "| failures | server CPU µs/req | generator CPU µs/req |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def row(label, workers, name, users, r, cpu=None):
        lat = r["latency_ms"]
        errs = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or str(r["failures"])
        c = cpu or {}
        sc, gc = c.get("server") or {}, c.get("generator") or {}
        return (
            f"| {label} | {workers} | {name} | {users} | {r['requests_per_s']:,.0f} | {_fmt_rate(r['items_per_s'])} | "
            f"{lat['avg']:.2f} | {lat['p50']:.0f} | {lat['p95']:.0f} | {lat['p99']:.0f} | {lat['max']:.1f} | {errs} | "
            f"{sc.get('cpu_us_per_request', '')} | {gc.get('cpu_us_per_request', '')} |"
        )

    for f in files:
        res = json.loads(f.read_text())
        label = res.get("label") or f.stem
        s = res["summary"]
        users = res["users"] if not res.get("processes") else f"{res['users']}, {res['processes']} processes"
        if len(s["rows"]) == 1:
            r = s["rows"][0]
            L.append(row(label, res.get("server_workers"), f"{r['method']} {r['name']}", users, s["total"], res["cpu"]))
        else:
            L.append(row(label, res.get("server_workers"), "all (below)", users, s["total"], res["cpu"]))
            for r in s["rows"]:
                L.append(row(f"↳ {label}", "", f"{r['method']} {r['name']}", "", r))
    L.append("")
    return L


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="benches/report.py", description="the tables of a bench_all.sh run (DIR/benchmarks-latest.md)"
    )
    ap.add_argument("--results", required=True, help="directory with pytest.json, criterion.json, load-*.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--command", default="bash scripts/bench_all.sh")
    ap.add_argument("--uptime", default="")
    ap.add_argument("--criterion", default=None, help="criterion's output directory (target/criterion)")
    ap.add_argument("--since", type=float, default=0.0, help="only criterion results written after this epoch time")
    args = ap.parse_args(argv)
    d = Path(args.results)
    if args.criterion:
        crit_rows = criterion_rows(Path(args.criterion), args.since)
        if crit_rows:
            (d / "criterion.json").write_text(json.dumps(crit_rows, indent=1) + "\n", encoding="utf-8")
    m = machine_info()
    L = [
        "# Benchmarks: latest generated tables",
        "",
        f"Generated by `{args.command}` on {m['date_utc']} (do not edit by hand; the analysis is in "
        "docs/benchmarks.md).",
        "",
        f'Machine: {m["cpus"]} CPU "{m["cpu"]}", Python {m["python"]}, {m["platform"]}.',
        "",
        f"Machine load (uptime) at the start and end of the run: `{args.uptime.strip() or m['loadavg_1_5_15']}`.",
        "",
    ]

    crit = d / "criterion.json"
    if crit.exists():
        rows = json.loads(crit.read_text())
        L += [
            "## Rust core (criterion)",
            "",
            "`cargo bench -p handeval-core --bench core`",
            "",
            "| benchmark | per row | rows/s |",
            "|---|---|---|",
        ]
        for r in rows:
            L.append(f"| `{r['name']}` | {r['ns_per_row']:.2f} ns | {_fmt_rate(1e9 / r['ns_per_row'])} |")
        L.append("")

    pyt = d / "pytest.json"
    if pyt.exists():
        data = json.loads(pyt.read_text())
        groups = defaultdict(list)
        for b in data["benchmarks"]:
            groups[b.get("group") or "-"].append(b)
        L += [
            "## pytest-benchmark suites",
            "",
            "`python -m pytest benches -q --benchmark-json=...` "
            "(items/s = items per call / mean time; ratios to the group's baseline, same run, from the means; "
            "the fastest call shows the cost without interference from other load)",
            "",
        ]
        for g, bs in sorted(groups.items()):
            rate = lambda b: b["extra_info"].get("items", 1) / b["stats"]["mean"]  # noqa: E731
            base = next((b for b in bs if "baseline" in b["name"]), None)
            L += [
                f"### {g}",
                "",
                "| benchmark | items/s | mean per call | fastest call | time per item "
                "| speed vs baseline | time per item vs baseline |",
                "|---|---|---|---|---|---|---|",
            ]
            for b in sorted(bs, key=rate, reverse=True):
                if b is base:
                    ratio = cost = "baseline"
                else:
                    ratio = f"×{rate(b) / rate(base):.3g}" if base else ""
                    cost = f"×{rate(base) / rate(b):.3g}" if base else ""
                L.append(
                    f"| `{b['name']}` | {_fmt_rate(rate(b))} | {_fmt_time(b['stats']['mean'])} | "
                    f"{_fmt_time(b['stats']['min'])} | {_fmt_time(1 / rate(b))} | {ratio} | {cost} |"
                )
            L.append("")

    def run_order(f):  # load-10-x after load-9-y
        head = f.stem.split("-")[1] if f.stem.count("-") else ""
        return (int(head) if head.isdigit() else 1 << 30, f.name)

    loads = sorted(d.glob("load-*.json"), key=run_order)
    if loads:
        L += load_rows(loads)
    Path(args.out).write_text("\n".join(L), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Post-processing of Locust's CSV output (``--csv PREFIX``): the summary table with items/s
and failures by gRPC status code, and the throughput/latency plot.

``python -m handeval.load.report PREFIX [--plot FILE.png]`` reads ``PREFIX_stats.csv``,
``PREFIX_failures.csv`` and (for the plot, written with ``--csv-full-history``)
``PREFIX_stats_history.csv``. A request's name is ``scenario@batch``: items = requests x
batch for a batch scenario; a game flow's calls carry one game each (items = requests);
items/s counts answered requests only.
Locust's percentiles are whole milliseconds below 100 ms (two significant digits above).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Optional

AGGREGATED = "Aggregated"


def _num(x: str) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def items_per_request(name: str) -> int:
    """``ssw.packed@10000`` → 10000; a game flow (``*.flow@N``) → 1 (one call of a game)."""
    scenario, _, batch = name.partition("@")
    if scenario.endswith(".flow") or not batch.isdigit():
        return 1
    return int(batch)


def read_failures(prefix: str) -> Dict[tuple, Dict[str, int]]:
    """{(method, name): {status code: occurrences}}, plus (None, AGGREGATED) for all."""
    out: Dict[tuple, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    path = Path(f"{prefix}_failures.csv")
    if not path.exists():
        return {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            n = int(r["Occurrences"])
            out[(r["Method"], r["Name"])][r["Error"]] += n
            out[(None, AGGREGATED)][r["Error"]] += n
    return {k: dict(v) for k, v in out.items()}


def summarize(prefix: str) -> dict:
    """The run's rows: for each (method, name) and the aggregate, requests, failures by
    code, requests/s, items/s and latency (ms)."""
    failures = read_failures(prefix)
    rows = []
    with open(f"{prefix}_stats.csv", newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            name = r["Name"]
            method = r["Type"] or None
            agg = name == AGGREGATED
            n, failed = int(r["Request Count"]), int(r["Failure Count"])
            rps = _num(r["Requests/s"])
            row: Dict[str, Any] = {"method": method, "name": name, "requests": n, "failures": int(r["Failure Count"]),
                   "errors": failures.get((None, AGGREGATED) if agg else (method, name), {}),
                   "requests_per_s": rps,
                   "latency_ms": {"avg": _num(r["Average Response Time"]), "p50": _num(r["50%"]),
                                  "p95": _num(r["95%"]), "p99": _num(r["99%"]), "max": _num(r["Max Response Time"])}}
            if not agg:  # items of the answered requests only
                row["items_per_s"] = rps * (n - failed) / max(n, 1) * items_per_request(name)
            rows.append(row)
    total = next((r for r in rows if r["name"] == AGGREGATED), None)
    rows = [r for r in rows if r["name"] != AGGREGATED]
    if total is not None:
        total["items_per_s"] = sum(r["items_per_s"] for r in rows)
    return {"rows": rows, "total": total}


def print_summary(s: dict, out=sys.stdout) -> None:
    print(f"{'method':<9}{'name':<24}{'requests':>10}{'req/s':>10}{'items/s':>14}"
          f"{'avg ms':>9}{'p50':>7}{'p95':>7}{'p99':>7}{'max ms':>9}  failures", file=out)
    for r in s["rows"] + ([s["total"]] if s["total"] else []):
        lat = r["latency_ms"]
        errs = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or str(r["failures"])
        print(f"{r['method'] or '':<9}{r['name']:<24}{r['requests']:>10,}{r['requests_per_s']:>10,.0f}"
              f"{r['items_per_s']:>14,.0f}{lat['avg']:>9.2f}{lat['p50']:>7.0f}{lat['p95']:>7.0f}{lat['p99']:>7.0f}"
              f"{lat['max']:>9.1f}  {errs}", file=out)


def history(prefix: str) -> List[dict]:
    """Per interval (Locust writes a line a second): seconds since the first line,
    requests/s and items/s over the interval (from the cumulative counts), users, and
    Locust's current p50/p99 (ms)."""
    path = Path(f"{prefix}_stats_history.csv")
    by_t: Dict[int, dict] = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            t = int(r["Timestamp"])
            b = by_t.setdefault(t, {"t": t, "items_total": 0, "requests_total": None})
            if r["Name"] == AGGREGATED:
                b.update(users=int(r["User Count"] or 0), requests_total=int(r["Total Request Count"]),
                         failures_total=int(r["Total Failure Count"]), p50=_num(r["50%"]), p99=_num(r["99%"]))
            else:
                ok = int(r["Total Request Count"]) - int(r["Total Failure Count"])
                b["items_total"] += ok * items_per_request(r["Name"])
    pts = [b for _, b in sorted(by_t.items()) if b["requests_total"] is not None]
    out = []
    for prev, cur in zip(pts, pts[1:]):
        dt = max(cur["t"] - prev["t"], 1)
        out.append({"t": cur["t"] - pts[0]["t"], "users": cur["users"],
                    "requests_per_s": (cur["requests_total"] - prev["requests_total"]) / dt,
                    "items_per_s": (cur["items_total"] - prev["items_total"]) / dt,
                    "failures_per_s": (cur["failures_total"] - prev["failures_total"]) / dt,
                    "p50_ms": cur["p50"], "p99_ms": cur["p99"]})
    return out


def write_plot(prefix: str, path: str, title: str = "") -> None:
    """A PNG of throughput (items/s, requests/s) and latency (p50, p99) over the run."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("the plot needs matplotlib: pip install 'handeval[load]'") from None
    import textwrap

    tl = history(prefix)
    s = summarize(prefix)
    t = [p["t"] for p in tl]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    items = [p["items_per_s"] for p in tl]
    reqs = [p["requests_per_s"] for p in tl]
    ax1.plot(t, items, color="tab:blue", label="items/s")
    ax1.set_ylim(0, max(items, default=0) * 1.15 or 1)
    ax1.set_ylabel("items/s", color="tab:blue")
    ax1b = ax1.twinx()
    ax1b.plot(t, reqs, color="tab:orange", ls="--", label="requests/s")
    ax1b.set_ylabel("requests/s", color="tab:orange")
    ax1b.set_ylim(0, max(reqs, default=0) * 1.15 or 1)
    o = s["total"] or {"requests_per_s": 0, "items_per_s": 0, "latency_ms": {"p99": float("nan")}}
    names = ", ".join(r["name"] for r in s["rows"])
    head = (f"{title} {names}: {o['requests_per_s']:,.0f} req/s, {o['items_per_s']:,.0f} items/s, "
            f"p99 {o['latency_ms']['p99']:.0f} ms")
    ax1.set_title("\n".join(textwrap.wrap(head.strip(), 110)), fontsize=9)
    ax2.plot(t, [p["p50_ms"] for p in tl], label="p50")
    ax2.plot(t, [p["p99_ms"] for p in tl], label="p99")
    ax2.set_ylim(bottom=0)
    ax2.set_ylabel("latency (ms, Locust's current window)")
    ax2.set_xlabel("seconds")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m handeval.load.report", description=__doc__.split("\n\n")[0])
    ap.add_argument("prefix", help="the --csv prefix of a Locust run")
    ap.add_argument("--plot", default=None, help="write the throughput/latency PNG here (needs --csv-full-history)")
    ap.add_argument("--title", default="")
    args = ap.parse_args(argv)
    print_summary(summarize(args.prefix))
    if args.plot:
        write_plot(args.prefix, args.plot, args.title)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

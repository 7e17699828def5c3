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

from handeval.load import install_hint

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
    path = Path(f"{prefix}_final_failures.csv")  # the locustfile's, at the end (see summarize)
    if not path.exists():
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
    # The locustfile's final statistics (what Locust prints at the end) when written;
    # Locust's own PREFIX_stats.csv is rewritten once a second and may miss the last calls.
    final = Path(f"{prefix}_final_stats.csv")
    with open(final if final.exists() else f"{prefix}_stats.csv", newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            name = r["Name"]
            method = r["Type"] or None
            agg = name == AGGREGATED
            n, failed = int(r["Request Count"]), int(r["Failure Count"])
            rps = _num(r["Requests/s"])
            row: Dict[str, Any] = {
                "method": method,
                "name": name,
                "requests": n,
                "failures": int(r["Failure Count"]),
                "errors": failures.get((None, AGGREGATED) if agg else (method, name), {}),
                "requests_per_s": rps,
                "latency_ms": {
                    "avg": _num(r["Average Response Time"]),
                    "p50": _num(r["50%"]),
                    "p95": _num(r["95%"]),
                    "p99": _num(r["99%"]),
                    "max": _num(r["Max Response Time"]),
                },
            }
            if not agg:  # items of the answered requests only
                row["items_per_s"] = rps * (n - failed) / max(n, 1) * items_per_request(name)
            rows.append(row)
    total = next((r for r in rows if r["name"] == AGGREGATED), None)
    rows = [r for r in rows if r["name"] != AGGREGATED]
    if total is not None:
        total["items_per_s"] = sum(r["items_per_s"] for r in rows)
    return {"rows": rows, "total": total}


def print_summary(s: dict, out=sys.stdout) -> None:
    print(
        f"{'method':<9}{'name':<24}{'requests':>10}{'req/s':>10}{'items/s':>14}"
        f"{'avg ms':>9}{'p50':>7}{'p95':>7}{'p99':>7}{'max ms':>9}  failures",
        file=out,
    )
    for r in s["rows"] + ([s["total"]] if s["total"] else []):
        lat = r["latency_ms"]
        errs = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or str(r["failures"])
        print(
            f"{r['method'] or '':<9}{r['name']:<24}{r['requests']:>10,}{r['requests_per_s']:>10,.0f}"
            f"{r['items_per_s']:>14,.0f}{lat['avg']:>9.2f}{lat['p50']:>7.0f}{lat['p95']:>7.0f}{lat['p99']:>7.0f}"
            f"{lat['max']:>9.1f}  {errs}",
            file=out,
        )


def history(prefix: str) -> List[dict]:
    """The run second by second: seconds since the first, users, requests/s, failures/s
    and items/s, and Locust's current p50/p99 (ms).

    The rates are Locust's own counts: ``PREFIX_per_second.csv`` (the packaged locustfile
    writes it at the end: the requests that ended in each second, as Locust counts them
    for its rates; a master holds its workers' counts by the second they were made in),
    the first and the last second left out (partly loaded). Without that file, Locust's
    Requests/s of ``PREFIX_stats_history.csv`` (a ten-second average; items/s only with
    ``--csv-full-history``). Never differences of the cumulative counts between lines of
    the history: workers report to the master every 3 s, so those are a sawtooth. Latency
    comes from the history (lines before the first answer are left out)."""
    per_second = Path(f"{prefix}_per_second.csv")
    lat = _history_lines(prefix)
    if not per_second.exists():
        return lat
    by_t: Dict[int, dict] = {}
    with open(per_second, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            b = by_t.setdefault(int(r["Timestamp"]), {"requests": 0, "failures": 0, "items": 0})
            n, failed = int(r["Requests"]), int(r["Failures"])
            if r["Name"] == AGGREGATED and not r["Type"]:
                b["requests"], b["failures"] = n, failed
            else:
                b["items"] += (n - failed) * items_per_request(r["Name"])
    seconds = sorted(by_t)[1:-1]
    if not seconds:
        return []
    hist = {p["timestamp"]: p for p in lat}

    def near(t):  # the history line written at the end of second t (or the nearest)
        return hist.get(t + 1) or hist.get(t) or min(lat, key=lambda p: abs(p["timestamp"] - t), default=None)

    out = []
    for t in seconds:
        b, h = by_t[t], near(t)
        out.append(
            {
                "t": t - seconds[0] + 1,
                "timestamp": t,
                "users": h["users"] if h else None,
                "requests_per_s": float(b["requests"]),
                "failures_per_s": float(b["failures"]),
                "items_per_s": float(b["items"]),
                "p50_ms": h["p50_ms"] if h else float("nan"),
                "p99_ms": h["p99_ms"] if h else float("nan"),
            }
        )
    return out


def _history_lines(prefix: str) -> List[dict]:
    """The lines of ``PREFIX_stats_history.csv`` that have answers, with Locust's
    Requests/s (its current_rps), items/s from each name's rows (None without them) and
    its current p50/p99."""
    path = Path(f"{prefix}_stats_history.csv")
    by_t: Dict[int, dict] = {}
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            t = int(r["Timestamp"])
            b = by_t.setdefault(t, {"t": t, "items_per_s": None, "requests_total": None})
            ok_rate = _num(r["Requests/s"]) - _num(r["Failures/s"])
            if r["Name"] == AGGREGATED:
                b.update(
                    users=int(r["User Count"] or 0),
                    requests_total=int(r["Total Request Count"]),
                    requests_per_s=_num(r["Requests/s"]),
                    failures_per_s=_num(r["Failures/s"]),
                    p50=_num(r["50%"]),
                    p99=_num(r["99%"]),
                )
            else:
                b["items_per_s"] = (b["items_per_s"] or 0.0) + ok_rate * items_per_request(r["Name"])
    pts = [b for _, b in sorted(by_t.items()) if b["requests_total"]]
    t0 = min(by_t) if by_t else 0
    return [
        {
            "t": b["t"] - t0,
            "timestamp": b["t"],
            "users": b["users"],
            "requests_per_s": b["requests_per_s"],
            "items_per_s": b["items_per_s"],
            "failures_per_s": b["failures_per_s"],
            "p50_ms": b["p50"],
            "p99_ms": b["p99"],
        }
        for b in pts
    ]


def plot_title(s: dict, label: str = "") -> str:
    """A short title: the label, the scenarios (named when there are at most three), and
    the run's totals."""
    names = [r["name"] for r in s["rows"]]
    scen = sorted({n.partition("@")[0] for n in names})
    what = ", ".join(scen) if len(scen) <= 3 else f"{len(scen)} scenarios"
    o = s["total"] or {"requests_per_s": 0, "items_per_s": 0, "latency_ms": {"p99": float("nan")}}
    head = f"{label}: {what}" if label else what
    return (
        f"{head} — {o['requests_per_s']:,.0f} req/s, {o['items_per_s']:,.0f} items/s, "
        f"p99 {o['latency_ms']['p99']:.0f} ms"
    )


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(f"the plot needs matplotlib: {install_hint('load')}") from None
    return plt


def write_plot(prefix: str, path: str, title: str = "") -> None:
    """A PNG of throughput (Locust's requests/s, and items/s when the history has each
    name's rows) and latency (p50, p99) over the run."""
    plt = _pyplot()
    tl = history(prefix)
    s = summarize(prefix)
    t = [p["t"] for p in tl]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    reqs = [p["requests_per_s"] for p in tl]
    ax1.plot(t, reqs, color="tab:orange", label="requests/s")
    ax1.set_ylabel("requests/s", color="tab:orange")
    ax1.set_ylim(0, max(reqs, default=0) * 1.15 or 1)
    if tl and all(p["items_per_s"] is not None for p in tl):
        items = [p["items_per_s"] for p in tl]
        ax1b = ax1.twinx()
        ax1b.plot(t, items, color="tab:blue", ls="--", label="items/s")
        ax1b.set_ylabel("items/s", color="tab:blue")
        ax1b.set_ylim(0, max(items, default=0) * 1.15 or 1)
    ax1.set_title(plot_title(s, title), fontsize=9)
    ax2.plot(t, [p["p50_ms"] for p in tl], label="p50")
    ax2.plot(t, [p["p99_ms"] for p in tl], label="p99")
    ax2.set_ylim(bottom=0)
    ax2.set_ylabel("latency (ms, Locust's current window)")
    ax2.set_xlabel("seconds")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_knee_plot(sweeps: List[dict], path: str, slo_ms: float, title: str = "") -> None:
    """A PNG of each sweep's p50 and p99 latency against its throughput, one point per
    step (labelled with its users), the SLO as a line and the capacity marked: where the
    latency turns up (the knee)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 5.5))
    colours = ["tab:blue", "tab:green", "tab:purple"]
    for sw, colour in zip(sweeps, colours):
        steps = [st for st in sw["steps"] if st["requests"]]
        x = [st["requests_per_s"] for st in steps]
        ax.plot(x, [st["p99_ms"] for st in steps], "o-", color=colour, label=f"{sw['server']}: p99")
        ax.plot(x, [st["p50_ms"] for st in steps], "s--", color=colour, alpha=0.6, label=f"{sw['server']}: p50")
        for st in steps:
            ax.annotate(
                str(st["users"]),
                (st["requests_per_s"], st["p99_ms"]),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=7,
                color=colour,
            )
        c = sw.get("capacity")
        if c:
            ax.plot(
                [c["requests_per_s"]],
                [c["p99_ms"]],
                "*",
                ms=16,
                color=colour,
                label=f"{sw['server']}: capacity {c['requests_per_s']:,.0f} req/s"
                + (f" ({c['per_core']['requests_per_s']:,.0f}/core)" if c["per_core"]["requests_per_s"] else ""),
            )
    ax.axhline(slo_ms, color="tab:red", lw=1, ls=":", label=f"SLO p99 {slo_ms:g} ms")
    ax.set_xlabel("throughput (requests/s)")
    ax.set_ylabel("latency (ms)")
    ax.set_ylim(bottom=0)
    ax.set_xlim(left=0)
    ax.set_title(
        f"{title}: latency against throughput (points: users)" if title else "latency against throughput", fontsize=10
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m handeval.load.report", description=__doc__.split("\n\n")[0].replace("``", "")
    )
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

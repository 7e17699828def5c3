"""Post-processing of Locust's CSV output (``--csv PREFIX``): the summary table with items/s
and failures by gRPC status code, and the run second by second (``handeval.load.plots``
draws it).

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
    """``ssw.packed@10000`` → 10000; a game flow (``*.flow@N``) or a played game
    (``*.record``, ``*.stream@tables``) → 1 (one request of a game)."""
    scenario, _, batch = name.partition("@")
    if scenario.endswith((".flow", ".record", ".stream")) or not batch.isdigit():
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
        f"{'method':<12}{'name':<24}{'requests':>10}{'req/s':>10}{'items/s':>14}"
        f"{'avg ms':>9}{'p50':>7}{'p95':>7}{'p99':>7}{'max ms':>9}  failures",
        file=out,
    )
    for r in s["rows"] + ([s["total"]] if s["total"] else []):
        lat = r["latency_ms"]
        errs = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or str(r["failures"])
        print(
            f"{r['method'] or '':<12}{r['name']:<24}{r['requests']:>10,}{r['requests_per_s']:>10,.0f}"
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
        from handeval.load.plots import write_plot

        write_plot(args.prefix, args.plot, args.title)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

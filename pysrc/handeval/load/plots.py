"""The plots of ``handeval bench-load`` (matplotlib): a run second by second (``--plot``)
and the knee of a sweep (``--sweep --plot``).

Both say in their titles only what their points show: the run plot's throughput is the
mean of the seconds it draws (the first and the last second, partly loaded, are not
drawn), its failures are drawn and counted; the knee plot draws each step in the order
run (numbered, with its users), the latency on a log axis (a knee is a jump of orders of
magnitude), the SLO as a line and the capacity as a star.
"""

from __future__ import annotations

import math
from typing import List

from handeval.load import install_hint
from handeval.load.report import history, summarize


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit(f"the plot needs matplotlib: {install_hint('load')}") from None
    return plt


def plot_title(s: dict, points: List[dict], label: str = "") -> str:
    """The run plot's title: the label, the scenarios (named when at most three), and the
    figures of the drawn seconds: mean requests/s and items/s, failures, and the run's p99
    (Locust's, over every request)."""
    scen = sorted({r["name"].partition("@")[0] for r in s["rows"]})
    what = ", ".join(scen) if len(scen) <= 3 else f"{len(scen)} scenarios"
    head = f"{label}: {what}" if label else what
    n = max(len(points), 1)
    rps = sum(p["requests_per_s"] for p in points) / n
    items = [p["items_per_s"] for p in points]
    failed = sum(p["failures_per_s"] or 0 for p in points)
    p99 = (s["total"] or {"latency_ms": {"p99": float("nan")}})["latency_ms"]["p99"]
    return (
        f"{head} — {rps:,.0f} req/s"
        + (f", {sum(items) / n:,.0f} items/s" if points and None not in items else "")
        + f" (mean of the {len(points)} s drawn), {failed:,.0f} failed, p99 {p99:.0f} ms"
    )


def write_plot(prefix: str, path: str, title: str = "") -> None:
    """A PNG of the run second by second: Locust's requests/s, failures/s and (when the
    history has each name's rows) items/s; latency p50 and p99 (log axis)."""
    plt = _pyplot()
    tl = history(prefix)
    s = summarize(prefix)
    t = [p["t"] for p in tl]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    reqs = [p["requests_per_s"] for p in tl]
    fails = [p["failures_per_s"] or 0.0 for p in tl]
    ax1.plot(t, reqs, ".-", color="tab:orange", label="requests/s")
    ax1.plot(t, fails, "x-", color="tab:red", label="failures/s")
    ax1.set_ylabel("requests/s")
    ax1.set_ylim(0, max(reqs, default=0) * 1.15 or 1)
    if tl and all(p["items_per_s"] is not None for p in tl):
        items = [p["items_per_s"] for p in tl]
        ax1b = ax1.twinx()
        ax1b.plot(t, items, color="tab:blue", ls="--", label="items/s")
        ax1b.set_ylabel("items/s", color="tab:blue")
        ax1b.set_ylim(0, max(items, default=0) * 1.15 or 1)
    ax1.legend(fontsize=8, loc="lower left")
    ax1.set_title(plot_title(s, tl, title), fontsize=9)
    for key in ("p50_ms", "p99_ms"):
        ax2.plot(t, [_ms(p[key]) for p in tl], ".-", label=key[:3])
    ax2.set_yscale("log")
    ax2.set_ylabel(f"latency (ms, log; Locust's window, 0 at {MIN_MS})")
    ax2.set_xlabel("seconds")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


#: Where a latency Locust rounded to 0 ms is drawn on the log axis.
MIN_MS = 0.5


def _ms(v: float) -> float:
    return v if v > 0 or v != v else MIN_MS


def draw_knee(ax, sweeps: List[dict], slo_ms: float, title: str = "") -> None:
    """One knee: each sweep's p99 (and p50) against its throughput, the steps joined in the
    order run and numbered ("3: 8u" = the third step, 8 users), failures in red."""
    colours = ["tab:blue", "tab:green", "tab:purple", "tab:brown"]
    games = any(st.get("games_per_s") is not None for sw in sweeps for st in sw["steps"])
    key = "games_per_s" if games else "requests_per_s"
    for sw, colour in zip(sweeps, colours):
        steps = [st for st in sw["steps"] if st["requests"]]
        x = [st[key] or 0.0 for st in steps]
        ax.plot(x, [_ms(st["p99_ms"]) for st in steps], "o-", color=colour, label=f"{sw['server']}: p99")
        ax.plot(x, [_ms(st["p50_ms"]) for st in steps], "s:", color=colour, alpha=0.5, label=f"{sw['server']}: p50")
        for k, st in enumerate(steps, 1):
            bad = st["failures"] > 0
            ax.annotate(
                f"{k}: {st['users']}u" + (f" ({st['failures']} failed)" if bad else ""),
                (st[key] or 0.0, _ms(st["p99_ms"])),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=7,
                color="tab:red" if bad else colour,
            )
            if bad:
                ax.plot([st[key] or 0.0], [_ms(st["p99_ms"])], "x", ms=10, color="tab:red")
        c = sw.get("capacity")
        if c and c.get(key):
            pc = c["per_core"].get(key)
            ax.plot(
                [c[key]],
                [_ms(c["p99_ms"])],
                "*",
                ms=16,
                color=colour,
                label=f"{sw['server']}: capacity {c[key]:,.1f} {key[:-6]}/s" + (f" ({pc:,.1f}/core)" if pc else ""),
            )
    ax.axhline(slo_ms, color="tab:red", lw=1, ls="--", label=f"SLO p99 {slo_ms:g} ms")
    ax.set_xlabel(f"throughput ({key[:-6]}/s)")
    ax.set_ylabel(f"latency (ms, log; Locust's whole ms, 0 drawn at {MIN_MS})")
    ax.set_yscale("log")
    ax.set_xlim(left=0)
    ax.set_title(title or "latency against throughput", fontsize=9)
    ax.legend(fontsize=7)


def write_knee_plot(panels: List[tuple], path: str, slo_ms: float) -> None:
    """A PNG of one knee per panel: ``[(title, sweeps)]`` (one panel per scenario swept)."""
    plt = _pyplot()
    cols = 1 if len(panels) == 1 else 2
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(9 * cols, 5.5 * rows), squeeze=False)
    for ax, (title, sweeps) in zip(axes.flat, panels):
        draw_knee(ax, sweeps, slo_ms, f"{title}: latency against throughput (points: steps in order, users)")
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

"""The text ``handeval bench-load --sweep`` prints: each step's row and the capacity."""

from __future__ import annotations

import sys
from typing import List, Optional


def print_steps(steps: List[dict], out=sys.stdout, header: bool = True) -> None:
    if header:
        print(
            f"{'users':>6}{'rate/user':>10}{'req/s':>10}{'items/s':>12}{'games/s':>9}{'p50 ms':>8}{'p99 ms':>8}"
            f"{'server cores':>14}{'gen cores':>11}  failures",
            file=out,
        )
    for st in steps:
        g = "" if st["games_per_s"] is None else f"{st['games_per_s']:,.1f}"
        sc = "?" if st["server_cores"] is None else f"{st['server_cores']:.2f}"
        rate = f"{st['rate_per_user']:g}/s" if st.get("rate_per_user") else "max"
        print(
            f"{st['users']:>6}{rate:>10}{st['requests_per_s']:>10,.0f}{st['items_per_s']:>12,.0f}{g:>9}{st['p50_ms']:>8.0f}"
            f"{st['p99_ms']:>8.0f}{sc:>14}{st['generator_cores']:>11.2f}  {st['failures']}"
            + (f"  (no user: {', '.join(st['unused'])})" if st["unused"] else ""),
            file=out,
        )


def capacity_text(c: Optional[dict], slo_ms: float) -> str:
    if c is None:
        return f"capacity: no step kept p99 within {slo_ms:g} ms without failures"
    pc = c["per_core"]
    head = (
        f"capacity (p99 <= {slo_ms:g} ms): {c['requests_per_s']:,.0f} req/s ({c['items_per_s']:,.0f} items/s"
        + (f", {c['games_per_s']:,.1f} games/s" if c["games_per_s"] is not None else "")
        + f") at {c['users']} users, p99 {c['p99_ms']:.0f} ms"
    )
    if pc["requests_per_s"] is None:
        return head + "; server CPU unknown (--spawn-server, --server-pid or --server-cores): no per-core figure"
    return (
        head + f", server {c['server_cores']:.2f} cores busy → per server core: {pc['requests_per_s']:,.0f} req/s, "
        f"{pc['items_per_s']:,.0f} items/s"
        + (f", {pc['games_per_s']:,.2f} games/s" if pc["games_per_s"] is not None else "")
    )

"""The capacity sweeps of ``handeval bench-load --sweep``: the steps of offered load run
one after another (``locust_run.run_once``) until the p99 breaks the SLO, against the
server and (``--sweep-floor``) the floor, the capacity of each; with ``--sweep-each``
each scenario of the mix swept alone, and a table of their capacities per server core
(whole games/s for the game scenarios) against the floor's and against each other."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List, Optional

from handeval.load import plots, scenarios
from handeval.load.capacity import capacity, step_row, sweep_plan
from handeval.load.locust_run import cleanup, run_once
from handeval.load.printing import capacity_text, print_steps
from handeval.load.target import SpawnedServer, machine_info


def _sweep_one(args, kind: str, prog: str) -> Dict[str, Any]:
    server = None
    steps: List[dict] = []
    try:
        if args.spawn_server:
            server = SpawnedServer(args.server_workers, log_path=args.server_log, kind=kind).wait_serving()
            args.target = server.target
        pid = server.proc.pid if server else args.server_pid
        above = 0
        print_steps([])
        played: Dict[str, List[int]] = {}  # the sweep's finished games so far: [games, requests]
        for users, rate in sweep_plan(args):
            args.rate_per_user = rate
            r = run_once(args, users, pid)
            cleanup()
            if r is None:
                break
            # Requests per whole game over every step so far: a step of many users finishes
            # few games, the short ones (a step alone would overcount its games/s), and
            # sometimes none; the first steps finish many.
            for name, (games, requests) in r["played"].items():
                got = played.setdefault(name, [0, 0])
                got[0], got[1] = got[0] + games, got[1] + requests
            r["requests_per_game"] = {name: req / games for name, (games, req) in played.items() if games}
            st = step_row(users, r)
            st["rate_per_user"] = rate
            steps.append(st)
            print_steps([st], header=False)
            # Latency broke on two steps in a row (the knee and past it), or calls fail.
            above = above + 1 if (st["p99_ms"] > args.slo_p99_ms or st["failures"]) else 0
            if above >= 2:
                break
    finally:
        if server is not None:
            server.stop()
    return {
        "server": kind if args.spawn_server else args.target,
        "steps": steps,
        "capacity": capacity(steps, args.slo_p99_ms, args.server_cores),
    }


def sweep_mix(args, prog: str) -> List[Dict[str, Any]]:
    """The sweeps of ``args.mix``: against the server, then (``--sweep-floor``) the floor;
    each step and the capacity printed as they come."""
    kinds = [args.server_kind] + (["floor"] if args.sweep_floor and args.server_kind != "floor" else [])
    results = []
    for kind in kinds:
        if args.spawn_server:
            print(
                f"\nserver: {kind}"
                + (
                    f" ({args.server_workers} worker(s))"
                    if kind == "handeval"
                    else " (a bare grpc.aio server answering every call at once)"
                )
            )
        res = _sweep_one(args, kind, prog)
        print(capacity_text(res["capacity"], args.slo_p99_ms))
        results.append(res)
    return results


def floor_ratio(results: List[Dict[str, Any]], key: str = "requests_per_s") -> Optional[float]:
    """handeval's capacity per server core over the floor's (None without both)."""
    if len(results) != 2 or not all(r["capacity"] and r["capacity"]["per_core"][key] for r in results):
        return None
    return round(results[0]["capacity"]["per_core"][key] / results[1]["capacity"]["per_core"][key], 3)


def sweep_header(args) -> None:
    plan = sweep_plan(args)
    what = (
        f"{plan[0][0]} users paced at {', '.join(f'{r:g}' for _, r in plan)} units/s each"
        if args.sweep_by == "rate"
        else f"users {', '.join(str(u) for u, _ in plan)}"
    )
    print(
        f"sweep of mix {args.mix}: {what} at most, {args.run_time:g} s each, "
        f"SLO p99 <= {args.slo_p99_ms:g} ms; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


def sweep(args, prog: str) -> int:
    if args.sweep_each:
        return sweep_each(args, prog)
    sweep_header(args)
    results = sweep_mix(args, prog)
    ratio = floor_ratio(results)
    if ratio is not None:
        print(f"\nhandeval / floor, requests/s per server core within the SLO: x{ratio}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json_out:
        res = {
            "label": args.label,
            "mix": args.mix,
            "slo_p99_ms": args.slo_p99_ms,
            "step_s": args.run_time,
            "processes": args.processes,
            "server_workers": args.server_workers,
            "sweeps": results,
            "handeval_over_floor_per_core": ratio,
            "machine": machine_info(),
        }
        Path(args.json_out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.plot:
        plots.write_knee_plot([(args.label or args.mix, results)], args.plot, args.slo_p99_ms)
    return 0 if all(r["steps"] for r in results) else 1


def per_core(c: Optional[dict]) -> Optional[float]:
    """A capacity's figure per server core: whole games/s for a game scenario, else requests/s."""
    if not c:
        return None
    pc = c["per_core"]
    return pc["games_per_s"] if pc.get("games_per_s") is not None else pc["requests_per_s"]


def each_rows(table: List[dict]) -> List[dict]:
    """Per scenario swept: its capacity per server core (games/s or requests/s), the
    floor's, and their ratio."""
    rows = []
    for t in table:
        got = [per_core(sw["capacity"]) for sw in t["sweeps"]]
        own, floor = got[0], (got[1] if len(got) > 1 else None)
        rows.append(
            {
                "scenario": t["scenario"],
                "batch": t["batch"],
                "unit": "games/s"
                if t["sweeps"][0]["capacity"] and t["sweeps"][0]["capacity"]["games_per_s"]
                else "req/s",
                "per_core": own,
                "floor_per_core": floor,
                "over_floor": round(own / floor, 3) if own and floor else None,
            }
        )
    return rows


def stream_over_record(rows: List[dict]) -> Dict[str, Optional[float]]:
    """Per game played both ways: whole games/s per server core over a stream / over records."""
    by = {r["scenario"]: r["per_core"] for r in rows}
    out = {}
    for name in by:
        game, _, kind = name.partition(".")
        if kind == "stream" and f"{game}.record" in by:
            rec = by[f"{game}.record"]
            out[game] = round(by[name] / rec, 2) if by[name] and rec else None
    return out


def sweep_each(args, prog: str) -> int:
    """Each scenario of the mix swept alone (and its floor), then their capacities."""
    mix, whole = scenarios.parse_mix(args.mix), args.mix
    print(f"each scenario of {whole} alone; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    table: List[dict] = []
    for name, weight, batch in mix:
        args.mix = f"{name}={weight}@{batch}"
        print(f"\n=== {args.mix}")
        sweep_header(args)
        table.append({"scenario": name, "batch": batch, "sweeps": sweep_mix(args, prog)})
    args.mix = whole
    rows, ratios = each_rows(table), None
    print(f"\ncapacity per server core within p99 {args.slo_p99_ms:g} ms:")
    print(f"{'scenario':<24}{'handeval':>12}{'floor':>12}{'/ floor':>9}  unit")
    for r in rows:
        f = [("-" if v is None else f"{v:,.2f}") for v in (r["per_core"], r["floor_per_core"])]
        o = "-" if r["over_floor"] is None else f"x{r['over_floor']}"
        print(f"{r['scenario'] + '@' + str(r['batch']):<24}{f[0]:>12}{f[1]:>12}{o:>9}  {r['unit']}")
    ratios = stream_over_record(rows)
    for game, x in ratios.items():
        print(f"{game}: whole games per server core, stream / record: " + ("-" if x is None else f"x{x}"))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json_out:
        res = {
            "label": args.label,
            "mix": whole,
            "slo_p99_ms": args.slo_p99_ms,
            "step_s": args.run_time,
            "processes": args.processes,
            "server_workers": args.server_workers,
            "each": table,
            "capacities": rows,
            "stream_over_record": ratios,
            "machine": machine_info(),
        }
        Path(args.json_out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.plot:
        panels = [(f"{t['scenario']}@{t['batch']}", t["sweeps"]) for t in table]
        plots.write_knee_plot(panels, args.plot, args.slo_p99_ms)
    return 0 if all(sw["steps"] for t in table for sw in t["sweeps"]) else 1

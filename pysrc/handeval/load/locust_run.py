"""The Locust runs of ``handeval bench-load``: one headless run (:func:`run_once`, and
:func:`single` that prints it), and the capacity sweep (:func:`sweep`), with the spawned
server and the CPU each side used. The command line is ``run``, the maths ``capacity``,
the sweep's text ``printing``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from handeval.load import report, scenarios
from handeval.load.capacity import capacity, cost, step_row, sweep_plan
from handeval.load.printing import capacity_text, print_steps
from handeval.load.target import SpawnedServer, free_port, machine_info, tree_cpu_seconds

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def single(args, prog: str) -> int:
    """One run at ``args.users``: the summary printed, the JSON and the plot written;
    Locust's exit code (3 when it wrote no statistics)."""
    mix = scenarios.parse_mix(args.mix)
    if args.users < len(mix):
        print(
            f"{prog}: warning: {args.users} users for {len(mix)} scenarios: some get no user "
            f"(--users {len(mix)} or more gives each one)",
            file=sys.stderr,
        )
    server = None
    try:
        if args.spawn_server:
            server = SpawnedServer(args.server_workers, log_path=args.server_log, kind=args.server_kind).wait_serving()
            args.target = server.target
        r = run_once(args, args.users, server.proc.pid if server else args.server_pid, csv_prefix=args.csv)
        if r is None:
            return 3
        s = r["summary"]
        report.print_summary(s)
        if r["unused"]:
            print(f"no user ran: {', '.join(r['unused'])} ({args.users} users for {len(mix)} scenarios)")
        for side in ("generator", "server"):
            c = r["cpu"][side]
            if c:
                print(
                    f"{side} CPU: {c['cores_busy']} cores busy, {c['cpu_us_per_request']} µs per request"
                    + (f", {c['requests_per_core_s']:,.0f} requests/s per core" if side == "generator" else "")
                )
        if args.json_out:
            res = {
                "label": args.label,
                "target": args.target,
                "command": r["command"],
                "summary": s,
                "cpu": r["cpu"],
                "mix": args.mix,
                "users": args.users,
                "processes": args.processes,
                "unused": r["unused"],
                "server_workers": _server_workers(args),
                "machine": machine_info(),
                "exit_code": r["exit_code"],
            }
            Path(args.json_out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if args.plot:
            report.write_plot(r["prefix"], args.plot, args.label or "")
        return r["exit_code"]  # Locust's: 1 when any request failed
    finally:
        if server is not None:
            server.stop()
        _cleanup()


_tmpdirs: List[tempfile.TemporaryDirectory] = []


def _cleanup() -> None:
    while _tmpdirs:
        _tmpdirs.pop().cleanup()


def _server_workers(args):
    if not args.spawn_server:
        return None
    return args.server_workers if args.server_kind == "handeval" else "floor"


def run_once(args, users: int, server_pid: Optional[int], csv_prefix: Optional[str] = None) -> Optional[dict]:
    """One headless Locust run of ``users`` against ``args.target``: its summary (one
    total: Locust's final statistics), CPU costs, the scenarios that got no user and
    Locust's exit code; None when Locust wrote no statistics. The CSV stays in a temporary
    directory until :func:`_cleanup` (or at ``csv_prefix``)."""
    tmp = tempfile.TemporaryDirectory(prefix="handeval-load-")
    _tmpdirs.append(tmp)
    prefix = csv_prefix or os.path.join(tmp.name, "run")
    cpu_dir = os.path.join(tmp.name, "cpu")
    os.makedirs(cpu_dir)
    cmd = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--only-summary",
        "-H",
        args.target,
        "-u",
        str(users),
        "-r",
        str(args.spawn_rate or users),
        "-t",
        f"{args.run_time:g}s",
        "--stop-timeout",
        "0",
        "--csv",
        prefix,
        "--csv-full-history",
        "--mix",
        args.mix,
        "--channels",
        str(args.channels),
        "--pool",
        str(args.pool),
        "--seed",
        str(args.seed),
        "--call-timeout",
        str(args.call_timeout),
        "--rate-per-user",
        str(args.rate_per_user),
    ]
    if args.allow_remote:
        cmd.append("--allow-remote")
    if args.no_decode:
        cmd.append("--no-decode")
    if args.html:
        cmd += ["--html", args.html]
    if args.sweep:  # a table of steps: Locust's own summary and progress stay quiet
        cmd += ["--loglevel", "WARNING"]
    if args.processes:
        port = free_port()  # the master on loopback only, on a free port
        cmd += [
            "--processes",
            str(args.processes),
            "--master-bind-host",
            "127.0.0.1",
            "--master-bind-port",
            str(port),
            "--master-port",
            str(port),
        ]
    cmd += args.locust_args
    env = dict(os.environ, HANDEVAL_LOAD_CPU_DIR=cpu_dir)
    if server_pid:
        env["HANDEVAL_LOAD_SERVER_PID"] = str(server_pid)
    server0 = tree_cpu_seconds(server_pid) if server_pid else None
    cpu0, t0 = _cpu_children(), time.monotonic()
    # Locust stops by itself after --run-time; the timeout only guards a hang.
    proc = subprocess.run(cmd, env=env, timeout=args.run_time + 120, stdout=subprocess.DEVNULL if args.sweep else None)
    wall, gen_total = time.monotonic() - t0, _cpu_children() - cpu0
    server1 = tree_cpu_seconds(server_pid) if server_pid else None
    if not Path(f"{prefix}_stats.csv").exists():
        print(f"bench-load: Locust wrote no statistics (exit code {proc.returncode})", file=sys.stderr)
        return None
    s = report.summarize(prefix)
    n = s["total"]["requests"] if s["total"] else 0
    gen_run = sum(float(f.read_text()) for f in Path(cpu_dir).glob("cpu-*.txt"))
    # The server's CPU over the seconds of load, as the locustfile measured them; else
    # over Locust's whole run (start-up included: fewer cores busy than under load).
    load_s, server_cpu = args.run_time, None
    measured = Path(cpu_dir, "server.json")
    if measured.exists():
        m = json.loads(measured.read_text())
        load_s, server_cpu = m["load_s"], m["server_cpu_s"]
    elif server0 is not None and server1 is not None:
        load_s, server_cpu = wall, server1 - server0
    unused_file = Path(cpu_dir, "unused.txt")
    unused = unused_file.read_text(encoding="utf-8").split() if unused_file.exists() else []
    cpu: Dict[str, Any] = {
        "generator": cost(gen_run, n, load_s),
        "generator_with_startup_s": round(gen_total, 3),
        "server": cost(server_cpu, n, load_s) if server_cpu is not None else None,
    }
    return {
        "summary": s,
        "cpu": cpu,
        "unused": unused,
        "exit_code": proc.returncode,
        "command": cmd[2:],
        "prefix": prefix,
        "load_s": load_s,
    }


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
        for users, rate in sweep_plan(args):
            args.rate_per_user = rate
            r = run_once(args, users, pid)
            _cleanup()
            if r is None:
                break
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


def sweep(args, prog: str) -> int:
    kinds = [args.server_kind] + (["floor"] if args.sweep_floor and args.server_kind != "floor" else [])
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
    ratio = None
    if len(results) == 2 and all(r["capacity"] and r["capacity"]["per_core"]["requests_per_s"] for r in results):
        ratio = round(
            results[0]["capacity"]["per_core"]["requests_per_s"] / results[1]["capacity"]["per_core"]["requests_per_s"],
            3,
        )
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
        report.write_knee_plot(results, args.plot, args.slo_p99_ms, args.label or args.mix)
    return 0 if all(r["steps"] for r in results) else 1

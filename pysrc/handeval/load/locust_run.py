"""The Locust runs of ``handeval bench-load``: one headless run (:func:`run_once`, and
:func:`single` that prints it), with the spawned server and the CPU each side used. The
command line is ``run``, the sweeps of runs ``sweep``, the maths ``capacity``."""

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

from handeval.load import plots, report, scenarios
from handeval.load.capacity import cost
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
            plots.write_plot(r["prefix"], args.plot, args.label or "")
        return r["exit_code"]  # Locust's: 1 when any request failed
    finally:
        if server is not None:
            server.stop()
        cleanup()


_tmpdirs: List[tempfile.TemporaryDirectory] = []


def cleanup() -> None:
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
    directory until :func:`cleanup` (or at ``csv_prefix``)."""
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
    played: Dict[str, List[int]] = {}
    for f in Path(cpu_dir).glob("played-*.json"):
        for name, (games, requests) in json.loads(f.read_text(encoding="utf-8")).items():
            got = played.setdefault(name, [0, 0])
            got[0], got[1] = got[0] + games, got[1] + requests
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
        # The played scenarios' games played to the end, [games, requests], and requests per game.
        "played": played,
        "requests_per_game": {name: requests / games for name, (games, requests) in played.items() if games},
    }

"""handeval bench-load: the packaged locustfile run headless by Locust, then its CSV
summarised (items/s, failures by gRPC status code), the generator's and the server's CPU
per request, and optionally a throughput/latency plot and a JSON result.

Bounded (--run-time at most 3600 s, every call has a deadline) and loopback-only unless
--allow-remote. --processes N runs N Locust workers under a local master on loopback (-1:
one per core); for many machines run Locust's master and workers yourself
(docs/benchmarks.md, deploy/k8s/load/locust.yaml). Arguments after -- go to Locust as they
are.

--sweep steps the offered load (users: the mix's total weight, so that every scenario has
its share, then twice, four times, ... up to --max-users; --run-time seconds each) until
the p99 latency breaks --slo-p99-ms, prints each step's throughput, p50/p99 and
the server's CPU, then the capacity: the highest throughput whose p99 stays under the SLO,
per server core (--plot draws latency against throughput: the knee).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from handeval.load import install_hint, report, scenarios
from handeval.load.target import (
    RemoteTargetRefused,
    SpawnedServer,
    Unreachable,
    checked_target,
    free_port,
    machine_info,
    probe,
    tree_cpu_seconds,
)

MAX_RUN_TIME = 3600.0
LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def build_parser(prog: str = "handeval bench-load") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a = p.add_argument
    a(
        "--target",
        default="127.0.0.1:50051",
        help="host:port of a running server (loopback only; default 127.0.0.1:50051)",
    )
    a("--allow-remote", action="store_true", help="allow a target that is not a loopback address")
    a("--spawn-server", action="store_true", help="start handeval serve on a free loopback port for this run")
    a("--server-workers", type=int, default=1, help="--workers of the spawned server (default 1)")
    a(
        "--server-kind",
        choices=("handeval", "floor"),
        default="handeval",
        help="what --spawn-server starts: handeval serve (default), or 'floor': a bare grpc.aio server "
        "answering every call with an empty response (the Python gRPC stack's own cost)",
    )
    a("--server-log", default=None, help="file for the spawned server's log")
    a(
        "--mix",
        default=scenarios.DEFAULT_MIX,
        help="scenarios name[=weight][@batch],... (weights: shares of the users; 'default' = every scenario at its "
        f"default weight and batch, the default here and in the locustfile). Scenarios: {', '.join(scenarios.SCENARIOS)}",
    )
    a("--users", type=int, default=8, help="Locust users (concurrent callers; default 8)")
    a("--spawn-rate", type=float, default=0.0, help="users started per second (default: all in the first second)")
    a("--run-time", type=float, default=10.0, help=f"seconds of load (default 10, at most {MAX_RUN_TIME:.0f})")
    a(
        "--processes",
        type=int,
        default=0,
        help="Locust worker processes under a local master on loopback (-1: one per core; default 0: one process)",
    )
    a("--channels", type=int, default=4, help="gRPC connections per Locust process (default 4)")
    a("--pool", type=int, default=8, help="pre-built units per scenario (default 8)")
    a("--seed", type=int, default=1, help="random seed of the requests (default 1)")
    a("--call-timeout", type=float, default=10.0, help="deadline of each call in seconds (default 10)")
    a("--rate-per-user", type=float, default=0.0, help="units per second per user (default 0: back to back)")
    a("--no-decode", action="store_true", help="do not parse responses (skip the item-error check)")
    a("--csv", default=None, help="Locust's CSV prefix (default: a temporary directory, removed)")
    a("--html", default=None, help="Locust's HTML report")
    a("--plot", default=None, help="a PNG of throughput and latency over the run (needs matplotlib)")
    a("--json-out", default=None, help="write the summary (with CPU per request) as JSON here")
    a("--label", default=None, help="a name for this run, stored in the JSON")
    a(
        "--server-pid",
        type=int,
        default=None,
        help="process id of the target server on this machine: its CPU is measured (--spawn-server does it)",
    )
    g = p.add_argument_group("capacity sweep")
    g.add_argument(
        "--sweep",
        action="store_true",
        help="step the users (the mix's total weight, then doubled at each step; --run-time seconds "
        "each) until p99 breaks the SLO; print the capacity per server core",
    )
    g.add_argument(
        "--slo-p99-ms", type=float, default=20.0, help="the p99 latency objective of --sweep (default 20 ms)"
    )
    g.add_argument("--max-users", type=int, default=256, help="the last step of --sweep at most (default 256)")
    g.add_argument(
        "--sweep-by",
        choices=("users", "rate"),
        default="users",
        help="what --sweep steps: the users sending back to back (default), or the rate: the mix's "
        "total weight in users, each paced at --sweep-start-rate units/s, doubled at each step "
        "(an open loop: the offered load does not wait for the answers)",
    )
    g.add_argument(
        "--sweep-start-rate",
        type=float,
        default=1.0,
        help="with --sweep-by rate: units per second per user of the first step (default 1)",
    )
    g.add_argument(
        "--sweep-steps", type=int, default=12, help="with --sweep-by rate: at most this many steps (default 12)"
    )
    g.add_argument(
        "--server-cores",
        type=float,
        default=None,
        help="with --sweep against a server whose CPU cannot be measured here (another machine, a "
        "cluster): the cores it has (replicas x CPU limit); the capacity is divided by them",
    )
    g.add_argument(
        "--sweep-floor",
        action="store_true",
        help="with --sweep --spawn-server: sweep the floor server (a bare grpc.aio server) too, same steps, "
        "and print the ratio of the capacities",
    )
    a("locust_args", nargs="*", help="after --: more Locust arguments")
    return p


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _check(args, prog: str) -> Optional[str]:
    """The first thing wrong with the arguments (or the machine), or None."""
    if not (0 < args.run_time <= MAX_RUN_TIME):
        return f"--run-time must be in (0, {MAX_RUN_TIME:.0f}] seconds"
    if args.users < 1 or args.channels < 1 or args.pool < 1 or args.spawn_rate < 0 or args.rate_per_user < 0:
        return "--users, --channels and --pool must be >= 1, --spawn-rate and --rate-per-user >= 0"
    if args.call_timeout <= 0:
        return "--call-timeout must be > 0"
    if args.processes < -1:
        return "--processes must be -1 (one per core), 0 or a count"
    if args.sweep and (args.max_users < 1 or args.slo_p99_ms <= 0):
        return "--max-users must be >= 1 and --slo-p99-ms > 0"
    if args.sweep and (args.sweep_start_rate <= 0 or args.sweep_steps < 1):
        return "--sweep-start-rate must be > 0 and --sweep-steps >= 1"
    if args.sweep_floor and not (args.sweep and args.spawn_server):
        return "--sweep-floor needs --sweep --spawn-server"
    try:
        scenarios.parse_mix(args.mix)
    except ValueError as e:
        return str(e)
    if importlib.util.find_spec("locust") is None:
        return f"needs Locust: {install_hint('load')}"
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        return f"--plot needs matplotlib: {install_hint('load')}"
    if not args.spawn_server:
        try:
            target = checked_target(args.target, args.allow_remote)
            probe(target, min(1.0, args.call_timeout))
        except (RemoteTargetRefused, Unreachable) as e:
            return str(e)
    return None


def main(argv: Optional[List[str]] = None, prog: str = "handeval bench-load") -> int:
    args = build_parser(prog).parse_args(argv)
    err = _check(args, prog)
    if err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    if args.sweep:
        return sweep(args, prog)
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
        "generator": _cost(gen_run, n, load_s),
        "generator_with_startup_s": round(gen_total, 3),
        "server": _cost(server_cpu, n, load_s) if server_cpu is not None else None,
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


def _cost(cpu_s: float, requests: int, seconds: float) -> dict:
    return {
        "cpu_s": round(cpu_s, 3),
        "cores_busy": round(cpu_s / max(seconds, 1e-9), 2),
        "cpu_us_per_request": round(cpu_s / max(requests, 1) * 1e6, 1),
        "requests_per_core_s": round(requests / cpu_s, 1) if cpu_s > 0 else None,
    }


# ---------------------------------------------------------------- capacity sweep


def sweep_users(max_users: int, start: int = 1) -> List[int]:
    """``start``, twice it, four times, ... up to ``max_users`` (itself the last step)."""
    out, u = [], max(1, min(start, max_users))
    while u < max_users:
        out.append(u)
        u *= 2
    return out + [max_users]


def sweep_plan(args) -> List[tuple]:
    """The steps of a sweep, ``(users, units/s per user)`` (0: back to back). The users
    start at the mix's total weight, so every scenario has its share at every step (the
    same mix throughout); by users they double, by rate the pace doubles."""
    start = sum(w for _, w, _ in scenarios.parse_mix(args.mix))
    if args.sweep_by == "rate":
        users = max(1, min(start, args.max_users))
        return [(users, args.sweep_start_rate * 2**k) for k in range(args.sweep_steps)]
    return [(u, args.rate_per_user) for u in sweep_users(args.max_users, start)]


def games_per_s(s: dict) -> Optional[float]:
    """Whole games answered per second in a run of game flows (each game ends with one
    Settle call), or None when the mix has no flow."""
    rows = [r for r in s["rows"] if r["name"].partition("@")[0].endswith(".flow") and r["method"] == "Settle"]
    return (
        sum(r["requests_per_s"] * (r["requests"] - r["failures"]) / max(r["requests"], 1) for r in rows)
        if rows
        else None
    )


def step_row(users: int, r: dict) -> dict:
    t = r["summary"]["total"] or {
        "requests": 0,
        "failures": 0,
        "requests_per_s": 0.0,
        "items_per_s": 0.0,
        "latency_ms": {"p50": float("nan"), "p99": float("nan")},
    }
    server = r["cpu"]["server"]
    return {
        "users": users,
        "requests": t["requests"],
        "failures": t["failures"],
        "requests_per_s": round(t["requests_per_s"], 1),
        "items_per_s": round(t["items_per_s"], 1),
        "games_per_s": games_per_s(r["summary"]),
        "p50_ms": t["latency_ms"]["p50"],
        "p99_ms": t["latency_ms"]["p99"],
        "server_cores": server["cores_busy"] if server else None,
        "generator_cores": r["cpu"]["generator"]["cores_busy"],
        "unused": r["unused"],
    }


def capacity(steps: List[dict], slo_ms: float, server_cores: Optional[float] = None) -> Optional[dict]:
    """The step of the highest throughput (requests/s) whose p99 is within the SLO and
    that had no failure, with its throughput per busy server core (measured, else the
    ``server_cores`` given); None when no step met the SLO."""
    ok = [st for st in steps if st["p99_ms"] <= slo_ms and st["failures"] == 0 and st["requests"] > 0]
    if not ok:
        return None
    best = max(ok, key=lambda st: st["requests_per_s"])
    cores = best["server_cores"] if best["server_cores"] is not None else server_cores
    per_core = {k: round(best[k] / cores, 1) if cores else None for k in ("requests_per_s", "items_per_s")}
    per_core["games_per_s"] = (
        round(best["games_per_s"] / cores, 2) if cores and best["games_per_s"] is not None else None
    )
    return {
        "users": best["users"],
        "requests_per_s": best["requests_per_s"],
        "items_per_s": best["items_per_s"],
        "games_per_s": best["games_per_s"],
        "p99_ms": best["p99_ms"],
        "server_cores": cores,
        "per_core": per_core,
    }


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


if __name__ == "__main__":
    sys.exit(main())

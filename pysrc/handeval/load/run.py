"""``handeval bench-load``: the packaged locustfile run headless by Locust, then its CSV
summarised (items/s, failures by gRPC status code), the generator's and the server's CPU
per request, and optionally a throughput/latency plot and a JSON result.

Bounded (``--run-time`` at most 3600 s, every call has a deadline) and loopback-only unless
``--allow-remote``. ``--processes N`` runs N Locust workers under a local master on
loopback (-1: one per core); for many machines run Locust's master and workers yourself
(docs/benchmarks.md, deploy/k8s/load/locust.yaml). Arguments after ``--`` go to Locust as they are.
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

from handeval.load import scenarios
from handeval.load.target import RemoteTargetRefused, SpawnedServer, checked_target, free_port, machine_info

MAX_RUN_TIME = 3600.0
LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def build_parser(prog: str = "handeval bench-load") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    a = p.add_argument
    a("--target", default="127.0.0.1:50051", help="host:port of a running server (loopback only; default 127.0.0.1:50051)")
    a("--allow-remote", action="store_true", help="allow a target that is not a loopback address")
    a("--spawn-server", action="store_true", help="start `handeval serve` on a free loopback port for this run")
    a("--server-workers", type=int, default=1, help="--workers of the spawned server (default 1)")
    a("--server-kind", choices=("handeval", "floor"), default="handeval",
      help="what --spawn-server starts: handeval serve (default), or 'floor': a bare grpc.aio server "
           "answering every call with an empty response (the Python gRPC stack's own cost)")
    a("--server-log", default=None, help="file for the spawned server's log")
    a("--mix", default="ssw.evaluate",
      help="scenarios name[=weight][@batch],... (weights: shares of the users; 'default' = the default mix; "
           f"default ssw.evaluate). Scenarios: {', '.join(scenarios.SCENARIOS)}")
    a("--users", type=int, default=8, help="Locust users (concurrent callers; default 8)")
    a("--spawn-rate", type=float, default=0.0, help="users started per second (default: all in the first second)")
    a("--run-time", type=float, default=10.0, help=f"seconds of load (default 10, at most {MAX_RUN_TIME:.0f})")
    a("--processes", type=int, default=0,
      help="Locust worker processes under a local master on loopback (-1: one per core; default 0: one process)")
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
    a("locust_args", nargs="*", help="after --: more Locust arguments")
    return p


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: Optional[List[str]] = None, prog: str = "handeval bench-load") -> int:
    args = build_parser(prog).parse_args(argv)
    err = None
    if not (0 < args.run_time <= MAX_RUN_TIME):
        err = f"--run-time must be in (0, {MAX_RUN_TIME:.0f}] seconds"
    elif args.users < 1 or args.channels < 1 or args.pool < 1 or args.spawn_rate < 0 or args.rate_per_user < 0:
        err = "--users, --channels and --pool must be >= 1, --spawn-rate and --rate-per-user >= 0"
    elif args.call_timeout <= 0:
        err = "--call-timeout must be > 0"
    elif args.processes < -1:
        err = "--processes must be -1 (one per core), 0 or a count"
    if not err:
        try:
            scenarios.parse_mix(args.mix)
        except ValueError as e:
            err = str(e)
    if not err and importlib.util.find_spec("locust") is None:
        err = "needs Locust: pip install 'handeval[load]'"
    if not err and args.plot and importlib.util.find_spec("matplotlib") is None:
        err = "--plot needs matplotlib: pip install 'handeval[load]'"
    if not err and not args.spawn_server:
        try:
            checked_target(args.target, args.allow_remote)
        except RemoteTargetRefused as e:
            err = str(e)
    if err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2

    tmp = tempfile.TemporaryDirectory(prefix="handeval-load-")
    prefix = args.csv or os.path.join(tmp.name, "run")
    cpu_dir = os.path.join(tmp.name, "cpu")
    os.makedirs(cpu_dir)
    server = None
    try:
        if args.spawn_server:
            server = SpawnedServer(args.server_workers, log_path=args.server_log, kind=args.server_kind).wait_serving()
            args.target = server.target
        cmd = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--only-summary",
               "-H", args.target, "-u", str(args.users), "-r", str(args.spawn_rate or args.users),
               "-t", f"{args.run_time:g}s", "--stop-timeout", "0", "--csv", prefix, "--csv-full-history",
               "--mix", args.mix, "--channels", str(args.channels), "--pool", str(args.pool), "--seed", str(args.seed),
               "--call-timeout", str(args.call_timeout), "--rate-per-user", str(args.rate_per_user)]
        if args.allow_remote:
            cmd.append("--allow-remote")
        if args.no_decode:
            cmd.append("--no-decode")
        if args.html:
            cmd += ["--html", args.html]
        if args.processes:
            port = free_port()  # the master on loopback only, on a free port
            cmd += ["--processes", str(args.processes), "--master-bind-host", "127.0.0.1",
                    "--master-bind-port", str(port), "--master-port", str(port)]
        cmd += args.locust_args
        env = dict(os.environ, HANDEVAL_LOAD_CPU_DIR=cpu_dir)
        server0 = server.cpu_seconds() if server else None
        cpu0, t0 = _cpu_children(), time.monotonic()
        # Locust stops by itself after --run-time; the timeout only guards a hang.
        proc = subprocess.run(cmd, env=env, timeout=args.run_time + 120)
        wall, gen_total = time.monotonic() - t0, _cpu_children() - cpu0
        server1 = server.cpu_seconds() if server else None
        if not Path(f"{prefix}_stats.csv").exists():
            print(f"{prog}: Locust wrote no statistics (exit code {proc.returncode})", file=sys.stderr)
            return proc.returncode or 3
        from handeval.load import report

        s = report.summarize(prefix)
        n = s["total"]["requests"] if s["total"] else 0
        gen_run = sum(float(f.read_text()) for f in Path(cpu_dir).glob("cpu-*.txt"))
        cpu: Dict[str, Any] = {"generator": _cost(gen_run, n, args.run_time), "generator_with_startup_s": round(gen_total, 3),
               "server": _cost(server1 - server0, n, wall) if server0 is not None and server1 is not None else None}
        report.print_summary(s)
        for side in ("generator", "server"):
            c = cpu[side]
            if c:
                print(f"{side} CPU: {c['cores_busy']} cores busy, {c['cpu_us_per_request']} µs per request"
                      + (f", {c['requests_per_core_s']:,.0f} requests/s per core" if side == "generator" else ""))
        if args.json_out:
            res = {"label": args.label, "target": args.target, "command": cmd[2:], "summary": s, "cpu": cpu,
                   "mix": args.mix, "users": args.users, "processes": args.processes,
                   "server_workers": (args.server_workers if args.server_kind == "handeval" else "floor")
                   if args.spawn_server else None,
                   "machine": machine_info(), "exit_code": proc.returncode}
            Path(args.json_out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if args.plot:
            report.write_plot(prefix, args.plot, args.label or "")
        return proc.returncode  # Locust's: 1 when any request failed
    finally:
        if server is not None:
            server.stop()
        tmp.cleanup()


def _cost(cpu_s: float, requests: int, seconds: float) -> dict:
    return {"cpu_s": round(cpu_s, 3), "cores_busy": round(cpu_s / max(seconds, 1e-9), 2),
            "cpu_us_per_request": round(cpu_s / max(requests, 1) * 1e6, 1),
            "requests_per_core_s": round(requests / cpu_s, 1) if cpu_s > 0 else None}


if __name__ == "__main__":
    sys.exit(main())

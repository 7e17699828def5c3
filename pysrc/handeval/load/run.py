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
import sys
from typing import List, Optional

from handeval.load import install_hint, scenarios
from handeval.load.locust_run import LOCUSTFILE, single  # noqa: F401  (LOCUSTFILE: the tests read it here)
from handeval.load.sweep import sweep
from handeval.load.target import RemoteTargetRefused, Unreachable, checked_target, probe

MAX_RUN_TIME = 3600.0


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
        "answering every unary call with an empty response and echoing each Tables stream message (the Python "
        "gRPC stack's own cost; the played scenarios play blind against it)",
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
    g.add_argument(
        "--sweep-each",
        action="store_true",
        help="with --sweep: sweep each scenario of the mix alone (and with --sweep-floor its floor), then print "
        "each one's capacity per server core (whole games/s for game scenarios) and, for a game played both "
        "ways, the ratio stream / record",
    )
    a("locust_args", nargs="*", help="after --: more Locust arguments")
    return p


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
    if args.sweep_each and not args.sweep:
        return "--sweep-each needs --sweep"
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
    return single(args, prog)


if __name__ == "__main__":
    sys.exit(main())

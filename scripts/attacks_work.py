"""Work attacks on `handeval serve` (event-loop stalls from requests priced as
cheap, work starvation, big pooled work delaying small calls), and their measure: tiny
calls' p50/p99/max latency with each attack running against the same run without it.
The attacks are harness/work_attacks.py's.

    python scripts/attacks_work.py                      # every attack, 8 s each
    python scripts/attacks_work.py --seconds 5 huge_row many_long_rows
    python scripts/attacks_work.py -- --max-request-work 0   # extra `handeval serve` flags
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.server import ServerProcess
from harness.work_attacks import PROBES, REQUESTS, load_average, measure


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("attacks", nargs="*", help=f"of {', '.join(REQUESTS)} (default all)")
    ap.add_argument("--seconds", type=float, default=8.0, help="tiny calls' run, with and without (default 8)")
    ap.add_argument(
        "--probe",
        choices=sorted(PROBES),
        default="tiny",
        help="the measured call: tiny (a one-row Evaluate, on the event loop) or pooled (a one-hand "
        "Arrange, on a compute thread)",
    )
    ap.add_argument("--target", help="an already running server on loopback (else one is started)")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    names = args.attacks or list(REQUESTS)
    server = None
    target = args.target
    if target is None:
        log_dir = tempfile.mkdtemp(prefix="attacks-work-")
        server = ServerProcess(Path(log_dir), *extra, metrics=False)
        try:
            server.wait_serving()
        except AssertionError:
            print(f"server did not start; log {server.log_path}", file=sys.stderr)
            server.close()
            return 1
        target = server.target
    try:
        print(
            f"# probe {args.probe}; cores {os.cpu_count()}, load average before {load_average()}, "
            f"server flags {extra or 'defaults'}"
        )
        for name in names:
            r = measure(target, name, args.seconds, args.probe)
            print(
                f"{name:22s} without: {r['without']:45s} during: {r['during']:45s} "
                f"attack codes {r['attack_codes']} (load {load_average()})",
                flush=True,
            )
    finally:
        if server is not None:
            server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())

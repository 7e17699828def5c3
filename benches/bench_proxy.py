"""The attacks of issue 38 through the front proxy (deploy/proxy/nginx.conf, nginx from
Debian's packages) in front of `handeval serve`, each against a control in the same run:
a well-behaved client's tiny Evaluate calls back to back on one connection (p50 / p99 /
max) and a tiny call on a new connection every 0.1 s with a 1 s deadline (refused ones,
the longest refusal) — harness/attacks.py's probe, through the proxy — without the
attack, then during it (after 1 s of attack); the server's and the proxy's RSS (idle,
most during), the calls the server ended (its handeval_requests_total: what got past the
proxy), the CPU the server and the proxy used while probed during the attack (cores), and
the lines each wrote; a fresh server and proxy for each attack. The attacks are harness/attacks.py's
(attacker addresses 127.0.0.2 and 127.0.1-2.x; every loop bounded). Held TLS handshakes
run against the proxy with TLS (the shipped commented lines, a self-signed certificate),
probed over TLS.

Run (a script, not a pytest suite; about 5 minutes; nginx installed):

    python benches/bench_proxy.py --seconds 10 [--only NAME] [-- extra `handeval serve` flags]

Loopback only.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(ROOT))  # the checkout's root: harness/
from harness import attacks  # noqa: E402
from harness.edge import Edge, nginx_binary, nginx_version  # noqa: E402


class _TLSGrpc:
    """attacks.probe opens its channels with ``grpc.insecure_channel``: for the proxy
    with TLS, the same probe over TLS (everything else is grpc's)."""

    def __init__(self, credentials):
        self.credentials = credentials

    def __getattr__(self, name):
        return getattr(grpc, name)

    def insecure_channel(self, target, options=()):
        opts = list(options) + [("grpc.ssl_target_name_override", "localhost")]
        return grpc.secure_channel(target, self.credentials, opts)


def server_calls(edge) -> float:
    """The server's handeval_requests_total, every method and code (its /metrics,
    through the proxy)."""
    import urllib.request

    with urllib.request.urlopen(edge.metrics_url, timeout=10) as r:
        text = r.read().decode()
    return sum(
        float(line.rpartition(" ")[2]) for line in text.splitlines() if line.startswith("handeval_requests_total")
    )


def cpu(edge):
    """CPU seconds of the server and of the proxy (master and worker) so far."""
    from handeval.load.target import tree_cpu_seconds

    return tree_cpu_seconds(edge.server.pid), tree_cpu_seconds(edge.proxy.pid)


def measure(edge, name, attack: str, a) -> dict:
    idle = edge.rss()
    c0 = server_calls(edge)
    base = attacks.probe(edge.target, a.seconds)
    c1 = server_calls(edge)
    lines0 = edge.log_lines()
    stop = threading.Event()
    most = list(edge.rss())

    def sample():
        while not stop.is_set():
            now = edge.rss()
            most[0], most[1] = max(most[0], now[0]), max(most[1], now[1])
            stop.wait(0.2)

    t0 = time.monotonic()
    # the attacker is a process of its own (scripts/edge_proxy.py attack): in this one,
    # its threads would take the probing client's GIL (a PING flood's ACKs parsed in
    # Python slowed the probe, not the proxy)
    attacker = subprocess.Popen(
        [
            sys.executable,
            str(SCRIPTS / "edge_proxy.py"),
            "attack",
            attack,
            edge.target,
            "--seconds",
            str(a.seconds * 3 + 30),
        ]
    )
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    time.sleep(a.warmup)
    cpu0, p0 = cpu(edge), time.monotonic()
    got = attacks.probe(edge.target, a.seconds)
    cpu1, p1 = cpu(edge), time.monotonic()
    stop.set()
    attacker.terminate()
    try:
        attacker.wait(120)
        stuck = False
    except subprocess.TimeoutExpired:
        attacker.kill()
        attacker.wait()
        stuck = True
    sampler.join(10)
    took = time.monotonic() - t0
    lines1 = edge.log_lines()
    c2 = server_calls(edge)
    time.sleep(a.settle)
    return {"name": name, "base": base, "got": got, "idle": idle, "most": most, "took": took,
            "lines": (lines1[0] - lines0[0], lines1[1] - lines0[1]), "server_calls": (c1 - c0, c2 - c1),
            "cpu": ((cpu1[0] - cpu0[0]) / (p1 - p0), (cpu1[1] - cpu0[1]) / (p1 - p0)), "stuck": stuck}  # fmt: skip


def row(r) -> str:
    b, g = r["base"], r["got"]
    per_min = 60 / r["took"]
    return (
        f"| {r['name']} | {b['p50']:.1f} / {b['p99']:.1f} / {b['max']:.1f} → {g['p50']:.1f} / {g['p99']:.1f} / "
        f"{g['max']:.1f} | {g['p99'] - b['p99']:+.1f} | {b['calls']} ({b['failed']}) → {g['calls']} ({g['failed']}) | "
        f"{b['new_refused']}/{b['new']} → {g['new_refused']}/{g['new']} ({g['refused_s']:.2f}) | "
        f"{r['idle'][0]:.0f} → {r['most'][0]:.0f} / {r['idle'][1]:.0f} → {r['most'][1]:.0f} | "
        f"{r['server_calls'][0]:.0f} → {r['server_calls'][1]:.0f} | {r['cpu'][0]:.2f} / {r['cpu'][1]:.2f} | "
        f"{r['lines'][0]} / {r['lines'][1]} in {r['took']:.0f} s ({(r['lines'][0] + r['lines'][1]) * per_min:.0f}/min) |"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="extra `handeval serve` flags go after --")
    p.add_argument("--seconds", type=float, default=10.0, help="probe time, without and with each attack")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds of attack before probing")
    p.add_argument("--settle", type=float, default=6.0, help="pause after each attack")
    p.add_argument("--only", action="append", help="run this attack (repeatable)")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    binary = nginx_binary()
    if binary is None:
        print("nginx is not installed (apt-get install nginx)", file=sys.stderr)
        return 2
    if not attacks.addresses_bindable():
        print("cannot bind 127.0.2.x: the attackers' addresses (Linux loopback needed)", file=sys.stderr)
        return 2
    chosen = [x for x in attacks.PROXY_ATTACKS if not a.only or x[0] in a.only]
    print(
        f"nginx {nginx_version(binary)} in front of handeval serve {' '.join(serve_args) or '(defaults)'}; "
        f"{platform.python_version()}, grpcio {grpc.__version__}; probes {a.seconds:g} s without and with each attack"
    )
    print(
        "\n| attack (through the proxy) | tiny calls p50 / p99 / max, ms (without → with) | p99 change, ms | "
        "calls (failed) | new clients refused (longest, s) | RSS MB, server / proxy (idle → most) | "
        "calls the server ended (without → with) | CPU during, cores: server / proxy | log lines, server / proxy |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    # a fresh server and proxy for each attack: their idle RSS is then the one they start
    # with, not what the attack before left allocated (nginx keeps what it grew to)
    tracebacks = 0
    for name, _, tls in chosen:
        with tempfile.TemporaryDirectory() as d:
            edge = Edge(Path(d), *serve_args, tls=tls)
            saved = attacks.grpc
            if tls:
                attacks.grpc = _TLSGrpc(edge.credentials)
            try:
                r = measure(edge, name + (" (TLS)" if tls else ""), name, a)
                print(row(r), flush=True)
                for which in ("base", "got"):
                    if r[which]["codes"]:
                        print(f"  ({'without' if which == 'base' else 'with'}: {r[which]['codes']})")
                if r["stuck"]:
                    print(f"  ({name} did not stop within 120 s of SIGTERM: killed)")
                tracebacks += edge.server_log.read_text(errors="replace").count("Traceback")
            finally:
                attacks.grpc = saved
                edge.close()
    print(f"  (tracebacks in the server logs: {tracebacks})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

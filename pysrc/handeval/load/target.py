"""Where the load goes: the loopback check, and the servers ``handeval bench-load
--spawn-server`` starts (``handeval serve``, or the floor: ``handeval.load.floor``).

Safety: a target must be a loopback address (127.0.0.0/8, ::1, a name resolving only to
those, or a ``unix:`` socket) unless ``--allow-remote`` is given; a name is resolved once
and the connection goes to the checked address.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple


class RemoteTargetRefused(SystemExit):
    pass


def split_target(target: str) -> Tuple[str, Optional[int]]:
    t = target
    for prefix in ("ipv4:", "ipv6:", "dns:///", "dns:"):
        if t.startswith(prefix):
            t = t[len(prefix) :]
    if t.startswith("["):
        host, _, rest = t[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif t.count(":") == 1:
        host, port = t.split(":")
    elif ":" in t:  # a bare IPv6 literal
        host, port = t, ""
    else:
        host, port = t, ""
    return host, int(port) if port else None


def checked_target(target: str, allow_remote: bool = False) -> str:
    """The address to connect to. Without ``allow_remote`` anything not on loopback is
    refused (RemoteTargetRefused) before a socket is opened, and a host name is resolved
    here: the checked IP is what the channel connects to. With ``allow_remote`` the target
    is returned as given (``dns:///name:port`` then balances over every address)."""
    if target.startswith(("unix:", "unix-abstract:")):
        return target
    host, port = split_target(target)
    if port is None:
        raise RemoteTargetRefused(f"target {target!r} has no port (use host:port)")
    if allow_remote:
        return target
    try:
        ips = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as e:
            raise RemoteTargetRefused(f"cannot resolve {host!r}: {e}") from None
        ips = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
    bad = [str(ip) for ip in ips if not ip.is_loopback]
    if bad or not ips:
        raise RemoteTargetRefused(
            f"refusing to load-test {target!r} ({', '.join(bad) or 'no address'}): not a loopback "
            "address; the load tests only target this machine unless --allow-remote is given"
        )
    ip = ips[0]
    return f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}"


class Unreachable(SystemExit):
    pass


def probe(target: str, timeout: float = 1.0) -> None:
    """Raise Unreachable unless a connection to ``target`` (as :func:`checked_target`
    returns it: ``ip:port``, ``[ip6]:port``, ``unix:path``, or with --allow-remote a
    ``dns:///name:port``) opens within ``timeout`` seconds."""
    try:
        if target.startswith(("unix:", "unix-abstract:")):
            path = target.partition(":")[2]
            if target.startswith("unix-abstract:"):
                path = "\0" + path
            elif path.startswith("//"):
                path = path[2:]
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(timeout)
                s.connect(path)
            return
        host, port = split_target(target)
        with socket.create_connection((host, port), timeout=timeout):
            return
    except (OSError, ValueError, TypeError) as e:
        why = "no answer" if isinstance(e, socket.timeout) else (getattr(e, "strerror", None) or str(e))
        raise Unreachable(
            f"cannot connect to {target} within {timeout:g} s ({why}): is a server listening "
            "there? (handeval serve, or bench-load --spawn-server)"
        ) from None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu_seconds(pid: int) -> Optional[float]:
    """User + system CPU seconds of process ``pid`` and its live descendants (Linux /proc),
    or None when unavailable."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for d in names:
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat", "rb") as f:
                    rest = f.read().rsplit(b")", 1)[1].split()
                stats[int(d)] = (int(rest[1]), int(rest[11]) + int(rest[12]))  # ppid, utime + stime
            except (OSError, IndexError, ValueError):
                pass
    if pid not in stats:
        return None
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats[p][1]
        todo += [c for c, (pp, _) in stats.items() if pp == p]
    return total / tick


def machine_info() -> dict:
    import platform

    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_1_5_15": load,
        "date_utc": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }


class SpawnedServer:
    """``python -m handeval serve`` (or the floor server) on a free loopback port;
    stopped with SIGTERM. The one way a server is started for a measurement or a test
    (``bench-load --spawn-server``; the test harness's ``ServerProcess`` extends it)."""

    def __init__(
        self,
        workers: Optional[int] = 1,
        extra: Tuple[str, ...] = (),
        log_path: Optional[str] = None,
        kind: str = "handeval",
        python: Optional[str] = None,
        env: Optional[Dict[str, Optional[str]]] = None,
        prelude: str = "",
        host: Optional[str] = "127.0.0.1",
        port: Optional[int] = None,
    ):
        """``workers``/``host``: their flags (None: not passed, the server's default);
        ``extra``: more ``serve`` flags (for ``kind="floor"`` the floor's own, e.g.
        ``--sized``); ``python``: the interpreter to run, by default this one (another
        install's, e.g. an older build's virtualenv, to compare builds in one run); ``env``: changes to this process's environment (None removes a
        variable); ``prelude``: Python statements the server's interpreter runs before
        handeval's command line (``import gc; gc.disable()``); ``port``: the port (else a
        free one)."""
        python = python or sys.executable
        self.port = port or free_port()
        self.target = f"127.0.0.1:{self.port}"
        if kind == "floor":
            cmd: List[str] = [python, "-m", "handeval.load.floor", str(self.port), *extra]
        else:
            run = ["-c", f"{prelude}\nimport runpy; runpy.run_module('handeval', run_name='__main__')"]
            cmd = [python, *(run if prelude else ["-m", "handeval"]), "serve", "--port", str(self.port)]
            cmd += ["--host", host] if host is not None else []
            cmd += ["--workers", str(workers)] if workers is not None else []
            cmd += list(extra)
        environ = dict(os.environ)
        for name, value in (env or {}).items():
            if value is None:
                environ.pop(name, None)
            else:
                environ[name] = value
        self._log_file = open(log_path, "wb") if log_path else None
        self.proc = subprocess.Popen(
            cmd, stdout=self._log_file or subprocess.DEVNULL, stderr=subprocess.STDOUT, env=environ
        )

    def wait_serving(self, timeout: float = 60.0) -> SpawnedServer:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                with grpc.insecure_channel(self.target) as ch:
                    r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    return self
            except grpc.RpcError:
                pass
            time.sleep(0.1)  # polling interval of the health check, not a synchronisation
        self.stop()
        raise RuntimeError(f"server on {self.target} not serving after {timeout}s")

    def cpu_seconds(self) -> Optional[float]:
        return tree_cpu_seconds(self.proc.pid)

    def stop(self, timeout: float = 30.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log_file is not None:
            self._log_file.close()

    def __enter__(self):
        return self.wait_serving()

    def __exit__(self, *exc):
        self.stop()

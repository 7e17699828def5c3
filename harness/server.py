"""The one way tests, scripts and benches start ``handeval serve``: :class:`ServerProcess`,
the load package's ``SpawnedServer`` (what ``bench-load --spawn-server`` runs) with what a
test needs besides: the log in a file it can read, a metrics port, a channel, a health
wait that fails with the log, and the exit code."""

from __future__ import annotations

import signal
import time
import urllib.request
from pathlib import Path
from typing import Dict, Optional

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load.target import SpawnedServer, free_port

__all__ = ["START_TIMEOUT", "ServerProcess", "free_port"]

START_TIMEOUT = 60.0  # generous: the test machine may be loaded


class ServerProcess(SpawnedServer):
    """``python -m handeval serve`` on a free loopback port, its output kept in a file in
    ``log_dir``; ``args`` are its flags (no ``--host`` nor ``--workers`` unless given)."""

    def __init__(
        self,
        log_dir: Path,
        *args: str,
        env: Optional[Dict[str, Optional[str]]] = None,
        metrics: bool = True,
        prelude: str = "",
        python: Optional[str] = None,
        port: Optional[int] = None,
        log_path: Optional[Path] = None,
    ):
        """``env``: changes to the environment (None removes a variable); ``prelude``:
        Python statements the server's interpreter runs before handeval's command line
        (``import gc; gc.disable()``); ``python``: another interpreter (a wheel's
        virtualenv); ``port``: its port (else a free one); ``log_path``: its log (else a
        new file in ``log_dir``)."""
        self.metrics_port = free_port() if metrics else None
        extra = [*args, *(["--metrics-port", str(self.metrics_port)] if metrics else [])]
        self.log_path = Path(log_path) if log_path else Path(log_dir) / f"server-{time.monotonic_ns()}.log"
        super().__init__(
            workers=None,
            extra=tuple(extra),
            log_path=str(self.log_path),
            python=python,
            env=env,
            prelude=prelude,
            host=None,
            port=port,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_serving(self, credentials=None, timeout=START_TIMEOUT) -> ServerProcess:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with self.channel(credentials) as ch:
                    r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    return self
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"server not serving after {timeout}s:\n{self.log()}")
            time.sleep(0.1)  # the health check's polling interval, not a synchronisation

    def channel(self, credentials=None, options=()):
        if credentials is not None:
            return grpc.secure_channel(self.target, credentials, options=list(options))
        return grpc.insecure_channel(self.target, options=list(options))

    def metrics(self) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10) as r:
            return r.read().decode()

    def terminate(self, timeout=30) -> int:
        """SIGTERM, then the exit code (a hang guard of ``timeout`` seconds)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.close()

    def close(self) -> None:
        """Kills the server if it still runs; closes its log."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self._log_file is not None:
            self._log_file.close()

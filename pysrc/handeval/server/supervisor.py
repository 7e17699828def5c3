"""``--workers N``: N server processes sharing one port (SO_REUSEPORT, the kernel spreads
connections), started and watched by this supervisor, which restarts a worker that dies,
serves the metrics of all workers (prometheus_client multiprocess mode) and forwards
SIGTERM for a graceful shutdown.

The supervisor never imports grpc: workers are fresh interpreters (``python -m
handeval.server.worker``), so no gRPC state crosses a fork.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from handeval.server.config import ServerConfig

log = logging.getLogger("handeval.server.supervisor")

#: A worker that dies this soon after starting counts as a crash loop: back off.
MIN_UPTIME = 2.0


class Supervisor:
    def __init__(self, config: ServerConfig):
        self.config = config
        self.procs = {}  # index -> (Popen, started)
        self.stopping = False
        self.metrics_dir = tempfile.mkdtemp(prefix="handeval-metrics-")

    def _start(self, index: int) -> None:
        env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=self.metrics_dir, HANDEVAL_WORKER_INDEX=str(index))
        proc = subprocess.Popen([sys.executable, "-m", "handeval.server.worker", self.config.to_json()], env=env)
        self.procs[index] = (proc, time.monotonic())
        log.info('{"event": "worker_started", "worker": %d, "pid": %d}', index, proc.pid)

    def _on_signal(self, signum, frame):
        self.stopping = True

    def run(self) -> int:
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)
        if self.config.metrics_port is not None:
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry, path=self.metrics_dir)
            start_http_server(self.config.metrics_port, addr=self.config.host, registry=registry)
        for i in range(self.config.workers):
            self._start(i)
        try:
            while not self.stopping:
                time.sleep(0.2)
                for i, (proc, started) in list(self.procs.items()):
                    rc = proc.poll()
                    if rc is None or self.stopping:
                        continue
                    log.warning('{"event": "worker_died", "worker": %d, "pid": %d, "returncode": %d}', i, proc.pid, rc)
                    multiprocess.mark_process_dead(proc.pid, self.metrics_dir)
                    if time.monotonic() - started < MIN_UPTIME:
                        time.sleep(MIN_UPTIME)
                    self._start(i)
            return self._shutdown()
        finally:
            shutil.rmtree(self.metrics_dir, ignore_errors=True)

    def _shutdown(self) -> int:
        log.info('{"event": "shutdown", "workers": %d}', len(self.procs))
        for proc, _ in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.config.grace + self.config.shutdown_delay + 5
        rc = 0
        for proc, _ in self.procs.values():
            try:
                code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning('{"event": "worker_killed", "pid": %d}', proc.pid)
                proc.kill()
                code = proc.wait()
            # -SIGTERM: a worker still starting up, stopped before it set its handler
            rc = rc or code not in (0, -signal.SIGTERM)
        return int(rc)

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
from typing import Dict, Tuple

from handeval.server.config import TOKEN_ENV, ServerConfig
from handeval.server.logs import log_event
from handeval.server.startup import EXIT_STARTUP, StartupError, check_port_free

log = logging.getLogger("handeval.server.supervisor")

#: A worker that dies this soon after starting counts as a crash loop: back off.
MIN_UPTIME = 2.0


class Supervisor:
    def __init__(self, config: ServerConfig):
        self.config = config
        # The config carries the token: no process started from here inherits it.
        os.environ.pop(TOKEN_ENV, None)
        self.procs: Dict[int, Tuple[subprocess.Popen, float]] = {}  # index -> (Popen, started)
        self.stopping = False
        self.metrics_dir = tempfile.mkdtemp(prefix="handeval-metrics-")

    def _start(self, index: int) -> None:
        # The config (with the token) goes through an inherited pipe, not the command
        # line, which every user can read (see worker.py), nor the environment
        # (/proc/PID/environ; TOKEN_ENV left os.environ in __init__). It is far smaller
        # than a pipe's buffer, so writing it all before the worker reads cannot block.
        env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
        env.update(PROMETHEUS_MULTIPROC_DIR=self.metrics_dir, HANDEVAL_WORKER_INDEX=str(index))
        r, w = os.pipe()
        with os.fdopen(w, "w", encoding="utf-8") as f:
            f.write(self.config.to_json())
        try:
            proc = subprocess.Popen([sys.executable, "-m", "handeval.server.worker", str(r)], env=env, pass_fds=(r,))
        finally:
            os.close(r)
        self.procs[index] = (proc, time.monotonic())
        log_event(log, logging.INFO, "worker_started", worker=index, pid=proc.pid)

    def _on_signal(self, signum, frame):
        self.stopping = True

    def run(self) -> int:
        """Serve until SIGTERM; the exit code (EXIT_STARTUP with one line on stderr when
        the service cannot start)."""
        try:
            return self._run()
        except StartupError as e:
            print(f"handeval serve: {e}", file=sys.stderr, flush=True)
            return EXIT_STARTUP
        finally:
            shutil.rmtree(self.metrics_dir, ignore_errors=True)

    def _run(self) -> int:
        from prometheus_client import multiprocess

        from handeval.server import metrics

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)
        # Checked here, once: the workers share the port (SO_REUSEPORT), so a worker's own
        # bind would also succeed next to another server that shares it.
        check_port_free(self.config.host, self.config.port)
        if self.config.metrics_port is not None:
            try:
                metrics.start_http(self.config.metrics_port, self.config.host, multiprocess_dir=self.metrics_dir)
            except OSError as e:
                raise StartupError(
                    f"cannot serve metrics on {self.config.host}:{self.config.metrics_port} "
                    f"(--metrics-port): {e.strerror or e}"
                ) from None
        for i in range(self.config.workers):
            self._start(i)
        while not self.stopping:
            time.sleep(0.2)
            for i, (proc, started) in list(self.procs.items()):
                rc = proc.poll()
                if rc is None or self.stopping:
                    continue
                if rc == EXIT_STARTUP:  # the worker printed why; restarting would not help
                    self._shutdown(quiet=True)
                    return EXIT_STARTUP
                log_event(log, logging.WARNING, "worker_died", worker=i, pid=proc.pid, returncode=rc)
                multiprocess.mark_process_dead(proc.pid, self.metrics_dir)
                if time.monotonic() - started < MIN_UPTIME:
                    time.sleep(MIN_UPTIME)
                self._start(i)
        return self._shutdown()

    def _shutdown(self, quiet=False) -> int:
        if not quiet:
            log_event(log, logging.INFO, "shutdown", workers=len(self.procs))
        for proc, _ in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.config.grace + self.config.shutdown_delay + 5
        rc = 0
        for proc, _ in self.procs.values():
            try:
                code = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log_event(log, logging.WARNING, "worker_killed", pid=proc.pid)
                proc.kill()
                code = proc.wait()
            # -SIGTERM: a worker still starting up, stopped before it set its handler
            rc = rc or code not in (0, -signal.SIGTERM)
        return int(rc)

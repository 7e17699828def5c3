"""Prometheus metrics. With ``--workers N`` every worker writes to the shared
``PROMETHEUS_MULTIPROC_DIR`` (set by the supervisor before the workers start) and the
supervisor serves the sum; with one process the default registry is served directly.

The HTTP endpoint serves at most :data:`MAX_CONNECTIONS` connections at once (one thread
each; more are closed at accept) and closes a connection whose request and answer are
not done within :data:`REQUEST_TIMEOUT_S`, so half-sent requests cannot pile up threads
or keep the scraper out for long.
"""

from __future__ import annotations

import socket
import threading
import time
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from prometheus_client import Counter, Gauge, Histogram

LABELS = ("rpc", "game")
PATH = "/metrics"

REQUESTS = Counter("handeval_requests_total", "Calls by RPC, game and status code.", LABELS + ("code",))
ITEM_ERRORS = Counter("handeval_item_errors_total", "Items answered with a per-item error.", LABELS)
LATENCY = Histogram(
    "handeval_request_seconds",
    "Call latency, server side.",
    LABELS,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
ITEMS = Histogram(
    "handeval_batch_items",
    "Items (or deals) per request.",
    LABELS,
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000),
)
INFLIGHT = Gauge("handeval_inflight_requests", "Calls being processed.", multiprocess_mode="livesum")


#: Connections served at once (a thread each); more are closed at accept.
MAX_CONNECTIONS = 8
#: A connection is closed when its request has not been read and answered this soon.
REQUEST_TIMEOUT_S = 5.0
#: How often the connections are checked against their deadline.
_SWEEP_S = 0.25


class _Quiet(WSGIRequestHandler):
    #: per read or write (socketserver sets it on the socket); the whole request has
    #: REQUEST_TIMEOUT_S (MetricsServer's sweeper)
    timeout = REQUEST_TIMEOUT_S

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class MetricsServer(WSGIServer):
    """A WSGI server with a thread per connection, at most ``MAX_CONNECTIONS`` of them,
    each connection closed ``REQUEST_TIMEOUT_S`` after it was accepted (by one sweeper
    thread: a per-read socket timeout alone lets a client that sends a byte now and then
    keep its thread forever)."""

    def __init__(self, *args, **kwargs):
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._lock = threading.Lock()
        self._deadlines = {}  # socket -> monotonic deadline
        self._stopped = threading.Event()
        super().__init__(*args, **kwargs)  # binds; on failure calls server_close and raises
        threading.Thread(target=self._sweep, name="metrics-sweeper", daemon=True).start()

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)  # over the limit: closed at once
            return
        with self._lock:
            self._deadlines[request] = time.monotonic() + REQUEST_TIMEOUT_S
        threading.Thread(
            target=self._serve_one, args=(request, client_address), name="metrics-conn", daemon=True
        ).start()

    def _serve_one(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        except Exception:  # noqa: BLE001 - a broken or timed-out connection ends here
            pass
        finally:
            with self._lock:
                self._deadlines.pop(request, None)
            self.shutdown_request(request)
            self._slots.release()

    def _sweep(self):
        while not self._stopped.wait(_SWEEP_S):
            now = time.monotonic()
            with self._lock:
                late = [s for s, d in self._deadlines.items() if d <= now]
            for s in late:
                try:  # wakes the connection's thread blocked in recv/send
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def server_close(self):
        self._stopped.set()
        super().server_close()


def start_http(port: int, host: str, multiprocess_dir=None) -> WSGIServer:
    """Serve the metrics at ``http://host:port/metrics`` (every other path: 404) from a
    daemon thread. Raises OSError when the port cannot be bound."""
    from prometheus_client import REGISTRY, CollectorRegistry, make_wsgi_app

    registry = REGISTRY
    if multiprocess_dir is not None:
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiprocess_dir)
    metrics_app = make_wsgi_app(registry)

    def app(environ, start_response):
        if environ.get("PATH_INFO") != PATH:
            start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
            return [f"not found; the metrics are at {PATH}\n".encode()]
        return metrics_app(environ, start_response)

    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    server_class = type("MetricsServer", (MetricsServer,), {"address_family": family})
    httpd = server_class((host, port), _Quiet)
    httpd.set_app(app)
    threading.Thread(target=httpd.serve_forever, name="metrics", daemon=True).start()
    return httpd

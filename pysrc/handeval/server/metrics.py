"""Prometheus metrics. With ``--workers N`` every worker writes to the shared
``PROMETHEUS_MULTIPROC_DIR`` (set by the supervisor before the workers start) and the
supervisor serves the sum; with one process the default registry is served directly.
"""

from __future__ import annotations

import socket
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from prometheus_client import Counter, Gauge, Histogram

LABELS = ("rpc", "game")
PATH = "/metrics"

REQUESTS = Counter("handeval_requests_total", "Calls by RPC, game and status code.", LABELS + ("code",))
ITEM_ERRORS = Counter("handeval_item_errors_total", "Items answered with a per-item error.", LABELS)
LATENCY = Histogram(
    "handeval_request_seconds", "Call latency, server side.", LABELS,
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
ITEMS = Histogram(
    "handeval_batch_items", "Items (or deals) per request.", LABELS,
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000),
)
INFLIGHT = Gauge("handeval_inflight_requests", "Calls being processed.", multiprocess_mode="livesum")


class _Quiet(WSGIRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


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
    server_class = type("MetricsServer", (ThreadingMixIn, WSGIServer), {"daemon_threads": True, "address_family": family})
    httpd = server_class((host, port), _Quiet)
    httpd.set_app(app)
    threading.Thread(target=httpd.serve_forever, name="metrics", daemon=True).start()
    return httpd

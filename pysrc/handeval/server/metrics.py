"""Prometheus metrics. With ``--workers N`` every worker writes to the shared
``PROMETHEUS_MULTIPROC_DIR`` (set by the supervisor before the workers start) and the
supervisor serves the sum; with one process the default registry is served directly.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

LABELS = ("rpc", "game")

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


def start_http(port: int, host: str, multiprocess_dir=None) -> None:
    """Serve /metrics on ``host:port`` (a daemon thread)."""
    from prometheus_client import CollectorRegistry, start_http_server

    if multiprocess_dir is None:
        start_http_server(port, addr=host)
        return
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=multiprocess_dir)
    start_http_server(port, addr=host, registry=registry)

"""The handeval gRPC service (``handeval.v2.Handeval``): ``handeval serve``.

Layout: ``config`` (flags and environment), ``app`` (one grpc.aio server process),
``supervisor`` (``--workers N``), ``service`` (dispatch, limits, status codes, metrics,
logs). Every game's requests are answered in Rust: the binding's ``_core.wire_answer``
(``rust/handeval-py/src/wire.rs``) hands the bytes to the wire crate, one module per game
in ``rust/handeval-wire/src/``.
"""

from __future__ import annotations

from handeval.server.config import ServerConfig


def serve(config: ServerConfig) -> int:
    """Run the server until SIGTERM/SIGINT; returns the process exit code."""
    if config.workers > 1:
        from handeval.server.config import setup_logging
        from handeval.server.supervisor import Supervisor

        setup_logging(config.log_level)
        return Supervisor(config).run()
    from handeval.server.app import run_worker

    return run_worker(config)

"""The handeval gRPC service (``handeval.v2.Handeval``): ``handeval serve``.

Layout, one concern a module: ``config`` (the settings), ``flags`` and ``parsers`` (flags
and environment variables to settings), ``startup`` (checks before listening), ``logs``
(the one JSON log writer, rate-limited), ``app`` (one grpc.aio server process: build,
listen, drain), ``transport`` (gRPC core's bounds), ``auth`` (TLS, token), ``admission``
(which calls and connections are admitted), ``janitor`` (closing idle and unread
connections by descriptor, from /proc), ``allocator`` (glibc malloc tuning),
``tracebacks`` (failed handlers keep no request bytes), ``supervisor`` (``--workers N``),
``service`` (dispatch, limits, status codes, metrics, logs). Every game's requests are answered in Rust: the binding's ``_core.wire_answer``
(``rust/handeval-py/src/wire.rs``) hands the bytes to the wire crate, one module per game
in ``rust/handeval-wire/src/``.
"""

from __future__ import annotations

from handeval.server.config import ServerConfig


def serve(config: ServerConfig) -> int:
    """Run the server until SIGTERM/SIGINT; returns the process exit code."""
    if config.workers > 1:
        from handeval.server.logs import setup_logging
        from handeval.server.supervisor import Supervisor

        setup_logging(config.log_level)
        return Supervisor(config).run()
    from handeval.server.app import run_worker

    return run_worker(config)

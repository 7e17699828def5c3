"""Server settings: ``handeval serve`` flags, each with an environment variable
(``HANDEVAL_<NAME>``) as its default; no config file. Imports nothing heavy, so the CLI
stays fast."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
from dataclasses import dataclass
from typing import Optional

DEFAULT_MAX_BATCH = 10_000
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_CONCURRENT_RPCS = 1000


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051
    #: Processes sharing the port (SO_REUSEPORT) under a supervisor; 1 = this process.
    workers: int = 1
    #: Threads per process running the Rust calls (they release the GIL); 0 = CPU count.
    threads: int = 0
    #: Prometheus metrics HTTP port; None = no metrics endpoint.
    metrics_port: Optional[int] = None
    max_batch: int = DEFAULT_MAX_BATCH
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    #: Calls in progress per process; more get RESOURCE_EXHAUSTED. 0 = no limit.
    max_concurrent_rpcs: int = DEFAULT_MAX_CONCURRENT_RPCS
    #: Seconds in-flight calls get to finish after SIGTERM.
    grace: float = 10.0
    #: Seconds between health NOT_SERVING and refusing new calls on SIGTERM (lets load
    #: balancers notice first).
    shutdown_delay: float = 0.0
    #: Shared token: calls must send metadata ``authorization: Bearer <token>``.
    token: Optional[str] = None
    tls_cert: Optional[str] = None
    tls_key: Optional[str] = None
    #: CA bundle for client certificates; set = mutual TLS (client certs required).
    tls_client_ca: Optional[str] = None
    log_level: str = "info"

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, s: str) -> "ServerConfig":
        return cls(**json.loads(s))


def _env(name, default=None, conv=str):
    v = os.environ.get(f"HANDEVAL_{name}")
    return default if v in (None, "") else conv(v)


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    d = ServerConfig()
    a = p.add_argument
    a("--host", default=_env("HOST", d.host), help="address to listen on (HANDEVAL_HOST, default 127.0.0.1)")
    a("--port", type=int, default=_env("PORT", d.port, int), help="gRPC port (HANDEVAL_PORT, default 50051)")
    a("--workers", type=int, default=_env("WORKERS", d.workers, int),
      help="server processes sharing the port; a supervisor restarts one that dies (HANDEVAL_WORKERS, default 1)")
    a("--threads", type=int, default=_env("THREADS", d.threads, int),
      help="compute threads per process (HANDEVAL_THREADS, default: CPU count)")
    a("--metrics-port", type=int, default=_env("METRICS_PORT", None, int),
      help="serve Prometheus metrics on this HTTP port (HANDEVAL_METRICS_PORT, default off)")
    a("--max-batch", type=int, default=_env("MAX_BATCH", d.max_batch, int),
      help=f"most items (or deals) per request (HANDEVAL_MAX_BATCH, default {d.max_batch})")
    a("--max-message-bytes", type=int, default=_env("MAX_MESSAGE_BYTES", d.max_message_bytes, int),
      help="largest request/response message (HANDEVAL_MAX_MESSAGE_BYTES, default 16 MiB)")
    a("--max-concurrent-rpcs", type=int, default=_env("MAX_CONCURRENT_RPCS", d.max_concurrent_rpcs, int),
      help="calls in progress per process; more are refused with RESOURCE_EXHAUSTED, 0 = no limit "
           f"(HANDEVAL_MAX_CONCURRENT_RPCS, default {d.max_concurrent_rpcs})")
    a("--grace", type=float, default=_env("GRACE", d.grace, float),
      help="seconds in-flight calls get after SIGTERM (HANDEVAL_GRACE, default 10)")
    a("--shutdown-delay", type=float, default=_env("SHUTDOWN_DELAY", d.shutdown_delay, float),
      help="seconds NOT_SERVING is shown before new calls are refused (HANDEVAL_SHUTDOWN_DELAY, default 0)")
    a("--token-file", default=_env("TOKEN_FILE"),
      help="require 'authorization: Bearer <token>' with the token in this file (HANDEVAL_TOKEN_FILE; "
           "or the token itself in HANDEVAL_TOKEN)")
    a("--tls-cert", default=_env("TLS_CERT"), help="PEM server certificate chain (HANDEVAL_TLS_CERT)")
    a("--tls-key", default=_env("TLS_KEY"), help="PEM server private key (HANDEVAL_TLS_KEY)")
    a("--tls-client-ca", default=_env("TLS_CLIENT_CA"),
      help="PEM CA of client certificates: mutual TLS (HANDEVAL_TLS_CLIENT_CA)")
    a("--log-level", default=_env("LOG_LEVEL", d.log_level),
      help="debug logs one line per call (HANDEVAL_LOG_LEVEL, default info)")


def config_from_args(args) -> ServerConfig:
    """The ServerConfig of parsed ``serve`` arguments; raises ValueError on bad values."""
    token = os.environ.get("HANDEVAL_TOKEN") or None
    if args.token_file:
        with open(args.token_file, encoding="utf-8") as f:
            token = f.read().strip()
        if not token:
            raise ValueError(f"--token-file {args.token_file} is empty")
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ValueError("--tls-cert and --tls-key go together")
    if args.tls_client_ca and not args.tls_cert:
        raise ValueError("--tls-client-ca needs --tls-cert and --tls-key")
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.workers > 1 and args.port == 0:
        raise ValueError("--workers > 1 needs a fixed --port (the processes share it)")
    if args.max_batch < 1 or args.max_message_bytes < 1024:
        raise ValueError("--max-batch must be >= 1 and --max-message-bytes >= 1024")
    if args.max_concurrent_rpcs < 0:
        raise ValueError("--max-concurrent-rpcs must be >= 0 (0: no limit)")
    return ServerConfig(
        host=args.host, port=args.port, workers=args.workers, threads=args.threads,
        metrics_port=args.metrics_port, max_batch=args.max_batch,
        max_message_bytes=args.max_message_bytes, max_concurrent_rpcs=args.max_concurrent_rpcs, grace=args.grace,
        shutdown_delay=args.shutdown_delay, token=token, tls_cert=args.tls_cert,
        tls_key=args.tls_key, tls_client_ca=args.tls_client_ca, log_level=args.log_level,
    )


def setup_logging(level: str) -> None:
    """``level`` applies to handeval's loggers; libraries (grpc, asyncio) log from INFO up."""
    lvl = getattr(logging, level.upper(), logging.INFO)
    logging.basicConfig(
        level=max(lvl, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s[%(process)d] %(message)s",
    )
    logging.getLogger("handeval").setLevel(lvl)

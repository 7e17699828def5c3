"""One server process: a grpc.aio server with the Handeval service, health, reflection,
optional TLS and token check, and graceful shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import signal
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from handeval.server.config import ServerConfig, setup_logging
from handeval.server.service import HandevalService, add_to_server
from handeval.v1 import handeval_pb2

log = logging.getLogger("handeval.server")

SERVICE_NAME = handeval_pb2.DESCRIPTOR.services_by_name["Handeval"].full_name
#: Health is open to everyone (Kubernetes gRPC probes send no metadata).
OPEN_PREFIX = "/grpc.health.v1.Health/"


class TokenInterceptor(grpc.aio.ServerInterceptor):
    """Requires metadata ``authorization: Bearer <token>`` (constant-time compare)."""

    def __init__(self, token: str):
        self.expected = f"Bearer {token}".encode()

    async def intercept_service(self, continuation, details):
        if details.method.startswith(OPEN_PREFIX):
            return await continuation(details)
        got = dict(details.invocation_metadata or ()).get("authorization", "")
        if isinstance(got, str):
            got = got.encode()
        if hmac.compare_digest(got, self.expected):
            return await continuation(details)
        log.warning('{"event": "unauthenticated", "method": "%s"}', details.method)

        async def deny(request, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong authorization token")

        return grpc.unary_unary_rpc_method_handler(deny)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def server_credentials(config: ServerConfig):
    if not config.tls_cert:
        return None
    ca = _read(config.tls_client_ca) if config.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(_read(config.tls_key), _read(config.tls_cert))],
        root_certificates=ca, require_client_auth=ca is not None,
    )


async def serve_async(config: ServerConfig, reuse_port: bool = False) -> None:
    threads = config.threads or os.cpu_count() or 1
    executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="handeval")
    interceptors = [TokenInterceptor(config.token)] if config.token else []
    server = grpc.aio.server(
        interceptors=interceptors,
        # Calls beyond this many at once get RESOURCE_EXHAUSTED instead of queueing
        # without bound (0: no limit).
        maximum_concurrent_rpcs=config.max_concurrent_rpcs or None,
        options=[
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", config.max_message_bytes),
            # Several workers share the port on purpose; a lone server must not
            # silently share it with another process.
            ("grpc.so_reuseport", 1 if reuse_port else 0),
        ],
    )
    service = HandevalService(config, executor)
    add_to_server(service, server)  # the generated registration, but bad bytes → INVALID_ARGUMENT
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)

    address = f"{config.host}:{config.port}"
    creds = server_credentials(config)
    port = server.add_secure_port(address, creds) if creds else server.add_insecure_port(address)
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    log.info('{"event": "serving", "address": "%s:%d", "tls": %s, "mutual_tls": %s, "token": %s, "threads": %d}',
             config.host, port, str(creds is not None).lower(), str(bool(config.tls_client_ca)).lower(),
             str(bool(config.token)).lower(), threads)

    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()

    log.info('{"event": "shutdown", "inflight": %d, "grace_s": %s}', service.inflight, config.grace)
    await health_servicer.enter_graceful_shutdown()  # every service NOT_SERVING
    if config.shutdown_delay > 0:
        await asyncio.sleep(config.shutdown_delay)
    await server.stop(config.grace)
    executor.shutdown(wait=False, cancel_futures=True)
    log.info('{"event": "stopped"}')


def run_worker(config: ServerConfig, reuse_port: bool = False, metrics_dir=None) -> int:
    """Serve in this process until SIGTERM; 0 after a clean shutdown."""
    setup_logging(config.log_level)
    if config.metrics_port is not None and metrics_dir is None:
        from handeval.server import metrics

        metrics.start_http(config.metrics_port, config.host)
    asyncio.run(serve_async(config, reuse_port=reuse_port))
    return 0

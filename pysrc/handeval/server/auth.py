"""Who may call: TLS (and mutual TLS) credentials, and the shared token every call but
health's Check must send."""

from __future__ import annotations

import hmac
import logging

import grpc

from handeval.server.config import ServerConfig
from handeval.server.logs import cut, log_event

log = logging.getLogger("handeval.server")

#: Health's Check is open to everyone (Kubernetes gRPC probes send no metadata); its
#: Watch streams, which last, need the token like every other method.
OPEN_METHODS = frozenset({"/grpc.health.v1.Health/Check"})


class TokenInterceptor(grpc.aio.ServerInterceptor):
    """Requires metadata ``authorization: Bearer <token>`` (constant-time compare)."""

    def __init__(self, token: str):
        self.expected = f"Bearer {token}".encode()

    async def intercept_service(self, continuation, details):
        if details.method in OPEN_METHODS:
            return await continuation(details)
        got = dict(details.invocation_metadata or ()).get("authorization", "")
        if isinstance(got, str):
            got = got.encode()
        if hmac.compare_digest(got, self.expected):
            return await continuation(details)
        # the path is the peer's: escaped and cut (a newline cannot start a forged line)
        log_event(log, logging.WARNING, "unauthenticated", method=cut(details.method, 200))

        async def deny(request_iterator, context):
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong authorization token")

        # A streaming-request handler starts at the call's headers: the refusal does not
        # wait for (and hold a call slot until) a request that may never come.
        return grpc.stream_unary_rpc_method_handler(deny)


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def server_credentials(config: ServerConfig):
    if not config.tls_cert:
        return None
    ca = _read(config.tls_client_ca) if config.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(_read(config.tls_key), _read(config.tls_cert))], root_certificates=ca, require_client_auth=ca is not None
    )

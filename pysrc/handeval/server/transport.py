"""What gRPC core itself bounds for ``handeval serve``: the server's channel arguments
(handshake and keepalive times, headers, frames, pending calls, compression, connection
age and idle time) and the connection limit the process's descriptors allow."""

from __future__ import annotations

import logging
import resource

from handeval.server.config import ServerConfig
from handeval.server.logs import log_event
from handeval.server.parsers import COMPRESSION_CHOICES

log = logging.getLogger("handeval.server")

#: A connection must finish its TLS/HTTP2 handshake this soon (gRPC's default: 120 s),
#: so sockets that connect and send nothing (or less than the HTTP/2 preface and its
#: SETTINGS) do not hold a connection slot for long. A connection that completed its
#: handshake but sends no complete request is closed after ``--max-first-call-wait``
#: (default the same 4 s; janitor.ConnectionJanitor).
HANDSHAKE_TIMEOUT_S = 4
#: The server pings a connection without traffic this often and closes it when the ping
#: is not answered within KEEPALIVE_TIMEOUT_S: dead peers free their slot (default 2 h).
#: A peer must acknowledge the server's HTTP/2 settings as soon (gRPC's default: 60 s;
#: what closes a preface-only connection when the idle time is off).
KEEPALIVE_TIME_S, KEEPALIVE_TIMEOUT_S = 60, 20
#: Clients may send keepalive pings this often, with or without calls (gRPC's default
#: allows one per 5 min and closes the connection of a client that pings more often).
CLIENT_PING_MIN_INTERVAL_S = 10
#: Most bytes of a call's headers (HPACK-decoded, all fields): gRPC's hard limit
#: (grpc.absolute_max_metadata_size; its soft limit, from which it refuses a random
#: share, is set to the same). A request with more is refused before its handler runs.
METADATA_BYTES = 16 * 1024
#: HTTP/2 frames the server accepts are at most this long (the protocol's floor).
MAX_FRAME_BYTES = 16 * 1024
#: A client's PINGs beyond the allowed rate (CLIENT_PING_MIN_INTERVAL_S) are strikes;
#: after this many the connection is closed with GOAWAY ENHANCE_YOUR_CALM.
PING_STRIKES = 2
#: New streams gRPC starts per read of the socket before it reads again (its default
#: 32): a HEADERS+RST_STREAM flood (rapid reset) gets this many at a time.
REQUESTS_PER_READ = 16
#: Calls gRPC core queues before the server takes them up (see server_options).
PENDING_CALLS = 4096
#: File descriptors kept for other uses than client connections (listeners, metrics,
#: logs, the Python runtime).
FD_RESERVE = 64


def connection_limit(config: ServerConfig) -> int:
    """The connection limit this process can honour: raises the soft RLIMIT_NOFILE up to
    the hard one when ``--max-connections`` needs it; lowers the limit (with a warning)
    when even the hard one is too small, so the process never runs out of descriptors."""
    want = config.max_connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = (want or 0) + FD_RESERVE
    if need > soft and (hard == resource.RLIM_INFINITY or hard > soft):
        soft = need if hard == resource.RLIM_INFINITY else min(need, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    room = max(1, soft - FD_RESERVE)
    if want == 0:  # "no limit": as many as the descriptors allow
        return room
    if want > room:
        log_event(
            log, logging.WARNING, "max_connections_lowered", max_connections=want, rlimit_nofile=soft, effective=room
        )
        return room
    return want


def server_options(config: ServerConfig, reuse_port: bool, max_connections: int):
    ms = lambda s: int(s * 1000)  # noqa: E731
    options = [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        # Several workers share the port on purpose; a lone server must not
        # silently share it with another process.
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        # Excess connections are closed at accept (before any handshake), so the
        # process keeps descriptors for its clients, listeners and metrics.
        ("grpc.max_allowed_incoming_connections", max_connections),
        ("grpc.server_handshake_timeout_ms", ms(HANDSHAKE_TIMEOUT_S)),
        ("grpc.http2.settings_timeout", ms(KEEPALIVE_TIMEOUT_S)),
        ("grpc.keepalive_time_ms", ms(KEEPALIVE_TIME_S)),
        ("grpc.keepalive_timeout_ms", ms(KEEPALIVE_TIMEOUT_S)),
        ("grpc.http2.min_ping_interval_without_data_ms", ms(CLIENT_PING_MIN_INTERVAL_S)),
        ("grpc.keepalive_permit_without_calls", 1),
        # One connection cannot take every call slot: the client queues its calls beyond.
        ("grpc.max_concurrent_streams", config.max_streams_per_connection),
        # Calls arrived but not yet taken up by the server (gRPC's default 1,000, beyond
        # which it cancels arriving calls, anyone's): a burst of 200 connections × 16
        # streams from one address then waits to be refused instead of getting other
        # clients' calls cancelled.
        ("grpc.server.max_pending_requests", PENDING_CALLS),
        ("grpc.server.max_pending_requests_hard_limit", 2 * PENDING_CALLS),
        # Headers: a request's header block is bounded in bytes (a larger one, or an
        # endless run of CONTINUATION frames, is refused; docs/hardening.md).
        ("grpc.max_metadata_size", METADATA_BYTES),
        ("grpc.absolute_max_metadata_size", METADATA_BYTES),
        ("grpc.http2.max_frame_size", MAX_FRAME_BYTES),
        ("grpc.http2.max_ping_strikes", PING_STRIKES),
        ("grpc.http2.max_requests_per_read", REQUESTS_PER_READ),
        # Compressed requests: refused at their headers unless --accept-compression gzip
        # (then inflated at most to --max-message-bytes, grpc.max_receive_message_length).
        ("grpc.compression_enabled_algorithms_bitset", COMPRESSION_CHOICES[config.accept_compression]),
    ]
    if config.max_connection_idle > 0:
        options.append(("grpc.max_connection_idle_ms", ms(config.max_connection_idle)))
    if config.max_connection_age > 0:
        # GOAWAY after the age (gRPC adds +-10 % jitter so clients do not reconnect
        # together); calls on the old connection get --grace to finish.
        options.append(("grpc.max_connection_age_ms", ms(config.max_connection_age)))
        options.append(("grpc.max_connection_age_grace_ms", ms(config.grace)))
    return options

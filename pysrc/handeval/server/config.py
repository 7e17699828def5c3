"""Server settings: the :class:`ServerConfig` of ``handeval serve`` and its defaults.
Each setting has a flag and an environment variable (``HANDEVAL_<NAME>``), defined in
``flags.OPTIONS``; no config file. Imports nothing heavy, so the CLI stays fast.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Optional

DEFAULT_MAX_BATCH = 10_000
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_CONCURRENT_RPCS = 1000
#: ~0.7 s per hand on 2 cores (benches/bench_arrange.py -k samples): a Monte-Carlo hand runs to its end once started (the
#: deadline is checked between hands), so this bounds the work a call can overrun by.
DEFAULT_MAX_SAMPLES = 10_000
#: Work units one request may ask for (hands × (samples + 1) for Arrange, rows for bulk
#: calls, records for Settle): 16 MiB of packed 3-card rows (5.6 M) fits; an Arrange of
#: 6 M hand-samples is ~7 CPU-minutes (~70 µs each).
DEFAULT_MAX_REQUEST_WORK = 6_000_000


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
    #: Most Monte-Carlo ``samples`` per hand an Arrange request may ask for.
    max_samples: int = DEFAULT_MAX_SAMPLES
    #: Most work units per request (see DEFAULT_MAX_REQUEST_WORK); more is INVALID_ARGUMENT
    #: (TOO_LARGE). 0 = no budget.
    max_request_work: int = DEFAULT_MAX_REQUEST_WORK
    #: Calls in progress per process; more get RESOURCE_EXHAUSTED. 0 = no limit.
    max_concurrent_rpcs: int = DEFAULT_MAX_CONCURRENT_RPCS
    #: Open client connections per process; more are closed at once. 0 = as many as
    #: RLIMIT_NOFILE allows (the limit is lowered to fit it anyway: transport.connection_limit).
    max_connections: int = 1000
    #: Seconds a connection without calls stays open; 0 = forever. Minutes, so a client
    #: that calls a few times a minute keeps its connection (and its TLS session); a
    #: connection that never sends a complete request is closed after
    #: ``max_first_call_wait`` instead.
    max_connection_idle: float = 300.0
    #: Seconds a connection may stay open without sending one complete request (a socket
    #: flood that completes the HTTP/2 handshake and opens no call, or only calls it never
    #: finishes, would hold ``max_connections`` slots); 0 = no such limit.
    max_first_call_wait: float = 4.0
    #: Seconds after which a connection is asked to go away (GOAWAY; its calls get
    #: ``grace`` more), so clients reconnect and spread over restarted workers. 0 = never.
    max_connection_age: float = 900.0
    #: Seconds a call's request may take to arrive after its headers; then the call is
    #: answered DEADLINE_EXCEEDED and its slot is free. 0 = no bound.
    max_request_wait: float = 5.0
    #: Calls in progress at once from one client address (IP); more get
    #: RESOURCE_EXHAUSTED. 0 = no limit (behind a proxy every call has its address).
    max_calls_per_peer: int = 250
    #: Calls (HTTP/2 streams) in progress at once on one connection; the client queues
    #: more until one ends. Small: gRPC core cancels calls when more arrive at once than
    #: the server takes up, so many connections each opening this many (refused or held)
    #: calls must stay far from that (docs/hardening.md, availability).
    max_streams_per_connection: int = 16
    #: Seconds in-flight calls get to finish after SIGTERM (and on an aged connection).
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
    #: Compressed requests accepted: "none" (a compressed request is refused at its
    #: headers, before any inflating) or "gzip" (gzip and deflate, inflated up to
    #: ``max_message_bytes``).
    accept_compression: str = "none"
    #: Health ``Watch`` streams open at once, from one client address and in all; more
    #: are refused with RESOURCE_EXHAUSTED. They never take a call slot.
    max_watch_streams: int = 64
    #: Table streams (``Tables``) open at once in the process, a quarter of them per client
    #: address when ``max_calls_per_peer`` is set; more are refused with
    #: RESOURCE_EXHAUSTED. Each also takes a call slot while open.
    max_table_streams: int = 256
    #: Tables one stream holds at once (a start beyond: an ItemError, TOO_LARGE).
    max_stream_tables: int = 1024
    #: Tables open at once in the process, over every stream: a 越式13张 table holds 3 KB
    #: at its start to 18 KB at its end (docs/benchmarks.md), so at most ~150 MB.
    max_tables: int = 8192
    #: Seconds a table stream may go without a message (or an answer unread by its
    #: client) before the server ends it (DEADLINE_EXCEEDED); its tables are forgotten.
    max_stream_idle: float = 120.0
    #: Seconds a table may go without a step before the server closes it (the stream is
    #: told: a ``closed`` answer, reason IDLE).
    max_table_idle: float = 600.0
    #: Answer bytes the server holds for one connection (and for one client address)
    #: that its client has not read yet (flow control); beyond, the connection is closed.
    #: None = twice ``max_message_bytes``; 0 = no bound; else at least ``max_message_bytes``.
    max_unread_answer_bytes: Optional[int] = None
    #: Serve beyond loopback without TLS or without a token (or client certificates):
    #: refused at start unless set.
    insecure_remote: bool = False

    @property
    def unread_answer_bound(self) -> int:
        """``max_unread_answer_bytes`` resolved (0 = no bound)."""
        if self.max_unread_answer_bytes is None:
            return 2 * self.max_message_bytes
        return self.max_unread_answer_bytes

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, s: str) -> ServerConfig:
        return cls(**json.loads(s))


#: The token itself (``--token-file`` names a file instead). The supervisor removes it
#: from the environment of its workers, which get the config through a pipe.
TOKEN_ENV = "HANDEVAL_TOKEN"

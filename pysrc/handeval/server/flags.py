"""The ``handeval serve`` flags, each with an environment variable (``HANDEVAL_<NAME>``) as
its default. Every setting is defined once, in :data:`OPTIONS` (flag, parser, help).
Values are parsed in :func:`config_from_args`, not when the argument parser is built, so
a malformed ``HANDEVAL_*`` variable is a one-line error of ``handeval serve`` (naming the
variable) and never breaks ``handeval --help`` or another subcommand.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from dataclasses import dataclass
from typing import Callable, Optional

from handeval.server.config import TOKEN_ENV, ServerConfig
from handeval.server.logs import LOG_LEVELS
from handeval.server.parsers import (
    compression_choice,
    host_name,
    integer,
    log_level,
    port_number,
    readable_file,
    seconds,
    switch,
)
from handeval.server.startup import check_tls_files, exposure_gaps


@dataclass(frozen=True)
class Option:
    flag: str
    parse: Callable[[str], object]
    help: str
    #: default shown in --help (the ServerConfig default otherwise)
    shown: Optional[str] = None
    #: a flag without a value (its presence sets it; the variable takes 1/0)
    switch: bool = False

    @property
    def field(self) -> str:
        return self.flag[2:].replace("-", "_")

    @property
    def env(self) -> str:
        return "HANDEVAL_" + self.field.upper()


_D = ServerConfig()


#: The ``serve`` settings; each field of ServerConfig but ``token`` (``--token-file`` or
#: ``HANDEVAL_TOKEN``) has one.
OPTIONS = (
    Option(
        "--host",
        host_name,
        "address to listen on; anything but loopback is refused at start without TLS (--tls-cert, --tls-key) "
        "and a token (--token-file) or client certificates (--tls-client-ca), unless --insecure-remote",
    ),
    Option(
        "--insecure-remote",
        switch,
        "serve beyond loopback without TLS or without a token: calls and the token travel in plaintext, "
        "anyone who reaches the port may call",
        switch=True,
    ),
    Option("--port", port_number, "gRPC port, 1..65535"),
    Option("--workers", integer(1, 256), "server processes sharing the port; a supervisor restarts one that dies"),
    Option("--threads", integer(0, 1024), "compute threads per process", shown="CPU count"),
    Option("--metrics-port", port_number, "serve Prometheus metrics at http://HOST:PORT/metrics", shown="off"),
    Option("--max-batch", integer(1), "most items (or deals) per request"),
    Option("--max-message-bytes", integer(1024, 2**31 - 1), "largest request/response message", shown="16 MiB"),
    Option(
        "--max-samples",
        integer(0, 1_000_000),
        "most Monte-Carlo samples per hand in an Arrange request "
        "(~70 µs each on 2 cores; a hand runs to its end once started)",
    ),
    Option(
        "--max-request-work",
        integer(0),
        "most work per request: hands x (samples + 1) for Arrange, "
        "rows for bulk calls, records for Settle; more is refused with TOO_LARGE, 0 = no budget",
    ),
    Option(
        "--max-concurrent-rpcs",
        integer(0),
        "calls in progress per process; more are refused with RESOURCE_EXHAUSTED, 0 = no limit",
    ),
    Option(
        "--max-connections",
        integer(0),
        "open client connections per process; more are closed at once, 0 = as many as the descriptor limit allows",
    ),
    Option("--max-connection-idle", seconds, "seconds a connection without calls stays open, 0 = forever"),
    Option(
        "--max-first-call-wait",
        seconds,
        "seconds a connection may stay open before its first complete request; then it is closed, 0 = no limit",
    ),
    Option(
        "--max-connection-age",
        seconds,
        "seconds before a connection is asked to reconnect (calls on it get "
        "--grace more), so clients rebalance over workers; 0 = never",
    ),
    Option(
        "--max-request-wait",
        seconds,
        "seconds a call's request may take to arrive after its headers; then "
        "the call ends with DEADLINE_EXCEEDED, 0 = no bound",
    ),
    Option(
        "--max-calls-per-peer",
        integer(0),
        "calls in progress at once from one client address; more are "
        "refused with RESOURCE_EXHAUSTED, 0 = no limit (set 0 behind a proxy)",
    ),
    Option(
        "--max-streams-per-connection",
        integer(1, 2**31 - 1),
        "calls in progress at once on one connection (HTTP/2 streams); the client queues more",
    ),
    Option(
        "--max-watch-streams",
        integer(0),
        "health Watch streams open at once in all, an eighth of them per client address; more are refused "
        "with RESOURCE_EXHAUSTED (they take no call slot), 0 = none allowed",
    ),
    Option(
        "--max-table-streams",
        integer(0),
        "table streams (Tables) open at once, a quarter of them per client address when --max-calls-per-peer is "
        "set; more are refused with RESOURCE_EXHAUSTED; each also takes a call slot, 0 = none allowed",
    ),
    Option("--max-stream-tables", integer(1), "tables one Tables stream holds at once; more starts are refused"),
    Option("--max-tables", integer(1), "tables open at once in the process over every stream; more starts are refused"),
    Option(
        "--max-stream-idle",
        seconds,
        "seconds a Tables stream may go without a message, or hold an answer its client does not read; then "
        "the stream ends with DEADLINE_EXCEEDED and its tables are forgotten, 0 = no bound",
    ),
    Option("--max-table-idle", seconds, "seconds a table may go without a step; then the server closes it, 0 = never"),
    Option(
        "--max-unread-answer-bytes",
        integer(0),
        "answer bytes held for one connection (or client address) whose client does not read them; beyond, "
        "the connection is closed; at least --max-message-bytes, 0 = no bound",
        shown="2 x --max-message-bytes",
    ),
    Option(
        "--accept-compression",
        compression_choice,
        "compressed requests: none (refused with UNIMPLEMENTED at their headers) or gzip (gzip and deflate, "
        "inflated up to --max-message-bytes)",
    ),
    Option("--grace", seconds, "seconds in-flight calls get after SIGTERM"),
    Option("--shutdown-delay", seconds, "seconds NOT_SERVING is shown before new calls are refused"),
    Option(
        "--token-file",
        readable_file,
        "require 'authorization: Bearer <token>' with the token in this file (or the token itself in HANDEVAL_TOKEN)",
        shown="none",
    ),
    Option("--tls-cert", readable_file, "PEM server certificate chain", shown="none"),
    Option("--tls-key", readable_file, "PEM server private key", shown="none"),
    Option("--tls-client-ca", readable_file, "PEM CA of client certificates: mutual TLS", shown="none"),
    Option("--log-level", log_level, f"{', '.join(LOG_LEVELS)}; debug logs one line per call"),
)


_METAVARS = {
    seconds: "SECONDS",
    port_number: "PORT",
    readable_file: "FILE",
    host_name: "HOST",
    log_level: "LEVEL",
    compression_choice: "{none,gzip}",
}


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    """The ``serve`` flags. Values stay text here (parsed by :func:`config_from_args`)."""
    for o in OPTIONS:
        shown = o.shown if o.shown is not None else getattr(_D, o.field)
        if o.switch:
            p.add_argument(
                o.flag, dest=o.field, action="store_const", const="1", default=None, help=f"{o.help} ({o.env}=1)"
            )
            continue
        p.add_argument(
            o.flag,
            dest=o.field,
            default=None,
            metavar=_METAVARS.get(o.parse, "N"),
            help=f"{o.help} ({o.env}, default {shown})",
        )


def _value(args, o: Option):
    """The flag's value, else the environment variable's, else the default; a bad value is
    a ValueError naming where it came from."""
    raw, source = getattr(args, o.field, None), o.flag
    if raw is None:
        raw, source = os.environ.get(o.env), o.env
    if raw is None or raw == "":
        return getattr(_D, o.field) if o.field in _FIELDS else None
    try:
        return o.parse(raw)
    except ValueError as e:
        sep = " " if source.startswith("--") else "="
        raise ValueError(f"{source}{sep}{raw!r}: {e}") from None


_FIELDS = {f.name for f in dataclasses.fields(ServerConfig)}


def config_from_args(args) -> ServerConfig:
    """The ServerConfig of parsed ``serve`` arguments; raises ValueError (one line, naming
    the flag or variable) on a bad value."""
    v = {o.field: _value(args, o) for o in OPTIONS}
    token = os.environ.get(TOKEN_ENV) or None
    token_file = v.pop("token_file")
    if token_file:
        with open(token_file, encoding="utf-8") as f:
            token = f.read().strip()
        if not token:
            raise ValueError(f"--token-file {token_file} is empty")
    if bool(v["tls_cert"]) != bool(v["tls_key"]):
        raise ValueError("--tls-cert and --tls-key go together")
    if v["tls_client_ca"] and not v["tls_cert"]:
        raise ValueError("--tls-client-ca needs --tls-cert and --tls-key")
    if v["tls_cert"]:
        check_tls_files(v["tls_cert"], v["tls_key"], v["tls_client_ca"])
    if v["metrics_port"] == v["port"]:
        raise ValueError(f"--metrics-port {v['port']} is the gRPC port; choose another")
    unread = v["max_unread_answer_bytes"]
    if unread is not None and 0 < unread < v["max_message_bytes"]:
        raise ValueError(
            f"--max-unread-answer-bytes {unread} is less than --max-message-bytes {v['max_message_bytes']}: "
            "one answer would close its connection"
        )
    missing = exposure_gaps(v["host"], bool(v["tls_cert"]), bool(token or v["tls_client_ca"]))
    if missing and not v["insecure_remote"]:
        raise ValueError(
            f"--host {v['host']} is beyond loopback, {' and '.join(missing)}: add them, "
            "or say --insecure-remote (HANDEVAL_INSECURE_REMOTE=1) to serve so anyway"
        )
    return ServerConfig(token=token, **v)

"""Server settings: ``handeval serve`` flags, each with an environment variable
(``HANDEVAL_<NAME>``) as its default; no config file. Imports nothing heavy, so the CLI
stays fast.

Every setting is defined once, in :data:`OPTIONS` (flag, parser, help). Values are parsed
in :func:`config_from_args`, not when the argument parser is built, so a malformed
``HANDEVAL_*`` variable is a one-line error of ``handeval serve`` (naming the variable)
and never breaks ``handeval --help`` or another subcommand.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import logging
import math
import os
import socket
from dataclasses import dataclass
from typing import Callable, List, Optional

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
LOG_LEVELS = ("debug", "info", "warning", "error")


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
    #: RLIMIT_NOFILE allows (the limit is lowered to fit it anyway: app.connection_limit).
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


# ---- parsers: text -> value, ValueError with the reason (the caller adds where it came from)


def integer(lo: int, hi: Optional[int] = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text.strip(), 10)
        except ValueError:
            raise ValueError("not an integer") from None
        if v < lo or (hi is not None and v > hi):
            raise ValueError(f"must be {lo}..{hi}" if hi is not None else f"must be at least {lo}")
        return v

    return parse


def seconds(text: str) -> float:
    try:
        v = float(text.strip())
    except ValueError:
        raise ValueError("not a number of seconds") from None
    if not math.isfinite(v) or v < 0:
        raise ValueError("must be a number of seconds >= 0")
    return v


port_number = integer(1, 65535)


def log_level(text: str) -> str:
    v = text.strip().lower()
    if v not in LOG_LEVELS:
        raise ValueError(f"unknown log level (one of {', '.join(LOG_LEVELS)})")
    return v


def compression_choice(text: str) -> str:
    v = text.strip().lower()
    if v not in COMPRESSION_CHOICES:
        raise ValueError(f"unknown choice (one of {', '.join(COMPRESSION_CHOICES)})")
    return v


#: ``--accept-compression`` values → the request encodings gRPC accepts (the bits of
#: grpc.compression_enabled_algorithms_bitset: identity 1, deflate 2, gzip 4).
COMPRESSION_CHOICES = {"none": 0b001, "gzip": 0b111}


def switch(text: str) -> bool:
    v = text.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("", "0", "false", "no", "off"):
        return False
    raise ValueError("not a switch (1/0, true/false, yes/no, on/off)")


def readable_file(text: str) -> str:
    try:
        with open(text, "rb") as f:
            f.read(1)
    except OSError as e:
        raise ValueError(e.strerror or str(e)) from None
    return text


def host_name(text: str) -> str:
    v = text.strip()
    if not v:
        raise ValueError("empty")
    try:
        socket.getaddrinfo(v, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"cannot resolve it ({getattr(e, 'strerror', None) or e})") from None
    return v


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

#: The token itself (``--token-file`` names a file instead). The supervisor removes it
#: from the environment of its workers, which get the config through a pipe.
TOKEN_ENV = "HANDEVAL_TOKEN"

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


def exposure_gaps(host: str, tls: bool, authenticated: bool) -> List[str]:
    """What is missing for a server on ``host`` reachable beyond this machine (empty on
    loopback)."""
    if is_loopback(host):
        return []
    out = []
    if not tls:
        out.append("without TLS (--tls-cert/--tls-key: calls and the token would travel in plaintext)")
    if not authenticated:
        out.append(
            "without a token or client certificates (--token-file/--tls-client-ca: anyone who reaches the port could call)"
        )
    return out


class StartupError(Exception):
    """``handeval serve`` cannot start (port in use, metrics port in use …): one line for
    the user, exit code :data:`EXIT_STARTUP`."""


#: Exit code of ``handeval serve`` for a bad setting or a start-up failure (argparse's).
EXIT_STARTUP = 2


def check_port_free(host: str, port: int, what: str = "--port") -> None:
    """Raise StartupError when ``host:port`` cannot be listened on (in use, also by a
    socket sharing it with SO_REUSEPORT, or not an address of this machine). gRPC's own
    bind failure says less and logs a C-core error line besides."""
    errors: List[OSError] = []
    bound = 0
    for family, type_, proto, _, addr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        with socket.socket(family, type_, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC: TIME_WAIT is no conflict
            try:
                s.bind(addr)
                bound += 1
            except OSError as e:
                errors.append(e)
    in_use = [e for e in errors if e.errno == errno.EADDRINUSE]
    if bound and not in_use:
        return
    first = (in_use or errors)[0]
    reason = "already in use" if first.errno == errno.EADDRINUSE else (first.strerror or str(first))
    raise StartupError(f"cannot listen on {host}:{port} ({what}): {reason}")


def check_tls_files(cert: str, key: str, client_ca: Optional[str]) -> None:
    """ValueError unless ``cert`` is a PEM certificate chain, ``key`` its private key and
    ``client_ca`` (if given) PEM certificates: gRPC would only fail later, with C-core
    error lines and a "failed to bind" that names none of them."""
    import ssl

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as e:
        why = (
            "the private key does not belong to the certificate"
            if getattr(e, "reason", None) == "KEY_VALUES_MISMATCH"
            else "not a PEM certificate chain and its private key"
        )
        raise ValueError(f"--tls-cert {cert} / --tls-key {key}: {why}") from None
    if client_ca:
        try:
            ctx.load_verify_locations(cafile=client_ca)
        except (ssl.SSLError, OSError):
            raise ValueError(f"--tls-client-ca {client_ca}: not PEM certificates") from None


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` resolves to is a loopback address."""
    import ipaddress

    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)


#: Lines at WARNING or above the server writes per window; the rest of the window's are
#: counted, and the count is written as one line when a later line is written (or at the
#: janitor's next tick): a flood of bad requests or expired deadlines writes at most
#: ``LOG_BURST`` + 1 lines per ``LOG_WINDOW_S``.
LOG_BURST, LOG_WINDOW_S = 10, 10.0


#: Longest log line the server writes (longer ones are cut, marked with "…").
LOG_LINE_CHARS = 2048
#: Longest text of a library's record or of a gRPC core line kept in its JSON line.
LIBRARY_TEXT_CHARS = 512


def library_record(record: logging.LogRecord) -> logging.LogRecord:
    """``record`` (of a library's logger) as an escaped one-line JSON record: its text
    cut to :data:`LIBRARY_TEXT_CHARS`, its exception by type and text, no traceback."""
    try:
        text = record.getMessage()
    except Exception:  # a malformed record: its format string alone
        text = str(record.msg)
    out = {"event": "library", "logger": record.name, "message": _cut(text)}
    if record.exc_info and record.exc_info[1] is not None:
        out["exception"] = _cut(f"{type(record.exc_info[1]).__name__}: {record.exc_info[1]}")
    clean = logging.makeLogRecord(record.__dict__)
    clean.msg, clean.args, clean.exc_info, clean.exc_text, clean.stack_info = json.dumps(out), None, None, None, None
    return clean


def _cut(text: str, most: int = LIBRARY_TEXT_CHARS) -> str:
    return text if len(text) <= most else text[:most] + "…"


#: gRPC core's log lines start with their severity's letter (absl: "E1207 18:17:35...").
_NATIVE_LEVELS = {"E": logging.ERROR, "F": logging.CRITICAL}


#: The pipe that carries gRPC core's stderr holds this much unread (Linux's default is
#: 64 KiB): a core thread writing a line blocks only when it is full.
NATIVE_PIPE_BYTES = 1 << 20


def route_native_stderr() -> None:
    """Routes what the process's C code (gRPC core) writes to file descriptor 2 through
    the rate-limited handler: each line becomes an escaped, bounded JSON record of logger
    ``grpc.core`` at WARNING or above (so a peer that makes gRPC core log cannot flood
    the log). Python's own stderr and the handler write to a copy of the original
    stderr. Linux/Unix; called before gRPC starts its threads."""
    import sys
    import threading

    original = os.dup(2)
    r, w = os.pipe()
    try:  # room for gRPC core's lines while the reader waits for the GIL (Linux)
        import fcntl

        fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), NATIVE_PIPE_BYTES)
    except OSError:
        pass
    os.dup2(w, 2)
    os.close(w)
    stream = os.fdopen(original, "w", buffering=1, encoding="utf-8", errors="replace")
    sys.stderr = stream
    for h in logging.getLogger().handlers:
        if isinstance(h, RateLimitedHandler):
            h.setStream(stream)
    core = logging.getLogger("grpc.core")

    def pump() -> None:
        tail = False  # reading the rest of a line already cut
        with os.fdopen(r, "rb") as lines:
            while True:
                raw = lines.readline(LIBRARY_TEXT_CHARS)  # bounded, however long the line
                if not raw:
                    return
                cut, tail = tail, not raw.endswith(b"\n")
                text = raw.decode("utf-8", "replace").rstrip("\n")
                if text and not cut:
                    core.log(_NATIVE_LEVELS.get(text[:1], logging.WARNING), "%s", text + ("…" if tail else ""))

    threading.Thread(target=pump, name="grpc-core-log", daemon=True).start()


class RateLimitedHandler(logging.StreamHandler):
    """A stderr handler that writes at most :data:`LOG_BURST` records at WARNING or above
    per :data:`LOG_WINDOW_S` and then one line counting what it left out (by logger and
    level). handeval's INFO and DEBUG lines (start, stop, the per-call debug line) are not
    limited: the operator chose them. Every library's line is limited and written as an
    escaped JSON line (:func:`library_record`); every line is cut at
    :data:`LOG_LINE_CHARS`."""

    def __init__(self, stream=None, burst: int = LOG_BURST, window: float = LOG_WINDOW_S, clock=None):
        super().__init__(stream)
        import time

        self.burst, self.window = burst, window
        self.clock = clock or time.monotonic
        self.window_start = self.clock()
        self.written = 0
        self.suppressed: dict = {}

    def report(self) -> None:
        """Write the count of the records left out, once their window is over."""
        now = self.clock()
        if now - self.window_start < self.window:
            return
        if self.suppressed:
            total = sum(self.suppressed.values())
            by = ", ".join(f'"{k}": {v}' for k, v in sorted(self.suppressed.items()))
            super().emit(
                logging.LogRecord(
                    "handeval.server",
                    logging.WARNING,
                    __file__,
                    0,
                    '{"event": "log_lines_suppressed", "lines": %d, "seconds": %.0f, "by": {%s}}',
                    (total, now - self.window_start, by),
                    None,
                )
            )
            self.suppressed = {}
        self.window_start, self.written = now, 0

    def format(self, record: logging.LogRecord) -> str:
        # A library's record (gRPC's, asyncio's) may quote a peer's input and carry a
        # traceback: one escaped JSON line, bounded, its exception named, not printed.
        if not record.name.startswith("handeval"):
            record = library_record(record)
        line = super().format(record)
        return line if len(line) <= LOG_LINE_CHARS else line[:LOG_LINE_CHARS] + "…"

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING and record.name.startswith("handeval"):
            super().emit(record)
            return
        self.acquire()
        try:
            self.report()
            if self.written >= self.burst:
                key = f"{record.name} {record.levelname}"
                self.suppressed[key] = self.suppressed.get(key, 0) + 1
                return
            self.written += 1
        finally:
            self.release()
        super().emit(record)


def setup_logging(level: str) -> None:
    """``level`` applies to handeval's loggers; libraries (grpc, asyncio) log from INFO up.
    Lines at WARNING and above are rate-limited (RateLimitedHandler): a flood of bad
    requests cannot flood the log."""
    lvl = getattr(logging, level.upper(), logging.INFO)
    handler = RateLimitedHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s[%(process)d] %(message)s"))
    logging.basicConfig(level=max(lvl, logging.INFO), handlers=[handler])
    logging.getLogger("handeval").setLevel(lvl)


def log_report() -> None:
    """Let the rate-limited handlers write their counts of left-out lines (called every
    second by the server; a count is written once its window is over)."""
    for h in logging.getLogger().handlers:
        if isinstance(h, RateLimitedHandler):
            h.report()

"""The server's log: one JSON writer (:func:`log_event`, :func:`event_line`) for every
line handeval writes, and the rate-limited, bounded handler every line goes through,
gRPC core's stderr included (docs/hardening.md, "logs of bad input"). Imports nothing
heavy: the supervisor uses it without gRPC.
"""

from __future__ import annotations

import json
import logging
import os
import time

#: Lines at WARNING or above the server writes per window; the rest of the window's are
#: counted, and the count is written as one line when a later line is written (or at the
#: janitor's next tick): a flood of bad requests or expired deadlines writes at most
#: ``LOG_BURST`` + 1 lines per ``LOG_WINDOW_S``.
LOG_BURST, LOG_WINDOW_S = 10, 10.0

#: Longest log line the server writes (longer ones are cut, marked with "…").
LOG_LINE_CHARS = 2048
#: Longest text of a library's record or of a gRPC core line kept in its JSON line.
LIBRARY_TEXT_CHARS = 512

LOG_LEVELS = ("debug", "info", "warning", "error")


def event_line(event: str, **fields) -> str:
    """The JSON text of one log line: ``{"event": event, **fields}``. Every string is
    escaped (a peer's newline cannot start a forged line); non-ASCII stays readable."""
    return json.dumps({"event": event, **fields}, ensure_ascii=False)


def log_event(logger: logging.Logger, level: int, event: str, **fields) -> None:
    """Writes :func:`event_line` to ``logger`` at ``level`` (built only when enabled)."""
    if logger.isEnabledFor(level):
        logger.log(level, "%s", event_line(event, **fields))


def cut(text: str, most: int = LIBRARY_TEXT_CHARS) -> str:
    """``text``, cut at ``most`` characters (marked with "…")."""
    return text if len(text) <= most else text[:most] + "…"


def library_record(record: logging.LogRecord) -> logging.LogRecord:
    """``record`` (of a library's logger) as an escaped one-line JSON record: its text
    cut to :data:`LIBRARY_TEXT_CHARS`, its exception by type and text, no traceback."""
    try:
        text = record.getMessage()
    except Exception:  # a malformed record: its format string alone
        text = str(record.msg)
    fields = {"logger": record.name, "message": cut(text)}
    if record.exc_info and record.exc_info[1] is not None:
        fields["exception"] = cut(f"{type(record.exc_info[1]).__name__}: {record.exc_info[1]}")
    clean = logging.makeLogRecord(record.__dict__)
    clean.msg, clean.args = event_line("library", **fields), None
    clean.exc_info, clean.exc_text, clean.stack_info = None, None, None
    return clean


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
                cut_before, tail = tail, not raw.endswith(b"\n")
                text = raw.decode("utf-8", "replace").rstrip("\n")
                if text and not cut_before:
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
            line = event_line(
                "log_lines_suppressed",
                lines=sum(self.suppressed.values()),
                seconds=round(now - self.window_start),
                by=dict(sorted(self.suppressed.items())),
            )
            super().emit(logging.LogRecord("handeval.server", logging.WARNING, __file__, 0, line, None, None))
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

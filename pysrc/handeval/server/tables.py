"""The ``Tables`` stream (tables.proto): many 越式13张 and 打儲 tables on one bidirectional
stream. Each message's bytes go to the stream's ``_core.WireTables``, which keeps the
tables' records and replayed positions in Rust and answers each step as the Evaluate
``game`` item of the record so far would; this module only routes bytes and holds the
stream's bounds:

* a message must arrive within ``--max-stream-idle`` of the last answer, and the client
  must take each answer within it too (an answer it never reads holds its tables): else
  the stream ends with DEADLINE_EXCEEDED and its tables are forgotten;
* one message at a time, answers in order; a cheap step (no sampled suggestion, a short
  record: ``WireTables.inline``) runs on the event loop, any other on the pool in its
  turns, priced and bounded like a unary call of the same work;
* tables idle for ``--max-table-idle`` are closed (a ``closed`` answer, reason IDLE);
  the stream's and the process's table counts are bounded in the binding.

The stream's tables are a cache of the client's records: when the stream ends, for any
reason, the client starts each table again from its record (docs/grpc.md "Table streams";
``handeval.server.table_client`` does it)."""

from __future__ import annotations

import asyncio
import logging
import time

import grpc

from handeval import _core
from handeval.server import metrics
from handeval.server.config import ServerConfig
from handeval.server.logs import log_event

#: Label of the steps in the per-call metrics (a stream mixes games).
GAME_LABEL = "tables"

#: A stream looks for idle tables at most this often, as a share of --max-table-idle.
SWEEP_SHARE = 8


#: What a stream waits for when its client does not take an answer.
UNREAD = "the client to read an answer"


class _Watch:
    """The stream's idle bound: one timer per stream (not one per message, which costs
    more than a small step's work). While the stream waits for a message or for its
    client to take an answer (``waiting``), ``idle`` seconds after the last change the
    stream's task is cancelled, and ``expired`` says why."""

    def __init__(self, idle: float):
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.idle = idle
        self.waiting = ""  # "" while a step works: not idle
        self.since = self.loop.time()
        self.expired = ""
        self._handle = self.loop.call_later(idle, self._check)

    def wait_for(self, what: str) -> None:
        self.waiting = what
        self.since = self.loop.time()

    def _check(self) -> None:
        due = self.since + self.idle
        if self.waiting and self.loop.time() >= due:
            self.expired = self.waiting
            assert self.task is not None
            self.task.cancel()
            return
        self._handle = self.loop.call_later(max(due - self.loop.time(), self.idle / 8), self._check)

    def stop(self) -> None:
        self._handle.cancel()


class TablesStreams:
    """The servicer of ``Tables``: ``await streams.serve(context)`` runs one stream."""

    def __init__(self, config: ServerConfig, executor, turns, gate, observe, abort_bad_request, log):
        self.config = config
        self.executor = executor
        self.turns = turns
        self.gate = gate  # service.ShutdownGate: a shutdown ends the stream between steps
        self.observe = observe  # (rpc, game, code, seconds, items, item_errors)
        self.abort_bad_request = abort_bad_request  # (context, field, message, reason)
        self.log = log
        self.open = 0

    def _tables(self) -> _core.WireTables:
        c = self.config
        return _core.WireTables(c.max_stream_tables, c.max_tables, c.max_batch, c.max_samples, c.max_request_work)

    async def serve(self, context, first_message, close_connection) -> None:
        """Runs the stream of ``context``; ``first_message()`` is called when its first
        message has arrived (admission: the connection has sent a complete request);
        ``close_connection()`` closes the stream's connection."""
        c = self.config
        sweep_every = c.max_table_idle / SWEEP_SHARE if c.max_table_idle else None
        if self.gate.closed:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "the server is shutting down: open the stream elsewhere")
        tables = self._tables()
        call = _core.WireCall(context.time_remaining())
        last_sweep = time.monotonic()
        watch = _Watch(c.max_stream_idle) if c.max_stream_idle else None
        self.open += 1
        metrics.INFLIGHT.inc()
        try:
            while True:
                if watch is not None:
                    watch.wait_for("a message")
                data = await context.read()
                if data is grpc.aio.EOF:
                    return
                if watch is not None:
                    watch.waiting = ""
                if first_message is not None:
                    first_message()
                    first_message = None
                start = time.perf_counter()
                code = "OK"
                out = b""
                try:
                    out = await self._step(tables, data, call)
                except _core.WireError as e:
                    code = e.code
                    await self._fail(context, e)
                finally:
                    self.observe("Tables", GAME_LABEL, code, time.perf_counter() - start, 1, 0)
                if watch is not None:
                    watch.wait_for(UNREAD)
                await context.write(out)
                if sweep_every is not None and time.monotonic() - last_sweep >= sweep_every:
                    last_sweep = time.monotonic()
                    for closed in tables.expire(c.max_table_idle):
                        await context.write(closed)
                if self.gate.closed:
                    await context.abort(
                        grpc.StatusCode.UNAVAILABLE,
                        "the server is shutting down: start the tables again from their records on a new stream",
                    )
        except asyncio.CancelledError:
            call.cancel()  # a step on the pool stops at its next check
            if watch is None or not watch.expired:
                raise  # the client's cancel, or the server's stop
            if watch.expired == UNREAD:
                # An answer the client never takes: no status can follow it (the send is
                # still pending in gRPC's core, and grpc.aio cannot cancel it), so the
                # connection is closed, as for unread unary answers (admission).
                closed = close_connection()
                log_event(
                    self.log,
                    logging.WARNING,
                    "unread_answers",
                    rpc="Tables",
                    limit_s=c.max_stream_idle,
                    action="connection closed" if closed else "stream left to its connection",
                )
                raise
            # The stream's own idle bound, not a cancel: answered as such.
            uncancel = getattr(asyncio.current_task(), "uncancel", None)
            if uncancel is not None:
                uncancel()
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"waited for {watch.expired} for --max-stream-idle ({c.max_stream_idle:g} s): the stream's "
                "tables are forgotten; start them again from their records on a new stream",
            )
        finally:
            if watch is not None:
                watch.stop()
            tables.clear()
            self.open -= 1
            metrics.INFLIGHT.dec()

    async def _step(self, tables, data: bytes, call) -> bytes:
        if tables.inline(data):
            return tables.step(data, call, False)
        work = self.executor.submit(tables.step, data, call, True, self.turns)
        try:
            return await asyncio.wrap_future(work)
        except asyncio.CancelledError:
            call.cancel()
            raise

    async def _fail(self, context, e) -> None:
        """A message that is no TablesRequest, or a stopped stream, ends the stream (a bad
        step of a table is that table's ItemError answer, not this)."""
        if e.code == "INVALID_ARGUMENT":
            log_event(self.log, logging.WARNING, "error", rpc="Tables", game=GAME_LABEL, code=e.code, message=str(e))
            await self.abort_bad_request(context, e.field, e.description, e.reason)
        await context.abort(getattr(grpc.StatusCode, e.code), str(e))

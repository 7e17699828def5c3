"""A game server's end of a ``Tables`` stream, in Python: :class:`TableStream` starts,
steps, settles and closes tables by name on one stream and keeps each table's record, so
that when the stream ends (a worker died, a restart, a GOAWAY at --max-connection-age, an
idle bound) or the server no longer holds a table, it opens a new stream and starts the
table again from its record. A step is never lost (it is sent again on the new stream)
nor applied twice (each action carries ``at``, the record's length before it, and the
record grows only by the actions the server answered with a state).

One step is in flight at a time (a blocking call); a game server with many tables keeps
several TableStream objects (one per thread, or per 100s of tables)."""

from __future__ import annotations

import queue
import threading
import time
from typing import Dict, Iterator, Optional, Tuple

import grpc

from handeval.v2 import handeval_pb2_grpc, tables_pb2, tienlen_pb2

#: Status codes after which the stream is opened again and the tables resumed from their
#: records: the server went away or ended the stream (not a bad request of the client's).
RESUMABLE = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
    }
)

#: The wait before opening the stream again: doubled each time, at most MAX_BACKOFF_S.
FIRST_BACKOFF_S = 0.1
MAX_BACKOFF_S = 1.0

_END = object()


def record_length(record) -> int:
    """The actions a record holds, as ``TableAction.at`` counts them."""
    if isinstance(record, tienlen_pb2.TienlenGameRecord):
        return len(record.actions)
    return len(record.deal_actions) + len(record.calls) + len(record.plays)


def append(record, action: tables_pb2.TableAction) -> None:
    """``action`` appended to the list of ``record`` it belongs to (tables.proto)."""
    kind = action.WhichOneof("action")
    if isinstance(record, tienlen_pb2.TienlenGameRecord):
        record.actions.append(action.play)
    elif kind == "deal":
        record.deal_actions.append(action.deal)
    elif kind == "call":
        record.calls.append(action.call)
    else:
        record.plays.append(action.play)


class _Stream:
    """One open Tables call: requests go through a queue, answers come in order."""

    def __init__(self, stub, metadata):
        self._requests: queue.Queue[object] = queue.Queue()
        self._answers: Iterator[tables_pb2.TablesResponse] = stub.Tables(
            iter(self._requests.get, _END), metadata=metadata
        )

    def ask(self, request: tables_pb2.TablesRequest) -> tables_pb2.TablesResponse:
        self._requests.put(request)
        return next(self._answers)

    def end(self) -> None:
        self._requests.put(_END)
        cancel = getattr(self._answers, "cancel", None)
        if cancel is not None:
            cancel()


class TableStream:
    """Tables on one stream, resumed from their records on a new stream when needed.

    ``start`` takes the game's table (``tienlen=TienlenTable(rules, record)`` or
    ``dachu=DachuTable(…)``); ``act`` one ``PlayAction``, ``DachuDealAction`` or
    ``DachuCall``; each returns the server's ``TablesResponse`` (a state, a settlement,
    an ``error`` for a step the record does not allow — the table is then unchanged)."""

    def __init__(self, channel: grpc.Channel, metadata=None, resume_within: float = 30.0):
        """``resume_within``: seconds a step keeps opening the stream again (a worker
        restarting, a rolling update) before its error is raised."""
        self._stub = handeval_pb2_grpc.HandevalStub(channel)
        self._metadata = metadata
        self._resume_within = resume_within
        self._stream: Optional[_Stream] = None
        self._lock = threading.Lock()
        #: table name → (TableStart, the record so far)
        self._tables: Dict[str, Tuple[tables_pb2.TableStart, object]] = {}
        #: tables started on the current stream
        self._open: set = set()
        #: streams opened again after one ended
        self.resumes = 0

    # ---- the tables

    def start(self, table: str, tienlen=None, dachu=None, viewer=None, suggest=None) -> tables_pb2.TablesResponse:
        start = tables_pb2.TableStart(tienlen=tienlen) if tienlen is not None else tables_pb2.TableStart(dachu=dachu)
        record = type(self._record_of(start))()
        record.CopyFrom(self._record_of(start))
        answer = self._ask(table, tables_pb2.TablesRequest(table=table, start=start), viewer, suggest, fresh=True)
        if answer.WhichOneof("answer") != "error":
            self._tables[table] = (start, record)
            self._open.add(table)
        return answer

    def act(self, table: str, action, viewer=None, suggest=None) -> tables_pb2.TablesResponse:
        _, record = self._held(table)
        step = tables_pb2.TableAction(at=record_length(record))
        field = {"PlayAction": "play", "DachuDealAction": "deal", "DachuCall": "call"}[type(action).__name__]
        getattr(step, field).CopyFrom(action)
        answer = self._ask(table, tables_pb2.TablesRequest(table=table, action=step), viewer, suggest)
        if answer.WhichOneof("answer") in ("tienlen", "dachu"):
            append(record, step)
        return answer

    def look(self, table: str, viewer=None, suggest=None) -> tables_pb2.TablesResponse:
        self._held(table)
        return self._ask(table, tables_pb2.TablesRequest(table=table, look=tables_pb2.TableLook()), viewer, suggest)

    def settle(self, table: str, base=None, carried=(), escaped=()) -> tables_pb2.TablesResponse:
        self._held(table)
        settle = tables_pb2.TableSettle(carried=carried, escaped=escaped)
        if base is not None:
            settle.base = base
        return self._ask(table, tables_pb2.TablesRequest(table=table, settle=settle), None, None)

    def close(self, table: str) -> None:
        self._tables.pop(table, None)
        if table in self._open:
            self._open.discard(table)
            self._ask(
                table, tables_pb2.TablesRequest(table=table, close=tables_pb2.TableClose()), None, None, fresh=True
            )

    def record(self, table: str):
        """The record of ``table`` as the server has accepted it."""
        return self._held(table)[1]

    def end(self) -> None:
        """Ends the stream (the server forgets its tables; the records stay here)."""
        if self._stream is not None:
            self._stream.end()
            self._stream = None
        self._open.clear()

    # ---- the stream

    @staticmethod
    def _record_of(start: tables_pb2.TableStart):
        return start.tienlen.record if start.WhichOneof("game") == "tienlen" else start.dachu.record

    def _held(self, table: str):
        try:
            return self._tables[table]
        except KeyError:
            raise KeyError(f"no table {table!r} was started on this TableStream") from None

    def _ask(self, table, request, viewer, suggest, fresh=False) -> tables_pb2.TablesResponse:
        if viewer is not None:
            request.viewer = viewer
        if suggest is not None:
            request.suggest.CopyFrom(suggest)
        with self._lock:
            give_up = time.monotonic() + self._resume_within
            attempt = 0
            while True:
                attempt += 1
                last = time.monotonic() >= give_up
                try:
                    if self._stream is None:
                        self._stream = _Stream(self._stub, self._metadata)
                    if not fresh and table not in self._open:
                        self._restart(table)
                    answer = self._stream.ask(request)
                except grpc.RpcError as e:
                    if e.code() not in RESUMABLE or last:
                        raise
                    self.end()
                    self.resumes += 1
                    # Backoff as the documented retry policy's (a worker restarting).
                    time.sleep(min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2 ** (attempt - 1)))
                    continue
                if answer.WhichOneof("answer") == "closed" and not request.HasField("close"):
                    # The server no longer holds it (idle, or a new stream): again from
                    # its record, then the same step.
                    self._open.discard(table)
                    if fresh or last or attempt > 2:
                        return answer
                    continue
                return answer

    def _restart(self, table: str) -> None:
        start, record = self._tables[table]
        again = tables_pb2.TableStart()
        again.CopyFrom(start)
        self._record_of(again).CopyFrom(record)
        assert self._stream is not None
        answer = self._stream.ask(tables_pb2.TablesRequest(table=table, start=again))
        if answer.WhichOneof("answer") == "error":
            raise RuntimeError(f"table {table!r}: its record was refused on a new stream: {answer.error.message}")
        self._open.add(table)


__all__ = ["TableStream", "RESUMABLE", "record_length", "append"]

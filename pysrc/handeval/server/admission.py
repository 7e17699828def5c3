"""Which calls and connections the server admits, so that no client can hold what the
others need: every handler (Handeval, health, reflection) is wrapped here.

* A call's handler starts when its HEADERS arrive (the wrapped handlers are registered
  as streaming-request handlers: gRPC would start a unary handler only once the whole
  request arrived, while the call already holds one of ``--max-concurrent-rpcs``), and
  reads the request with a bound, ``--max-request-wait``: a client that sends its
  headers and then its request slowly, or never, is answered DEADLINE_EXCEEDED and its
  slot is free again.
* One peer address holds at most ``--max-calls-per-peer`` calls at once, the process at
  most ``--max-concurrent-rpcs``; more are refused with RESOURCE_EXHAUSTED before their
  request is read. A call's slot is free as soon as its answer is handed to gRPC,
  whether or not the client reads it (gRPC's own ``maximum_concurrent_rpcs`` would count
  the call until the answer is on the wire).
* Answers handed to gRPC that the client has not read (a peer that keeps its HTTP/2
  window shut) are counted per connection and per address: beyond
  ``--max-unread-answer-bytes`` the connection is closed, which frees them.
* Health ``Watch`` streams (open as long as the client likes) take no call slot: they
  are bounded apart, ``--max-watch-streams`` in all and an eighth of it per address.
* ``Tables`` streams take a call slot and are bounded apart too, ``--max-table-streams``
  in all and a quarter of it per address (when ``--max-calls-per-peer`` is set); their
  messages' arrival is bounded by the stream itself (``--max-stream-idle``, tables.py).
* Request bytes that are no valid message of a health or reflection method are
  INVALID_ARGUMENT naming the message type (gRPC's own deserialization answers UNKNOWN
  and logs a traceback).
* Connections that never send a complete request are the socket janitor's
  (``janitor.ConnectionJanitor``); a failed handler's traceback is cleared of its request
  bytes (``tracebacks.forgetful``).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Callable, Dict, Optional, Tuple

import grpc

from handeval.server.logs import log_event
from handeval.server.peers import Address, peer_address
from handeval.server.tracebacks import forgetful

log = logging.getLogger("handeval.server")

_timeout = getattr(asyncio, "timeout", None)


class _Connection:
    __slots__ = ("address", "active", "served", "unread", "closing")

    def __init__(self, address: Optional[Address] = None):
        self.address = address
        self.active = 0  # calls in progress on it
        self.served = False  # one complete request has arrived on it
        self.unread = 0  # answer bytes handed to gRPC whose call is not done
        self.closing = False  # the server is closing it (unread answers)


#: The methods that stream for as long as the client likes, bounded apart from calls.
WATCH_METHODS = frozenset({"Watch"})
#: Of ``--max-watch-streams``, the share one client address may hold.
WATCH_PER_PEER_SHARE = 8
#: Of ``--max-table-streams``, the share one client address may hold.
TABLE_STREAMS_PER_PEER_SHARE = 4


class Admission:
    """The per-peer call counts and the per-connection state the wrapped handlers keep
    (all on the event loop: no lock)."""

    def __init__(
        self,
        max_request_wait: float,
        max_calls_per_peer: int,
        track_connections: bool,
        max_calls: int = 0,
        max_watch_streams: int = 0,
        max_unread_answer_bytes: int = 0,
        close_peer: Optional[Callable[[Address], object]] = None,
        max_table_streams: int = 0,
    ):
        self.max_request_wait = max_request_wait or None  # 0: no bound
        self.max_calls_per_peer = max_calls_per_peer
        self.max_calls = max_calls
        self.max_watch = max_watch_streams
        self.max_watch_per_peer = max(1, max_watch_streams // WATCH_PER_PEER_SHARE) if max_watch_streams else 0
        self.max_unread = max_unread_answer_bytes
        self.max_table_streams = max_table_streams
        self.max_table_streams_per_peer = (
            max(1, max_table_streams // TABLE_STREAMS_PER_PEER_SHARE) if max_table_streams and max_calls_per_peer else 0
        )
        self.table_streams = 0
        self.table_streams_by_ip: Dict[str, int] = {}
        #: shuts a connection down (called off the loop); None: unread answers not bounded
        self.close_peer = close_peer
        self.track_connections = track_connections
        self.calls = 0
        self.calls_by_ip: Dict[str, int] = {}
        self.watches = 0
        self.watches_by_ip: Dict[str, int] = {}
        self.unread_by_ip: Dict[str, int] = {}
        self.connections: Dict[Address, _Connection] = {}
        self.closed_unread = 0

    # ---- the call's life

    async def _enter(self, context) -> Tuple[Optional[str], Optional[_Connection]]:
        if self.max_calls and self.calls >= self.max_calls:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server has {self.calls} calls in progress, its limit (--max-concurrent-rpcs {self.max_calls})",
            )
        address = peer_address(context.peer())
        if address is None:
            self.calls += 1
            return None, None
        ip = address[0]
        n = self.calls_by_ip.get(ip, 0)
        if self.max_calls_per_peer and n >= self.max_calls_per_peer:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this client address has {n} calls in progress, the server's limit "
                f"(--max-calls-per-peer {self.max_calls_per_peer}): wait for answers first",
            )
        conn = self.connections.get(address)
        if conn is not None and conn.closing:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "this connection has more unread answers than the server holds (--max-unread-answer-bytes)",
            )
        self.calls += 1
        self.calls_by_ip[ip] = n + 1
        if self.track_connections or self.close_peer is not None:
            if conn is None:
                conn = self.connections[address] = _Connection(address)
            conn.active += 1
        return ip, conn

    def _leave(self, ip: Optional[str], conn: Optional[_Connection]) -> None:
        self.calls -= 1
        if ip is None:
            return
        n = self.calls_by_ip[ip] - 1
        if n:
            self.calls_by_ip[ip] = n
        else:
            del self.calls_by_ip[ip]
        if conn is not None:
            conn.active -= 1
            self._forget(conn)

    def _forget(self, conn: _Connection) -> None:
        """Drops an idle connection's entry when no janitor sweeps the entries of closed
        connections (it then only counts calls and unread answers)."""
        if not self.track_connections and not conn.active and not conn.unread and conn.address is not None:
            if self.connections.get(conn.address) is conn:
                del self.connections[conn.address]

    async def _enter_watch(self, context) -> Optional[str]:
        """A Watch stream's admission: bounded apart from calls (it lasts as long as its
        client likes)."""
        address = peer_address(context.peer())
        ip = address[0] if address is not None else ""
        n = self.watches_by_ip.get(ip, 0)
        if self.watches >= self.max_watch or n >= self.max_watch_per_peer:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many health Watch streams open (--max-watch-streams {self.max_watch}, "
                f"{self.max_watch_per_peer} per client address): use Check",
            )
        self.watches += 1
        self.watches_by_ip[ip] = n + 1
        return ip

    def _leave_watch(self, ip: str) -> None:
        self.watches -= 1
        n = self.watches_by_ip[ip] - 1
        if n:
            self.watches_by_ip[ip] = n
        else:
            del self.watches_by_ip[ip]

    async def _enter_table_stream(self, context, ip: Optional[str]) -> str:
        """A Tables stream's own bound (beside its call slot)."""
        ip = ip or ""
        n = self.table_streams_by_ip.get(ip, 0)
        per_peer = self.max_table_streams_per_peer
        if self.table_streams >= self.max_table_streams or (per_peer and n >= per_peer):
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many table streams open (--max-table-streams {self.max_table_streams}"
                + (f", {per_peer} per client address" if per_peer else "")
                + "): carry more tables on each stream",
            )
        self.table_streams += 1
        self.table_streams_by_ip[ip] = n + 1
        return ip

    def _leave_table_stream(self, ip: str) -> None:
        self.table_streams -= 1
        n = self.table_streams_by_ip[ip] - 1
        if n:
            self.table_streams_by_ip[ip] = n
        else:
            del self.table_streams_by_ip[ip]

    def _answered(self, ip: Optional[str], conn: Optional[_Connection], context, answer) -> None:
        """Counts ``answer`` as unread on its connection until its call is done (gRPC
        holds it until the client's window lets it out); beyond --max-unread-answer-bytes
        on the connection or its address, the connection is closed."""
        if conn is None or ip is None or self.close_peer is None or not self.max_unread:
            return
        size = len(answer) if isinstance(answer, (bytes, bytearray)) else answer.ByteSize()
        conn.unread += size
        self.unread_by_ip[ip] = self.unread_by_ip.get(ip, 0) + size

        def done(_context) -> None:
            conn.unread -= size
            left = self.unread_by_ip.get(ip, 0) - size
            if left > 0:
                self.unread_by_ip[ip] = left
            else:
                self.unread_by_ip.pop(ip, None)
            self._forget(conn)

        context.add_done_callback(done)
        if conn.unread > self.max_unread or self.unread_by_ip[ip] > self.max_unread:
            self._close_unread(ip)

    def _close_unread(self, ip: str) -> None:
        """Closes the connections of ``ip`` that hold unread answers."""
        close = self.close_peer
        if close is None:
            return
        for address, conn in self.connections.items():
            if address[0] == ip and conn.unread and not conn.closing:
                conn.closing = True
                self.closed_unread += 1
                log_event(
                    log,
                    logging.WARNING,
                    "unread_answers",
                    peer=f"{address[0]}:{address[1]}",
                    unread_bytes=conn.unread,
                    limit=self.max_unread,
                    action="connection closed",
                )
                asyncio.get_running_loop().run_in_executor(None, close, address)

    async def read_one(self, context, what: str):
        """The next message's bytes (grpc.aio.EOF at the end of the requests), within
        ``--max-request-wait``."""
        try:
            if _timeout is None:  # Python 3.10
                return await asyncio.wait_for(context.read(), self.max_request_wait)
            async with _timeout(self.max_request_wait):  # no task per read, unlike wait_for
                return await context.read()
        except asyncio.TimeoutError:
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED,
                f"the {what} did not arrive within the server's --max-request-wait ({self.max_request_wait:g} s)",
            )

    async def read_request(self, context, what: str) -> bytes:
        data = await self.read_one(context, what)
        if data is grpc.aio.EOF:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the call sent no {what}")
        return data

    # ---- handler wrappers

    def unary(self, behavior: Callable, what: str, deserializer: Optional[Callable] = None) -> Callable:
        """A stream-request handler that reads the one request (deserialized with
        ``deserializer``, bad bytes INVALID_ARGUMENT) and runs ``behavior(request,
        context)``: a coroutine (unary answer, or a stream written with context.write) or
        an async generator (a streamed answer)."""
        decode = self._decoder(deserializer, what)

        async def prologue(context):
            ip, conn = await self._enter(context)
            try:
                request = decode(await self.read_request(context, what))
                if conn is not None:
                    conn.served = True
                if request is _BAD:
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the request is no valid {what}")
            except BaseException:
                self._leave(ip, conn)
                raise
            return ip, conn, request

        if inspect.isasyncgenfunction(behavior):

            async def streamed(request_iterator, context):
                ip, conn, request = await prologue(context)
                try:
                    async for out in behavior(request, context):
                        yield out
                finally:
                    self._leave(ip, conn)

            return forgetful(streamed)

        async def handler(request_iterator, context):
            ip, conn, request = await prologue(context)
            try:
                answer = await behavior(request, context)
            finally:
                self._leave(ip, conn)
            self._answered(ip, conn, context, answer)
            return answer

        return forgetful(handler)

    def tables(self, serve: Callable) -> Callable:
        """The handler of a Tables stream: a call slot and a table-stream slot, then
        ``serve(context, first_message, close_connection)`` reads and writes the stream
        itself."""

        async def handler(request_iterator, context):
            ip, conn = await self._enter(context)
            try:
                tip = await self._enter_table_stream(context, ip)
                try:

                    def first_message() -> None:
                        if conn is not None:
                            conn.served = True

                    def close_connection() -> bool:
                        """Closes the stream's connection (an answer its client never
                        takes holds a send no status can follow); False when it cannot."""
                        address = peer_address(context.peer())
                        if address is None or self.close_peer is None:
                            return False
                        asyncio.get_running_loop().run_in_executor(None, self.close_peer, address)
                        return True

                    await serve(context, first_message, close_connection)
                finally:
                    self._leave_table_stream(tip)
            finally:
                self._leave(ip, conn)

        return forgetful(handler)

    def watch(self, behavior: Callable, what: str, deserializer: Optional[Callable]) -> Callable:
        """A Watch-like handler (one request, an answer stream that lasts): admitted by
        :meth:`_enter_watch`, not a call slot; its request read as :meth:`unary` does."""
        decode = self._decoder(deserializer, what)

        async def prologue(context):
            ip = await self._enter_watch(context)
            try:
                request = decode(await self.read_request(context, what))
                if request is _BAD:
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the request is no valid {what}")
            except BaseException:
                self._leave_watch(ip)
                raise
            return ip, request

        if inspect.isasyncgenfunction(behavior):

            async def streamed(request_iterator, context):
                ip, request = await prologue(context)
                try:
                    async for out in behavior(request, context):
                        yield out
                finally:
                    self._leave_watch(ip)

            return forgetful(streamed)

        async def written(request_iterator, context):  # the stream written with context.write
            ip, request = await prologue(context)
            try:
                return await behavior(request, context)
            finally:
                self._leave_watch(ip)

        return forgetful(written)

    def streaming(self, behavior: Callable, what: str, deserializer: Optional[Callable]) -> Callable:
        """A stream-request handler running ``behavior(requests, context)`` on requests
        read one by one, each within ``--max-request-wait`` and deserialized (bad bytes
        INVALID_ARGUMENT)."""
        decode = self._decoder(deserializer, what)
        admission = self

        async def requests(context, conn):
            while True:
                data = await admission.read_one(context, what)
                if data is grpc.aio.EOF:
                    return
                request = decode(data)
                if request is _BAD:
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"a request is no valid {what}")
                if conn is not None:
                    conn.served = True
                yield request

        if inspect.isasyncgenfunction(behavior):

            async def streamed(request_iterator, context):
                ip, conn = await self._enter(context)
                try:
                    async for out in behavior(requests(context, conn), context):
                        yield out
                finally:
                    self._leave(ip, conn)

            return forgetful(streamed)

        async def handler(request_iterator, context):
            ip, conn = await self._enter(context)
            try:
                return await behavior(requests(context, conn), context)
            finally:
                self._leave(ip, conn)

        return forgetful(handler)

    @staticmethod
    def _decoder(deserializer: Optional[Callable], what: str) -> Callable[[bytes], Any]:
        if deserializer is None:
            return lambda data: data

        def decode(data: bytes):
            try:
                return deserializer(data)
            except Exception:  # protobuf's DecodeError and any other parse failure
                return _BAD

        return decode

    def wrap(self, handler: grpc.RpcMethodHandler, what: str, method: str = "") -> grpc.RpcMethodHandler:
        """``handler`` (any of the four kinds) as the equivalent stream-request handler of
        this class; its answers keep their serializer."""
        if method in WATCH_METHODS and handler.response_streaming and not handler.request_streaming:
            wrapped = self.watch(handler.unary_stream, what, handler.request_deserializer)
        elif handler.request_streaming:
            behavior = handler.stream_stream if handler.response_streaming else handler.stream_unary
            wrapped = self.streaming(behavior, what, handler.request_deserializer)
        else:
            behavior = handler.unary_stream if handler.response_streaming else handler.unary_unary
            wrapped = self.unary(behavior, what, handler.request_deserializer)
        make = (
            grpc.stream_stream_rpc_method_handler
            if handler.response_streaming
            else grpc.stream_unary_rpc_method_handler
        )
        return make(wrapped, request_deserializer=None, response_serializer=handler.response_serializer)


class _Bad:
    """The decoding of bytes that are no valid message."""


_BAD = _Bad()


class HandlerCapture:
    """Stands in for the server in a generated ``add_*Servicer_to_server``: keeps the
    method handlers it registers, so they can be wrapped before the real registration."""

    def __init__(self):
        self.services: Dict[str, Dict[str, grpc.RpcMethodHandler]] = {}

    def add_registered_method_handlers(self, service: str, handlers: Dict[str, grpc.RpcMethodHandler]) -> None:
        self.services[service] = dict(handlers)

    def add_generic_rpc_handlers(self, handlers) -> None:
        pass  # the same handlers come through add_registered_method_handlers


def add_wrapped(
    server, admission: Admission, services: Dict[str, Dict[str, grpc.RpcMethodHandler]], messages: Dict[str, str]
) -> None:
    """Register ``services`` (name → method → handler) on ``server``, each handler wrapped
    by ``admission``; ``messages[method]`` names its request message type."""
    for name, handlers in services.items():
        wrapped = {m: admission.wrap(h, messages.get(m, "request message"), m) for m, h in handlers.items()}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, wrapped),))

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
* Request bytes that are no valid message of a health or reflection method are
  INVALID_ARGUMENT naming the message type (gRPC's own deserialization answers UNKNOWN
  and logs a traceback).
* :class:`ConnectionJanitor` closes connections that have not sent one complete request
  within ``--max-first-call-wait`` (floods of sockets that complete the HTTP/2 handshake
  and open no call, or only calls they never finish), so that gRPC's idle time
  (``--max-connection-idle``) can be minutes for the connections of real clients.
"""

from __future__ import annotations

import asyncio
import inspect
import ipaddress
import json
import logging
import os
import socket
import time
import traceback
from typing import Any, Callable, Dict, Iterable, Optional, Set, Tuple

import grpc

log = logging.getLogger("handeval.server")

_timeout = getattr(asyncio, "timeout", None)

#: How often the janitor looks at the process's connections.
JANITOR_PERIOD_S = 1.0

Address = Tuple[str, int]  # (ip, port) of a peer, as ipaddress normalises the ip


def peer_address(peer: str) -> Optional[Address]:
    """``context.peer()`` ("ipv4:127.0.0.1:5000", "ipv6:[::1]:5000") as (ip, port);
    None for other transports (unix sockets)."""
    if peer.startswith("ipv4:"):
        host, _, port = peer[5:].rpartition(":")
    elif peer.startswith("ipv6:"):
        host, _, port = peer[5:].rpartition(":")
        host = host.strip("[]").split("%")[0]
    else:
        return None
    try:
        return _normal_ip(host), int(port)
    except ValueError:
        return None


def _normal_ip(text: str) -> str:
    ip = ipaddress.ip_address(text)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


def _drop_locals(exc: BaseException) -> None:
    """Clears the local variables of the finished frames in ``exc``'s tracebacks (its
    context's and cause's too). gRPC keeps an aborted call's exception on the call's state,
    which the handler frames in its traceback reference through their ``context``: a
    cycle that only Python's rare full garbage collection frees, and with it every frame's
    request bytes (up to ``--max-message-bytes`` a call). Without the locals the cycle
    holds nothing large."""
    seen: Set[int] = set()
    link: Optional[BaseException] = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        traceback.clear_frames(link.__traceback__)  # skips the frames still running
        link = link.__cause__ or link.__context__


def _forgetful(handler: Callable) -> Callable:
    """``handler`` (a coroutine or async generator function) whose failures leave no
    request bytes behind (:func:`_drop_locals`). A frame of its own: the handler's frame
    (which holds the request) must have finished to be cleared, so the clearing cannot be
    done inside it."""
    if inspect.isasyncgenfunction(handler):

        async def streamed(request_iterator, context):
            try:
                async for out in handler(request_iterator, context):
                    yield out
            except BaseException as e:
                _drop_locals(e)
                raise

        return streamed

    async def unary(request_iterator, context):
        try:
            return await handler(request_iterator, context)
        except BaseException as e:
            _drop_locals(e)
            raise

    return unary


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
    ):
        self.max_request_wait = max_request_wait or None  # 0: no bound
        self.max_calls_per_peer = max_calls_per_peer
        self.max_calls = max_calls
        self.max_watch = max_watch_streams
        self.max_watch_per_peer = max(1, max_watch_streams // WATCH_PER_PEER_SHARE) if max_watch_streams else 0
        self.max_unread = max_unread_answer_bytes
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
                log.warning(
                    json.dumps(
                        {
                            "event": "unread_answers",
                            "peer": f"{address[0]}:{address[1]}",
                            "unread_bytes": conn.unread,
                            "limit": self.max_unread,
                            "action": "connection closed",
                        }
                    )
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

            return _forgetful(streamed)

        async def handler(request_iterator, context):
            ip, conn, request = await prologue(context)
            try:
                answer = await behavior(request, context)
            finally:
                self._leave(ip, conn)
            self._answered(ip, conn, context, answer)
            return answer

        return _forgetful(handler)

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

            return _forgetful(streamed)

        async def written(request_iterator, context):  # the stream written with context.write
            ip, request = await prologue(context)
            try:
                return await behavior(request, context)
            finally:
                self._leave_watch(ip)

        return _forgetful(written)

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

            return _forgetful(streamed)

        async def handler(request_iterator, context):
            ip, conn = await self._enter(context)
            try:
                return await behavior(requests(context, conn), context)
            finally:
                self._leave(ip, conn)

        return _forgetful(handler)

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


# ---- connections that never send a complete request


def _proc_address(hex_addr: str) -> Address:
    """An address of /proc/net/tcp{,6} ("0100007F:1F90") as (ip, port)."""
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        ip = socket.inet_ntop(socket.AF_INET, raw[::-1])
    else:  # four 32-bit words, each in host (little-endian) order
        ip = socket.inet_ntop(socket.AF_INET6, b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4)))
    return _normal_ip(ip), int(port, 16)


def open_connections(ports: Set[int]) -> Dict[Address, Tuple[int, int]]:
    """This process's established TCP connections whose local port is in ``ports``:
    peer address → (descriptor, socket inode). Linux (/proc) only."""
    by_inode: Dict[int, Address] = {}
    for name in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        try:
            with open(name) as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) < 10 or fields[3] != "01":  # ESTABLISHED
                        continue
                    if int(fields[1].rpartition(":")[2], 16) in ports:
                        by_inode[int(fields[9])] = _proc_address(fields[2])
        except OSError:
            continue
    out: Dict[Address, Tuple[int, int]] = {}
    if not by_inode:
        return out
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inode = int(target[8:-1])
            address = by_inode.get(inode)
            if address is not None:
                out[address] = (int(fd), inode)
    return out


def close_connection(fd: int, inode: int) -> bool:
    """Shut the connection on ``fd`` down (gRPC then sees its end and frees it), unless
    the descriptor is no longer that socket."""
    try:
        dup = os.dup(fd)
    except OSError:
        return False
    try:
        if os.fstat(dup).st_ino != inode:
            return False
        with socket.socket(fileno=dup) as s:
            dup = -1
            s.shutdown(socket.SHUT_RDWR)
        return True
    except OSError:
        return False
    finally:
        if dup >= 0:
            os.close(dup)


#: Allocations at least this large get their own memory map, returned to the system
#: when freed. glibc's default threshold (128 KiB) rises up to 32 MiB with every such
#: block freed, after which the megabyte-sized buffers of large requests come from the
#: heap and fragment it: RSS then grows with every flood of large requests.
MMAP_THRESHOLD = 256 * 1024


def _glibc():
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim, mallopt = libc.malloc_trim, libc.mallopt
    except (OSError, AttributeError):
        return None, None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return trim, mallopt


def bound_memory() -> Optional[Callable[[], None]]:
    """On glibc: fixes the mmap threshold (:data:`MMAP_THRESHOLD`) and returns a function
    that gives the heap's free memory back to the system (``malloc_trim``), for the
    janitor's tick; None on another C library."""
    trim, mallopt = _glibc()
    if trim is None:
        return None
    M_MMAP_THRESHOLD = -3
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return lambda: trim(0) and None


def close_peer(ports: Set[int], address: Address) -> bool:
    """Shut down this process's connection from ``address`` to one of ``ports`` (Linux)."""
    found = open_connections(ports).get(address)
    return found is not None and close_connection(*found)


def janitor_supported() -> bool:
    return os.path.exists("/proc/self/net/tcp") and os.path.isdir("/proc/self/fd")


class ConnectionJanitor:
    """Every :data:`JANITOR_PERIOD_S`, closes each connection to the server's ports that
    has been open ``first_call_wait`` seconds without a call in progress and without one
    complete request: gRPC has no timer for that (its idle timer counts every connection
    alike), so this is what lets the idle time be long for real clients."""

    def __init__(
        self,
        admission: Admission,
        ports: Iterable[int],
        first_call_wait: float,
        ticks: Iterable[Callable[[], None]] = (),
    ):
        self.admission = admission
        self.ports = set(ports)
        self.first_call_wait = first_call_wait
        self.first_seen: Dict[Address, float] = {}
        self.closed = 0
        self.ticks = list(ticks)

    def sweep(self, now: float, connections: Dict[Address, Tuple[int, int]]) -> int:
        tracked = self.admission.connections
        for address in [a for a in self.first_seen if a not in connections]:
            del self.first_seen[address]
        for address in [a for a, c in tracked.items() if a not in connections and not c.active]:
            del tracked[address]
        closed = 0
        for address, (fd, inode) in connections.items():
            seen = self.first_seen.setdefault(address, now)
            conn = tracked.get(address)
            if conn is not None and (conn.served or conn.active):
                continue
            if now - seen >= self.first_call_wait and close_connection(fd, inode):
                closed += 1
        self.closed += closed
        return closed

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(JANITOR_PERIOD_S)
            for tick in self.ticks:
                tick()
            if self.first_call_wait <= 0:
                continue
            try:
                connections = await loop.run_in_executor(None, open_connections, self.ports)
            except OSError as e:  # /proc unreadable: leave the connections to gRPC's idle time
                log.warning('{"event": "janitor_stopped", "message": "%s"}', e)
                return
            self.sweep(time.monotonic(), connections)

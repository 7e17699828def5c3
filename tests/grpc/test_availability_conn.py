"""Availability on the connection side: no client can hold the call slots,
the connections or the log that the others need. Real `handeval serve` processes on
loopback; the attacks speak HTTP/2 by hand (harness.h2raw). Every wait is an event
or a polled condition with a hang guard, never a timing assert."""

from __future__ import annotations

import io
import logging
import os
import random
import re
import socket

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.server.logs import RateLimitedHandler
from handeval.v2 import handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.h2raw import PREFACE_AND_SETTINGS, SETTINGS_ACK, RawConnection, peer_ports

from grpc_fixtures import (
    EVALUATE,
    TINY,
    ServerProcess,
    closed_by_peer,
    new_client_call,
    no_traceback,
    rss_mb,
    served_and_exits_cleanly,
    server_connections,
    wait_for,
)

#: Another loopback address: the attacker's, as the per-address limit sees it.
ATTACKER = "127.0.0.2"


@pytest.fixture
def attacker_address():
    try:
        with socket.socket() as probe:
            probe.bind((ATTACKER, 0))
    except OSError:
        pytest.skip(f"cannot bind {ATTACKER} (not Linux loopback)")
    return ATTACKER


def test_one_connection_cannot_hold_every_call_slot(tmp_path):
    """60 calls on one connection that send their HEADERS and 10 of their 1,000 request
    bytes, against a 50-call process limit: only --max-streams-per-connection of them
    are taken up (the rest refused at once), so a new client is served while they hold;
    the held ones are ended after --max-request-wait, which frees their slots."""
    s = ServerProcess(
        tmp_path,
        "--max-concurrent-rpcs",
        "50",
        "--max-streams-per-connection",
        "8",
        "--max-request-wait",
        "60",
        metrics=False,
    )
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port)
        assert c.open_slow_calls(60, EVALUATE) == 60
        # the calls beyond the connection's 8 streams are refused; 8 are held
        wait_for(lambda: len(c.ended) >= 52, what="the streams over the connection's limit to be refused", server=s)
        assert new_client_call(s) == grpc.StatusCode.OK
        assert len(c.ended) == 52 and not c.closed.is_set()  # the 8 are still held
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        if c is not None:
            c.close()
        s.close()


def test_a_request_that_does_not_arrive_is_ended_and_frees_its_slot(tmp_path):
    """A call whose request never fully arrives holds its slot only --max-request-wait:
    with a 5-call process limit, 5 such calls, once ended, leave room for a new client
    (before, they held every slot until the connection's age)."""
    s = ServerProcess(tmp_path, "--max-concurrent-rpcs", "5", "--max-request-wait", "0.5", metrics=False)
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port)
        assert c.open_slow_calls(5, EVALUATE) == 5
        wait_for(lambda: len(c.ended) == 5, what="the server to end the calls whose request never came", server=s)
        served_and_exits_cleanly(s)
    finally:
        if c is not None:
            c.close()
        s.close()


def test_one_address_cannot_take_every_call_slot(tmp_path, attacker_address):
    """Five connections from one address, 10 held calls each, against a 30-call process
    limit and --max-calls-per-peer 10: 40 are refused, 10 held, and a client from
    another address is served meanwhile."""
    s = ServerProcess(
        tmp_path, "--max-concurrent-rpcs", "30", "--max-calls-per-peer", "10", "--max-request-wait", "60", metrics=False
    )
    conns = []
    try:
        s.wait_serving()
        for _ in range(5):
            c = RawConnection("127.0.0.1", s.port, source=attacker_address)
            conns.append(c)
            assert c.open_slow_calls(10, EVALUATE) == 10
        wait_for(lambda: sum(len(c.ended) for c in conns) >= 40, what="the calls over the address's limit", server=s)
        assert new_client_call(s) == grpc.StatusCode.OK
        assert sum(len(c.ended) for c in conns) == 40
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        for c in conns:
            c.close()
        s.close()


GARBAGE = [b"\xff" * 7, b"\x0a\xff\xff\xff\xff\x0f", bytes(range(256)), b"\x08"]


@pytest.mark.parametrize(
    "method",
    [
        "/grpc.health.v1.Health/Check",
        "/grpc.health.v1.Health/Watch",
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    ],
)
def test_bad_bytes_to_health_and_reflection_are_invalid_argument_without_traceback(tmp_path, method):
    s = ServerProcess(tmp_path, metrics=False)
    try:
        s.wait_serving()
        codes = set()
        with s.channel() as ch:
            for data in GARBAGE:
                try:
                    if method.endswith("Check"):
                        ch.unary_unary(method, request_serializer=None, response_deserializer=None)(data, timeout=10)
                    elif method.endswith("Watch"):
                        for _ in ch.unary_stream(method, request_serializer=None, response_deserializer=None)(
                            data, timeout=10
                        ):
                            pass
                    else:
                        for _ in ch.stream_stream(method, request_serializer=None, response_deserializer=None)(
                            iter([data]), timeout=10
                        ):
                            pass
                    codes.add(grpc.StatusCode.OK)
                except grpc.RpcError as e:
                    codes.add(e.code())
                    assert "no valid" in (e.details() or ""), e.details()
            # valid requests are still served
            r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert r.status == health_pb2.HealthCheckResponse.SERVING
        assert codes == {grpc.StatusCode.INVALID_ARGUMENT}
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        s.close()


BIG_GARBAGE_METHODS = (
    "/grpc.health.v1.Health/Check",
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    "/handeval.v2.Handeval/Evaluate",
    "/handeval.v2.Handeval/Compare",
    "/handeval.v2.Handeval/Settle",
    "/handeval.v2.Handeval/Arrange",
)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the server's RSS from /proc")
def test_refused_requests_leave_no_request_bytes_behind(tmp_path):
    """30 refused requests of 4 MiB (bad bytes to every method, and a well-formed 十三水
    Evaluate whose last packed row is bad): the server's RSS rises by less than 3 of them, with Python's
    cyclic garbage collector off in the server so that only what its code still references
    counts, not when a collection happens to run. (Before: gRPC's aborted-call cycle kept
    every request's bytes until a full collection, so memory swung with the size of the
    garbage; with the collector off, all 30 stayed.)"""
    size = 4 << 20
    s = ServerProcess(tmp_path, metrics=False, prelude="import gc; gc.disable()")
    try:
        s.wait_serving()
        rng = random.Random(29)
        bad_rows = ssw.ShisanshuiEvaluateRequest(packed_rows=bytes(size - 5) + b"\xff" * 5)  # the last row's ids > 51
        requests = [
            (m, (rng.randbytes(4096) * (size // 4096))[: size - k]) for k, m in enumerate(BIG_GARBAGE_METHODS * 4)
        ]
        requests += [
            ("/handeval.v2.Handeval/Evaluate", pb.EvaluateRequest(shisanshui=bad_rows).SerializeToString())
        ] * 6

        def send(batch):
            with s.channel(options=[("grpc.max_send_message_length", 2 * size)]) as ch:
                for method, data in batch:
                    with pytest.raises(grpc.RpcError) as e:
                        if "Reflection" in method:
                            for _ in ch.stream_stream(method, request_serializer=None, response_deserializer=None)(
                                iter([data]), timeout=30
                            ):
                                pass
                        else:
                            ch.unary_unary(method, request_serializer=None, response_deserializer=None)(
                                data, timeout=30
                            )
                    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (
                        method,
                        e.value.code(),
                        e.value.details(),
                    )

        send(requests[:3])  # the server's first large calls (its buffers, its allocator's arenas)
        before = rss_mb(s.proc.pid)
        send(requests)
        # What the allocator keeps of freed memory goes back at the server's next
        # once-a-second malloc_trim: wait for it (hang guard 10 s).
        bound = before + 3 * size / 2**20
        wait_for(
            lambda: rss_mb(s.proc.pid) < bound,
            timeout=10,
            what=lambda: (
                f"RSS {before:.0f} MB -> {rss_mb(s.proc.pid):.0f} MB (< {bound:.0f}) after {len(requests)} refused"
            ),
        )
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        s.close()


WARNING_LINE = re.compile(r" WARNING handeval\.server\[\d+\] \{\"event\": \"error\"")
SUPPRESSED = re.compile(r"\"event\": \"log_lines_suppressed\", \"lines\": (\d+)")


def test_a_flood_of_bad_requests_writes_few_lines_and_counts_the_rest(tmp_path):
    """300 bad requests: at most a burst of them is logged per window, and the rest are
    counted in "log_lines_suppressed" lines; logged + counted = 300."""
    s = ServerProcess(tmp_path, metrics=False)
    n = 300
    try:
        s.wait_serving()
        rng = random.Random(3)
        with s.channel() as ch:
            call = ch.unary_unary(EVALUATE, request_serializer=None, response_deserializer=None)
            for _ in range(n):
                with pytest.raises(grpc.RpcError) as e:
                    call(b"\xff" + bytes(rng.getrandbits(8) for _ in range(20)), timeout=10)
                assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT

        def accounted():
            log = s.log()
            return len(WARNING_LINE.findall(log)) + sum(map(int, SUPPRESSED.findall(log)))

        # the count of a window is written once the window is over
        wait_for(lambda: accounted() == n, timeout=60, what="every bad request logged or counted", server=s)
        written = len(WARNING_LINE.findall(s.log()))
        assert written < n / 2, written
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        s.close()


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_rate_limited_handler_writes_a_burst_per_window_then_a_count():
    out, clock = io.StringIO(), Clock()
    h = RateLimitedHandler(out, burst=3, window=10.0, clock=clock)
    h.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("handeval.test_rate_limited_handler")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(h)
    try:
        for i in range(10):
            logger.warning("bad %d", i)
        logger.info("an info line is never limited")
        lines = out.getvalue().splitlines()
        assert lines == ["WARNING bad 0", "WARNING bad 1", "WARNING bad 2", "INFO an info line is never limited"]
        h.report()  # the window is not over: nothing yet
        assert len(out.getvalue().splitlines()) == 4
        clock.t = 10.0
        h.report()
        last = out.getvalue().splitlines()[-1]
        assert '"lines": 7' in last and "log_lines_suppressed" in last
        logger.error("a new window")
        assert out.getvalue().splitlines()[-1] == "ERROR a new window"
    finally:
        logger.removeHandler(h)


def test_a_client_keeps_its_connection_while_never_called_connections_are_closed(tmp_path):
    """A client that completed a call keeps its connection past --max-first-call-wait
    (only --max-connection-idle, minutes by default, would close it), while sockets that
    complete the HTTP/2 handshake but send no request, or only requests that never
    arrive, are closed by the server."""
    s = ServerProcess(tmp_path, "--max-first-call-wait", "0.5", "--max-request-wait", "0.5", metrics=False)
    flood = []
    slow = None
    try:
        s.wait_serving()
        wait_for(lambda: server_connections(s.port) == 0, what="wait_serving's connection to close", server=s)
        with s.channel() as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            assert stub.Evaluate(TINY, timeout=10).shisanshui.results
            wait_for(lambda: server_connections(s.port) == 1, what="the client's connection", server=s)
            client = peer_ports(s.port)
            for payload in (PREFACE_AND_SETTINGS, PREFACE_AND_SETTINGS + SETTINGS_ACK):
                c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
                c.sendall(payload)
                flood.append(c)
            slow = RawConnection("127.0.0.1", s.port)
            slow.open_slow_calls(3, EVALUATE)
            wait_for(
                lambda: all(map(closed_by_peer, flood)) and slow.closed.is_set(),
                timeout=60,
                what="the server to close the connections without a complete request",
                server=s,
            )
            # the client's connection is the one left, and its next call goes on it
            wait_for(lambda: server_connections(s.port) == 1, what="only the client's connection", server=s)
            assert peer_ports(s.port) == client
            assert stub.Evaluate(TINY, timeout=10).shisanshui.results
            assert peer_ports(s.port) == client
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        for c in flood:
            c.close()
        if slow is not None:
            slow.close()
        s.close()


def test_calls_without_the_token_are_refused_at_their_headers(tmp_path):
    """With a token configured, calls without it are refused UNAUTHENTICATED as soon as
    their headers arrive, not once a request that may never come has arrived: 10 such
    calls on a 5-call limit do not keep a client with the token out."""
    s = ServerProcess(
        tmp_path,
        "--max-concurrent-rpcs",
        "5",
        "--max-request-wait",
        "60",
        env={"HANDEVAL_TOKEN": "sesame"},
        metrics=False,
    )
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port)
        assert c.open_slow_calls(10, EVALUATE) == 10
        wait_for(lambda: len(c.ended) == 10, what="the calls without a token to be refused", server=s)
        with s.channel() as ch:
            out = handeval_pb2_grpc.HandevalStub(ch).Evaluate(
                TINY, timeout=10, metadata=(("authorization", "Bearer sesame"),)
            )
            assert out.shisanshui.results
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        if c is not None:
            c.close()
        s.close()


def test_peer_addresses_as_grpc_and_proc_write_them():
    from handeval.server.janitor import proc_address
    from handeval.server.peers import peer_address

    assert peer_address("ipv4:127.0.0.1:5000") == ("127.0.0.1", 5000)
    assert peer_address("ipv6:[::1]:443") == ("::1", 443)
    assert peer_address("ipv6:[::ffff:127.0.0.2]:7") == ("127.0.0.2", 7)  # v4-mapped: the v4 address
    assert peer_address("unix:/tmp/s") is None
    assert proc_address("0100007F:1F90") == ("127.0.0.1", 8080)
    assert proc_address("00000000000000000000000001000000:0050") == ("::1", 80)


def test_janitor_closes_only_connections_without_a_complete_request():
    """The janitor's sweep on real sockets (a socketpair per connection) and a given
    clock: a connection is shut down once it is ``first_call_wait`` old without a
    complete request or a call in progress; served or busy ones are kept."""
    import os

    from handeval.server.admission import Admission, _Connection
    from handeval.server.janitor import ConnectionJanitor

    admission = Admission(5.0, 0, track_connections=True)
    janitor = ConnectionJanitor(admission, [1], first_call_wait=4.0)
    pairs = {name: socket.socketpair() for name in ("silent", "served", "busy")}
    try:
        addresses = {name: ("127.0.0.1", 1000 + i) for i, name in enumerate(pairs)}
        conns = {addresses[n]: (p[0].fileno(), os.fstat(p[0].fileno()).st_ino) for n, p in pairs.items()}
        admission.connections[addresses["served"]] = served = _Connection()
        served.served = True
        admission.connections[addresses["busy"]] = busy = _Connection()
        busy.active = 1
        assert janitor.sweep(0.0, conns) == 0  # first seen now
        assert janitor.sweep(3.9, conns) == 0  # not old enough
        assert janitor.sweep(4.0, conns) == 1
        for name, (_, peer) in pairs.items():
            peer.setblocking(False)
            try:
                ended = peer.recv(1) == b""
            except BlockingIOError:
                ended = False
            assert ended == (name == "silent"), name
        # a connection gone from the process is forgotten (its address may be reused)
        del conns[addresses["silent"]]
        busy.active = 0
        del conns[addresses["busy"]]
        janitor.sweep(5.0, conns)
        assert set(janitor.first_seen) == {addresses["served"]}
        assert set(admission.connections) == {addresses["served"]}
    finally:
        for a, b in pairs.values():
            a.close()
            b.close()

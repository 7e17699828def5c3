"""The front proxy as shipped (deploy/proxy/nginx.conf: nginx from Debian's packages) in
front of a real `handeval serve` on loopback, and the HTTP/2 attacks of issue 38 through
it (harness/edge.py starts both, harness/attacks.py holds the attacks; the frames come from
harness.h2raw). Skipped when nginx is not installed (.ci/run installs it).
Every wait is an event or a polled condition with a hang guard; no timing asserts."""

from __future__ import annotations

import re
import socket
import ssl
import threading
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.v2 import handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness import attacks
from harness.edge import CONFIG, Edge, nginx_binary
from harness.h2raw import PING, RawConnection, frame

from grpc_fixtures import TINY, closed_by_peer, wait_for


def _setting(pattern: str) -> int:
    """A number of the shipped config (its first match): the tests follow the config."""
    return int(re.search(pattern, CONFIG.read_text()).group(1))


#: Calls in flight per client address on the gRPC port.
CALLS_PER_ADDRESS = _setting(r"\n\s*limit_conn per_address (\d+);")

pytestmark = pytest.mark.skipif(
    nginx_binary() is None, reason="nginx is not installed (apt-get install nginx: Debian 12's 1.22.1)"
)


@pytest.fixture
def edge(tmp_path):
    e = Edge(tmp_path)
    try:
        yield e
    finally:
        e.close()


@pytest.fixture
def addresses():
    if not attacks.addresses_bindable():
        pytest.skip("cannot bind 127.0.2.x (not Linux loopback)")


def call(e, request=TINY, timeout=10.0) -> grpc.StatusCode:
    """A tiny Evaluate through the proxy on a new connection of its own."""
    with e.channel() as ch:
        try:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(request, timeout=timeout)
            return grpc.StatusCode.OK
        except grpc.RpcError as err:
            return err.code()


def server_lines(e) -> int:
    return e.log_lines()[0]


def attacker(e, source: str = attacks.ATTACKER) -> RawConnection:
    """A raw connection from ``source``; its reader waits 120 s for the proxy (beyond every
    hang guard here), so ``closed`` is the proxy closing it, not the reader giving up."""
    host, port = attacks.host_port(e.target)
    c = RawConnection(host, port, source=source)
    c.sock.settimeout(120)
    attacks.settled(c)
    return c


def test_calls_health_and_metrics_pass_the_proxy(edge):
    assert call(edge) == grpc.StatusCode.OK
    with grpc.insecure_channel(edge.probe_target) as ch:
        r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
        assert r.status == health_pb2.HealthCheckResponse.SERVING
        # the probe port passes Health/Check only
        with pytest.raises(grpc.RpcError) as err:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=10)
        assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED
    with urllib.request.urlopen(edge.metrics_url, timeout=10) as r:
        assert b"handeval" in r.read()
    with urllib.request.urlopen(edge.metrics_url.replace("/metrics", "/healthz"), timeout=10) as r:
        assert r.status == 200


def test_a_table_stream_passes_and_outlives_a_quiet_spell(edge):
    """A Tables stream through the proxy stays open across a pause longer than the
    proxy's client_body_timeout for calls (5 s): its own location waits up to the server's
    --max-stream-idle. With the calls' settings the stream was ended after 5 s."""
    import random

    from handeval.v2 import tables_pb2 as tb
    from harness.table_attacks import start_request

    quiet = _setting(r"\n\s*client_body_timeout (\d+)s;") + 1
    go_on = threading.Event()

    def steps():
        yield start_request(random.Random(1), "t")
        go_on.wait(quiet)
        yield tb.TablesRequest(table="t", look=tb.TableLook())

    with edge.channel() as ch:
        answers = handeval_pb2_grpc.HandevalStub(ch).Tables(steps(), timeout=60)
        assert next(answers).WhichOneof("answer") == "tienlen"
        second = next(answers)
        assert second.WhichOneof("answer") == "tienlen", second
        assert list(answers) == []


def test_the_longest_error_passes_the_proxy_as_itself(edge):
    """An INVALID_ARGUMENT with the longest description the server sends (the wire's
    bound, WIRE_MESSAGE_BYTES, all in 3-byte characters: percent-encoded in grpc-message
    and twice in grpc-status-details-bin) reaches a client with default options as
    INVALID_ARGUMENT with its details, through the proxy (its grpc_buffer_size holds the
    trailers; with nginx's default 4k the client got UNAVAILABLE, and retried) and
    directly. The server is replaced by one that answers with exactly that status."""
    from concurrent import futures

    from google.rpc import error_details_pb2, status_pb2

    from handeval import _core
    from handeval.server.status import bad_request_status

    field = "tienlen.deals[1023].record.actions[207].cards"
    status = bad_request_status(field, "♥" * (_core.WIRE_MESSAGE_BYTES // 3))

    def answer(request, context):
        context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, status.message)

    edge.server.terminate()
    edge.server.wait(30)
    fake = grpc.server(futures.ThreadPoolExecutor(2))
    handler = grpc.unary_unary_rpc_method_handler(answer)
    fake.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("handeval.v2.Handeval", {"Evaluate": handler}),)
    )
    fake.add_insecure_port(edge.server_target)
    fake.start()
    try:
        for target in (edge.target, edge.server_target):
            with grpc.insecure_channel(target) as ch:
                with pytest.raises(grpc.RpcError) as err:
                    handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=10)
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (target, err.value.details())
            assert err.value.details() == status.message
            sent = dict(err.value.trailing_metadata())["grpc-status-details-bin"]
            bad = error_details_pb2.BadRequest()
            status_pb2.Status.FromString(sent).details[0].Unpack(bad)
            assert bad.field_violations[0].field == field
    finally:
        fake.stop(0)


def test_a_request_larger_than_the_preread_window_passes(edge):
    """A request of 61 KB, over seven times the stream window a call starts with at the proxy
    (http2_body_preread_size 8 KiB), is answered: the rest follows as the proxy reads it."""
    request = pb.EvaluateRequest.FromString(attacks.big_answer_request()[5:])
    big = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=list(request.shisanshui.items) * 8))
    assert big.ByteSize() > 7 * 8192
    with edge.channel() as ch:
        answer = handeval_pb2_grpc.HandevalStub(ch).Evaluate(big, timeout=30)
    assert len(answer.shisanshui.results) == 8 * attacks.ROWS


def test_compressed_requests_are_refused_at_the_proxy(edge):
    """A gzip request (a bomb inflating to 48 MiB, about 48 KB sent, and an honest client's
    compressed call) is refused UNIMPLEMENTED by the proxy: the server never sees it."""
    before = server_lines(edge)
    with edge.channel() as ch:
        with pytest.raises(grpc.RpcError) as err:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=10, compression=grpc.Compression.Gzip)
    assert err.value.code() == grpc.StatusCode.UNIMPLEMENTED
    c = attacker(edge)
    try:
        streams = {attacks.send_bomb(c, attacks.bomb_request()) for _ in range(4)}
        wait_for(lambda: streams <= c.ended, 30, "the proxy ending the four bomb calls", edge)
    finally:
        c.close()
    assert server_lines(edge) == before, edge.logs()
    assert call(edge) == grpc.StatusCode.OK


def test_continuation_flood_is_cut_off(edge):
    """4 connections each send HEADERS without END_HEADERS, then CONTINUATION frames of
    8 KiB without end (at most 32 MiB each): the proxy ends each (closes it or resets
    the stream) long before, its memory does not follow the flood, the server sees
    nothing, and a new client is served."""
    _, proxy_idle = edge.rss()
    most = [0.0]
    conns = [attacker(edge) for _ in range(4)]
    try:
        for c in conns:
            stream = c.next_stream
            c.next_stream += 2
            c.send(attacks.continuation_frames(stream, c.authority, 32))
            for _ in range(128):  # 32 + 128 x 32 frames of 8 KiB: 32 MiB
                if c.closed.is_set() or stream in c.ended or c.goaway:
                    break
                if not c.send(attacks.continuation_frames(stream, c.authority, 32, headers=False)):
                    break
                most[0] = max(most[0], edge.rss()[1])
            wait_for(
                lambda c=c, stream=stream: c.closed.is_set() or stream in c.ended or c.goaway,
                30,
                "the proxy ending a CONTINUATION flood",
                edge,
            )
        assert most[0] < proxy_idle + 64, f"the proxy grew from {proxy_idle:.0f} to {most[0]:.0f} MB"
        assert call(edge) == grpc.StatusCode.OK
        assert "CONTINUATION" not in edge.server_log.read_text() and "x-flood" not in edge.server_log.read_text()
    finally:
        for c in conns:
            c.close()


def test_rapid_reset_is_ended_by_goaway(edge):
    """HEADERS then RST_STREAM in bursts of 100 on one connection (at most 5,000 streams):
    the proxy sends GOAWAY or closes it — Debian's backport for CVE-2023-44487 ("client
    sent too many streams at once", after about 300 here), else keepalive_requests
    (1,000) — and a new client is served after."""
    c = attacker(edge)
    try:
        for _ in range(50):
            if c.goaway or c.closed.is_set() or not c.send(attacks.rapid_reset_burst(c)):
                break
        wait_for(lambda: c.goaway or c.closed.is_set(), 30, "GOAWAY after the connection's 1,000 streams", edge)
        assert c.next_stream - 1 <= 2 * 5000
        assert call(edge) == grpc.StatusCode.OK
    finally:
        c.close()


def test_ping_flood_stays_at_the_proxy(edge):
    """PINGs on one connection (at most 200,000) while a client calls on another: the
    proxy answers them itself and closes the connection ("http2 flood detected": control
    frames far beyond the data they carry), every call is answered, and the server never
    hears of the pings (no too_many_pings)."""
    done = threading.Event()
    codes = []

    def client():
        with edge.channel() as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            while not done.is_set() and len(codes) < 10_000:
                try:
                    stub.Evaluate(TINY, timeout=10)
                    codes.append(grpc.StatusCode.OK)
                except grpc.RpcError as err:
                    codes.append(err.code())

    t = threading.Thread(target=client, daemon=True)
    t.start()
    c = attacker(edge)
    try:
        for _ in range(2000):
            if c.closed.is_set() or not c.send(frame(PING, 0, 0, b"\0" * 8) * 100):
                break
        wait_for(c.closed.is_set, 30, "the proxy closing the PING flood", edge)
    finally:
        done.set()
        t.join(60)
        c.close()
    assert not t.is_alive()
    assert codes and set(codes) == {grpc.StatusCode.OK}, codes[-5:]
    assert "too_many_pings" not in edge.server_log.read_text()


def test_answers_never_read_are_ended(edge):
    """4 connections with stream windows 0, each with 16 calls asking answers about 3
    times their 7.7 KB request: the streams of each connection over
    http2_max_concurrent_streams are refused at once, the address's limit_conn calls reach
    the server (the rest are refused, 429, whose body waits for the window too), a new client is served meanwhile,
    and the proxy resets every call whose answer is not read (send_timeout), which frees
    its buffers and its upstream connection."""
    request = attacks.big_answer_request()
    conns = [attacker(edge) for _ in range(4)]
    try:
        for c in conns:
            attacks.open_unread_calls(c, 16, request)
        assert call(edge) == grpc.StatusCode.OK
        wait_for(
            lambda: all(len(c.ended) == 16 or c.closed.is_set() for c in conns),
            60,
            lambda: f"the proxy ending every unread call ({sum(len(c.ended) for c in conns)} of 64)",
            edge,
        )
        assert call(edge) == grpc.StatusCode.OK
    finally:
        for c in conns:
            c.close()


def test_half_sent_calls_from_many_addresses(tmp_path, addresses):
    """59 addresses x 2 connections x 16 calls that send 10 of their 1,000 request bytes,
    with the time limits out of the way (client_body_timeout and the server's
    --max-request-wait 120 s): the per-address limit alone refuses all but its number of
    calls of each address at once, so the calls held stay under the proxy's max_conns and a new
    client is served while they hold."""
    e = Edge(tmp_path, "--max-request-wait", "120", edits={"client_body_timeout 5s;": "client_body_timeout 120s;"})
    conns = []
    try:
        for a in range(59):
            for _ in range(2):
                c = attacker(e, source=f"127.0.2.{a + 2}")
                c.open_slow_calls(16, attacks.EVALUATE)
                conns.append(c)
        wait_for(
            lambda: sum(len(c.ended) for c in conns) >= 59 * (32 - CALLS_PER_ADDRESS),
            60,
            lambda: f"the per-address refusals ({sum(len(c.ended) for c in conns)} streams ended)",
            e,
        )
        assert call(e) == grpc.StatusCode.OK
    finally:
        for c in conns:
            c.close()
        e.close()


def test_half_sent_calls_are_ended(edge):
    """An address's calls that send 10 of their 1,000 request bytes: every one is ended
    (client_body_timeout, or the server's --max-request-wait), freeing its slot."""
    c = attacker(edge)
    n = CALLS_PER_ADDRESS
    try:
        c.open_slow_calls(n, attacks.EVALUATE)
        wait_for(lambda: len(c.ended) == n or c.closed.is_set(), 60, lambda: f"{len(c.ended)} of {n} ended", edge)
        assert call(edge) == grpc.StatusCode.OK
    finally:
        c.close()


def test_connections_per_address_are_limited_before_the_handshake(tmp_path):
    """TLS at the proxy, the handshake time limit out of the way (client_header_timeout
    120 s): 40 sockets from one address each send part of a ClientHello; all but 16 are
    closed at once (the stream{} block's limit_conn, before any TLS state is made), the 16
    stay open, and a TLS client from another address is served meanwhile."""
    e = Edge(tmp_path, tls=True, edits={"client_header_timeout 4s;": "client_header_timeout 120s;"})
    held = []
    try:
        for _ in range(40):
            held.append(attacks.held_handshake(e.target, timeout=10))
        wait_for(
            lambda: sum(map(closed_by_peer, held)) >= 40 - 16,
            60,
            lambda: f"the proxy closing the connections over 16 ({sum(map(closed_by_peer, held))} of 40 closed)",
            e,
        )
        assert call(e) == grpc.StatusCode.OK
        assert sum(map(closed_by_peer, held)) == 40 - 16
    finally:
        for s in held:
            s.close()
        e.close()


def test_held_tls_handshakes_are_closed(tmp_path):
    """TLS at the proxy: 300 sockets each send part of a ClientHello and nothing more; a
    TLS client is served while they hold, and the proxy closes every one of them
    (client_header_timeout)."""
    e = Edge(tmp_path, tls=True)
    held = []
    try:
        host, port = attacks.host_port(e.target)
        for _ in range(300):
            held.append(attacks.held_handshake(e.target, timeout=10))
        assert call(e) == grpc.StatusCode.OK
        wait_for(lambda: all(map(closed_by_peer, held)), 60, "the proxy closing every held handshake", e)
        # and a finished handshake still works, with the proxy's certificate
        ctx = ssl.create_default_context(cafile=str(e.tls[0]))
        with socket.create_connection((host, port), timeout=10) as raw:
            with ctx.wrap_socket(raw, server_hostname="localhost") as tls:
                assert tls.version() in ("TLSv1.2", "TLSv1.3")
    finally:
        for s in held:
            s.close()
        e.close()

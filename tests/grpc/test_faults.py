"""Faults against real `handeval serve` processes: a client killed mid-call,
cancelled calls, exceeded deadlines, oversized and deeply nested messages, a response
larger than the limit, a worker killed under load (the others keep serving, the
supervisor restarts it), SIGTERM under load (calls in flight finish), and the
concurrent-call limit. After each fault the server must keep serving and log no
traceback."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.v2 import common_pb2, dachu_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.deck import DECK

from grpc_fixtures import (
    ServerProcess,
    children,
    free_port,
    make_cert,
    metric_value,
    needs_openssl,
    settle_request,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]


#: Deals in one call that must still be running when the test acts on it: about 2 s of
#: settlement on one compute thread (15-20 µs a deal), a 29 MB request (`long_server`).
LONG_DEALS = 150_000


@functools.cache
def long_request():
    """One request of LONG_DEALS deals, built once for the tests that need it."""
    return settle_request(LONG_DEALS, 0)


def evaluate_request(n=50):
    return pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs Js 9s".split()))] * n
        )
    )


def assert_serving(server):
    with server.channel() as ch:
        r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
        assert r.status == health_pb2.HealthCheckResponse.SERVING
        resp = handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(3), timeout=30)
        assert len(resp.shisanshui.results) == 3
    log = server.log()
    assert "Traceback" not in log and "internal error" not in log, log[-4000:]


def inflight(server) -> float:
    return metric_value(server.metrics(), "handeval_inflight_requests")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(
        tmp_path_factory.mktemp("faults"),
        "--max-batch",
        "100000",
        "--threads",
        "1",
        "--max-message-bytes",
        str(4 * 1024 * 1024),
        "--max-concurrent-rpcs",
        "8",
    )
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


@pytest.fixture(scope="module")
def long_server(tmp_path_factory):
    """Room for one long call (see LONG_DEALS) on one compute thread."""
    s = ServerProcess(
        tmp_path_factory.mktemp("faults-long"),
        "--max-batch",
        str(LONG_DEALS),
        "--threads",
        "1",
        "--max-message-bytes",
        str(64 << 20),
    )
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


def test_client_killed_mid_call(long_server, tmp_path):
    """A client process SIGKILLed while its big call runs: the server drops the call and
    keeps serving. (The client reads the request's bytes: building 150,000 deals in
    Python again would take longer than the call.)"""
    (tmp_path / "req.bin").write_bytes(long_request().SerializeToString())
    code = (
        "import grpc\n"
        "from handeval.v2 import handeval_pb2 as pb, handeval_pb2_grpc\n"
        f"ch = grpc.insecure_channel({long_server.target!r}, options=[('grpc.max_send_message_length', -1)])\n"
        f"req = pb.SettleRequest.FromString(open({str(tmp_path / 'req.bin')!r}, 'rb').read())\n"
        "print('calling', flush=True)\n"
        "handeval_pb2_grpc.HandevalStub(ch).Settle(req, timeout=120)\n"
    )
    client = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert client.stdout.readline().strip() == b"calling"
        wait_for(lambda: inflight(long_server) >= 1 or client.poll() is not None, what="the call to be in flight")
        assert client.poll() is None, "the call finished before the kill; make it bigger"
        client.kill()
        client.wait()
    finally:
        if client.poll() is None:
            client.kill()
    wait_for(lambda: inflight(long_server) == 0, timeout=120, what="the dropped call to end")
    assert_serving(long_server)


def test_cancelled_call(long_server):
    server = long_server
    req = long_request()
    with server.channel() as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        fut = stub.Settle.future(req, timeout=120)
        wait_for(lambda: inflight(server) >= 1 or fut.done(), timeout=60, what="the call to be in flight")
        assert not fut.done()
        assert fut.cancel()
        assert fut.cancelled()
    wait_for(lambda: inflight(server) == 0, timeout=120, what="the cancelled call to end")
    text = server.metrics()
    assert metric_value(text, "handeval_requests_total", rpc="Settle", code="CANCELLED") >= 1
    assert_serving(server)


def timed(call) -> float:
    """Wall seconds of ``call()``: sizes a deadline against this machine, as it is now."""
    start = time.monotonic()
    call()
    return time.monotonic() - start


def test_exceeded_deadline_stops_the_work(long_server):
    server = long_server
    # Serialized before the call, so the deadline is spent in the server, not on the
    # client serializing 150,000 deals of Cards messages.
    data = long_request().SerializeToString()
    with server.channel() as ch:
        raw = ch.unary_unary("/handeval.v2.Handeval/Settle", request_serializer=None, response_deserializer=None)
        # The deadline: what this server takes for an eighth of the deals (measured here,
        # the request serialized beforehand), so the whole call outlasts it on a fast
        # machine and on a loaded one.
        eighth_data = settle_request(LONG_DEALS // 8, seed=3).SerializeToString()
        with server.channel(options=[("grpc.max_receive_message_length", -1)]) as big:
            big_raw = big.unary_unary(
                "/handeval.v2.Handeval/Settle", request_serializer=None, response_deserializer=None
            )
            eighth = timed(lambda: big_raw(eighth_data, timeout=120))
        with pytest.raises(grpc.RpcError) as e:
            raw(data, timeout=eighth)
        assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    # The server gives up on the batch (it checks the deadline every 16 items) rather
    # than finishing deals nobody waits for.
    wait_for(lambda: inflight(server) == 0, timeout=60, what="the expired call to end")
    assert "DEADLINE_EXCEEDED" in server.log() and f"of {LONG_DEALS} items" in server.log(), server.log()[-2000:]
    assert_serving(server)


def test_deadline_stops_monte_carlo_arrange_between_hands(long_server):
    """Arrange with ``samples`` takes milliseconds per hand: the server checks the deadline
    between (few) hands, not once per 256 hands. The deadline is the time of 25 of the 200
    hands, measured here."""
    server = long_server
    rng = random.Random(5)
    hands = [ssw.ShisanshuiArrangeItem(hand=common_pb2.Cards(cards=rng.sample(DECK, 13))) for _ in range(200)]
    req = pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(samples=200, items=hands))
    with server.channel() as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        eighth = timed(
            lambda: stub.Arrange(
                pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(samples=200, items=hands[:25])), timeout=120
            )
        )
    before = server.log().count("DEADLINE_EXCEEDED")
    with server.channel() as ch:
        with pytest.raises(grpc.RpcError) as e:
            handeval_pb2_grpc.HandevalStub(ch).Arrange(req, timeout=eighth)
        assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    wait_for(lambda: inflight(server) == 0, timeout=60, what="the expired call to end")
    wait_for(
        lambda: server.log().count("DEADLINE_EXCEEDED") > before,
        timeout=10,
        what="the server to log the stop",
        server=server,
    )
    assert "of 200 items" in server.log()
    assert_serving(server)


def test_samples_over_the_server_limit_are_invalid_argument(long_server):
    """One Monte-Carlo hand runs to its end once started, so --max-samples bounds how far
    a call can run past its deadline."""
    req = pb.ArrangeRequest(
        shisanshui=ssw.ShisanshuiArrangeRequest(
            samples=10_001, items=[ssw.ShisanshuiArrangeItem(hand=common_pb2.Cards(cards=DECK[:13]))]
        )
    )
    with long_server.channel() as ch:
        with pytest.raises(grpc.RpcError) as e:
            handeval_pb2_grpc.HandevalStub(ch).Arrange(req, timeout=30)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert e.value.details().startswith("shisanshui.samples: 10001 samples per hand exceed the limit of 10000")
    assert_serving(long_server)


def test_oversized_request_is_resource_exhausted(server):
    big = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=["As"] * 1_500_000))]
        )
    )
    with server.channel() as ch:
        with pytest.raises(grpc.RpcError) as e:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(big, timeout=30)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert_serving(server)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def settle_bytes_with_unknown(unknown: bytes) -> bytes:
    """SettleRequest{dachu{deals[DachuDeal{<unknown>}]}}, encoded by hand: the client
    library cannot build a field the protos do not have."""
    dachu_req = _field(2, unknown)  # DachuSettleRequest.deals
    game = pb.SettleRequest.DESCRIPTOR.fields_by_name["dachu"].number
    return _field(game, dachu_req)


def test_deeply_nested_unknown_fields(server):
    """No message of the protos is recursive, so deep nesting can only come as unknown
    fields (here DachuDeal's number 15, which it does not have). A
    length-delimited one is skipped unread however deep its bytes nest: the deal is
    answered as if it were absent. Unknown groups are walked by the parser, which stops
    past its nesting limit of 100: INVALID_ARGUMENT. The server keeps serving."""

    def nested_bytes(depth):  # field 15 { field 1 { ... "x" } }
        value = b"x"
        for _ in range(depth):
            value = _field(1, value)
        return _field(15, value)

    def nested_groups(depth):  # start-group 15 ... end-group 15, nested
        return _varint(15 << 3 | 3) * depth + _varint(15 << 3 | 4) * depth

    with server.channel() as ch:
        raw = ch.unary_unary("/handeval.v2.Handeval/Settle", request_serializer=None, response_deserializer=None)
        plain = pb.SettleResponse.FromString(raw(settle_bytes_with_unknown(b""), timeout=30))
        assert plain.dachu.results[0].error.field == "deals[0]"  # a deal with neither outcome nor record
        for unknown in (nested_bytes(5), nested_bytes(5000), nested_groups(5), nested_groups(50)):
            assert pb.SettleResponse.FromString(raw(settle_bytes_with_unknown(unknown), timeout=30)) == plain
        for depth in (100, 5000):
            with pytest.raises(grpc.RpcError) as e:
                raw(settle_bytes_with_unknown(nested_groups(depth)), timeout=30)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, e.value.details()
            assert "not a valid handeval.v2.SettleRequest" in e.value.details()
    assert_serving(server)


def test_response_over_the_limit_fails_cleanly(server):
    """A small request whose answer exceeds --max-message-bytes (4 MiB here): the call
    fails with RESOURCE_EXHAUSTED and the server keeps serving."""
    hand = common_pb2.Cards(cards=DECK[:13])
    req = pb.EvaluateRequest(
        dachu=dachu_pb2.DachuEvaluateRequest(
            items=[
                dachu_pb2.DachuEvaluateItem(
                    legal_plays=dachu_pb2.DachuLegalPlaysQuery(hand=hand, chu=dachu_pb2.DACHU_COLOUR_RED)
                )
            ]
            * 5000
        )
    )
    assert req.ByteSize() < 1024 * 1024
    with server.channel(options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]) as ch:
        with pytest.raises(grpc.RpcError) as e:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(req, timeout=60)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, e.value.details()
        assert "split the batch" in e.value.details()
    assert_serving(server)


def test_concurrent_call_limit(server):
    """More calls at once than --max-concurrent-rpcs (8 here): the extra ones are
    RESOURCE_EXHAUSTED at once, the others finish."""
    # One request, built first and large enough (4000 deals, ~100 ms of work each) that
    # the 24 calls are in the server at once however fast settlement gets; sent 24 times
    # (the server's work does not depend on the calls' deals differing, and building 24
    # distinct ones took the client ~3 s of CPU).
    request = settle_request(4000)
    with server.channel() as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        futs = [stub.Settle.future(request, timeout=120) for _ in range(24)]
        codes = []
        for f in futs:
            try:
                f.result()
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as e:
                codes.append(e.code())
    assert set(codes) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}, codes
    assert codes.count(grpc.StatusCode.OK) >= 8
    assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) >= 1
    assert_serving(server)


# ---- process faults under load


class Load:
    """``threads`` callers, each with its own channel, calling until stopped; records
    (start, end, code) of every call, in ``calls`` and in its caller's ``by_thread[i]``."""

    def __init__(self, target, threads=4, request=None, rpc="Settle", timeout=30.0):
        self.target, self.rpc, self.timeout = target, rpc, timeout
        self.request = request or settle_request(60)
        self.calls = []
        self.by_thread = [[] for _ in range(threads)]
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def _run(self, i):
        while not self.stop.is_set():
            with grpc.insecure_channel(self.target) as ch:
                method = getattr(handeval_pb2_grpc.HandevalStub(ch), self.rpc)
                for _ in range(20):  # a fresh channel now and then: new connections spread over workers
                    if self.stop.is_set():
                        break
                    t0 = time.monotonic()
                    try:
                        method(self.request, timeout=self.timeout)
                        code = grpc.StatusCode.OK
                    except grpc.RpcError as e:
                        code = e.code()
                    with self.lock:
                        self.calls.append((t0, time.monotonic(), code))
                        self.by_thread[i].append(self.calls[-1])

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=60)

    def codes(self, since=0.0, until=float("inf")):
        with self.lock:
            return [c for (t0, _, c) in self.calls if since <= t0 < until]


def test_worker_killed_under_load(tmp_path):
    port = free_port()
    # debug: a line per call, naming the worker's pid (which worker served what)
    s = ServerProcess(
        tmp_path, "--workers", "2", "--port", str(port), "--threads", "1", "--log-level", "debug", metrics=False
    )
    # ServerProcess picked its own port; --port given last wins in argparse
    s.port, s.target = port, f"127.0.0.1:{port}"

    def served_by(pid):
        return s.log().count(
            f"[{pid}] " + '{"event": "call", "rpc": "Settle", "game": "shisanshui", "items": 60, '
            '"item_errors": 0, "code": "OK"'
        )

    try:
        s.wait_serving()
        wait_for(lambda: len(children(s.proc.pid)) == 2, what="two workers")
        wait_for(lambda: s.log().count('"event": "serving"') >= 2, what="both workers listening", server=s)
        with Load(s.target, threads=4) as load:
            wait_for(lambda: len(load.codes()) >= 20, timeout=60, what="load")
            victim = min(children(s.proc.pid))
            survivor = max(children(s.proc.pid))
            t_kill = time.monotonic()
            os.kill(victim, signal.SIGKILL)
            survivor_before = served_by(survivor)
            wait_for(
                lambda: len(children(s.proc.pid)) == 2 and victim not in children(s.proc.pid),
                timeout=30,
                what="the supervisor to restart the worker",
            )
            t_restarted = time.monotonic()
            wait_for(
                lambda: load.codes(since=t_restarted).count(grpc.StatusCode.OK) >= 20,
                timeout=60,
                what="load after the restart",
            )
            # the other worker kept serving: it answers calls after its sibling's death
            # (the clients whose connections were on the dead one reconnect to it or to
            # the new worker, so this waits for events, not for a time)
            wait_for(
                lambda: served_by(survivor) > survivor_before,
                timeout=60,
                what="the other worker to serve after the kill",
                server=s,
            )
        OK, UNAVAILABLE = grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE
        with load.lock:
            before = [c for (t0, t1, c) in load.calls if t1 <= t_kill]
            # in flight at the kill, or started before the dead worker was replaced
            during = [c for (t0, t1, c) in load.calls if t1 > t_kill and t0 < t_restarted]
            # each caller's later calls: up to its first OK (the last ones on a connection
            # to the dead worker), and from there on (on live workers)
            stale, after = [], []
            for calls in load.by_thread:
                later = [c for (t0, t1, c) in calls if t0 >= t_restarted]
                k = later.index(OK) if OK in later else len(later)
                stale, after = stale + later[:k], after + later[k:]
        assert set(before) == {OK}, before
        # Calls on the killed worker's connections fail (UNAVAILABLE: the RPCs are pure, so
        # a client may retry them) — nothing else.
        assert set(during) <= {OK, UNAVAILABLE}, during
        assert set(stale) <= {UNAVAILABLE}, stale
        assert set(after) == {OK}, after
        print(
            f"worker kill: {len(before)} calls before (all OK), {len(during) + len(stale)} during "
            f"({(during + stale).count(UNAVAILABLE)} UNAVAILABLE), {len(after)} after (all OK); "
            f"restarted in {t_restarted - t_kill:.2f} s"
        )
        assert "worker_died" in s.log()
    finally:
        assert s.terminate() == 0


def test_sigterm_under_load_finishes_calls_in_flight(tmp_path):
    s = ServerProcess(tmp_path, "--threads", "1", "--grace", "30", "--shutdown-delay", "0.3", metrics=False)
    try:
        s.wait_serving()
        with Load(s.target, threads=6, request=settle_request(300)) as load:
            wait_for(lambda: len(load.codes()) >= 12, timeout=60, what="load")
            t_term = time.monotonic()
            s.proc.send_signal(signal.SIGTERM)
            rc = s.proc.wait(timeout=60)
            t_exit = time.monotonic()
        assert rc == 0
        with load.lock:
            calls = list(load.calls)
        in_flight = [c for (t0, t1, c) in calls if t0 < t_term < t1]
        assert in_flight, "no call was in flight at SIGTERM"
        assert set(in_flight) == {grpc.StatusCode.OK}, f"calls in flight at SIGTERM: {in_flight}"
        before = [c for (t0, t1, c) in calls if t1 <= t_term]
        assert set(before) == {grpc.StatusCode.OK}
        later = [c for (t0, t1, c) in calls if t0 >= t_term]
        # new calls after SIGTERM are refused (UNAVAILABLE) or still served during the
        # shutdown delay (OK); none fail another way
        assert set(later) <= {grpc.StatusCode.OK, grpc.StatusCode.UNAVAILABLE}, later
        print(
            f"SIGTERM under load: {len(in_flight)} calls in flight all finished OK, exit 0 after "
            f"{t_exit - t_term:.2f} s; {len(later)} later calls: {sorted({c.name for c in later})}"
        )
    finally:
        s.close()


# ---- security basics


@pytest.mark.skipif(subprocess.run(["which", "ss"], capture_output=True).returncode != 0, reason="needs ss (iproute2)")
def test_binds_loopback_by_default(tmp_path):
    """No --host: the listening socket is loopback only, not every interface."""
    server = ServerProcess(tmp_path, metrics=False, env={"HANDEVAL_HOST": None})
    port, proc = server.port, server.proc
    try:

        def listening():
            out = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout
            return [line.split()[3] for line in out.splitlines() if line.strip()]

        wait_for(lambda: listening() or proc.poll() is not None, timeout=60, what="the server to listen")
        addrs = listening()
        # gRPC listens on an IPv6 socket with the v4-mapped loopback address
        assert addrs and set(addrs) <= {f"127.0.0.1:{port}", f"[::ffff:127.0.0.1]:{port}"}, addrs
    finally:
        assert server.terminate() == 0


@needs_openssl
def test_tls_and_token_reject_wrong_clients(tmp_path):
    """Mutual TLS plus a token: a client certificate from another CA, a client without a
    certificate, a plaintext client and a wrong token are all refused; the right client
    is served."""
    d = tmp_path
    make_cert(d, "ca", "server")
    make_cert(d, "ca", "client")
    make_cert(d, "rogue-ca", "rogue")
    read = lambda n: (d / n).read_bytes()  # noqa: E731
    s = ServerProcess(
        tmp_path,
        "--tls-cert",
        str(d / "server.pem"),
        "--tls-key",
        str(d / "server.key"),
        "--tls-client-ca",
        str(d / "ca.pem"),
        metrics=False,
        env={"HANDEVAL_TOKEN": "t0ken"},
    )
    good_md = (("authorization", "Bearer t0ken"),)
    try:
        good = grpc.ssl_channel_credentials(read("ca.pem"), read("client.key"), read("client.pem"))
        s.wait_serving(credentials=good)
        with s.channel(good) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            assert stub.Evaluate(evaluate_request(1), timeout=10, metadata=good_md).shisanshui.results
            for md in ((("authorization", "Bearer wrong"),), None, (("authorization", "t0ken"),)):
                with pytest.raises(grpc.RpcError) as e:
                    stub.Evaluate(evaluate_request(1), timeout=10, metadata=md)
                assert e.value.code() == grpc.StatusCode.UNAUTHENTICATED
        wrong = {
            "rogue client certificate": grpc.ssl_channel_credentials(
                read("ca.pem"), read("rogue.key"), read("rogue.pem")
            ),
            "no client certificate": grpc.ssl_channel_credentials(read("ca.pem")),
            "plaintext": None,
        }
        for what, creds in wrong.items():
            with s.channel(creds) as ch:
                with pytest.raises(grpc.RpcError) as e:
                    handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(1), timeout=10, metadata=good_md)
                assert e.value.code() == grpc.StatusCode.UNAVAILABLE, what
        assert s.terminate() == 0
    finally:
        s.close()

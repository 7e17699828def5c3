"""Connection-level limits of `handeval serve` against real processes on loopback:
a flood of idle sockets is capped by --max-connections and closed by the handshake
timeout while connected clients and the metrics keep working; idle HTTP/2 connections
close after --max-connection-idle; --max-connection-age moves long-lived clients onto a
restarted worker. Bounded: a few hundred sockets, every loop has a deadline."""

from __future__ import annotations

import os
import re
import resource
import signal
import socket
import threading
import time

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.h2raw import PREFACE_AND_SETTINGS, SETTINGS_ACK

from grpc_fixtures import ServerProcess, children, closed_by_peer, server_connections, wait_for

FLOOD = 600
LIMIT = 50


def evaluate(stub):
    req = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]
        )
    )
    return stub.Evaluate(req, timeout=10)


def sockets_of(pid) -> int:
    """Socket descriptors the process holds."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return n


def _descriptors(want: int):
    """Raise the soft RLIMIT_NOFILE to ``want`` for one test (skip it where the hard limit
    is lower), and put it back after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"needs {want} file descriptors, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture
def enough_descriptors():
    yield from _descriptors(FLOOD + 512)


def test_idle_socket_flood_is_capped_and_the_service_stays_available(tmp_path, enough_descriptors):
    # a long idle time: the connected client keeps its connection while the flood waits
    s = ServerProcess(tmp_path, "--max-connections", str(LIMIT), "--threads", "1", "--max-connection-idle", "60")
    flood = []
    try:
        s.wait_serving()
        with s.channel() as ch:  # a well-behaved client, connected before the flood
            stub = handeval_pb2_grpc.HandevalStub(ch)
            assert evaluate(stub).shisanshui.results
            base = sockets_of(s.proc.pid)
            for _ in range(FLOOD):  # connect and send nothing (no HTTP/2 preface)
                c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
                flood.append(c)
            # the excess is closed at once: the server holds at most LIMIT connections
            wait_for(
                lambda: sum(map(closed_by_peer, flood)) >= FLOOD - LIMIT,
                timeout=30,
                what="the connections over the limit to be closed",
                server=s,
            )
            assert server_connections(s.port) <= LIMIT + 1  # + the client's, if not counted yet
            assert sockets_of(s.proc.pid) - base <= LIMIT
            # connected clients and the metrics keep working
            for _ in range(20):
                assert evaluate(stub).shisanshui.results
            assert "handeval_requests_total" in s.metrics()
            # the idle sockets are closed by the handshake timeout (4 s; gRPC's default is 120 s)
            wait_for(
                lambda: all(map(closed_by_peer, flood)), timeout=60, what="the idle sockets to be closed", server=s
            )
            assert server_connections(s.port) == 1  # the well-behaved client's
            # a new client is served again while the flood's sockets are still open here
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as fresh:
                assert evaluate(handeval_pb2_grpc.HandevalStub(fresh)).shisanshui.results
            assert evaluate(stub).shisanshui.results
        assert "Traceback" not in s.log()
        assert s.terminate() == 0
    finally:
        for c in flood:
            c.close()
        s.close()


def test_idle_connections_close_after_max_connection_idle(tmp_path):
    s = ServerProcess(tmp_path, "--max-connection-idle", "0.5", metrics=False)
    try:
        s.wait_serving()
        wait_for(lambda: server_connections(s.port) == 0, what="wait_serving's connection to close", server=s)
        with s.channel() as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            assert evaluate(stub).shisanshui.results
            assert server_connections(s.port) == 1
            wait_for(
                lambda: server_connections(s.port) == 0, timeout=30, what="the idle connection to be closed", server=s
            )
            # the client reconnects by itself on its next call
            assert evaluate(stub).shisanshui.results
        assert s.terminate() == 0
    finally:
        s.close()


CALL_LINE = re.compile(r"handeval\.server\[(\d+)\] \{\"event\": \"call\"")


def calls_by_pid(log: str):
    out = {}
    for m in CALL_LINE.finditer(log):
        pid = int(m.group(1))
        out[pid] = out.get(pid, 0) + 1
    return out


def test_max_connection_age_moves_clients_onto_a_restarted_worker(tmp_path):
    """--workers 2, long-lived client channels: after one worker is killed every channel
    is on the survivor; the restarted worker gets calls again because connections are
    asked to reconnect after --max-connection-age — and no call fails for it."""
    s = ServerProcess(
        tmp_path, "--workers", "2", "--threads", "1", "--max-connection-age", "1", "--log-level", "debug", metrics=False
    )
    stop = threading.Event()
    results = []
    lock = threading.Lock()

    def client():
        with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            while not stop.is_set():
                t0 = time.monotonic()
                try:
                    evaluate(stub)
                    code = grpc.StatusCode.OK
                except grpc.RpcError as e:
                    code = e.code()
                with lock:
                    results.append((t0, code))
                time.sleep(0.02)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(6)]
    try:
        s.wait_serving()
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        for t in threads:
            t.start()
        wait_for(lambda: len(results) >= 30, what="calls", server=s)
        first = children(s.proc.pid)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        wait_for(
            lambda: len(children(s.proc.pid)) == 2 and victim not in children(s.proc.pid),
            what="the supervisor to restart the worker",
            server=s,
        )
        (restarted,) = children(s.proc.pid) - first
        wait_for(lambda: s.log().count('"event": "serving"') == 3, what="the new worker to serve", server=s)
        t_serving = time.monotonic()
        wait_for(
            lambda: calls_by_pid(s.log()).get(restarted, 0) >= 20,
            timeout=60,
            what="calls on the restarted worker",
            server=s,
        )
        wait_for(lambda: len([1 for (t0, _) in results if t0 > t_serving]) >= 50, what="more calls", server=s)
        stop.set()
        for t in threads:
            t.join(30)
        # reconnecting after a GOAWAY is transparent: no call fails for it
        after = [c for (t0, c) in results if t0 > t_serving]
        assert set(after) == {grpc.StatusCode.OK}, {c: after.count(c) for c in set(after)}
        assert s.terminate(60) == 0
    finally:
        stop.set()
        s.close()


# ---- connections that open no call ----

PREFACE_FLOOD = 3000


def health_check(target_server, timeout=1.0) -> bool:
    """One Health.Check on a new connection of its own; whether it was answered."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with target_server.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        try:
            health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
            return True
        except grpc.RpcError:
            return False


@pytest.fixture
def descriptors_for_preface_flood():
    yield from _descriptors(PREFACE_FLOOD + 512)


@pytest.mark.parametrize("frames", ["preface", "preface+ack"])
def test_preface_only_sockets_are_closed_and_a_new_client_is_served(
    tmp_path, descriptors_for_preface_flood, frames, record_property
):
    """3,000 sockets that send the HTTP/2 preface and an empty SETTINGS frame (and, in the
    second case, acknowledge the server's settings) and then nothing, against the default
    limits (--max-connections 1000): the server closes every one of them by itself (the
    1,000 it accepted because they open no call), and a new client is served while the
    3,000 sockets are still open on this side. The times are reported; the bound is a
    functional one (without the short idle time the sockets held their slots 60 s)."""
    s = ServerProcess(tmp_path, "--threads", "1", metrics=False)
    flood = []
    payload = PREFACE_AND_SETTINGS + (SETTINGS_ACK if frames == "preface+ack" else b"")
    try:
        s.wait_serving()
        wait_for(lambda: server_connections(s.port) == 0, what="wait_serving's connection to close", server=s)
        for _ in range(PREFACE_FLOOD):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            c.sendall(payload)
            flood.append(c)
        sent = time.monotonic()
        failed = 0
        while not health_check(s):  # refused (UNAVAILABLE) while the flood holds every slot
            failed += 1
            assert time.monotonic() - sent < 30, f"no new client served 30 s after the flood:\n{s.log()[-3000:]}"
        served = time.monotonic() - sent
        wait_for(
            lambda: all(map(closed_by_peer, flood)),
            timeout=30,
            what="the server to close the preface-only sockets",
            server=s,
        )
        closed = time.monotonic() - sent
        # the flood's sockets are still open here; the server holds none of them
        wait_for(lambda: server_connections(s.port) == 0, what="the server to hold no connection", server=s)
        assert health_check(s, timeout=10)
        record_property("new_client_served_s", round(served, 2))
        record_property("flood_closed_s", round(closed, 2))
        print(
            f"{frames}: new client served {served:.2f} s after the flood ({failed} refused tries), "
            f"every flood socket closed by the server after {closed:.2f} s"
        )
        assert "Traceback" not in s.log()
        assert s.terminate() == 0
    finally:
        for c in flood:
            c.close()
        s.close()


def test_a_call_in_progress_keeps_its_connection_past_the_idle_time(tmp_path):
    """--max-connection-idle closes connections without calls only: a call whose client
    has sent its headers but not yet its request keeps its connection, while a connection
    opened after it and left without calls is closed."""
    from grpc_health.v1 import health_pb2

    # --max-request-wait 60: the slow call's request may come late (that bound is
    # tests/grpc/test_availability_conn.py's subject)
    s = ServerProcess(tmp_path, "--max-connection-idle", "0.5", "--max-request-wait", "60", metrics=False)
    go = threading.Event()

    def requests():  # the request is sent only once `go` is set
        go.wait(60)
        yield health_pb2.HealthCheckRequest()

    try:
        s.wait_serving()
        wait_for(lambda: server_connections(s.port) == 0, what="wait_serving's connection to close", server=s)
        with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as slow:
            check = slow.stream_unary(
                "/grpc.health.v1.Health/Check",
                request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                response_deserializer=health_pb2.HealthCheckResponse.FromString,
            )
            pending = check.future(requests(), timeout=60)
            wait_for(lambda: server_connections(s.port) == 1, what="the slow call's connection", server=s)
            # a witness: a later connection without calls is closed after the idle time …
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as witness:
                from grpc_health.v1 import health_pb2_grpc

                health_pb2_grpc.HealthStub(witness).Check(health_pb2.HealthCheckRequest(), timeout=10)
                wait_for(
                    lambda: server_connections(s.port) == 1,
                    timeout=30,
                    what="the witness connection to be closed as idle",
                    server=s,
                )
            # … the older one with the call in progress is still open, and the call completes
            assert not pending.done()
            go.set()
            assert pending.result(timeout=30).status == health_pb2.HealthCheckResponse.SERVING
            assert server_connections(s.port) == 1
        assert s.terminate() == 0
    finally:
        go.set()
        s.close()

"""Connection-level limits of `handeval serve` against real processes on loopback:
a flood of idle sockets is capped by --max-connections and closed by the handshake
timeout while connected clients and the metrics keep working; idle HTTP/2 connections
close after --max-connection-idle; --max-connection-age moves long-lived clients onto a
restarted worker (issue 12). Bounded: a few hundred sockets, every loop has a deadline."""

from __future__ import annotations

import os
import re
import resource
import signal
import socket
import threading
import time
from pathlib import Path

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

from grpc_fixtures import children, ServerProcess, wait_for

FLOOD = 600
LIMIT = 50


def evaluate(stub):
    req = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]))
    return stub.Evaluate(req, timeout=10)


def fd_count(pid) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def server_connections(port: int) -> int:
    """Established TCP connections whose local port is ``port`` (the server's side;
    accepted or still in the listen backlog), from /proc/net/tcp and tcp6."""
    n = 0
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "01" and int(f[1].rsplit(":", 1)[1], 16) == port:
                n += 1
    return n


def sockets_of(pid) -> int:
    """Socket descriptors the process holds."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return n


def closed_by_peer(s: socket.socket) -> bool:
    """Whether the server closed ``s`` (reads and drops what it sent first: its HTTP/2
    settings)."""
    while True:
        try:
            if s.recv(65536, socket.MSG_DONTWAIT) == b"":
                return True
        except BlockingIOError:
            return False
        except OSError:
            return True


@pytest.fixture
def enough_descriptors():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = FLOOD + 512
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            pytest.skip(f"needs {want} file descriptors, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_idle_socket_flood_is_capped_and_the_service_stays_available(tmp_path, enough_descriptors):
    s = ServerProcess(tmp_path, "--max-connections", str(LIMIT), "--threads", "1")
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
            wait_for(lambda: sum(map(closed_by_peer, flood)) >= FLOOD - LIMIT, timeout=30,
                     what="the connections over the limit to be closed", server=s)
            assert server_connections(s.port) <= LIMIT + 1  # + the client's, if not counted yet
            assert sockets_of(s.proc.pid) - base <= LIMIT
            # connected clients and the metrics keep working
            for _ in range(20):
                assert evaluate(stub).shisanshui.results
            assert "handeval_requests_total" in s.metrics()
            # the idle sockets are closed by the handshake timeout (10 s; gRPC's default is 120 s)
            wait_for(lambda: all(map(closed_by_peer, flood)), timeout=60,
                     what="the idle sockets to be closed", server=s)
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
            wait_for(lambda: server_connections(s.port) == 0, timeout=30,
                     what="the idle connection to be closed", server=s)
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
    s = ServerProcess(tmp_path, "--workers", "2", "--threads", "1", "--max-connection-age", "1",
                      "--log-level", "debug", metrics=False)
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
        wait_for(lambda: len(children(s.proc.pid)) == 2 and victim not in children(s.proc.pid),
                 what="the supervisor to restart the worker", server=s)
        (restarted,) = children(s.proc.pid) - first
        wait_for(lambda: s.log().count('"event": "serving"') == 3, what="the new worker to serve", server=s)
        t_serving = time.monotonic()
        wait_for(lambda: calls_by_pid(s.log()).get(restarted, 0) >= 20, timeout=60,
                 what="calls on the restarted worker", server=s)
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

"""Security of `handeval serve` beyond the token and TLS checks (tests/grpc/test_grpc_lifecycle.py,
tests/grpc/test_faults.py): no secret on a command line, metrics on /metrics only, and a
warning when the service listens beyond loopback without protection."""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

from grpc_fixtures import ServerProcess, children, closed_by_peer, wait_for

TOKEN = "s3cret-t0ken-4f9a"


def _cmdline(pid) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def _evaluate(stub, md):
    req = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]
        )
    )
    return stub.Evaluate(req, timeout=30, metadata=md)


@pytest.mark.parametrize("source", ["token-file", "environment"])
def test_workers_get_the_token_without_a_command_line(tmp_path, source):
    """--workers 2: the token reaches every worker (each accepts it), yet no process's
    command line (readable by every user: ps, /proc/PID/cmdline) contains it."""
    if source == "token-file":
        (tmp_path / "token").write_text(TOKEN + "\n")
        s = ServerProcess(tmp_path, "--workers", "2", "--token-file", str(tmp_path / "token"), metrics=False)
    else:
        s = ServerProcess(tmp_path, "--workers", "2", metrics=False, env={"HANDEVAL_TOKEN": TOKEN})
    try:
        s.wait_serving()
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        workers = children(s.proc.pid)
        assert len(workers) == 2
        for pid in [s.proc.pid, *workers]:
            assert TOKEN not in _cmdline(pid), _cmdline(pid)
        assert all("handeval.server.worker" in _cmdline(pid) for pid in workers)
        # both workers check the token: new connections spread over them (SO_REUSEPORT)
        for _ in range(8):
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                stub = handeval_pb2_grpc.HandevalStub(ch)
                assert _evaluate(stub, (("authorization", f"Bearer {TOKEN}"),)).shisanshui.results
                with pytest.raises(grpc.RpcError) as ei:
                    _evaluate(stub, (("authorization", "Bearer wrong"),))
                assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert TOKEN not in s.log()
        assert s.terminate(60) == 0
    finally:
        s.close()


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_metrics_only_on_the_metrics_path(tmp_path, workers):
    s = ServerProcess(tmp_path, "--workers", workers)
    try:
        s.wait_serving()
        base = f"http://127.0.0.1:{s.metrics_port}"
        status, body = _get(base + "/metrics")
        assert status == 200 and "handeval_inflight_requests" in body
        for path in ("/", "/favicon.ico", "/metrics/", "/metricsx", "/admin", "/metrics/../x"):
            status, body = _get(base + path)
            assert status == 404, path
            assert "handeval_" not in body, path
        assert s.terminate(60) == 0
    finally:
        s.close()


def test_beyond_loopback_unprotected_is_refused_unless_insecure_remote(tmp_path):
    """--host 0.0.0.0 without TLS or token: refused at start (exit 2, one line naming both
    and --insecure-remote); with --insecure-remote it serves, with a warning naming both
    (the test only connects over loopback); the loopback default warns of nothing."""
    refused = subprocess.run(
        [sys.executable, "-m", "handeval", "serve", "--host", "0.0.0.0", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2, refused
    assert "without TLS" in refused.stderr and "without a token" in refused.stderr, refused.stderr
    assert "--insecure-remote" in refused.stderr and "Traceback" not in refused.stderr
    s = ServerProcess(tmp_path, "--host", "0.0.0.0", "--insecure-remote", metrics=False)
    try:
        s.wait_serving()
        log = s.log()
        assert '"event": "exposed"' in log and "without TLS" in log and "without a token" in log, log
        assert s.terminate() == 0
    finally:
        s.close()
    s = ServerProcess(tmp_path, metrics=False)
    try:
        s.wait_serving()
        assert '"event": "exposed"' not in s.log()
        assert s.terminate() == 0
    finally:
        s.close()


# ---- the token stays out of the workers' environment; bounded metrics endpoint ----


def _environ(pid) -> bytes:
    return Path(f"/proc/{pid}/environ").read_bytes()


def test_workers_do_not_get_the_token_in_their_environment(tmp_path):
    """HANDEVAL_TOKEN given to the supervisor: the workers get the token through the
    config pipe, not the environment (/proc/PID/environ); each still requires it."""
    from grpc_health.v1 import health_pb2

    s = ServerProcess(tmp_path, "--workers", "2", metrics=False, env={"HANDEVAL_TOKEN": TOKEN})
    try:
        s.wait_serving()
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        workers = children(s.proc.pid)
        assert len(workers) == 2
        for pid in workers:
            env = _environ(pid)
            assert b"PROMETHEUS_MULTIPROC_DIR=" in env  # the environment the supervisor gave it
            assert TOKEN.encode() not in env and b"HANDEVAL_TOKEN=" not in env
        assert s.log().count('"token": true') == 2
        # a call without the token is refused by whichever worker takes it (the generic
        # channel: any method but health needs the token, also an unknown one)
        for _ in range(4):
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                probe = ch.unary_unary(
                    "/no.such.Service/Call",
                    request_serializer=lambda m: m.SerializeToString(),
                    response_deserializer=health_pb2.HealthCheckResponse.FromString,
                )
                with pytest.raises(grpc.RpcError) as ei:
                    probe(health_pb2.HealthCheckRequest(), timeout=30)
                assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert s.terminate(60) == 0
    finally:
        s.close()


HALF_SENT = 200


def _threads(pid) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no Threads line")


def test_half_sent_metrics_requests_are_bounded_and_timed_out(tmp_path):
    """200 connections to the metrics port that send part of a request and then nothing:
    the server keeps at most MAX_CONNECTIONS of them (a thread each), closes the rest at
    once and the kept ones after REQUEST_TIMEOUT_S, and then answers /metrics while the
    200 sockets are still open on this side."""
    import socket

    from handeval.server.metrics import MAX_CONNECTIONS

    s = ServerProcess(tmp_path, "--threads", "1")
    slow = []
    try:
        s.wait_serving()
        assert "handeval_inflight_requests" in s.metrics()
        base = _threads(s.proc.pid)
        most = base
        for _ in range(HALF_SENT):
            c = socket.create_connection(("127.0.0.1", s.metrics_port), timeout=10)
            c.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never complete
            slow.append(c)
            most = max(most, _threads(s.proc.pid))
        wait_for(
            lambda: sum(map(closed_by_peer, slow)) >= HALF_SENT - MAX_CONNECTIONS,
            timeout=30,
            what="the connections over the limit to be closed",
            server=s,
        )
        most = max(most, _threads(s.proc.pid))
        wait_for(
            lambda: all(map(closed_by_peer, slow)), timeout=60, what="the half-sent requests to time out", server=s
        )
        assert most - base <= MAX_CONNECTIONS, (base, most)
        body = s.metrics()
        assert "handeval_inflight_requests" in body
        print(f"threads: {base} before, at most {most} with {HALF_SENT} half-sent requests")
        assert "Traceback" not in s.log()
        assert s.terminate() == 0
    finally:
        for c in slow:
            c.close()
        s.close()

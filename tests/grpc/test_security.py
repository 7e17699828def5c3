"""Security of `handeval serve` beyond the token and TLS checks (tests/grpc/test_grpc_lifecycle.py,
tests/grpc/test_faults.py): no secret on a command line, metrics on /metrics only, and a
warning when the service listens beyond loopback without protection."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

from grpc_fixtures import children, ServerProcess, wait_for

TOKEN = "s3cret-t0ken-4f9a"


def _cmdline(pid) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def _evaluate(stub, md):
    req = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]))
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


def test_warning_when_listening_beyond_loopback_unprotected(tmp_path):
    """--host 0.0.0.0 without TLS or token: a warning naming both (the test only connects
    over loopback); the loopback default warns of nothing."""
    s = ServerProcess(tmp_path, "--host", "0.0.0.0", metrics=False)
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

"""Process-level behaviour of `handeval serve`: SIGTERM with a call in flight,
`--workers 2` (shared port, supervisor restarts a dead worker, metrics summed across
workers), the shared-token check and TLS / mutual TLS."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

from grpc_fixtures import (
    ServerProcess,
    children,
    make_cert,
    metric_value,
    needs_openssl,
    random_deals as deals,
    settle_request,
    wait_for,
)

SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING


def evaluate_request(n=1):
    return pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))] * n
        )
    )


def test_sigterm_finishes_the_call_in_flight_and_exits_0(tmp_path):
    s = ServerProcess(
        tmp_path,
        "--max-batch",
        "100000",
        "--shutdown-delay",
        "3",
        "--grace",
        "30",
        "--threads",
        "1",
        "--max-message-bytes",
        str(64 << 20),
    )
    try:
        s.wait_serving()
        req = settle_request(60000)  # ~1 s of settlement on one thread: still running at the SIGTERM
        result = {}
        with s.channel(options=[("grpc.max_receive_message_length", -1)]) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            health = health_pb2_grpc.HealthStub(ch)

            def call():
                try:
                    result["resp"] = stub.Settle(req, timeout=120)
                except grpc.RpcError as e:
                    result["error"] = e

            t = threading.Thread(target=call)
            t.start()
            wait_for(
                lambda: metric_value(s.metrics(), "handeval_inflight_requests") >= 1 or not t.is_alive(),
                what="the call to be in flight",
                server=s,
            )
            assert t.is_alive(), "the call finished before SIGTERM; make the batch larger"
            s.proc.send_signal(signal.SIGTERM)
            # during the shutdown delay, health says NOT_SERVING (load balancers drain)
            seen = []

            def not_serving():
                try:
                    seen.append(health.Check(health_pb2.HealthCheckRequest(), timeout=2).status)
                except grpc.RpcError:
                    seen.append(None)
                return seen[-1] != SERVING

            wait_for(not_serving, what="health NOT_SERVING", server=s)
            t.join(120)
        assert "error" not in result, result.get("error")
        assert len(result["resp"].shisanshui.results) == 60000
        assert all(r.WhichOneof("result") == "settlement" for r in result["resp"].shisanshui.results)
        assert NOT_SERVING in seen
        assert s.proc.wait(60) == 0
        assert '"event": "shutdown", "inflight": 1' in s.log()
    finally:
        s.close()


def test_two_workers_share_the_port_restart_and_sum_metrics(tmp_path):
    s = ServerProcess(tmp_path, "--workers", "2", "--threads", "1")
    try:
        s.wait_serving()
        wait_for(lambda: len(children(s.proc.pid)) == 2, what="two workers", server=s)
        # both must be serving before one is killed, or the count below races the start-up
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        first = children(s.proc.pid)
        calls = 0
        # separate connections: the kernel spreads them over the workers
        for _ in range(12):
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                r = handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(3), timeout=30)
                assert len(r.shisanshui.results) == 3
                calls += 1
        text = s.metrics()
        assert metric_value(text, "handeval_requests_total", rpc="Evaluate", game="shisanshui", code="OK") == calls
        assert metric_value(text, "handeval_batch_items_sum", rpc="Evaluate", game="shisanshui") == 3 * calls

        victim = sorted(first)[0]
        os.kill(victim, signal.SIGKILL)
        wait_for(
            lambda: len(children(s.proc.pid)) == 2 and victim not in children(s.proc.pid),
            what="the supervisor to restart the worker",
            server=s,
        )
        wait_for(lambda: s.log().count('"event": "serving"') == 3, what="the new worker to serve", server=s)
        for _ in range(4):
            with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
                handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(), timeout=30)
        # counts of the dead worker are kept (prometheus multiprocess files)
        assert metric_value(s.metrics(), "handeval_requests_total", rpc="Evaluate", code="OK") == calls + 4
        assert '"event": "worker_died"' in s.log()
        assert s.terminate(60) == 0
    finally:
        s.close()


def test_token_required_except_for_health(tmp_path):
    s = ServerProcess(tmp_path, metrics=False, env={"HANDEVAL_TOKEN": "s3cret"})
    try:
        s.wait_serving()  # health needs no token
        with s.channel() as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            for md in (None, (("authorization", "Bearer wrong"),)):
                with pytest.raises(grpc.RpcError) as ei:
                    stub.Evaluate(evaluate_request(), timeout=10, metadata=md)
                assert ei.value.code() == grpc.StatusCode.UNAUTHENTICATED
            ok = stub.Evaluate(evaluate_request(), timeout=10, metadata=(("authorization", "Bearer s3cret"),))
            assert ok.shisanshui.results[0].row.category == ssw.SHISANSHUI_CATEGORY_HIGH_CARD
        assert s.terminate() == 0
    finally:
        s.close()


@needs_openssl
def test_mutual_tls(tmp_path):
    d = tmp_path
    make_cert(d, "ca", "server")
    make_cert(d, "ca", "client")
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
    )
    try:
        mtls = grpc.ssl_channel_credentials(read("ca.pem"), read("client.key"), read("client.pem"))
        s.wait_serving(credentials=mtls)
        with s.channel(mtls) as ch:
            assert handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(), timeout=10).shisanshui.results
        with s.channel(grpc.ssl_channel_credentials(read("ca.pem"))) as ch:  # no client certificate
            with pytest.raises(grpc.RpcError) as ei:
                handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(), timeout=10)
            assert ei.value.code() == grpc.StatusCode.UNAVAILABLE
        with s.channel() as ch:  # plaintext
            with pytest.raises(grpc.RpcError):
                handeval_pb2_grpc.HandevalStub(ch).Evaluate(evaluate_request(), timeout=10)
        assert s.terminate() == 0
    finally:
        s.close()


def test_sigterm_gives_arriving_calls_the_grace(tmp_path):
    """200 calls sent at once, SIGTERM right after: most are still arriving (queued in
    gRPC's core, not yet taken up) when the signal comes. With --grace 30 every one must be
    answered OK — gRPC's own stop() answers such calls CANCELLED (grpc/grpc#41785)."""
    # 256 streams on the connection: the 200 calls reach the server at once (with the
    # default 16 the client queues the rest, and those are refused UNAVAILABLE once the
    # server stops accepting — retryable, but not what this test is about)
    s = ServerProcess(tmp_path, "--threads", "1", "--grace", "30", "--max-streams-per-connection", "256", metrics=False)
    try:
        s.wait_serving()
        req = pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=deals(20)))
        with s.channel() as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            stub.Settle(req, timeout=30)  # connected
            futs = [stub.Settle.future(req, timeout=120) for _ in range(200)]
            s.proc.send_signal(signal.SIGTERM)
            codes = []
            for f in futs:
                try:
                    codes.append(grpc.StatusCode.OK if f.result().shisanshui.results else None)
                except grpc.RpcError as e:
                    codes.append(e.code())
        assert codes == [grpc.StatusCode.OK] * 200, {c: codes.count(c) for c in set(codes)}
        assert s.proc.wait(60) == 0
        assert "Traceback" not in s.log()
    finally:
        s.close()


def test_grace_expiry_cancels_and_exits_without_traceback(tmp_path):
    """A call longer than --grace: cancelled when the grace ends, the process exits 0 at
    once (not after the batch) and logs no traceback."""
    s = ServerProcess(
        tmp_path, "--threads", "1", "--grace", "0.5", "--max-batch", "100000", "--max-message-bytes", str(64 << 20)
    )
    try:
        s.wait_serving()
        assert f'"metrics_port": {s.metrics_port}' in s.log()  # the serving line names it
        with s.channel() as ch:
            fut = handeval_pb2_grpc.HandevalStub(ch).Settle.future(settle_request(100000), timeout=300)  # ~2 s of work
            wait_for(
                lambda: metric_value(s.metrics(), "handeval_inflight_requests") >= 1 or fut.done(),
                what="the call to be in flight",
                server=s,
            )
            assert not fut.done(), "the call finished before SIGTERM; make it bigger"
            s.proc.send_signal(signal.SIGTERM)
            with pytest.raises(grpc.RpcError) as ei:
                fut.result()
            assert ei.value.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE), ei.value
            rc = s.proc.wait(60)
        assert rc == 0, s.log()
        log = s.log()
        assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
        assert '"event": "stopped", "held"' in log  # the server's line (a call's is "stopped" too)
    finally:
        s.close()


def test_workers_stop_when_the_supervisor_is_killed(tmp_path):
    """SIGKILL of the supervisor (nothing can forward a SIGTERM then): its workers notice
    and shut down instead of serving on, orphaned."""
    s = ServerProcess(tmp_path, "--workers", "2", metrics=False)
    workers = set()
    try:
        s.wait_serving()
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        workers = children(s.proc.pid)
        assert len(workers) == 2
        s.proc.kill()
        s.proc.wait()

        def gone(pid):
            try:
                return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
            except OSError:
                return True

        wait_for(lambda: all(gone(p) for p in workers), timeout=30, what="the workers to stop", server=s)
        assert s.log().count('"event": "supervisor_gone"') == 2
        assert "Traceback" not in s.log()
    finally:
        for pid in workers:  # only if the test failed: they would be orphans
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        s.close()

"""The HTTP/2 floods of issue 38 against real `handeval serve` processes on loopback:
Health/Watch streams, clients that never read their answers, compressed requests, the
logs of bad input, the start beyond loopback and rollouts. The attacks speak HTTP/2 by
hand (harness.h2raw); every wait is an event or a polled condition with a hang
guard, never a timing assert."""

from __future__ import annotations

import json
import random
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw, tienlen_pb2 as tl
from harness import work_attacks as attacks_work
from harness.h2raw import RawConnection

from grpc_fixtures import (
    EVALUATE,
    TINY,
    ServerProcess,
    metric_value,
    new_client_call,
    no_traceback,
    served_and_exits_cleanly,
    wait_for,
)

TOKEN = (("authorization", "Bearer sesame"),)
#: 3,000 fronts: a 48 KB request (within a stream's first window) whose answer is ~96 KB.
WIDE = pb.EvaluateRequest(
    shisanshui=ssw.ShisanshuiEvaluateRequest(
        items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))] * 3000
    )
).SerializeToString()


def first_watch_answer(stream):
    """The first message of a Watch stream, or the code it failed with."""
    try:
        return next(stream).status
    except grpc.RpcError as e:
        return e.code()


# ---- Health/Watch streams


def test_watch_streams_need_the_token_are_bounded_and_take_no_call_slot(tmp_path):
    """With a token: a Watch without it is UNAUTHENTICATED (it was open to anyone);
    with it, one address holds at most --max-watch-streams / 8 streams, and those take
    none of the --max-concurrent-rpcs slots (2 held Watch streams on a 2-call limit left
    every call refused)."""
    s = ServerProcess(
        tmp_path,
        "--max-concurrent-rpcs",
        "2",
        "--max-watch-streams",
        "16",
        env={"HANDEVAL_TOKEN": "sesame"},
        metrics=False,
    )
    streams = []
    try:
        s.wait_serving()
        with s.channel() as ch:
            health = health_pb2_grpc.HealthStub(ch)
            # Check stays open (Kubernetes probes send no token)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=10).status == 1
            anon = health.Watch(health_pb2.HealthCheckRequest(), timeout=30)
            assert first_watch_answer(anon) == grpc.StatusCode.UNAUTHENTICATED
            for _ in range(2):
                w = health.Watch(health_pb2.HealthCheckRequest(), timeout=60, metadata=TOKEN)
                streams.append(w)
                assert first_watch_answer(w) == health_pb2.HealthCheckResponse.SERVING
            third = health.Watch(health_pb2.HealthCheckRequest(), timeout=30, metadata=TOKEN)
            assert first_watch_answer(third) == grpc.StatusCode.RESOURCE_EXHAUSTED
            # the two held streams take no call slot: two calls at once are served
            stub = handeval_pb2_grpc.HandevalStub(ch)
            calls = [stub.Evaluate.future(TINY, timeout=10, metadata=TOKEN) for _ in range(2)]
            assert all(len(c.result().shisanshui.results) == 1 for c in calls)
        for w in streams:
            w.cancel()
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        for w in streams:
            w.cancel()
        s.close()


# ---- clients that never read their answers


def test_an_unread_answer_frees_its_call_slot(tmp_path):
    """A client that announces a window of 0 (it reads nothing) and makes 3 calls on a
    3-call limit: once each answer is handed to gRPC (its HEADERS come, its bytes
    cannot), the slots are free and a new client is served (before, the unread answers
    held every slot until the deadline or the connection's end)."""
    s = ServerProcess(tmp_path, "--max-concurrent-rpcs", "3", metrics=False)
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port, timeout=120, window=0)
        streams = [c.call(EVALUATE, WIDE) for _ in range(3)]
        assert all(streams)
        wait_for(lambda: set(streams) <= c.answered, what="the answers' HEADERS", server=s)
        assert not c.ended & set(streams)  # the answers are not out: nothing ended them
        served_and_exits_cleanly(s)
    finally:
        if c is not None:
            c.close()
        s.close()


def test_unread_answers_beyond_the_bound_close_the_connection(tmp_path):
    """Answers of ~96 KB that the client never reads: past --max-unread-answer-bytes
    (300 KB; at least --max-message-bytes, here 256 KiB) on its connection the server
    closes it (20 answers, the hang guard, would be 1.9 MB)."""
    s = ServerProcess(
        tmp_path, "--max-unread-answer-bytes", "300000", "--max-message-bytes", str(256 * 1024), metrics=False
    )
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port, timeout=120, window=0)
        sent = 0
        while not c.closed.is_set() and sent < 20:  # 20 answers: 1.9 MB, far over the bound
            if c.call(EVALUATE, WIDE, wait=5):
                sent += 1
            wait_for(lambda n=sent: c.closed.is_set() or len(c.answered) >= n, what="the answer", server=s)
        wait_for(c.closed.is_set, what="the server to close the connection of unread answers", server=s)
        assert sent <= 5, sent  # closed at the 4th answer (384 KB > 300 KB)
        assert '"event": "unread_answers"' in s.log()
        served_and_exits_cleanly(s)
    finally:
        if c is not None:
            c.close()
        s.close()


# ---- compressed requests


def _compressed_call(s: ServerProcess, body: bytes, timeout=30) -> grpc.StatusCode:
    with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        call = ch.unary_unary(EVALUATE, request_serializer=None, response_deserializer=None)
        try:
            call(body, timeout=timeout, compression=grpc.Compression.Gzip)
            return grpc.StatusCode.OK
        except grpc.RpcError as e:
            return e.code()


def test_compressed_requests_are_refused_unless_accepted_and_bounded_when_accepted(tmp_path):
    """By default a gzip request is refused UNIMPLEMENTED at its headers (it was inflated,
    up to --max-message-bytes); with --accept-compression gzip it is served, and one
    inflating past --max-message-bytes (32 MiB of zeros, ~32 KB sent) is refused
    RESOURCE_EXHAUSTED; no traceback either way."""
    bomb = bytes(32 << 20)
    s = ServerProcess(tmp_path, metrics=False)
    try:
        s.wait_serving()
        assert _compressed_call(s, TINY.SerializeToString()) == grpc.StatusCode.UNIMPLEMENTED
        assert _compressed_call(s, bomb) == grpc.StatusCode.UNIMPLEMENTED
        served_and_exits_cleanly(s)
    finally:
        s.close()
    s = ServerProcess(tmp_path, "--accept-compression", "gzip", metrics=False)
    try:
        s.wait_serving()
        assert _compressed_call(s, TINY.SerializeToString()) == grpc.StatusCode.OK
        assert _compressed_call(s, bomb) == grpc.StatusCode.RESOURCE_EXHAUSTED
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        s.close()


# ---- logs of a peer's input


def test_logs_of_bad_input_are_escaped_bounded_and_rate_limited(tmp_path):
    """200 calls with an encoding gRPC core cannot parse (``br``: it logs a line each,
    194 lines in 10 s before) and 50 calls without the token to a forged path (a quote,
    a newline starting a fake line, 8,000 characters): at most LOG_BURST lines at
    WARNING and above (the rest counted), every line one escaped JSON line, none longer
    than LOG_LINE_CHARS; no forged line."""
    from handeval.server.logs import LOG_BURST, LOG_LINE_CHARS

    s = ServerProcess(tmp_path, env={"HANDEVAL_TOKEN": "sesame"}, metrics=False)
    c = None
    try:
        s.wait_serving()
        c = RawConnection("127.0.0.1", s.port, timeout=60)
        forged = '/x"}\n2026-01-01 00:00:00,000 ERROR handeval.server[1] {"event": "forged"' + "y" * 8000
        streams = [c.call(EVALUATE, b"", extra=[("grpc-encoding", "br")]) for _ in range(200)]
        streams += [c.call(forged, b"") for _ in range(50)]
        assert all(streams)
        wait_for(lambda: set(streams) <= c.ended or c.closed.is_set(), what="every call to end", server=s)
        assert new_client_call(s, metadata=TOKEN) == grpc.StatusCode.OK
        lines = s.log().splitlines()
        loud = [line for line in lines if " WARNING " in line or " ERROR " in line]
        assert len(loud) <= LOG_BURST, "\n".join(loud)
        assert all(len(line) <= LOG_LINE_CHARS + 1 for line in lines), max(map(len, lines))
        assert not any("forged" in line and "unauthenticated" not in line for line in lines), lines
        for line in loud:  # the message part is one JSON object
            json.loads(line[line.index("{") :])
        no_traceback(s)
        assert s.terminate() == 0
    finally:
        if c is not None:
            c.close()
        s.close()


# ---- rollouts


def _long_settle(n: int):
    from grpc_fixtures import settle_request

    return settle_request(n)


def test_after_the_shutdown_delay_a_new_call_is_unavailable_at_once(tmp_path):
    """SIGTERM with --shutdown-delay 1 --grace 60 and a long call in flight: once health
    says NOT_SERVING and the delay is over, a new call (2 s deadline) ends UNAVAILABLE,
    not DEADLINE_EXCEEDED (before, it was held at the gate until the call in flight was
    done); the call in flight is answered OK."""
    import signal
    import threading

    s = ServerProcess(
        tmp_path,
        "--shutdown-delay",
        "1",
        "--grace",
        "60",
        "--threads",
        "1",
        "--max-batch",
        "1000000",
        "--max-request-work",
        "0",
        "--max-message-bytes",
        str(256 << 20),
    )
    try:
        s.wait_serving()
        result = {}
        opts = [("grpc.max_receive_message_length", -1), ("grpc.max_send_message_length", -1)]
        with s.channel(options=opts) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            stub.Evaluate(TINY, timeout=10)
            req = _long_settle(300_000)  # several seconds on one thread

            def call():
                try:
                    result["n"] = len(stub.Settle(req, timeout=300).shisanshui.results)
                except grpc.RpcError as e:
                    result["error"] = e.code()

            t = threading.Thread(target=call)
            t.start()
            wait_for(
                lambda: metric_value(s.metrics(), "handeval_inflight_requests") >= 1 or not t.is_alive(),
                what="the long call to be in flight",
                server=s,
            )
            s.proc.send_signal(signal.SIGTERM)
            wait_for(lambda: '"event": "shutdown"' in s.log(), what="the shutdown to begin", server=s)
            # Once the server says it sent GOAWAY, a new client (on its own connection)
            # is refused at once; a few tries, each bounded by its deadline.
            wait_for(lambda: '"event": "goaway"' in s.log(), what="the GOAWAY", server=s)
            codes = []
            for _ in range(5):
                codes.append(new_client_call(s, 2.0))
                if codes[-1] != grpc.StatusCode.OK:
                    break
            assert t.is_alive(), "the long call ended first; make it longer"
            t.join(300)
        assert codes[-1] == grpc.StatusCode.UNAVAILABLE, codes
        assert result == {"n": 300_000}, result
        assert s.proc.wait(60) == 0
        no_traceback(s)
    finally:
        s.close()


def test_a_rolling_restart_of_two_workers_loses_no_call(tmp_path):
    """Two workers; 4 clients with the documented retry policy
    (handeval.server.client.channel) call back to back while each worker in turn gets
    SIGTERM and is restarted by the supervisor: every call is answered OK."""
    import os
    import signal
    import threading

    from handeval.server.client import channel

    from grpc_fixtures import children, random_deals

    s = ServerProcess(tmp_path, "--workers", "2", "--shutdown-delay", "0.5", "--grace", "10", metrics=False)
    stop = threading.Event()
    outcomes: list = []
    settle = pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=random_deals(200)))

    def client(i: int) -> None:
        with channel(s.target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    if n % 2:
                        stub.Evaluate(TINY, timeout=20)
                    else:
                        stub.Settle(settle, timeout=20)
                    outcomes.append("OK")
                except grpc.RpcError as e:
                    outcomes.append(f"{e.code().name}: {e.details()}")

    try:
        s.wait_serving()
        wait_for(lambda: s.log().count('"event": "serving"') == 2, what="both workers to serve", server=s)
        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(4)]
        for t in threads:
            t.start()
        wait_for(lambda: len(outcomes) >= 20, what="calls before the restart", server=s)
        for k, victim in enumerate(sorted(children(s.proc.pid))):
            os.kill(victim, signal.SIGTERM)
            wait_for(
                lambda v=victim: v not in children(s.proc.pid) and len(children(s.proc.pid)) == 2,
                what="the supervisor to restart the worker",
                server=s,
            )
            wait_for(lambda k=k: s.log().count('"event": "serving"') == 3 + k, what="the new worker to serve", server=s)
            seen = len(outcomes)
            wait_for(lambda seen=seen: len(outcomes) >= seen + 20, what="calls after the restart", server=s)
        stop.set()
        for t in threads:
            t.join(60)
        failed = [o for o in outcomes if o != "OK"]
        assert not failed, (len(failed), len(outcomes), sorted(set(failed))[:5])
        assert s.terminate(60) == 0
    finally:
        stop.set()
        s.close()


# ---- 托管: a cancelled search stops inside the search


def test_a_suggestion_batch_past_its_deadline_stops_inside_the_search(tmp_path):
    """64 越式13张 records each asking the largest-effort suggestion (about 45 ms each on
    one thread) with a 0.3 s deadline: the work stops inside the search it is in, between
    two determinizations (the log's stop line names it: "in the suggestion of items[k]"),
    not after that search (before, "before the suggestion of items[k+1]", up to ~0.6 s
    later at the largest effort) nor up to 16 searches later at the next batch check; a
    tiny call is answered after."""
    rng = random.Random(3)
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(items=[attacks_work._suggest_record(rng, 64) for _ in range(64)])
    )
    s = ServerProcess(tmp_path, "--threads", "1", metrics=False)
    try:
        s.wait_serving()
        with s.channel() as ch:
            with pytest.raises(grpc.RpcError) as e:
                handeval_pb2_grpc.HandevalStub(ch).Evaluate(req, timeout=0.3)
            assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        wait_for(lambda: '"event": "stopped"' in s.log(), what="the work to stop", server=s)
        stop = next(line for line in s.log().splitlines() if '"event": "stopped"' in line)
        assert "in the suggestion of items[" in stop, stop
        served_and_exits_cleanly(s)
    finally:
        s.close()


def test_an_unread_answer_bound_below_one_answer_is_refused_at_start():
    """--max-unread-answer-bytes under --max-message-bytes would close a connection for
    one answer: refused in one line, exit 2."""
    import subprocess

    r = subprocess.run(
        [sys.executable, "-m", "handeval", "serve", "--port", "1", "--max-unread-answer-bytes", "1000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2, r
    assert "--max-unread-answer-bytes 1000 is less than --max-message-bytes" in r.stderr, r.stderr


def test_admission_forgets_idle_connections_when_no_janitor_sweeps():
    """Without the janitor (--max-first-call-wait 0) the entries kept to count unread
    answers are dropped when a connection has no call and no unread answer: 100
    connections' calls leave none behind."""
    import asyncio

    from handeval.server.admission import Admission

    from grpc_fixtures import FakeContext

    admission = Admission(5, 0, track_connections=False, close_peer=lambda address: True, max_unread_answer_bytes=10)

    async def calls():
        for port in range(1000, 1100):
            context = FakeContext()
            context.peer = lambda port=port: f"ipv4:127.0.0.1:{port}"
            ip, conn = await admission._enter(context)
            assert admission.connections
            admission._leave(ip, conn)

    asyncio.run(calls())
    assert admission.connections == {} and admission.calls == 0

"""The Locust load tests (handeval.load, ``handeval bench-load``): loopback only and
bounded; a master with two workers over loopback runs every scenario against a real
server with no failure; errors are counted by gRPC status code; gRPC's blocking client
runs under gevent with calls that overlap."""

from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
import threading
from concurrent import futures
from pathlib import Path

import pytest

from grpc_fixtures import small_limits_server
from handeval.load import report, scenarios
from handeval.load.run import LOCUSTFILE
from handeval.load.target import RemoteTargetRefused, checked_target, free_port

#: This module's own server (--max-batch 500, 256 KiB messages), not the session's shared
#: one: a Locust run stops with calls in flight (--stop-timeout 0), which must not land in
#: the metrics another module's test is counting.
server = pytest.fixture(small_limits_server, scope="module", name="server")

# Not imported here: importing locust monkey-patches this process for gevent.
if importlib.util.find_spec("locust") is None:
    pytest.skip("the load tests need Locust: pip install 'handeval[load]'", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 180  # every run stops by itself (--run-time) well before this
EVERY_SCENARIO = ",".join(f"{n}@{min(s.batch, 1000)}" for n, s in scenarios.SCENARIOS.items())


def bench_load(*args, env=None):
    return subprocess.run([sys.executable, "-m", "handeval", "bench-load", *args], capture_output=True,
                          text=True, timeout=RUN_TIMEOUT, cwd=ROOT, env=env)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# ---- loopback only ----

@pytest.mark.parametrize("target,want", [
    ("127.0.0.1:50051", "127.0.0.1:50051"),
    ("127.8.9.10:1", "127.8.9.10:1"),
    ("[::1]:50051", "[::1]:50051"),
    ("ipv4:127.0.0.1:7", "127.0.0.1:7"),
    ("unix:/tmp/handeval.sock", "unix:/tmp/handeval.sock"),
])
def test_loopback_targets_are_accepted(target, want):
    assert checked_target(target) == want


def test_localhost_resolves_to_a_loopback_address():
    assert checked_target("localhost:50051") in ("127.0.0.1:50051", "[::1]:50051")


@pytest.mark.parametrize("target", [
    "10.0.0.1:50051", "192.168.1.10:50051", "172.16.0.1:50051", "8.8.8.8:443", "0.0.0.0:50051",
    "[2001:db8::1]:50051", "[::]:50051", "dns:///10.1.2.3:50051", "no-such-host.invalid:50051",
])
def test_other_targets_are_refused(target):
    with pytest.raises(RemoteTargetRefused) as ei:
        checked_target(target)
    assert "refusing" in str(ei.value) or "cannot resolve" in str(ei.value)


def test_target_without_port_is_refused():
    with pytest.raises(RemoteTargetRefused, match="no port"):
        checked_target("127.0.0.1")


def test_allow_remote_keeps_the_target_as_given():
    assert checked_target("dns:///handeval.default.svc.cluster.local:50051", allow_remote=True) == \
        "dns:///handeval.default.svc.cluster.local:50051"


def test_cli_refuses_remote_target_before_starting_locust():
    r = bench_load("--target", "192.0.2.7:50051", "--run-time", "1")
    assert r.returncode == 2 and "--allow-remote" in r.stderr


def test_locustfile_refuses_remote_host():
    r = subprocess.run([sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "-H", "192.0.2.7:50051",
                        "-u", "1", "-t", "1s"], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert r.returncode != 0 and "not a loopback address" in r.stderr


# ---- always bounded, mix ----

@pytest.mark.parametrize("flags", [["--run-time", "0"], ["--run-time", "100000"], ["--run-time", "-1"],
                                   ["--users", "0"], ["--call-timeout", "0"], ["--mix", "nope"],
                                   ["--processes", "-2"]])
def test_unbounded_or_bad_settings_are_rejected(flags):
    r = bench_load("--target", "127.0.0.1:1", *flags)
    assert r.returncode == 2 and r.stderr


def test_mix_parsing():
    assert scenarios.parse_mix("ssw.packed=2@1000, ssw.evaluate") == [("ssw.packed", 2, 1000), ("ssw.evaluate", 1, 1)]
    assert [n for n, _, _ in scenarios.parse_mix("default")] == list(scenarios.SCENARIOS)
    for bad in ("nope", "ssw.packed=0", "ssw.packed@0", "ssw.packed=0.5", "", "ssw.evaluate,ssw.evaluate"):
        with pytest.raises(ValueError):
            scenarios.parse_mix(bad)


def test_items_per_request_from_the_name():
    assert report.items_per_request("ssw.packed@10000") == 10000
    assert report.items_per_request("tienlen.flow@3") == 1  # a flow's call carries one game


# ---- real runs ----

def test_master_and_two_workers_over_loopback(server, tmp_path):
    """The documented cluster mode on one machine: a headless master waiting for two
    workers, all on loopback; every scenario runs against a real server, none fails."""
    port, prefix = free_port(), tmp_path / "cluster"
    common = [sys.executable, "-m", "locust", "-f", str(LOCUSTFILE)]
    master = subprocess.Popen(
        common + ["--master", "--master-bind-host", "127.0.0.1", "--master-bind-port", str(port), "--expect-workers", "2",
                  "--headless", "-H", server.target, "-u", str(len(scenarios.SCENARIOS)), "-r", "100", "-t", "5s",
                  "--stop-timeout", "0", "--csv", str(prefix), "--csv-full-history", "--mix", EVERY_SCENARIO],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    workers = [subprocess.Popen(common + ["--worker", "--master-host", "127.0.0.1", "--master-port", str(port)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
    try:
        out, _ = master.communicate(timeout=RUN_TIMEOUT)
        for w in workers:
            w.wait(timeout=RUN_TIMEOUT)  # workers quit when the master does
    finally:
        for p in [master, *workers]:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert master.returncode == 0, out
    assert "2 workers connected" in out
    rows = read_csv(f"{prefix}_stats.csv")
    by_scenario = {}
    for r in rows:
        if r["Name"] != "Aggregated":
            name = r["Name"].partition("@")[0]
            by_scenario[name] = by_scenario.get(name, 0) + int(r["Request Count"])
            assert r["Failure Count"] == "0", r
    assert set(by_scenario) == set(scenarios.SCENARIOS) and all(n > 0 for n in by_scenario.values()), by_scenario
    assert read_csv(f"{prefix}_failures.csv") == []
    s = report.summarize(str(prefix))
    assert s["total"]["requests"] == sum(by_scenario.values()) and s["total"]["failures"] == 0
    packed = next(r for r in s["rows"] if r["name"] == "ssw.packed@1000")
    assert packed["items_per_s"] == pytest.approx(1000 * packed["requests_per_s"])
    assert {r["method"] for r in s["rows"] if r["name"].startswith("tienlen.flow")} <= {"Evaluate", "Settle"}


def test_errors_are_counted_by_status_code(server, tmp_path):
    # 100,000 packed rows = 500 kB > the fixture's 256 KiB limit -> RESOURCE_EXHAUSTED;
    # 600 items > its --max-batch 500 -> INVALID_ARGUMENT; single rows succeed.
    out, prefix = tmp_path / "err.json", tmp_path / "err"
    r = bench_load("--target", server.target, "--mix", "ssw.packed@100000,ssw.evaluate@600,ssw.compare@1",
                   "--users", "3", "--run-time", "3", "--pool", "1", "--csv", str(prefix), "--json-out", str(out))
    assert r.returncode == 1, r.stderr  # Locust's exit code when requests failed
    res = json.loads(out.read_text())
    rows = {x["name"]: x for x in res["summary"]["rows"]}
    assert rows["ssw.packed@100000"]["errors"] == {"RESOURCE_EXHAUSTED": rows["ssw.packed@100000"]["requests"]}
    assert rows["ssw.evaluate@600"]["errors"] == {"INVALID_ARGUMENT": rows["ssw.evaluate@600"]["requests"]}
    assert rows["ssw.compare@1"]["failures"] == 0 and rows["ssw.compare@1"]["requests"] > 0
    total = res["summary"]["total"]
    assert total["errors"] == {"RESOURCE_EXHAUSTED": rows["ssw.packed@100000"]["requests"],
                               "INVALID_ARGUMENT": rows["ssw.evaluate@600"]["requests"]}
    assert total["failures"] == sum(total["errors"].values())
    assert {f["Error"] for f in read_csv(f"{prefix}_failures.csv")} == {"RESOURCE_EXHAUSTED", "INVALID_ARGUMENT"}
    assert "RESOURCE_EXHAUSTED" in r.stdout and "generator CPU" in r.stdout


class BarrierServer:
    """A gRPC server in this process whose Evaluate answers only once ``parties`` calls
    wait at the same time: a load generator whose calls do not overlap never gets an answer
    (each call fails UNKNOWN when the barrier's wait runs out)."""

    def __init__(self, parties: int, wait: float):
        import grpc

        self.barrier = threading.Barrier(parties)
        self.answered = 0

        def evaluate(request, context):
            self.barrier.wait(timeout=wait)
            self.answered += 1
            return scenarios.empty_response()

        handlers = {"Evaluate": grpc.unary_unary_rpc_method_handler(evaluate)}
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=parties + 4))
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(scenarios.SERVICE, handlers),))
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.target = f"127.0.0.1:{self.port}"
        self.server.start()

    def stop(self):
        self.barrier.abort()  # releases calls still waiting
        self.server.stop(0)


def test_calls_of_one_locust_process_overlap_with_gevent_grpc(tmp_path):
    srv = BarrierServer(parties=4, wait=60)
    try:
        out = tmp_path / "overlap.json"
        r = bench_load("--target", srv.target, "--mix", "ssw.evaluate", "--users", "4", "--run-time", "3",
                       "--json-out", str(out))
        total = json.loads(out.read_text())["summary"]["total"]
    finally:
        srv.stop()
    assert r.returncode == 0, r.stderr
    assert total["failures"] == 0 and total["requests"] >= 4 and srv.answered >= 4


def test_without_gevent_grpc_the_calls_do_not_overlap(tmp_path):
    """What init_gevent() is for: with plain blocking gRPC the four users of one process
    send one call at a time, so the barrier never fills and every call fails."""
    import os

    srv = BarrierServer(parties=4, wait=1)
    try:
        out = tmp_path / "plain.json"
        r = bench_load("--target", srv.target, "--mix", "ssw.evaluate", "--users", "4", "--run-time", "2",
                       "--json-out", str(out), env=dict(os.environ, HANDEVAL_LOAD_PLAIN_GRPC="1"))
        total = json.loads(out.read_text())["summary"]["total"]
    finally:
        srv.stop()
    assert r.returncode == 1, r.stderr
    assert srv.answered == 0 and total["failures"] == total["requests"] > 0
    assert set(total["errors"]) == {"UNKNOWN"}


def test_spawned_server_processes_and_plot(tmp_path):
    png, out = tmp_path / "plot.png", tmp_path / "run.json"
    args = ["--spawn-server", "--mix", "ssw.packed@2000,tienlen.flow", "--users", "2", "--run-time", "3",
            "--processes", "2", "--json-out", str(out), "--plot", str(png)]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        r = bench_load(*args)
        assert r.returncode == 2 and "matplotlib" in r.stderr and not out.exists()
        return
    r = bench_load(*args)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["server_workers"] == 1 and res["target"].startswith("127.0.0.1:")
    assert res["summary"]["total"]["requests"] > 0 and res["summary"]["total"]["failures"] == 0
    assert res["cpu"]["generator"]["cpu_s"] > 0 and res["cpu"]["server"]["cpu_s"] >= 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_floor_server_answers_every_scenario_method(tmp_path):
    out = tmp_path / "floor.json"
    r = bench_load("--spawn-server", "--server-kind", "floor", "--mix", "ssw.evaluate,ssw.settle@2,ssw.arrange",
                   "--users", "3", "--run-time", "2", "--json-out", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["server_workers"] == "floor" and res["summary"]["total"]["failures"] == 0
    assert {x["method"] for x in res["summary"]["rows"]} == {"Evaluate", "Settle", "Arrange"}

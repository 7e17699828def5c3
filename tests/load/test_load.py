"""The Locust load tests (handeval.load, ``handeval bench-load``): loopback only and
bounded; a master with two workers over loopback runs every scenario against a real
server with no failure; errors are counted by gRPC status code; gRPC's blocking client
runs under gevent with calls that overlap."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys
import threading
from concurrent import futures
from pathlib import Path

import pytest

from handeval.load import report, scenarios
from handeval.load.run import LOCUSTFILE
from handeval.load.target import RemoteTargetRefused, checked_target, free_port

from grpc_fixtures import small_limits_server

#: This module's own server (--max-batch 500, 256 KiB messages), not the session's shared
#: one: a Locust run stops with calls in flight (--stop-timeout 0), which must not land in
#: the metrics another module's test is counting.
server = pytest.fixture(small_limits_server, scope="module", name="server")

# Not imported here: importing locust monkey-patches this process for gevent.
if importlib.util.find_spec("locust") is None:
    pytest.skip("the load tests need Locust: pip install '.[load]'", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 180  # every run stops by itself (--run-time) well before this
EVERY_SCENARIO = ",".join(f"{n}@{min(s.batch, 1000)}" for n, s in scenarios.SCENARIOS.items())


def bench_load(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "handeval", "bench-load", *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=ROOT,
        env=env,
    )


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# ---- loopback only ----


@pytest.mark.parametrize(
    "target,want",
    [
        ("127.0.0.1:50051", "127.0.0.1:50051"),
        ("127.8.9.10:1", "127.8.9.10:1"),
        ("[::1]:50051", "[::1]:50051"),
        ("ipv4:127.0.0.1:7", "127.0.0.1:7"),
        ("unix:/tmp/handeval.sock", "unix:/tmp/handeval.sock"),
    ],
)
def test_loopback_targets_are_accepted(target, want):
    assert checked_target(target) == want


def test_localhost_resolves_to_a_loopback_address():
    assert checked_target("localhost:50051") in ("127.0.0.1:50051", "[::1]:50051")


@pytest.mark.parametrize(
    "target",
    [
        "10.0.0.1:50051",
        "192.168.1.10:50051",
        "172.16.0.1:50051",
        "8.8.8.8:443",
        "0.0.0.0:50051",
        "[2001:db8::1]:50051",
        "[::]:50051",
        "dns:///10.1.2.3:50051",
        "no-such-host.invalid:50051",
    ],
)
def test_other_targets_are_refused(target):
    with pytest.raises(RemoteTargetRefused) as ei:
        checked_target(target)
    assert "refusing" in str(ei.value) or "cannot resolve" in str(ei.value)


def test_target_without_port_is_refused():
    with pytest.raises(RemoteTargetRefused, match="no port"):
        checked_target("127.0.0.1")


def test_allow_remote_keeps_the_target_as_given():
    assert (
        checked_target("dns:///handeval.default.svc.cluster.local:50051", allow_remote=True)
        == "dns:///handeval.default.svc.cluster.local:50051"
    )


def test_cli_refuses_remote_target_before_starting_locust():
    r = bench_load("--target", "192.0.2.7:50051", "--run-time", "1")
    assert r.returncode == 2 and "--allow-remote" in r.stderr


def test_locustfile_refuses_remote_host():
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(LOCUSTFILE),
            "--headless",
            "-H",
            "192.0.2.7:50051",
            "-u",
            "1",
            "-t",
            "1s",
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert r.returncode != 0 and "not a loopback address" in r.stderr


# ---- always bounded, mix ----


@pytest.mark.parametrize(
    "flags",
    [
        ["--run-time", "0"],
        ["--run-time", "100000"],
        ["--run-time", "-1"],
        ["--users", "0"],
        ["--call-timeout", "0"],
        ["--mix", "nope"],
        ["--processes", "-2"],
    ],
)
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
        common
        + [
            "--master",
            "--master-bind-host",
            "127.0.0.1",
            "--master-bind-port",
            str(port),
            "--expect-workers",
            "2",
            "--headless",
            "-H",
            server.target,
            "-u",
            str(len(scenarios.SCENARIOS)),
            "-r",
            "100",
            "-t",
            "5s",
            "--stop-timeout",
            "0",
            "--csv",
            str(prefix),
            "--csv-full-history",
            "--mix",
            EVERY_SCENARIO,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    workers = [
        subprocess.Popen(
            common + ["--worker", "--master-host", "127.0.0.1", "--master-port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
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
    rows = read_csv(f"{prefix}_final_stats.csv")  # Locust's final statistics, as it prints them
    by_scenario = {}
    for r in rows:
        if r["Name"] != "Aggregated":
            name = r["Name"].partition("@")[0]
            by_scenario[name] = by_scenario.get(name, 0) + int(r["Request Count"])
            assert r["Failure Count"] == "0", r
    assert set(by_scenario) == set(scenarios.SCENARIOS) and all(n > 0 for n in by_scenario.values()), by_scenario
    assert read_csv(f"{prefix}_final_failures.csv") == []
    s = report.summarize(str(prefix))
    assert s["total"]["requests"] == sum(by_scenario.values()) and s["total"]["failures"] == 0
    # The per-second counts (what the plot draws) are Locust's merged counts of both
    # workers: they add up to the run's total.
    per_second = read_csv(f"{prefix}_per_second.csv")
    assert sum(int(r["Requests"]) for r in per_second if r["Name"] == "Aggregated") == s["total"]["requests"]
    assert all(p["requests_per_s"] >= 0 for p in report.history(str(prefix)))
    packed = next(r for r in s["rows"] if r["name"] == "ssw.packed@1000")
    assert packed["items_per_s"] == pytest.approx(1000 * packed["requests_per_s"])
    assert {r["method"] for r in s["rows"] if r["name"].startswith("tienlen.flow")} <= {"Evaluate", "Settle"}


def test_errors_are_counted_by_status_code(server, tmp_path):
    # 100,000 packed rows = 500 kB > the fixture's 256 KiB limit -> RESOURCE_EXHAUSTED;
    # 600 items > its --max-batch 500 -> INVALID_ARGUMENT; single rows succeed.
    out, prefix = tmp_path / "err.json", tmp_path / "err"
    r = bench_load(
        "--target",
        server.target,
        "--mix",
        "ssw.packed@100000,ssw.evaluate@600,ssw.compare@1",
        "--users",
        "3",
        "--run-time",
        "3",
        "--pool",
        "1",
        "--csv",
        str(prefix),
        "--json-out",
        str(out),
    )
    assert r.returncode == 1, r.stderr  # Locust's exit code when requests failed
    res = json.loads(out.read_text())
    rows = {x["name"]: x for x in res["summary"]["rows"]}
    assert rows["ssw.packed@100000"]["errors"] == {"RESOURCE_EXHAUSTED": rows["ssw.packed@100000"]["requests"]}
    assert rows["ssw.evaluate@600"]["errors"] == {"INVALID_ARGUMENT": rows["ssw.evaluate@600"]["requests"]}
    assert rows["ssw.compare@1"]["failures"] == 0 and rows["ssw.compare@1"]["requests"] > 0
    total = res["summary"]["total"]
    assert total["errors"] == {
        "RESOURCE_EXHAUSTED": rows["ssw.packed@100000"]["requests"],
        "INVALID_ARGUMENT": rows["ssw.evaluate@600"]["requests"],
    }
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
        r = bench_load(
            "--target", srv.target, "--mix", "ssw.evaluate", "--users", "4", "--run-time", "3", "--json-out", str(out)
        )
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
        r = bench_load(
            "--target",
            srv.target,
            "--mix",
            "ssw.evaluate",
            "--users",
            "4",
            "--run-time",
            "2",
            "--json-out",
            str(out),
            env=dict(os.environ, HANDEVAL_LOAD_PLAIN_GRPC="1"),
        )
        total = json.loads(out.read_text())["summary"]["total"]
    finally:
        srv.stop()
    assert r.returncode == 1, r.stderr
    assert srv.answered == 0 and total["failures"] == total["requests"] > 0
    assert set(total["errors"]) == {"UNKNOWN"}


def test_spawned_server_processes_and_plot(tmp_path):
    png, out = tmp_path / "plot.png", tmp_path / "run.json"
    # 8 s: with two worker processes on a machine loaded by the rest of the suite (load
    # average 20 here once), 3 s of load once ended before any call was answered.
    args = [
        "--spawn-server",
        "--mix",
        "ssw.packed@2000,tienlen.flow",
        "--users",
        "2",
        "--run-time",
        "8",
        "--processes",
        "2",
        "--json-out",
        str(out),
        "--plot",
        str(png),
    ]
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
    r = bench_load(
        "--spawn-server",
        "--server-kind",
        "floor",
        "--mix",
        "ssw.evaluate,ssw.settle@2,ssw.arrange",
        "--users",
        "3",
        "--run-time",
        "2",
        "--json-out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["server_workers"] == "floor" and res["summary"]["total"]["failures"] == 0
    assert {x["method"] for x in res["summary"]["rows"]} == {"Evaluate", "Settle", "Arrange"}


# ---- output a load tester trusts ----

HISTORY_COLUMNS = [
    "Timestamp",
    "User Count",
    "Type",
    "Name",
    "Requests/s",
    "Failures/s",
    "50%",
    "66%",
    "75%",
    "80%",
    "90%",
    "95%",
    "98%",
    "99%",
    "99.9%",
    "99.99%",
    "100%",
    "Total Request Count",
    "Total Failure Count",
    "Total Median Response Time",
    "Total Average Response Time",
    "Total Min Response Time",
    "Total Max Response Time",
    "Total Average Content Size",
]


def write_history(path, lines):
    """A PREFIX_stats_history.csv as Locust writes it: (t, name, requests/s, total count, p99)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HISTORY_COLUMNS)
        for t, name, rps, total, p99 in lines:
            pct = [p99 if total else "N/A"] * 11
            w.writerow(
                [t, 8, "" if name == "Aggregated" else "Evaluate", name, rps, 0.0, *pct, total, 0, 1, 1.0, 0, 5, 10]
            )


def test_history_rates_are_locusts_own_not_differences_of_totals(tmp_path):
    """Workers report their counts to the master every 3 s: the totals of the history jump
    (0, 0, 6000, 6000, 6000, 12000, ...) while Locust's own Requests/s stays steady.
    The plotted rate is Locust's; the first line, before any answer, is left out."""
    lines = [(1000, "Aggregated", 0.0, 0, 0)]
    for i in range(1, 10):
        total = 6000 * (i // 3)
        lines += [(1000 + i, "ssw.packed@10", 2000.0 / 8, total // 8, 4), (1000 + i, "Aggregated", 2000.0, total, 4)]
    write_history(tmp_path / "run_stats_history.csv", lines)
    h = report.history(str(tmp_path / "run"))
    assert [p["requests_per_s"] for p in h] == [2000.0] * 7  # the lines with answers (from t=3 on)
    assert [p["items_per_s"] for p in h] == [2000.0 / 8 * 10] * 7
    assert h[0]["t"] == 3 and all(p["p99_ms"] == 4 for p in h)


def test_history_counts_each_second_from_locusts_per_second_counts(tmp_path):
    """With the locustfile's PREFIX_per_second.csv (Locust's own per-second counts, a
    master's merged from its workers) the rate of each second is its count; the first
    and last (partly loaded) seconds are left out; latency is matched from the history."""
    prefix = tmp_path / "run"
    write_history(
        f"{prefix}_stats_history.csv",
        [(100 + i, "Aggregated", 0.0 if i < 3 else 1790.0, 6000 * (i // 3), 7) for i in range(8)],
    )
    with open(f"{prefix}_per_second.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Timestamp", "Type", "Name", "Requests", "Failures"])
        for t, n in [(100, 300), (101, 1790), (102, 1788), (103, 1795), (104, 1790), (105, 700)]:
            w.writerow([t, "Compare", "ssw.compare@10", n, 1])
            w.writerow([t, "", "Aggregated", n, 1])
    h = report.history(str(prefix))
    assert [p["requests_per_s"] for p in h] == [1790.0, 1788.0, 1795.0, 1790.0]
    assert [p["items_per_s"] for p in h] == [17890.0, 17870.0, 17940.0, 17890.0]
    assert [p["t"] for p in h] == [1, 2, 3, 4] and all(p["failures_per_s"] == 1.0 for p in h)
    assert all(p["p99_ms"] == 7 for p in h)


def test_history_without_each_names_rows_has_no_items_rate(tmp_path):
    """A plain ``locust --csv`` run (no --csv-full-history) has the Aggregated rows only:
    items/s is unknown (None, not plotted as 0)."""
    write_history(
        tmp_path / "run_stats_history.csv",
        [(1, "Aggregated", 0.0, 0, 0), (2, "Aggregated", 500.0, 500, 3), (3, "Aggregated", 510.0, 1010, 3)],
    )
    h = report.history(str(tmp_path / "run"))
    assert [p["requests_per_s"] for p in h] == [500.0, 510.0] and all(p["items_per_s"] is None for p in h)


def test_plot_title_is_short_and_agrees_with_its_points():
    """The run plot's title says the mean of the seconds it draws (not the run's total
    rate, which counts the partly loaded first and last seconds) and the failures."""
    from handeval.load.plots import plot_title

    s = {
        "rows": [{"name": f"{n}@{sc.batch}"} for n, sc in scenarios.SCENARIOS.items()],
        "total": {"requests_per_s": 1790.4, "items_per_s": 11703.2, "latency_ms": {"p99": 12.0}},
    }
    points = [
        {"requests_per_s": 1800.0, "items_per_s": 11000.0, "failures_per_s": 0.0},
        {"requests_per_s": 2000.0, "items_per_s": 13000.0, "failures_per_s": 3.0},
    ]
    title = plot_title(s, points, "run L")
    assert title == (
        f"run L: {len(scenarios.SCENARIOS)} scenarios — 1,900 req/s, 12,000 items/s (mean of the 2 s drawn), "
        "3 failed, p99 12 ms"
    )
    s["rows"] = [{"name": "ssw.evaluate@1"}, {"name": "tienlen.flow@1"}]
    assert plot_title(s, points).startswith("ssw.evaluate, tienlen.flow — ")
    points[0]["items_per_s"] = None  # not every second has items: no items rate
    assert "items/s" not in plot_title(s, points)


def test_one_default_mix_whichever_way_locust_is_started():
    from handeval.load.run import build_parser

    assert build_parser().get_default("mix") == scenarios.DEFAULT_MIX == "default"
    # The locustfile's own --mix default, as Locust parses its command line (in a child:
    # importing locust here would patch this process for gevent).
    code = (
        "import runpy, sys; from locust import argument_parser; runpy.run_path(sys.argv[1]); "
        "print(argument_parser.parse_options(['-f', sys.argv[1]]).mix)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, str(LOCUSTFILE)], capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    assert r.returncode == 0 and r.stdout.split()[-1] == scenarios.DEFAULT_MIX, (r.stdout, r.stderr)


def test_help_has_no_markup():
    r = bench_load("--help")
    assert r.returncode == 0 and "--sweep" in r.stdout
    assert "``" not in r.stdout and "`" not in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "handeval.load.report", "--help"], capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    assert r.returncode == 0 and "PREFIX" in r.stdout and "`" not in r.stdout


def test_install_hint_names_the_command_of_a_checkout(monkeypatch):
    from handeval.load import install_hint, source_checkout

    assert source_checkout() == ROOT  # the tests run from the checkout
    monkeypatch.chdir(ROOT)
    assert install_hint("load") == "pip install '.[load]'"
    monkeypatch.chdir(ROOT / "tests")
    assert install_hint("load") == f"pip install '{ROOT}[load]'"


def test_an_unreachable_target_fails_at_once_with_a_clear_message():
    port = free_port()  # nobody listens there
    r = bench_load("--target", f"127.0.0.1:{port}", "--run-time", "600")
    assert r.returncode == 2 and f"cannot connect to 127.0.0.1:{port}" in r.stderr and r.stdout == ""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "locust",
            "-f",
            str(LOCUSTFILE),
            "--headless",
            "-H",
            f"127.0.0.1:{port}",
            "-u",
            "1",
            "-t",
            "600s",
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert r.returncode != 0 and f"cannot connect to 127.0.0.1:{port}" in r.stderr


AGGREGATED_LINE = re.compile(r"^\s+Aggregated\s+(\d+)\s+\d+\(", re.M)  # its request count, then failures


def test_one_total_and_scenarios_without_a_user_are_named(server, tmp_path):
    """Locust's printed summary and handeval's table count the same requests (both from
    Locust's final statistics); with fewer users than scenarios the run names those that
    got none."""
    out, prefix = tmp_path / "few.json", tmp_path / "few"
    mix = "ssw.evaluate,ssw.compare@2,tienlen.compare@2,dachu.compare@2"
    r = bench_load(
        "--target",
        server.target,
        "--mix",
        mix,
        "--users",
        "2",
        "--run-time",
        "2",
        "--csv",
        str(prefix),
        "--json-out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    ran = {x["name"].partition("@")[0] for x in res["summary"]["rows"] if x["requests"]}
    assert len(ran) == 2 and sorted(res["unused"]) == sorted(
        {"ssw.evaluate", "ssw.compare", "tienlen.compare", "dachu.compare"} - ran
    )
    assert "no user ran: " in r.stdout and all(name in r.stdout for name in res["unused"])
    assert "some get no user" in r.stderr  # said before the run, too
    locust_total = [int(n) for n in AGGREGATED_LINE.findall(r.stderr + r.stdout)]  # Locust's own summary
    assert locust_total and all(n == res["summary"]["total"]["requests"] for n in locust_total), r.stderr
    assert Path(f"{prefix}_final_stats.csv").exists()


def test_sweep_prints_capacity_per_core_and_draws_the_knee(tmp_path):
    png, out = tmp_path / "knee.png", tmp_path / "sweep.json"
    args = [
        "--sweep",
        "--sweep-floor",
        "--spawn-server",
        "--mix",
        "ssw.evaluate",
        "--run-time",
        "1",
        "--max-users",
        "2",
        "--slo-p99-ms",
        "1000",
        "--json-out",
        str(out),
    ]
    try:
        import matplotlib  # noqa: F401

        args += ["--plot", str(png)]
    except ImportError:
        pass
    r = bench_load(*args)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert [sw["server"] for sw in res["sweeps"]] == ["handeval", "floor"]
    for sw in res["sweeps"]:
        assert [st["users"] for st in sw["steps"]] == [1, 2]
        assert all(st["requests"] > 0 and st["failures"] == 0 and st["server_cores"] is not None for st in sw["steps"])
        c = sw["capacity"]
        assert c is not None and c["requests_per_s"] == max(st["requests_per_s"] for st in sw["steps"])
        if c["server_cores"]:
            assert c["per_core"]["requests_per_s"] == pytest.approx(c["requests_per_s"] / c["server_cores"], rel=1e-3)
    assert r.stdout.count("capacity (p99 <= 1000 ms)") == 2 and "handeval / floor" in r.stdout
    if "--plot" in args:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_capacity_is_the_fastest_step_within_the_slo():
    from handeval.load.capacity import capacity, sweep_users

    assert sweep_users(256) == [1, 2, 4, 8, 16, 32, 64, 128, 256] and sweep_users(12) == [1, 2, 4, 8, 12]
    assert sweep_users(1) == [1] and sweep_users(100, 26) == [26, 52, 100] and sweep_users(10, 26) == [10]

    def step(users, rps, p99, cores, failures=0):
        return {
            "users": users,
            "requests": 100,
            "failures": failures,
            "requests_per_s": rps,
            "items_per_s": 2 * rps,
            "games_per_s": None,
            "p50_ms": 1.0,
            "p99_ms": p99,
            "server_cores": cores,
        }

    steps = [
        step(1, 100, 2, 0.1),
        step(2, 400, 5, 0.5),
        step(4, 700, 19, 0.8),
        step(8, 900, 20.5, 1.0),
        step(16, 950, 3, 1.0, failures=2),
    ]
    c = capacity(steps, 20.0)
    assert (
        c["users"] == 4
        and c["requests_per_s"] == 700
        and c["per_core"] == {"requests_per_s": 875.0, "items_per_s": 1750.0, "games_per_s": None}
    )
    assert capacity([step(1, 10, 25, 0.1)], 20.0) is None


def test_sweep_plan_steps_users_or_the_rate_of_the_whole_mix():
    from handeval.load.capacity import sweep_plan
    from handeval.load.run import build_parser

    weight = sum(s.weight for s in scenarios.SCENARIOS.values())
    by_rate = build_parser().parse_args(
        ["--sweep", "--sweep-by", "rate", "--sweep-start-rate", "0.5", "--sweep-steps", "4"]
    )
    assert sweep_plan(by_rate) == [(weight, 0.5), (weight, 1.0), (weight, 2.0), (weight, 4.0)]
    by_users = build_parser().parse_args(["--sweep", "--mix", "tienlen.flow=3", "--max-users", "20"])
    assert sweep_plan(by_users) == [(3, 0.0), (6, 0.0), (12, 0.0), (20, 0.0)]
    r = bench_load("--sweep", "--sweep-by", "rate", "--sweep-start-rate", "0", "--target", "127.0.0.1:1")
    assert r.returncode == 2 and "--sweep-start-rate" in r.stderr

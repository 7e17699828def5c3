"""The load generator (benches/load.py, ``handeval bench-load``): it refuses non-loopback
targets before opening a socket, and a short bounded run against a real server on a
free loopback port reports consistent counts, percentiles and errors by status."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from grpc_fixtures import server  # noqa: F401  (fixture: --max-batch 500, 256 KiB messages)

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("load", ROOT / "benches" / "load.py")
load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(load)

RUN_TIMEOUT = 180  # the subprocess must stop by itself well before this


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "handeval", "bench-load", *args], capture_output=True,
                          text=True, timeout=RUN_TIMEOUT, cwd=ROOT)


# ---- loopback only ----

@pytest.mark.parametrize("target,want", [
    ("127.0.0.1:50051", "127.0.0.1:50051"),
    ("127.8.9.10:1", "127.8.9.10:1"),
    ("[::1]:50051", "[::1]:50051"),
    ("ipv4:127.0.0.1:7", "127.0.0.1:7"),
    ("unix:/tmp/handeval.sock", "unix:/tmp/handeval.sock"),
])
def test_loopback_targets_are_accepted(target, want):
    assert load.checked_target(target) == want


def test_localhost_resolves_to_a_loopback_address():
    got = load.checked_target("localhost:50051")
    assert got in ("127.0.0.1:50051", "[::1]:50051")


@pytest.mark.parametrize("target", [
    "10.0.0.1:50051", "192.168.1.10:50051", "172.16.0.1:50051", "8.8.8.8:443", "0.0.0.0:50051",
    "[2001:db8::1]:50051", "[::]:50051", "dns:///10.1.2.3:50051", "no-such-host.invalid:50051",
])
def test_other_targets_are_refused(target):
    with pytest.raises(load.RemoteTargetRefused) as ei:
        load.checked_target(target)
    assert "refusing" in str(ei.value) or "cannot resolve" in str(ei.value)


def test_target_without_port_is_refused():
    with pytest.raises(load.RemoteTargetRefused, match="no port"):
        load.checked_target("127.0.0.1")


def test_allow_remote_lifts_the_refusal_without_connecting():
    assert load.checked_target("10.0.0.1:50051", allow_remote=True) == "10.0.0.1:50051"


def test_refusal_happens_before_any_channel(monkeypatch, capsys):
    import grpc

    def no_channel(*a, **k):
        raise AssertionError("a channel was opened to a refused target")

    monkeypatch.setattr(grpc.aio, "insecure_channel", no_channel)
    assert load.main(["--target", "10.1.2.3:50051", "--duration", "1"]) == 2
    assert "not a loopback address" in capsys.readouterr().err


def test_cli_refuses_remote_target():
    r = run_cli("--target", "192.0.2.7:50051", "--duration", "1")
    assert r.returncode == 2 and "--allow-remote" in r.stderr


# ---- always bounded ----

@pytest.mark.parametrize("flags", [["--duration", "0"], ["--duration", "100000"], ["--duration", "-1"],
                                   ["--concurrency", "0"], ["--requests", "-5"], ["--timeout", "0"],
                                   ["--rate", "-1"]])
def test_unbounded_or_bad_settings_are_rejected(flags, capsys):
    assert load.main(["--target", "127.0.0.1:1", *flags]) == 2
    assert capsys.readouterr().err


def test_mix_parsing():
    assert load.parse_mix("ssw.packed=2@1000, ssw.evaluate", 7) == [("ssw.packed", 2.0, 1000), ("ssw.evaluate", 1.0, 7)]
    for bad in ("nope", "ssw.packed=0", "ssw.packed@0", ""):
        with pytest.raises(ValueError):
            load.parse_mix(bad, 1)


def test_percentile_nearest_rank():
    xs = [float(i) for i in range(1, 101)]
    assert [load.percentile(xs, q) for q in (50, 95, 99, 100)] == [50.0, 95.0, 99.0, 100.0]
    assert load.percentile([3.0], 99) == 3.0


# ---- real runs ----

def test_bounded_run_against_a_real_server(server, tmp_path):
    out = tmp_path / "run.json"
    r = run_cli("--target", server.target, "--mix", "ssw.evaluate=2@5,ssw.packed@1000,ssw.compare@3,tienlen.evaluate@2",
                "--concurrency", "4", "--channels", "2", "--requests", "60", "--duration", "30", "--warmup", "0.2",
                "--json-out", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    o = res["overall"]
    assert o["requests"] == 60 and o["ok"] == 60 and o["errors"] == {}  # the --requests bound, exactly
    assert o["item_errors"] == 0
    lat = o["latency_ms"]
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    per = res["scenarios"]
    assert sum(s["requests"] for s in per.values()) == 60
    assert o["items"] == sum(s["items"] for s in per.values())
    assert per["ssw.packed"]["items"] == 1000 * per["ssw.packed"]["requests"]
    assert per["ssw.evaluate"]["items"] == 5 * per["ssw.evaluate"]["requests"]
    if "tienlen.evaluate" in res["skipped"]:  # 越式13张 not in this build yet
        assert "UNIMPLEMENTED" in res["skipped"]["tienlen.evaluate"] and "tienlen.evaluate" not in per
    else:
        assert "tienlen.evaluate" in per
    assert sum(b["ok"] for b in res["timeline"]) == 60
    assert "ssw.packed" in r.stdout and "p99 ms" in r.stdout
    assert "[load]" in r.stderr or res["overall"]["seconds"] < 1.0  # the progress line (if it had time)


def test_paced_run_sends_the_bounded_count(server, tmp_path):
    out = tmp_path / "paced.json"
    r = run_cli("--target", server.target, "--mix", "ssw.compare@2", "--rate", "40", "--concurrency", "4",
                "--requests", "12", "--duration", "30", "--warmup", "0", "--quiet", "--json-out", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["config"]["rate"] == 40 and res["overall"]["ok"] == 12 and res["overall"]["items"] == 24
    assert "paced at 40 req/s" in r.stdout


def test_errors_are_counted_by_status(server, tmp_path):
    # 100,000 packed rows = 500 kB > the fixture's 256 KiB limit -> RESOURCE_EXHAUSTED;
    # 600 items > its --max-batch 500 -> INVALID_ARGUMENT.
    out = tmp_path / "err.json"
    r = run_cli("--target", server.target, "--mix", "ssw.packed@100000,ssw.evaluate@600,ssw.evaluate@1",
                "--requests", "30", "--duration", "30", "--warmup", "0", "--pool", "2", "--quiet",
                "--json-out", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    errors = res["overall"]["errors"]
    assert set(errors) <= {"RESOURCE_EXHAUSTED", "INVALID_ARGUMENT"}
    assert res["overall"]["requests"] == 30 == res["overall"]["ok"] + sum(errors.values())
    assert res["scenarios"]["ssw.packed"]["errors"].get("RESOURCE_EXHAUSTED") == res["scenarios"]["ssw.packed"]["requests"]
    assert "RESOURCE_EXHAUSTED" in r.stdout


def test_spawned_server_duration_bound_and_plot(tmp_path):
    png, out = tmp_path / "plot.png", tmp_path / "run.json"
    args = ["--spawn-server", "--mix", "ssw.packed@2000", "--concurrency", "2", "--duration", "1",
            "--warmup", "0.2", "--quiet", "--json-out", str(out), "--plot", str(png)]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        r = run_cli(*args)
        assert r.returncode == 2 and "matplotlib" in r.stderr and not out.exists()
        return
    r = run_cli(*args)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["server_workers"] == 1 and res["target"].startswith("127.0.0.1:")
    assert res["overall"]["ok"] > 0 and res["overall"]["errors"] == {}
    assert res["overall"]["seconds"] <= 1.0
    assert res["cpu"]["client"]["cpu_s"] >= 0 and res["cpu"]["server"] is not None
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_floor_server_answers_every_call(tmp_path):
    out = tmp_path / "floor.json"
    r = run_cli("--spawn-server", "--server-kind", "floor", "--mix", "ssw.evaluate@1,ssw.settle@2", "--requests", "20",
                "--duration", "30", "--warmup", "0", "--quiet", "--json-out", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    assert res["server_workers"] == "floor" and res["overall"]["ok"] == 20 and res["overall"]["errors"] == {}

"""What ``bench-load --sweep`` makes of the played scenarios: games counted by their
settle requests, each scenario's capacity per server core beside the floor's and stream
over record (``--sweep-each``), and the knee plot with its failed steps."""

from __future__ import annotations

import pytest

from handeval.load import capacity, scenarios, sweep


def test_games_are_counted_by_their_settle_requests():
    def row(method, name, n=10, failures=0, rps=5.0):
        return {"method": method, "name": name, "requests": n, "failures": failures, "requests_per_s": rps}

    s = {
        "rows": [
            row("Evaluate", "tienlen.record@1", 400, rps=200.0),
            row("Settle", "tienlen.record@1", rps=5.0),
            row("Tables", "dachu.stream@8", 600, rps=300.0),
            row("TableSettle", "dachu.stream@8", 10, failures=5, rps=4.0),
            row("Settle", "ssw.settle@5", rps=50.0),  # a batch of deals, not a game's end
        ]
    }
    assert capacity.games_per_s(s) == 5.0 + 2.0
    # Given the requests a whole game took, a played scenario's games are its answered
    # requests over them: the games unfinished at the end count for their steps.
    assert capacity.games_per_s(s, {"dachu.stream": 50.0}) == pytest.approx(5.0 + (300.0 + 2.0) / 50.0)
    assert capacity.games_per_s({"rows": [row("Evaluate", "ssw.evaluate@1")]}) is None
    assert scenarios.parse_mix("tienlen.stream@4,dachu.record") == [("tienlen.stream", 1, 4), ("dachu.record", 1, 1)]
    assert not set(scenarios.PLAYED) & {n for n, _, _ in scenarios.parse_mix("default")}


def test_each_scenarios_capacity_per_core_and_stream_over_record():
    def cap(games, cores):
        return {"per_core": {"requests_per_s": 100.0 / cores, "games_per_s": games / cores}, "games_per_s": games}

    table = [
        {"scenario": "tienlen.record", "batch": 1, "sweeps": [{"capacity": cap(20, 1.0)}, {"capacity": cap(40, 1.0)}]},
        {"scenario": "tienlen.stream", "batch": 8, "sweeps": [{"capacity": cap(90, 1.5)}, {"capacity": None}]},
        {"scenario": "dachu.stream", "batch": 8, "sweeps": [{"capacity": None}]},
    ]
    rows = sweep.each_rows(table)
    assert [(r["per_core"], r["floor_per_core"], r["over_floor"]) for r in rows] == [
        (20.0, 40.0, 0.5),
        (60.0, None, None),
        (None, None, None),
    ]
    assert sweep.stream_over_record(rows) == {"tienlen": 3.0}
    results = [{"capacity": cap(20, 1.0)}, {"capacity": cap(40, 2.0)}]
    assert sweep.floor_ratio(results, "games_per_s") == 1.0 and sweep.floor_ratio(results[:1]) is None


def test_knee_plot_draws_failed_steps(tmp_path):
    pytest.importorskip("matplotlib")
    from handeval.load.plots import write_knee_plot

    def st(users, games, p99, failures=0):
        return {"users": users, "requests": 100, "failures": failures, "requests_per_s": games * 40.0,
                "games_per_s": games, "p50_ms": 0.0, "p99_ms": p99}  # fmt: skip

    sw = {"server": "handeval", "steps": [st(1, 10, 3), st(2, 18, 9), st(4, 20, 45, failures=3)]}
    sw["capacity"] = dict(sw["steps"][1], per_core={"requests_per_s": 720.0, "games_per_s": 18.0})
    png = tmp_path / "knee.png"
    write_knee_plot([("tienlen.record@1", [sw]), ("dachu.stream@8", [sw])], str(png), 20.0)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

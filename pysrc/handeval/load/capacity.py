"""The capacity maths of ``handeval bench-load --sweep``: the steps of offered load, each
step's figures and the capacity (the highest throughput whose p99 stays within the SLO,
per server core), and the CPU cost per request."""

from __future__ import annotations

from typing import Dict, List, Optional

from handeval.load import scenarios


def cost(cpu_s: float, requests: int, seconds: float) -> dict:
    return {
        "cpu_s": round(cpu_s, 3),
        "cores_busy": round(cpu_s / max(seconds, 1e-9), 2),
        "cpu_us_per_request": round(cpu_s / max(requests, 1) * 1e6, 1),
        "requests_per_core_s": round(requests / cpu_s, 1) if cpu_s > 0 else None,
    }


def sweep_users(max_users: int, start: int = 1) -> List[int]:
    """``start``, twice it, four times, ... up to ``max_users`` (itself the last step)."""
    out, u = [], max(1, min(start, max_users))
    while u < max_users:
        out.append(u)
        u *= 2
    return out + [max_users]


def sweep_plan(args) -> List[tuple]:
    """The steps of a sweep, ``(users, units/s per user)`` (0: back to back). The users
    start at the mix's total weight, so every scenario has its share at every step (the
    same mix throughout); by users they double, by rate the pace doubles."""
    start = sum(w for _, w, _ in scenarios.parse_mix(args.mix))
    if args.sweep_by == "rate":
        users = max(1, min(start, args.max_users))
        return [(users, args.sweep_start_rate * 2**k) for k in range(args.sweep_steps)]
    return [(u, args.rate_per_user) for u in sweep_users(args.max_users, start)]


#: The request that ends one game, by the kind of game scenario: a flow's and a played
#: record's Settle, a played stream's TableSettle.
GAME_ENDS = {".flow": "Settle", ".record": "Settle", ".stream": "TableSettle"}


def ends_a_game(row: dict) -> bool:
    scenario = row["name"].partition("@")[0]
    return any(scenario.endswith(k) and row["method"] == m for k, m in GAME_ENDS.items())


def games_per_s(s: dict, per_game: Optional[Dict[str, float]] = None) -> Optional[float]:
    """Whole games answered per second in a run of game flows or played games, or None
    when the mix has none. A flow's games are its settle requests; a played scenario's
    are its answered requests over the requests a whole game took in this run
    (``per_game``: the mean of the games played to the end), so the games still on the
    tables when the run stops count for the steps they got (a stream user's 8 tables
    can outlast a short step; counting only the settled games would fall as the users
    grow)."""
    per_game = per_game or {}
    total, seen = 0.0, False
    for r in s["rows"]:
        scenario = r["name"].partition("@")[0]
        answered = r["requests_per_s"] * (r["requests"] - r["failures"]) / max(r["requests"], 1)
        if scenario in per_game:
            total, seen = total + answered / per_game[scenario], True
        elif ends_a_game(r):
            total, seen = total + answered, True
    return total if seen else None


def step_row(users: int, r: dict) -> dict:
    t = r["summary"]["total"] or {
        "requests": 0,
        "failures": 0,
        "requests_per_s": 0.0,
        "items_per_s": 0.0,
        "latency_ms": {"p50": float("nan"), "p99": float("nan")},
    }
    server = r["cpu"]["server"]
    return {
        "users": users,
        "requests": t["requests"],
        "failures": t["failures"],
        "requests_per_s": round(t["requests_per_s"], 1),
        "items_per_s": round(t["items_per_s"], 1),
        "games_per_s": games_per_s(r["summary"], r.get("requests_per_game")),
        "p50_ms": t["latency_ms"]["p50"],
        "p99_ms": t["latency_ms"]["p99"],
        "server_cores": server["cores_busy"] if server else None,
        "generator_cores": r["cpu"]["generator"]["cores_busy"],
        "unused": r["unused"],
    }


def capacity(steps: List[dict], slo_ms: float, server_cores: Optional[float] = None) -> Optional[dict]:
    """The step of the highest throughput (requests/s) whose p99 is within the SLO and
    that had no failure, with its throughput per busy server core (measured, else the
    ``server_cores`` given); None when no step met the SLO."""
    ok = [st for st in steps if st["p99_ms"] <= slo_ms and st["failures"] == 0 and st["requests"] > 0]
    if not ok:
        return None
    best = max(ok, key=lambda st: st["requests_per_s"])
    cores = best["server_cores"] if best["server_cores"] is not None else server_cores
    per_core = {k: round(best[k] / cores, 1) if cores else None for k in ("requests_per_s", "items_per_s")}
    per_core["games_per_s"] = (
        round(best["games_per_s"] / cores, 2) if cores and best["games_per_s"] is not None else None
    )
    return {
        "users": best["users"],
        "requests_per_s": best["requests_per_s"],
        "items_per_s": best["items_per_s"],
        "games_per_s": best["games_per_s"],
        "p99_ms": best["p99_ms"],
        "server_cores": cores,
        "per_core": per_core,
    }

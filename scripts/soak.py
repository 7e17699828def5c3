#!/usr/bin/env python3
"""Soak test of `handeval serve`: a bounded run at saturation across every RPC
and game on loopback, recording errors, latency over time and the server's resident
memory over time.

    python scripts/soak.py --duration 600 --out soak.json          # the documented run
    python scripts/soak.py --duration 20                           # a quick check

It starts its own server (``--workers``, ``--threads`` are passed on) on a free loopback
port, runs ``--concurrency`` grpc.aio callers for ``--duration`` seconds (at most one
hour), each cycling through a fixed mix of requests — 十三水 Evaluate/Compare/Settle/
Arrange (arrange and best_response), 越式13张 Evaluate/Compare/Settle (games, instant
wins, chop rounds), 打儲 Evaluate/Compare/Settle — built from seeded random deals, with
a few bad items in each batch (answered as per-item errors, which are OK calls). Kinds
the server does not implement (a game not merged) are found by a probe and left out,
and listed.

Every ``--interval`` seconds it records calls, errors by status code, latency
percentiles of that window and the server's resident memory (VmRSS of the server
process and its workers). An error is any status other than OK. Then SIGTERM, and the
server must exit 0. Exit status: 0 when there were no errors, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import grpc

from handeval.v2 import (
    common_pb2,
    dachu_pb2 as dc,
    handeval_pb2 as pb,
    handeval_pb2_grpc,
    shisanshui_pb2 as ssw,
    tienlen_pb2 as tl,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.deck import DECK
from harness.server import ServerProcess

MAX_DURATION = 3600.0


# ---------------------------------------------------------------- the request mix


def K(cards) -> common_pb2.Cards:
    """A Cards message of a list of cards."""
    return common_pb2.Cards(cards=list(cards))


def _rows(c):
    return K(c[:3]), K(c[3:8]), K(c[8:13])


def _arrangement(c):
    f, m, b = _rows(c)
    return ssw.ShisanshuiArrangement(front=f, middle=m, back=b)


def build_mix(seed: int, batch: int):
    """[(kind, rpc, request)]: one request per kind, each a batch of ``batch`` items
    from seeded random deals, with about 5% bad items."""
    rng = random.Random(seed)

    def deal():
        return rng.sample(DECK, 52)

    def bad():
        return rng.random() < 0.05

    mix = []
    # 十三水
    items = []
    for i in range(batch):
        c = deal()
        k = i % 3
        if bad():
            items.append(ssw.ShisanshuiEvaluateItem(row=K(["As", "As", "Kd"])))
        elif k == 0:
            items.append(ssw.ShisanshuiEvaluateItem(row=K(c[:5])))
        elif k == 1:
            items.append(ssw.ShisanshuiEvaluateItem(hand=K(c[:13])))
        else:
            items.append(ssw.ShisanshuiEvaluateItem(arrangement=_arrangement(c)))
    mix.append(
        ("shisanshui.evaluate", "Evaluate", pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)))
    )
    items = []
    for i in range(batch):
        c = deal()
        if i % 2:
            items.append(
                ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=K(c[:5]), b=K(c[5:10] if not bad() else c[:5])))
            )
        else:
            items.append(
                ssw.ShisanshuiCompareItem(order=ssw.ShisanshuiRowList(rows=[K(c[5 * j : 5 * j + 5]) for j in range(6)]))
            )
    mix.append(
        ("shisanshui.compare", "Compare", pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(items=items)))
    )
    deals = []
    for _ in range(batch):
        c = deal()
        n = rng.choice([2, 3, 4])
        players = [ssw.ShisanshuiPlayer(arrangement=_arrangement(c[13 * i : 13 * i + 13])) for i in range(n)]
        carried = (
            [common_pb2.Carried(amount=rng.choice([50, 100, 1000])) for _ in range(n)] if rng.random() < 0.3 else []
        )
        if bad():
            players[0].arrangement.front.CopyFrom(players[1].arrangement.front)  # a card used twice
        deals.append(ssw.ShisanshuiDeal(players=players, base=rng.choice([1, 2, 10]), carried=carried))
    mix.append(("shisanshui.settle", "Settle", pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=deals))))
    # arrange is heavier per hand: a smaller batch
    n_arr = max(1, batch // 10)
    items = [ssw.ShisanshuiArrangeItem(hand=K(deal()[:13])) for _ in range(n_arr)]
    mix.append(
        ("shisanshui.arrange", "Arrange", pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=items)))
    )
    items = []
    for _ in range(n_arr):
        c = deal()
        items.append(
            ssw.ShisanshuiArrangeItem(
                best_response=ssw.ShisanshuiBestResponseItem(
                    cards=K(c[:13]), opponents=[_arrangement(c[13 * i : 13 * i + 13]) for i in (1, 2, 3)]
                )
            )
        )
    mix.append(
        ("shisanshui.best_response", "Arrange", pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=items)))
    )
    # 越式13张
    items = []
    for i in range(batch):
        c = deal()
        k = i % 3
        if k == 0:
            items.append(tl.TienlenEvaluateItem(play=K(c[: rng.choice([1, 2, 3])])))
        elif k == 1:
            items.append(tl.TienlenEvaluateItem(hand=K(c[:13])))
        else:
            items.append(
                tl.TienlenEvaluateItem(legal_plays=tl.TienlenLegalPlaysQuery(hand=K(c[:13]), table=K([c[20]])))
            )
    mix.append(("tienlen.evaluate", "Evaluate", pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=items))))
    items = [tl.TienlenCompareItem(play=K([c[0]]), table=K([c[1]])) for c in (deal() for _ in range(batch))]
    mix.append(("tienlen.compare", "Compare", pb.CompareRequest(tienlen=tl.TienlenCompareRequest(items=items))))
    deals = []
    for i in range(batch):
        c = deal()
        if i % 4 == 3:
            deals.append(
                tl.TienlenDeal(instant=tl.TienlenInstantDeal(hands=[K(c[13 * j : 13 * j + 13]) for j in range(4)]))
            )
            continue
        remaining = [K([])] + [K(c[13 * j : 13 * j + rng.randint(1, 12)]) for j in (1, 2, 3)]
        deals.append(tl.TienlenDeal(outcome=tl.TienlenOutcome(remaining=remaining, winner=0)))
    mix.append(("tienlen.settle", "Settle", pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=deals))))
    # 打儲
    items = []
    for i in range(batch):
        c = deal()
        if i % 2:
            items.append(
                dc.DachuEvaluateItem(
                    play=dc.DachuClassifyQuery(cards=K(c[: rng.choice([1, 2])]), chu=dc.DACHU_COLOUR_RED)
                )
            )
        else:
            items.append(
                dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand=K(c[:13]), chu=dc.DACHU_COLOUR_RED))
            )
    mix.append(("dachu.evaluate", "Evaluate", pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=items))))
    items = [
        dc.DachuCompareItem(play=K([c[0]]), table=K([c[1]]), chu=dc.DACHU_COLOUR_BLACK)
        for c in (deal() for _ in range(batch))
    ]
    mix.append(("dachu.compare", "Compare", pb.CompareRequest(dachu=dc.DachuCompareRequest(items=items))))
    deals = []
    for _ in range(batch):
        seats = [0, 1, 2, 3]
        rng.shuffle(seats)
        deals.append(
            dc.DachuDeal(
                outcome=dc.DachuOutcome(
                    chu_side=seats[: rng.choice([1, 2])],
                    places=rng.sample(range(4), 4),
                    multiplier=rng.choice([1, 2, 4]),
                ),
                base=rng.choice([1, 5]),
            )
        )
    mix.append(("dachu.settle", "Settle", pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=deals))))
    return mix


# ---------------------------------------------------------------- server and memory


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def rss_mib(pid: int) -> float:
    """VmRSS of the process and its descendants (the workers), in MiB."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
        stack.extend(_children(p))
    return total / 1024


def cpu_seconds(pid: int) -> float:
    total = 0.0
    stack = [pid]
    tick = os.sysconf("SC_CLK_TCK")
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
        stack.extend(_children(p))
    return total


def start_server(args, log_path: Path):
    """``handeval serve`` (harness.server, the one way) with the soak's flags: its process,
    its target and the server object (stopped by the caller)."""
    extra = ["--host", "127.0.0.1", "--workers", str(args.workers), "--max-concurrent-rpcs", "0"]
    if args.threads:
        extra += ["--threads", str(args.threads)]
    server = ServerProcess(log_path.parent, *extra, metrics=False, log_path=log_path)
    return server.proc, server.target, server


async def wait_serving(target, proc, timeout=60.0):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            async with grpc.aio.insecure_channel(target) as ch:
                r = await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    return
        except grpc.RpcError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("server not serving")


# ---------------------------------------------------------------- the run


def percentile(sorted_values, q):
    if not sorted_values:
        return None
    i = min(len(sorted_values) - 1, int(q * len(sorted_values)))
    return sorted_values[i]


async def probe(stub, mix):
    """The kinds this server implements (UNIMPLEMENTED ones are left out)."""
    keep, left_out = [], []
    for kind, rpc, req in mix:
        try:
            await getattr(stub, rpc)(req, timeout=120)
            keep.append((kind, rpc, req))
        except grpc.aio.AioRpcError as e:
            if e.code() == grpc.StatusCode.UNIMPLEMENTED:
                left_out.append(kind)
            else:
                raise SystemExit(f"probe of {kind} failed: {e.code()} {e.details()}") from e
    return keep, left_out


async def run(args) -> dict:
    out_dir = Path(args.out).parent if args.out else Path(".")
    log_path = out_dir / "soak-server.log"
    proc, target, server = start_server(args, log_path)
    try:
        await wait_serving(target, proc)
        channels = [grpc.aio.insecure_channel(target) for _ in range(args.channels)]
        stubs = [handeval_pb2_grpc.HandevalStub(ch) for ch in channels]
        mix, left_out = await probe(stubs[0], build_mix(args.seed, args.batch))
        windows = []
        window = {"lat": [], "codes": {}, "kinds": {}}
        t_start = time.monotonic()
        t_end = t_start + args.duration
        stop = asyncio.Event()

        async def caller(i):
            stub = stubs[i % len(stubs)]
            k = i
            while not stop.is_set():
                kind, rpc, req = mix[k % len(mix)]
                k += 1
                t0 = time.perf_counter()
                try:
                    await getattr(stub, rpc)(req, timeout=args.timeout)
                    code = "OK"
                except grpc.aio.AioRpcError as e:
                    code = e.code().name
                dt = time.perf_counter() - t0
                window["lat"].append(dt)
                window["codes"][code] = window["codes"].get(code, 0) + 1
                window["kinds"][kind] = window["kinds"].get(kind, 0) + 1

        tasks = [asyncio.ensure_future(caller(i)) for i in range(args.concurrency)]
        cpu0 = cpu_seconds(proc.pid)
        t_prev = t_start
        while True:
            now = time.monotonic()
            await asyncio.sleep(max(0.0, min(args.interval, t_end - now)))
            now = time.monotonic()
            w, window = window, {"lat": [], "codes": {}, "kinds": {}}
            lat = sorted(w["lat"])
            cpu1 = cpu_seconds(proc.pid)
            sample = {
                "t": round(now - t_start, 1),
                "calls": len(lat),
                "calls_per_s": round(len(lat) / max(now - t_prev, 1e-9), 1),
                "codes": w["codes"],
                "errors": sum(v for c, v in w["codes"].items() if c != "OK"),
                "p50_ms": round(1000 * percentile(lat, 0.50), 2) if lat else None,
                "p99_ms": round(1000 * percentile(lat, 0.99), 2) if lat else None,
                "max_ms": round(1000 * lat[-1], 2) if lat else None,
                "rss_mib": round(rss_mib(proc.pid), 1),
                "server_cpu": round((cpu1 - cpu0) / max(now - t_prev, 1e-9), 2),
            }
            cpu0, t_prev = cpu1, now
            windows.append(sample)
            if not args.quiet:
                print(json.dumps(sample), flush=True)
            if now >= t_end:
                break
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        for ch in channels:
            await ch.close()
        alive = proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=60)
    finally:
        server.close()  # kills it if still running, closes its log
    return summarize(args, windows, left_out, mix, alive, rc, log_path)


def summarize(args, windows, left_out, mix, alive, rc, log_path):
    calls = sum(w["calls"] for w in windows)
    codes = {}
    for w in windows:
        for c, v in w["codes"].items():
            codes[c] = codes.get(c, 0) + v
    errors = sum(v for c, v in codes.items() if c != "OK")
    warm = [w for w in windows if w["t"] > args.warmup] or windows
    rss_after_warmup = [w["rss_mib"] for w in warm]
    log_text = log_path.read_text(errors="replace")
    return {
        "config": {
            k: getattr(args, k)
            for k in (
                "duration",
                "concurrency",
                "channels",
                "batch",
                "workers",
                "threads",
                "interval",
                "warmup",
                "seed",
                "timeout",
            )
        },
        "kinds": [k for k, _, _ in mix],
        "left_out": left_out,
        "calls": calls,
        "items_per_call": args.batch,
        "codes": codes,
        "errors": errors,
        "calls_per_s": round(calls / max(windows[-1]["t"], 1e-9), 1) if windows else 0,
        "p50_ms_median_window": sorted(w["p50_ms"] for w in windows if w["p50_ms"] is not None)[len(windows) // 2]
        if windows
        else None,
        "p99_ms_worst_window": max((w["p99_ms"] for w in windows if w["p99_ms"] is not None), default=None),
        "rss_mib_first": windows[0]["rss_mib"] if windows else None,
        "rss_mib_after_warmup": rss_after_warmup[0] if rss_after_warmup else None,
        "rss_mib_last": windows[-1]["rss_mib"] if windows else None,
        "rss_mib_max_after_warmup": max(rss_after_warmup) if rss_after_warmup else None,
        "server_alive_at_end": alive,
        "server_exit_code": rc,
        "server_log_tracebacks": log_text.count("Traceback"),
        "windows": windows,
    }


def markdown(res) -> str:
    lines = [
        "| t (s) | calls/s | errors | p50 ms | p99 ms | max ms | RSS MiB | server CPU |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for w in res["windows"]:
        lines.append(
            f"| {w['t']:.0f} | {w['calls_per_s']:.0f} | {w['errors']} | {w['p50_ms']} | {w['p99_ms']} | {w['max_ms']} | "
            f"{w['rss_mib']} | {w['server_cpu']} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--duration", type=float, default=600.0, help="seconds of load (default 600, at most 3600)")
    p.add_argument("--concurrency", type=int, default=32, help="concurrent callers (default 32)")
    p.add_argument("--channels", type=int, default=4, help="gRPC channels the callers share (default 4)")
    p.add_argument("--batch", type=int, default=20, help="items per request (default 20; arrange gets a tenth)")
    p.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    p.add_argument("--threads", type=int, default=0, help="server compute threads (default: its own default)")
    p.add_argument("--interval", type=float, default=10.0, help="seconds per sample (default 10)")
    p.add_argument("--warmup", type=float, default=60.0, help="seconds before memory should be flat (default 60)")
    p.add_argument("--timeout", type=float, default=30.0, help="deadline of each call, seconds (default 30)")
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--out", help="write the JSON result here")
    p.add_argument("--markdown", action="store_true", help="print the per-window table as markdown")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if not 0 < args.duration <= MAX_DURATION:
        p.error(f"--duration must be in (0, {MAX_DURATION:.0f}]")
    res = asyncio.run(run(args))
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))
    summary = {k: v for k, v in res.items() if k != "windows"}
    print(json.dumps(summary, indent=1))
    if args.markdown:
        print(markdown(res))
    ok = (
        res["errors"] == 0
        and res["server_exit_code"] == 0
        and res["server_alive_at_end"]
        and not res["server_log_tracebacks"]
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Load generator for the handeval gRPC service (``grpc.aio``), also ``handeval bench-load``.

Sends a bounded mix of requests to a running ``handeval serve`` on loopback (or starts
one itself with ``--spawn-server``) from ``--concurrency`` concurrent callers over
``--channels`` connections, and reports requests/s, items/s, latency percentiles
(p50/p95/p99/max) and error counts by status code, with a live progress line. Optionally
writes a JSON result (``--json-out``) and a PNG plot of throughput and latency over time
(``--plot``, needs matplotlib: ``pip install 'handeval[bench]'``).

Safety: the target must be a loopback address (127.0.0.0/8, ::1, a name resolving only to
those, or a ``unix:`` socket) unless ``--allow-remote`` is given; a name is resolved once
and the connection goes to the checked address. Every run is bounded: it stops after
``--warmup`` + ``--duration`` seconds (at most 3600) or ``--requests`` measured requests,
whichever comes first, and every call has a deadline (``--timeout``).

Scenarios (``--mix name[=weight][@batch],...``; batch = items per request, default
``--batch``): ``ssw.packed`` (十三水 Evaluate, packed card-id rows), ``ssw.evaluate``
(row strings), ``ssw.compare`` (row pairs), ``ssw.settle`` (4-seat deals),
``ssw.arrange`` (13-card hands), ``tienlen.evaluate``, ``tienlen.compare``,
``dachu.evaluate``, ``dachu.compare``. A scenario the server answers UNIMPLEMENTED (a game
not in this build) is dropped from the mix at warm-up and reported as skipped.

``python benches/load.py report --results DIR --out FILE`` turns the JSON files of a
``scripts/bench_all.sh`` run into the tables of benchmarks-latest.md (in the run's results folder).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import math
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Tuple

MAX_DURATION = 3600.0
RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "shdc"]  # index = card id = rank * 4 + suit
SERVICE = "/handeval.v2.Handeval/"


class RemoteTargetRefused(SystemExit):
    pass


# ---------------------------------------------------------------- target safety

def split_target(target: str) -> Tuple[str, Optional[int]]:
    t = target
    for prefix in ("ipv4:", "ipv6:", "dns:///", "dns:"):
        if t.startswith(prefix):
            t = t[len(prefix):]
    if t.startswith("["):
        host, _, rest = t[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif t.count(":") == 1:
        host, port = t.split(":")
    elif ":" in t:  # a bare IPv6 literal
        host, port = t, ""
    else:
        host, port = t, ""
    return host, int(port) if port else None


def checked_target(target: str, allow_remote: bool = False) -> str:
    """The address to connect to. Without ``allow_remote`` anything not on loopback is
    refused (RemoteTargetRefused) before a socket is opened; a host name is resolved here
    and the checked IP is what the channel connects to."""
    if target.startswith(("unix:", "unix-abstract:")):
        return target
    host, port = split_target(target)
    if port is None:
        raise RemoteTargetRefused(f"target {target!r} has no port (use host:port)")
    try:
        ips = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as e:
            raise RemoteTargetRefused(f"cannot resolve {host!r}: {e}") from None
        ips = [ipaddress.ip_address(i[4][0].split("%")[0]) for i in infos]
    if not allow_remote:
        bad = [str(ip) for ip in ips if not ip.is_loopback]
        if bad or not ips:
            raise RemoteTargetRefused(
                f"refusing to load-test {target!r} ({', '.join(bad) or 'no address'}): not a loopback "
                "address; the load generator only targets this machine unless --allow-remote is given")
    ip = ips[0]
    return f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}"


# ---------------------------------------------------------------- scenarios

def _rows(rng, n, size):
    return [rng.sample(DECK, size) for _ in range(n)]


def _arrangement(rng, cards13=None):
    cards = sorted(cards13 or rng.sample(DECK, 13), key=lambda c: RANKS.index(c[0]))
    return cards[:3], cards[3:8], cards[8:]


def build_scenario(name: str, batch: int, rng: random.Random):
    """(rpc, request message, items) of one request of scenario ``name``."""
    from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, shisanshui_pb2 as ssw, tienlen_pb2 as tl

    def j(cards):
        return common_pb2.Cards(cards=cards)
    if name == "ssw.packed":
        data = b"".join(bytes(rng.sample(range(52), 5)) for _ in range(batch))
        return "Evaluate", pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(packed_rows=data)), batch
    if name == "ssw.evaluate":
        items = [ssw.ShisanshuiEvaluateItem(row=j(r)) for r in _rows(rng, batch, 5)]
        return "Evaluate", pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)), batch
    if name == "ssw.compare":
        items = [ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=j(a), b=j(b)))
                 for a, b in ((t[:5], t[5:]) for t in (rng.sample(DECK, 10) for _ in range(batch)))]  # one deck per pair
        return "Compare", pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(items=items)), batch
    if name == "ssw.settle":
        deals = []
        for _ in range(batch):
            deck = rng.sample(DECK, 52)
            players = []
            for s in range(4):
                f, m, b = _arrangement(rng, deck[13 * s:13 * s + 13])
                players.append(ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(front=j(f), middle=j(m), back=j(b))))
            deals.append(ssw.ShisanshuiDeal(players=players, base=10))
        return "Settle", pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=deals)), batch
    if name == "ssw.arrange":
        items = [ssw.ShisanshuiArrangeItem(hand=j(rng.sample(DECK, 13))) for _ in range(batch)]
        return "Arrange", pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=items)), batch
    if name in ("tienlen.evaluate", "dachu.evaluate"):
        plays = []
        for _ in range(batch):
            r = rng.choice(RANKS)
            plays.append(rng.sample([r + s for s in "shdc"], rng.choice((1, 1, 2, 3))))
        if name == "tienlen.evaluate":
            req = pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=[tl.TienlenEvaluateItem(play=j(p)) for p in plays]))
        else:
            req = pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=[
                dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=j(p), chu=dc.DACHU_COLOUR_RED)) for p in plays]))
        return "Evaluate", req, batch
    if name in ("tienlen.compare", "dachu.compare"):
        pairs = [rng.sample(DECK, 2) for _ in range(batch)]
        if name == "tienlen.compare":
            req = pb.CompareRequest(tienlen=tl.TienlenCompareRequest(items=[
                tl.TienlenCompareItem(play=j([a]), table=j([b])) for a, b in pairs]))
        else:
            req = pb.CompareRequest(dachu=dc.DachuCompareRequest(items=[
                dc.DachuCompareItem(play=j([a]), table=j([b]), chu=dc.DACHU_COLOUR_BLACK) for a, b in pairs]))
        return "Compare", req, batch
    raise ValueError(f"unknown scenario {name!r}; one of {', '.join(SCENARIOS)}")


SCENARIOS = ("ssw.packed", "ssw.evaluate", "ssw.compare", "ssw.settle", "ssw.arrange",
             "tienlen.evaluate", "tienlen.compare", "dachu.evaluate", "dachu.compare")


def parse_mix(text: str, default_batch: int) -> List[Tuple[str, float, int]]:
    """``"ssw.packed=1@100000,ssw.evaluate=3"`` → [(name, weight, batch)]."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, batch = part.partition("@")
        name, _, weight = name.partition("=")
        if name not in SCENARIOS:
            raise ValueError(f"--mix: unknown scenario {name!r}; one of {', '.join(SCENARIOS)}")
        w = float(weight) if weight else 1.0
        b = int(batch) if batch else default_batch
        if w <= 0 or b < 1:
            raise ValueError(f"--mix: {part!r}: weight must be > 0 and batch >= 1")
        out.append((name, w, b))
    if not out:
        raise ValueError("--mix is empty")
    return out


def count_item_errors(rpc: str, raw: bytes) -> int:
    from handeval.v2 import handeval_pb2 as pb

    msg = getattr(pb, f"{rpc}Response").FromString(raw)
    game = msg.WhichOneof("game")
    if game is None:
        return 0
    sub = getattr(msg, game)
    return sum(1 for r in sub.results if r.WhichOneof("result") == "error")


# ---------------------------------------------------------------- statistics

def percentile(sorted_values: List[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    # nearest rank: the smallest value with at least q% of the values at or below it
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values) / 100) - 1))
    return sorted_values[k]


def summarize(lat: List[float], items: int, errors: Counter, item_errors: int, seconds: float) -> dict:
    s = sorted(lat)
    n = len(s) + sum(errors.values())
    ms = lambda x: round(x * 1000, 3)  # noqa: E731
    return {
        "requests": n, "ok": len(s), "errors": dict(errors), "item_errors": item_errors,
        "items": items, "seconds": round(seconds, 3),
        "requests_per_s": round(n / seconds, 1) if seconds > 0 else 0.0,
        "items_per_s": round(items / seconds, 1) if seconds > 0 else 0.0,
        "latency_ms": {"p50": ms(percentile(s, 50)), "p95": ms(percentile(s, 95)), "p99": ms(percentile(s, 99)),
                       "max": ms(s[-1]) if s else float("nan"), "mean": ms(sum(s) / len(s)) if s else float("nan")},
    }


def machine_info() -> dict:
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    cpu = platform.processor() or ""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "loadavg_1_5_15": load,
            "date_utc": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}


def tree_cpu_seconds(pid: int) -> Optional[float]:
    """User + system CPU seconds of process ``pid`` and its descendants (Linux /proc),
    or None when unavailable."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats = {}
    try:
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat", "rb") as f:
                        rest = f.read().rsplit(b")", 1)[1].split()
                    stats[int(d)] = (int(rest[1]), int(rest[11]) + int(rest[12]))  # ppid, utime + stime
                except (OSError, IndexError, ValueError):
                    pass
    except OSError:
        return None
    if pid not in stats:
        return None
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += stats[p][1]
        todo += [c for c, (pp, _) in stats.items() if pp == p]
    return total / tick


# ---------------------------------------------------------------- server (--spawn-server)

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SpawnedServer:
    """``python -m handeval serve`` on a free loopback port; stopped with SIGTERM."""

    def __init__(self, workers: int = 1, extra: Tuple[str, ...] = (), log_path: Optional[str] = None,
                 kind: str = "handeval"):
        self.port = free_port()
        self.target = f"127.0.0.1:{self.port}"
        if kind == "floor":
            cmd = [sys.executable, str(Path(__file__).resolve()), "serve-floor", str(self.port)]
        else:
            cmd = [sys.executable, "-m", "handeval", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--workers", str(workers), *extra]
        self._log = open(log_path, "wb") if log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT)

    def wait_serving(self, timeout: float = 60.0) -> "SpawnedServer":
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                with grpc.insecure_channel(self.target) as ch:
                    r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if r.status == health_pb2.HealthCheckResponse.SERVING:
                    return self
            except grpc.RpcError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server on {self.target} not serving after {timeout}s")

    def stop(self, timeout: float = 30.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log is not subprocess.DEVNULL:
            self._log.close()

    def __enter__(self):
        return self.wait_serving()

    def __exit__(self, *exc):
        self.stop()


def serve_floor(port: int) -> int:
    """The floor of a Python grpc.aio server on this machine: the four Handeval methods
    answered at once with an empty response (no thread pool, no conversion, no rules, no
    metrics), plus health; on 127.0.0.1 only, until SIGTERM. ``--server-kind floor``
    measures it, so the cost handeval adds on top is the difference."""
    import grpc
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc

    async def empty(request, context):
        return b""

    async def run():
        server = grpc.aio.server()
        handlers = {rpc: grpc.unary_unary_rpc_method_handler(empty) for rpc in ("Evaluate", "Compare", "Settle", "Arrange")}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("handeval.v2.Handeval", handlers),))
        hs = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(hs, server)
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        await hs.set("", health_pb2.HealthCheckResponse.SERVING)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await server.stop(1)

    asyncio.run(run())
    return 0


# ---------------------------------------------------------------- the run

class Recorder:
    def __init__(self, bucket: float):
        self.bucket = bucket
        self.lat: Dict[str, List[float]] = defaultdict(list)
        self.items: Counter = Counter()
        self.errors: Dict[str, Counter] = defaultdict(Counter)
        self.item_errors: Counter = Counter()
        self.timeline: Dict[int, dict] = {}
        self.done = 0

    def add(self, scenario: str, rel_t: float, latency: float, code: str, items: int, item_errors: int):
        self.done += 1
        b = self.timeline.setdefault(int(rel_t / self.bucket), {"ok": 0, "err": 0, "items": 0, "lat": []})
        if code == "OK":
            self.lat[scenario].append(latency)
            self.items[scenario] += items
            self.item_errors[scenario] += item_errors
            b["ok"] += 1
            b["items"] += items
            b["lat"].append(latency)
        else:
            self.errors[scenario][code] += 1
            b["err"] += 1


async def run_load(args, target: str, mix, out=sys.stderr) -> dict:
    import grpc

    rng = random.Random(args.seed)
    # Pre-serialised request pools: the client's CPU goes to calls, not to building them.
    pools = {}
    for name, _, batch in mix:
        reqs = [build_scenario(name, batch, rng) for _ in range(args.pool)]
        pools[name] = (reqs[0][0], [r[1].SerializeToString() for r in reqs], batch)
    options = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20),
               ("grpc.use_local_subchannel_pool", 1)]  # one TCP connection per channel
    channels = [grpc.aio.insecure_channel(target, options=options) for _ in range(max(1, args.channels))]
    # Raw bytes in and out (no serializers): the pools are already serialised.
    calls = [{rpc: ch.unary_unary(SERVICE + rpc) for rpc in ("Evaluate", "Compare", "Settle", "Arrange")}
             for ch in channels]
    skipped: Dict[str, str] = {}
    try:
        # Probe each scenario once; UNIMPLEMENTED (game not in this build) drops it.
        for name, _, _ in mix:
            rpc, payloads, _ = pools[name]
            try:
                await calls[0][rpc](payloads[0], timeout=max(args.timeout, 30.0))
            except grpc.aio.AioRpcError as e:
                if e.code() == grpc.StatusCode.UNIMPLEMENTED:
                    skipped[name] = f"UNIMPLEMENTED: {e.details()}"
                elif e.code() in (grpc.StatusCode.UNAVAILABLE,):
                    raise SystemExit(f"server at {target} is unavailable: {e.details()}") from None
        active = [(n, w, b) for n, w, b in mix if n not in skipped]
        for n, why in skipped.items():
            print(f"[load] skipping {n}: {why}", file=out)
        if not active:
            return {"skipped": skipped, "error": "every scenario of the mix was skipped"}
        names = [n for n, _, _ in active]
        weights = [w for _, w, _ in active]

        rec = Recorder(args.bucket)
        t_start = time.perf_counter()
        t_measure = t_start + args.warmup
        t_end = t_measure + args.duration
        budget = {"left": args.requests if args.requests else None}
        counter = [0]

        async def caller(i):
            crng = random.Random(args.seed * 7919 + i)
            call = calls[i % len(calls)]
            # --rate: open loop, each caller on its own schedule (offset so the callers
            # interleave); latency counts from the scheduled send time, so a client that
            # falls behind shows it (no coordinated omission).
            interval = args.concurrency / args.rate if args.rate else 0.0
            scheduled = t_start + interval * i / args.concurrency
            while True:
                now = time.perf_counter()
                if interval:
                    if scheduled > now:
                        await asyncio.sleep(scheduled - now)
                        now = time.perf_counter()
                if now >= t_end:
                    return
                measured = (scheduled if interval else now) >= t_measure
                if measured and budget["left"] is not None:
                    if budget["left"] <= 0:
                        return
                    budget["left"] -= 1
                name = crng.choices(names, weights)[0] if len(names) > 1 else names[0]
                rpc, payloads, batch = pools[name]
                counter[0] += 1
                payload = payloads[counter[0] % len(payloads)]
                t0 = time.perf_counter()
                if interval:
                    t0, scheduled = scheduled, scheduled + interval
                    now = t0
                code, nerr = "OK", 0
                try:
                    raw = await call[rpc](payload, timeout=args.timeout)
                    if args.decode:
                        nerr = count_item_errors(rpc, raw)
                except grpc.aio.AioRpcError as e:
                    code = e.code().name
                t1 = time.perf_counter()
                if measured:
                    rec.add(name, t0 - t_measure, t1 - t0, code, batch, nerr)

        async def progress():
            last_done, last_t = 0, time.perf_counter()
            while True:
                await asyncio.sleep(args.progress_every)
                now = time.perf_counter()
                if now < t_measure:
                    line = f"[load] warm-up {now - t_start:5.1f}/{args.warmup:.1f}s"
                else:
                    recent = [x for b in list(rec.timeline.values())[-3:] for x in b["lat"]]
                    recent.sort()
                    errs = sum(sum(c.values()) for c in rec.errors.values())
                    rate = (rec.done - last_done) / (now - last_t)
                    items = sum(rec.items.values())
                    line = (f"[load] {now - t_measure:6.1f}/{args.duration:.0f}s {rec.done:>9,} req "
                            f"{rate:>9,.0f} req/s {items / max(now - t_measure, 1e-9):>13,.0f} items/s "
                            f"p50 {percentile(recent, 50) * 1000:7.2f} ms p99 {percentile(recent, 99) * 1000:7.2f} ms "
                            f"errors {errs}")
                    last_done, last_t = rec.done, now
                if out.isatty():
                    print("\r" + line, end="", file=out, flush=True)
                else:
                    print(line, file=out, flush=True)

        cpu = {}

        async def cpu_marks():
            # CPU seconds of this client and of the server (when its pid is known) over
            # the measured window: the cost of a request on each side.
            await asyncio.sleep(max(0.0, t_measure - time.perf_counter()))
            cpu["client0"], cpu["server0"] = time.process_time(), server_cpu()

        def server_cpu():
            return tree_cpu_seconds(args.server_pid) if getattr(args, "server_pid", None) else None

        marks = asyncio.ensure_future(cpu_marks())
        prog = asyncio.ensure_future(progress()) if not args.quiet else None
        tasks = [asyncio.ensure_future(caller(i)) for i in range(args.concurrency)]
        # Hard stop: even a hung call cannot outlive the run by more than its deadline.
        done, pending = await asyncio.wait(tasks, timeout=args.warmup + args.duration + args.timeout + 5)
        for t in pending:
            t.cancel()
        t_stop = min(time.perf_counter(), t_end)
        cpu["client1"], cpu["server1"] = time.process_time(), server_cpu()
        marks.cancel()
        if prog is not None:
            prog.cancel()
            if out.isatty():
                print(file=out)
        for t in done:
            if t.exception() is not None:
                raise t.exception()
    finally:
        for ch in channels:
            await ch.close()

    seconds = max(t_stop - t_measure, 1e-9)
    all_lat = [x for v in rec.lat.values() for x in v]
    all_err: Counter = Counter()
    for c in rec.errors.values():
        all_err.update(c)
    n_req = sum(len(v) for v in rec.lat.values()) + sum(all_err.values())

    def cpu_cost(side):
        a, b = cpu.get(side + "0"), cpu.get(side + "1")
        if a is None or b is None:
            return None
        return {"cpu_s": round(b - a, 3), "cores_busy": round((b - a) / seconds, 2),
                "cpu_us_per_request": round((b - a) / max(n_req, 1) * 1e6, 1)}

    result = {
        "target": target,
        "cpu": {"client": cpu_cost("client"), "server": cpu_cost("server")},
        "config": {k: v for k, v in vars(args).items() if k not in ("func",)},
        "mix": [{"scenario": n, "weight": w, "batch": b} for n, w, b in mix],
        "skipped": skipped,
        "machine": machine_info(),
        "overall": summarize(all_lat, sum(rec.items.values()), all_err, sum(rec.item_errors.values()), seconds),
        "scenarios": {n: summarize(rec.lat[n], rec.items[n], rec.errors[n], rec.item_errors[n], seconds)
                      for n in names},
        "timeline": [
            {"t": round((k + 1) * args.bucket, 3), "ok": b["ok"], "errors": b["err"], "items": b["items"],
             "p50_ms": round(percentile(sorted(b["lat"]), 50) * 1000, 3) if b["lat"] else None,
             "p99_ms": round(percentile(sorted(b["lat"]), 99) * 1000, 3) if b["lat"] else None}
            for k, b in sorted(rec.timeline.items())
        ],
    }
    return result


def print_summary(res: dict, out=sys.stdout) -> None:
    if "overall" not in res:
        print(f"no measurement: {res.get('error')}", file=out)
        return
    cfg = res["config"]
    paced = f"  paced at {cfg['rate']:,.0f} req/s" if cfg.get("rate") else ""
    print(f"target {res['target']}  concurrency {cfg['concurrency']}{paced}  channels {cfg['channels']}  "
          f"duration {res['overall']['seconds']}s (+{cfg['warmup']}s warm-up)  load {res['machine']['loadavg_1_5_15']}",
          file=out)
    rows = [("overall", res["overall"])] + list(res["scenarios"].items()) if len(res["scenarios"]) > 1 \
        else list(res["scenarios"].items())
    print(f"{'scenario':<18}{'batch':>8}{'requests':>10}{'req/s':>10}{'items/s':>14}"
          f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}  errors", file=out)
    batches = {m["scenario"]: m["batch"] for m in res["mix"]}
    for name, s in rows:
        lat = s["latency_ms"]
        errs = ", ".join(f"{k} {v}" for k, v in s["errors"].items()) or "0"
        if s["item_errors"]:
            errs += f" (+{s['item_errors']} item errors)"
        print(f"{name:<18}{batches.get(name, ''):>8}{s['requests']:>10,}{s['requests_per_s']:>10,.0f}"
              f"{s['items_per_s']:>14,.0f}{lat['p50']:>9.2f}{lat['p95']:>9.2f}{lat['p99']:>9.2f}{lat['max']:>9.2f}  {errs}",
              file=out)
    for n, why in res.get("skipped", {}).items():
        print(f"{n:<18} skipped: {why}", file=out)
    for side, c in res.get("cpu", {}).items():
        if c:
            print(f"{side} CPU: {c['cores_busy']} cores busy, {c['cpu_us_per_request']} µs per request", file=out)


def write_plot(res: dict, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SystemExit("--plot needs matplotlib: pip install matplotlib (or pip install 'handeval[bench]')") from None
    tl = res["timeline"]
    bucket = res["config"]["bucket"]
    t = [p["t"] for p in tl]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    items = [p["items"] / bucket for p in tl]
    reqs = [(p["ok"] + p["errors"]) / bucket for p in tl]
    ax1.plot(t, items, color="tab:blue", label="items/s")
    ax1.set_ylim(0, max(items, default=0) * 1.15 or 1)
    ax1.set_ylabel("items/s", color="tab:blue")
    ax1b = ax1.twinx()
    ax1b.plot(t, reqs, color="tab:orange", ls="--", label="requests/s")
    ax1b.set_ylabel("requests/s", color="tab:orange")
    ax1b.set_ylim(0, max(reqs, default=0) * 1.15 or 1)
    o = res["overall"]
    import textwrap

    mix = ", ".join(f"{m['scenario']}@{m['batch']}" for m in res["mix"] if m["scenario"] not in res["skipped"])
    rate = f", paced {res['config']['rate']:,.0f}/s" if res["config"].get("rate") else ""
    title = (f"{res.get('label') or ''} {mix}; concurrency {res['config']['concurrency']}{rate}: "
             f"{o['requests_per_s']:,.0f} req/s, {o['items_per_s']:,.0f} items/s, p99 {o['latency_ms']['p99']} ms")
    ax1.set_title("\n".join(textwrap.wrap(title.strip(), 110)), fontsize=9)
    ax2.plot(t, [p["p50_ms"] for p in tl], label="p50")
    ax2.plot(t, [p["p99_ms"] for p in tl], label="p99")
    ax2.axhline(o["latency_ms"]["p99"], color="gray", ls="--", lw=0.8, label=f"run p99 {o['latency_ms']['p99']} ms")
    ax2.set_ylim(bottom=0)
    ax2.set_ylabel("latency (ms)")
    ax2.set_xlabel("seconds after warm-up")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def build_parser(prog: str = "load.py") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    a = p.add_argument
    a("--target", default="127.0.0.1:50051", help="host:port of a running server (loopback only; default 127.0.0.1:50051)")
    a("--allow-remote", action="store_true", help="allow a target that is not a loopback address")
    a("--spawn-server", action="store_true", help="start `handeval serve` on a free loopback port for this run")
    a("--server-workers", type=int, default=1, help="--workers of the spawned server (default 1)")
    a("--server-log", default=None, help="file for the spawned server's log")
    a("--server-kind", choices=("handeval", "floor"), default="handeval",
      help="what --spawn-server starts: handeval serve (default), or 'floor': a bare grpc.aio server "
           "answering every call with an empty response (the Python gRPC stack's own cost)")
    a("--mix", default="ssw.evaluate", help="scenarios name[=weight][@batch],... (default ssw.evaluate)")
    a("--batch", type=int, default=1, help="items per request unless the mix says @N (default 1)")
    a("--concurrency", type=int, default=8, help="concurrent callers (default 8)")
    a("--channels", type=int, default=4, help="gRPC connections the callers share (default 4)")
    a("--duration", type=float, default=10.0, help=f"measured seconds after warm-up (default 10, at most {MAX_DURATION:.0f})")
    a("--requests", type=int, default=0, help="stop after this many measured requests (default: by duration only)")
    a("--warmup", type=float, default=2.0, help="seconds of unmeasured warm-up (default 2)")
    a("--rate", type=float, default=0.0,
      help="open loop: send this many requests/s in total, spread over the callers (default 0: "
           "closed loop, each caller sends its next request when the last one is answered)")
    a("--timeout", type=float, default=10.0, help="deadline of each call in seconds (default 10)")
    a("--pool", type=int, default=16, help="distinct pre-built requests per scenario (default 16)")
    a("--seed", type=int, default=1, help="random seed of the requests (default 1)")
    a("--no-decode", dest="decode", action="store_false",
      help="do not parse responses (by default each is parsed and item errors counted)")
    a("--bucket", type=float, default=0.5, help="timeline bucket in seconds (default 0.5)")
    a("--progress-every", type=float, default=1.0, help="seconds between progress lines (default 1)")
    a("--quiet", action="store_true", help="no progress line")
    a("--json-out", default=None, help="write the result as JSON to this file")
    a("--plot", default=None, help="write a PNG latency/throughput plot to this file (needs matplotlib)")
    a("--label", default=None, help="a name for this run, stored in the JSON")
    a("--server-pid", type=int, default=None,
      help="pid of the server (measures its CPU per request; set by --spawn-server)")
    return p


def main(argv=None, prog: str = "load.py") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["report"]:
        return report_main(argv[1:])
    if argv[:1] == ["serve-floor"] and len(argv) == 2:
        return serve_floor(int(argv[1]))
    args = build_parser(prog).parse_args(argv)
    err = None
    if not (0 < args.duration <= MAX_DURATION):
        err = f"--duration must be in (0, {MAX_DURATION:.0f}] seconds"
    elif not (0 <= args.warmup <= 600):
        err = "--warmup must be in [0, 600] seconds"
    elif args.concurrency < 1 or args.channels < 1 or args.pool < 1 or args.requests < 0:
        err = "--concurrency, --channels and --pool must be >= 1, --requests >= 0"
    elif args.rate < 0:
        err = "--rate must be >= 0"
    elif args.timeout <= 0 or args.bucket <= 0 or args.progress_every <= 0:
        err = "--timeout, --bucket and --progress-every must be > 0"
    if err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    try:
        mix = parse_mix(args.mix, args.batch)
    except ValueError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    if args.plot:  # fail before the run, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(f"{prog}: --plot needs matplotlib: pip install matplotlib (or pip install 'handeval[bench]')",
                  file=sys.stderr)
            return 2
    server = None
    if args.spawn_server:
        server = SpawnedServer(args.server_workers, log_path=args.server_log, kind=args.server_kind).wait_serving()
        args.target = server.target
        args.server_pid = server.proc.pid
    try:
        try:
            target = checked_target(args.target, args.allow_remote)
        except RemoteTargetRefused as e:
            print(f"{prog}: {e}", file=sys.stderr)
            return 2
        res = asyncio.run(run_load(args, target, mix))
    finally:
        if server is not None:
            server.stop()
    if args.label:
        res["label"] = args.label
    if args.spawn_server:
        res["server_workers"] = args.server_workers if args.server_kind == "handeval" else "floor"
    print_summary(res)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.plot and "timeline" in res:
        write_plot(res, args.plot)
    if "overall" not in res:
        return 3
    return 0


# ---------------------------------------------------------------- report (bench_all.sh)

def _fmt_rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"


def _fmt_time(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e9:.1f} ns"


def criterion_rows(root: Path, since: float) -> List[dict]:
    """[{name, ns_per_row}] of criterion benchmarks with an element throughput, from
    ``<root>/**/new/{benchmark,estimates}.json`` written after ``since``."""
    rows = []
    for bj in sorted(root.glob("**/new/benchmark.json")):
        ej = bj.with_name("estimates.json")
        if not ej.exists() or ej.stat().st_mtime < since:
            continue
        b, e = json.loads(bj.read_text()), json.loads(ej.read_text())
        elements = (b.get("throughput") or {}).get("Elements") or 1
        rows.append({"name": b.get("full_id") or f"{b.get('group_id')}/{b.get('function_id')}",
                     "ns_per_row": e["mean"]["point_estimate"] / elements, "elements": elements})
    return rows


def report_main(argv) -> int:
    ap = argparse.ArgumentParser(prog="load.py report", description="tables of benchmarks-latest.md")
    ap.add_argument("--results", required=True, help="directory with pytest.json, criterion.json, load-*.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--command", default="bash scripts/bench_all.sh")
    ap.add_argument("--uptime", default="")
    ap.add_argument("--criterion", default=None, help="criterion's output directory (target/criterion)")
    ap.add_argument("--since", type=float, default=0.0, help="only criterion results written after this epoch time")
    args = ap.parse_args(argv)
    d = Path(args.results)
    if args.criterion:
        crit_rows = criterion_rows(Path(args.criterion), args.since)
        if crit_rows:
            (d / "criterion.json").write_text(json.dumps(crit_rows, indent=1) + "\n", encoding="utf-8")
    m = machine_info()
    L = ["# Benchmarks: latest generated tables", "",
         f"Generated by `{args.command}` on {m['date_utc']} (do not edit by hand; the analysis is in "
         "docs/benchmarks.md).", "",
         f"Machine: {m['cpus']} CPU \"{m['cpu']}\", Python {m['python']}, {m['platform']}.", "",
         f"Machine load (uptime) at the start and end of the run: `{args.uptime.strip() or m['loadavg_1_5_15']}`.", ""]

    crit = d / "criterion.json"
    if crit.exists():
        rows = json.loads(crit.read_text())
        L += ["## Rust core (criterion)", "", "`cargo bench -p handeval-core --bench core`", "",
              "| benchmark | per row | rows/s |", "|---|---|---|"]
        for r in rows:
            L.append(f"| `{r['name']}` | {r['ns_per_row']:.2f} ns | {_fmt_rate(1e9 / r['ns_per_row'])} |")
        L.append("")

    pyt = d / "pytest.json"
    if pyt.exists():
        data = json.loads(pyt.read_text())
        groups = defaultdict(list)
        for b in data["benchmarks"]:
            groups[b.get("group") or "-"].append(b)
        L += ["## pytest-benchmark suites", "", "`python -m pytest benches -q --benchmark-json=...` "
              "(items/s = items per call / mean time; ratios to the group's baseline, same run, from the means; "
              "the fastest call shows the cost without interference from other load)", ""]
        for g, bs in sorted(groups.items()):
            rate = lambda b: b["extra_info"].get("items", 1) / b["stats"]["mean"]  # noqa: E731
            base = next((b for b in bs if "baseline" in b["name"]), None)
            L += [f"### {g}", "", "| benchmark | items/s | mean per call | fastest call | time per item "
                  "| speed vs baseline | time per item vs baseline |", "|---|---|---|---|---|---|---|"]
            for b in sorted(bs, key=rate, reverse=True):
                if b is base:
                    ratio = cost = "baseline"
                else:
                    ratio = f"×{rate(b) / rate(base):.3g}" if base else ""
                    cost = f"×{rate(base) / rate(b):.3g}" if base else ""
                L.append(f"| `{b['name']}` | {_fmt_rate(rate(b))} | {_fmt_time(b['stats']['mean'])} | "
                         f"{_fmt_time(b['stats']['min'])} | {_fmt_time(1 / rate(b))} | {ratio} | {cost} |")
            L.append("")

    def run_order(f):  # load-10-x after load-9-y
        head = f.stem.split("-")[1] if f.stem.count("-") else ""
        return (int(head) if head.isdigit() else 1 << 30, f.name)

    loads = sorted(d.glob("load-*.json"), key=run_order)
    if loads:
        L += ["## gRPC load generator", "",
              "`python benches/load.py --spawn-server --duration S --warmup 2 ...` against a fresh `handeval serve` "
              "per run (the flags of each run are in `scripts/bench_all.sh`). Client and server share the "
              "machine's cores; CPU µs/req is CPU time over the measured window divided by requests "
              "(server: all its processes).", "",
              "| run | workers | scenario@batch | conc. | req/s | items/s | p50 ms | p95 ms | p99 ms | max ms "
              "| errors | server CPU µs/req | client CPU µs/req |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

        def row(name, workers, mix, conc, s, cpu=None):
            lat = s["latency_ms"]
            errs = ", ".join(f"{k} {v}" for k, v in s["errors"].items()) or "0"
            c = cpu or {}
            sc = c.get("server") or {}
            cc = c.get("client") or {}
            return (f"| {name} | {workers} | {mix} | {conc} | {s['requests_per_s']:,.0f} | {_fmt_rate(s['items_per_s'])} | "
                    f"{lat['p50']:.2f} | {lat['p95']:.2f} | {lat['p99']:.2f} | {lat['max']:.2f} | {errs} | "
                    f"{sc.get('cpu_us_per_request', '')} | {cc.get('cpu_us_per_request', '')} |")

        for f in loads:
            r = json.loads(f.read_text())
            label = r.get("label", f.stem)
            if "overall" not in r:
                L.append(f"| {label} | | skipped: {r.get('error')} | | | | | | | | | | |")
                continue
            batches = {x["scenario"]: x["batch"] for x in r["mix"]}
            workers, conc = r.get("server_workers", "?"), r["config"]["concurrency"]
            if r["config"].get("rate"):
                conc = f"{conc}, paced {r['config']['rate']:,.0f}/s"
            if len(r["scenarios"]) == 1:
                (n, s), = r["scenarios"].items()
                L.append(row(label, workers, f"{n}@{batches[n]}", conc, r["overall"], r.get("cpu")))
            else:
                L.append(row(label, workers, "mix (below)", conc, r["overall"], r.get("cpu")))
                for n, s in r["scenarios"].items():
                    L.append(row(f"↳ {label}", "", f"{n}@{batches[n]}", "", s))
            for n in r.get("skipped", {}):
                L.append(f"| ↳ {label} | | {n}: skipped (UNIMPLEMENTED in this build) | | | | | | | | | | |")
        L.append("")
    Path(args.out).write_text("\n".join(L), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

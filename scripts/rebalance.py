"""Measure how clients come back to a restarted worker (docs/hardening.md).

Starts ``handeval serve --workers 2 --log-level debug`` on a free loopback port with a
given ``--max-connection-age``, runs long-lived client channels calling Evaluate at a
steady pace, SIGKILLs one worker, and reports the share of calls served by the restarted
worker in consecutive windows after it serves (from the per-call log lines, which carry
the worker's pid). Loopback only; every run is bounded by --window.

    python scripts/rebalance.py --ages 0,5,20 --window 40 --markdown
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

import grpc

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from harness.server import ServerProcess

LINE = re.compile(r"^(\S+ \S+) \w+ handeval\.server\[(\d+)\] \{\"event\": \"(call|serving)\"")


def children(pid):
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        out |= {int(x) for x in (task / "children").read_text().split()}
    return out


def wait(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.05)


def events(log: str):
    for line in log.splitlines():
        m = LINE.match(line)
        if m:
            t = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
            yield t, int(m.group(2)), m.group(3)


def run(age: float, clients: int, rate: float, window: float, bucket: float):
    log_path = Path(tempfile.mkdtemp(prefix="handeval-rebalance-")) / "server.log"
    process = ServerProcess(
        log_path.parent,
        *("--workers", "2", "--threads", "1", "--log-level", "debug", "--max-connection-age", str(age)),
        metrics=False,
        log_path=log_path,
    )
    server, port = process.proc, process.port
    target = f"127.0.0.1:{port}"
    stop = threading.Event()
    codes = {}
    lock = threading.Lock()
    req = pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(
            items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=["As", "Ks", "Qs"]))]
        )
    )

    def client():
        with grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
            stub = handeval_pb2_grpc.HandevalStub(ch)
            while not stop.is_set():
                try:
                    stub.Evaluate(req, timeout=10)
                    code = "OK"
                except grpc.RpcError as e:
                    code = e.code().name
                with lock:
                    codes[code] = codes.get(code, 0) + 1
                time.sleep(1 / rate)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    try:
        wait(lambda: log_path.read_text().count('"event": "serving"') == 2, 60, "two workers")
        for t in threads:
            t.start()
        time.sleep(3)
        first = children(server.pid)
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        wait(lambda: len(children(server.pid) - first) == 1, 30, "the restart")
        (restarted,) = children(server.pid) - first
        wait(lambda: log_path.read_text().count('"event": "serving"') == 3, 60, "the new worker to serve")
        time.sleep(window)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
        process.terminate(60)
    evs = list(events(log_path.read_text()))
    t_serving = max(t for t, pid, kind in evs if kind == "serving" and pid == restarted)
    n = int(window // bucket)
    total, mine = [0] * n, [0] * n
    for t, pid, kind in evs:
        i = int((t - t_serving) // bucket)
        if kind == "call" and 0 <= i < n:
            total[i] += 1
            mine[i] += pid == restarted
    return [m / t if t else 0.0 for m, t in zip(mine, total)], sum(total), codes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ages", default="0,5,20", help="--max-connection-age values to compare (0 = off)")
    ap.add_argument("--clients", type=int, default=6, help="long-lived client channels")
    ap.add_argument("--rate", type=float, default=25.0, help="calls per second per client")
    ap.add_argument("--window", type=float, default=40.0, help="seconds measured after the restart")
    ap.add_argument("--bucket", type=float, default=5.0, help="seconds per reported share")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    rows = []
    for age in (float(x) for x in a.ages.split(",")):
        shares, calls, codes = run(age, a.clients, a.rate, a.window, a.bucket)
        rows.append((age, shares, calls, codes))
        print(
            f"age {age:g} s: {calls} calls, codes {codes}; restarted worker's share per {a.bucket:g} s: "
            + " ".join(f"{s:.0%}" for s in shares),
            flush=True,
        )
    if a.markdown:
        n = len(rows[0][1])
        head = " | ".join(f"{i * a.bucket:g}–{(i + 1) * a.bucket:g} s" for i in range(n))
        print(f"\n| --max-connection-age | {head} | calls (codes) |")
        print("|---" * (n + 2) + "|")
        for age, shares, calls, codes in rows:
            label = "off (0)" if age == 0 else f"{age:g} s"
            print(
                f"| {label} | "
                + " | ".join(f"{s:.0%}" for s in shares)
                + f" | {calls} ({', '.join(f'{k} {v}' for k, v in sorted(codes.items()))}) |"
            )


if __name__ == "__main__":
    main()

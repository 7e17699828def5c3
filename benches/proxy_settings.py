"""What the front proxy's memory and CPU settings cost (docs/hardening.md, "What the proxy
itself pays"): the shipped deploy/proxy/nginx.conf against the same config with some
settings put back, each on a freshly started server and proxy, in one run, in turn:

* the proxy's RSS (idle → most) during `scripts/edge_proxy.py attack
  half_sent_many_addresses` (59 addresses × 2 connections × 16 half-sent calls, renewed);
* the proxy's CPU per large call: 40 Evaluate calls of 10,000 distinct 十三水 rows
  (a 160 KB request, a 320 KB answer), its CPU time (user + system) over them.

Run (nginx installed; about 2 minutes): ``python benches/proxy_settings.py``. Loopback only.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's root: harness/
from harness.attacks import EVALUATE  # noqa: E402
from harness.deck import DECK  # noqa: E402
from harness.edge import Edge, nginx_binary  # noqa: E402

# Each variant: the shipped config's lines put back to what they were (nginx's defaults or
# the earlier values); every line must occur once in the shipped config.
NGINX_BUFFERS = {
    "        proxy_buffer_size 2k;": "        proxy_buffer_size 8k;",
    "    request_pool_size 1k;": "",
    "            grpc_buffer_size 8k;": "",
}
EIGHT_CALLS = {
    "    http2_max_concurrent_streams 6;": "    http2_max_concurrent_streams 8;",
    "        limit_conn per_address 6;": "        limit_conn per_address 8;",
}
VARIANTS = {
    "shipped": {},
    "8 calls per address": EIGHT_CALLS,
    "8 calls, nginx's buffers": {**EIGHT_CALLS, **NGINX_BUFFERS},
}


def proxy_cpu_seconds(edge: Edge) -> float:
    pids = [edge.proxy.pid]
    with open(f"/proc/{edge.proxy.pid}/task/{edge.proxy.pid}/children") as f:
        pids += [int(k) for k in f.read().split()]
    ticks = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def large_requests(n: int) -> list:
    rng = random.Random(7)
    out = []
    for _ in range(n):
        rows = [ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=rng.sample(DECK, 3))) for _ in range(10_000)]
        out.append(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=rows)).SerializeToString())
    return out


def measure(name: str, edits: dict, requests: list, seconds: float) -> str:
    with tempfile.TemporaryDirectory(prefix="proxy-settings-") as d:
        edge = Edge(Path(d), edits=edits)
        try:
            with edge.channel([("grpc.max_receive_message_length", 64 << 20)]) as ch:
                call = ch.unary_unary(EVALUATE, request_serializer=None, response_deserializer=None)
                call(requests[0], timeout=30)  # the connection made
                before = proxy_cpu_seconds(edge)
                for r in requests:
                    call(r, timeout=30)
                cpu_ms = (proxy_cpu_seconds(edge) - before) / len(requests) * 1000
            time.sleep(2)
            idle = edge.rss()[1]
            attack = subprocess.Popen(
                [sys.executable, str(ROOT / "scripts" / "edge_proxy.py"), "attack", "half_sent_many_addresses",
                 edge.target, "--seconds", str(seconds)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            most = idle
            deadline = time.monotonic() + seconds + 10
            while attack.poll() is None and time.monotonic() < deadline:
                most = max(most, edge.rss()[1])
                time.sleep(0.1)
            attack.kill()
            attack.wait()
        finally:
            edge.close()
    return f"| {name} | {idle:.1f} → {most:.1f} ({most / idle:.2f} ×) | {cpu_ms:.2f} |"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=12.0, help="attack time per variant")
    p.add_argument("--rounds", type=int, default=2, help="each variant this many times, interleaved")
    a = p.parse_args()
    if nginx_binary() is None:
        print("nginx is not installed (apt-get install nginx libnginx-mod-stream)")
        return 2
    with open("/proc/loadavg") as f:
        print(f"load average at the start: {f.read().split()[0]}")
    requests = large_requests(40)
    print("| config | proxy RSS, MB, idle → most (half-sent calls, 59 addresses) | proxy CPU per large call, ms |")
    print("|---|---|---|")
    for _ in range(a.rounds):
        for name, edits in VARIANTS.items():
            print(measure(name, edits, requests, a.seconds), flush=True)
    with open("/proc/loadavg") as f:
        print(f"load average at the end: {f.read().split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

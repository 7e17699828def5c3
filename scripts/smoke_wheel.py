"""Smoke test of an installed handeval (scripts/smoke_wheel.sh runs it in a fresh
virtualenv holding only the wheel): import, classify, arrange, the CLI (a batch too), and the gRPC
server on a free loopback port with a health check. Bounded: every wait has a timeout
and the server is always stopped.

    python smoke_wheel.py          # the wheel with its server extra: everything
    python smoke_wheel.py --bare   # the wheel alone: the evaluator, no gRPC installed, and
                                   # `handeval serve` names the command installing the extra
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import handeval
from handeval import dachu, shisanshui, tienlen

BIN = Path(sys.executable).parent
pkg = Path(handeval.__file__).resolve()
assert pkg.is_relative_to(Path(sys.prefix).resolve()), f"handeval imported from {pkg}, not the venv"
print(f"handeval {handeval.__version__} from {pkg.parent} (extension {Path(handeval._core.__file__).name})")

assert shisanshui.classify("As Ks Qs Js Ts").category == "straight_flush"
assert tienlen.classify("4s 4h 5s 5h 6s 6h").kind == "three_pair_run"
assert dachu.beats("As", "2h", chu="black")
hand = "As Ks Qh Jd 9c 8c 7s 6h 5d 4c 3s 2h 2d"
a = shisanshui.arrange(hand)
assert sorted(a.front + a.middle + a.back) == sorted(handeval.parse_cards(hand))
assert not shisanshui.is_foul(a.front, a.middle, a.back)
out = subprocess.run(
    [BIN / "handeval", "--json", "classify", "7c", "7d", "7h"], capture_output=True, text=True, timeout=60, check=True
).stdout
assert json.loads(out)["category"] == "three_of_a_kind", out
# the batch path (its progress bar only with tqdm, which no extra here installs)
out = subprocess.run(
    [BIN / "handeval", "arrange", "--file", "-"],
    input=f"{hand}\n{hand}\n",
    capture_output=True,
    text=True,
    timeout=60,
    check=True,
).stdout
assert [json.loads(x)["back"] for x in out.splitlines()] == [a.back, a.back], out

if "--bare" in sys.argv[1:]:
    # The wheel alone: the evaluator above ran without the server extra's packages.
    import importlib.util

    for name in ("grpc", "google.protobuf", "prometheus_client", "tqdm"):
        try:
            found = importlib.util.find_spec(name) is not None
        except ImportError:  # google: no parent package
            found = False
        assert not found, f"{name} is installed with the bare wheel"
    imported = {m.split(".")[0] for m in sys.modules} & {"grpc", "google", "prometheus_client", "tqdm"}
    assert not imported, f"the evaluator imported {imported}"
    p = subprocess.run([BIN / "handeval", "serve", "--port", "0"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.strip().endswith("pip install 'handeval[server]'"), (p.returncode, p.stderr)
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr
    print(
        f"smoke ok (bare wheel): Python {sys.version.split()[0]}, the evaluator without grpc; serve says: "
        f"{p.stderr.strip()}"
    )
    sys.exit(0)

import grpc  # noqa: E402  (after the in-process checks: the server part needs grpc)
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw  # noqa: E402

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
server = subprocess.Popen([BIN / "handeval", "serve", "--host", "127.0.0.1", "--port", str(port)])
try:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
        health = health_pb2_grpc.HealthStub(ch)
        deadline = time.monotonic() + 60
        while True:
            try:
                status = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    break
            except grpc.RpcError:
                pass
            assert server.poll() is None, f"handeval serve exited with {server.returncode}"
            assert time.monotonic() < deadline, "handeval serve did not report SERVING within 60 s"
            time.sleep(0.2)
        req = pb.EvaluateRequest(
            shisanshui=ssw.ShisanshuiEvaluateRequest(
                items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=["As", "Ks", "Qs", "Js", "Ts"]))]
            )
        )
        got = handeval_pb2_grpc.HandevalStub(ch).Evaluate(req, timeout=10).shisanshui.results[0].row.category
        assert got == ssw.SHISANSHUI_CATEGORY_STRAIGHT_FLUSH, got
    server.send_signal(signal.SIGTERM)  # on Windows: TerminateProcess, no graceful drain
    code = server.wait(timeout=60)
    assert code == 0 or os.name == "nt", f"handeval serve exited with {code} after SIGTERM"
finally:
    if server.poll() is None:
        server.kill()
        server.wait()
print(f"smoke ok: Python {sys.version.split()[0]}, served and health-checked on 127.0.0.1:{port}")

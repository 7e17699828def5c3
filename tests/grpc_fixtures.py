"""Real `handeval serve` processes on loopback for the gRPC tests: helpers the tests
import, and the fixtures ``server``, ``channel`` and ``stub`` (a pytest plugin, loaded by
tests/conftest.py, so that the session-scoped server is one server, not one per module
that imports it)."""

from __future__ import annotations

import random
import subprocess
import time
from pathlib import Path

import grpc
import pytest

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw
from harness.deck import DECK
from harness.h2raw import closed_by_peer, established_peer_ports  # noqa: F401  (the tests import them from here)
from harness.process import rss_mb  # noqa: F401
from harness.server import ServerProcess, free_port  # noqa: F401


def C(cards) -> common_pb2.Cards:
    """A ``Cards`` message from a text ("As Ks Qs", split on spaces) or a list of cards."""
    if isinstance(cards, common_pb2.Cards):
        return cards
    return common_pb2.Cards(cards=cards.split() if isinstance(cards, str) else list(cards))


def E(enum, name):
    """The value of a proto enum named like the Python API (``E(TienlenPlayKind, "pair")``);
    None → 0 (UNSPECIFIED). Independent of the server's own mapping."""
    if name is None:
        return 0
    prefix = enum.DESCRIPTOR.values_by_number[0].name[: -len("UNSPECIFIED")]
    return enum.Value(prefix + {"1v3": "ONE_VS_THREE", "2v2": "TWO_VS_TWO"}.get(name, name.upper()))


def N(enum, value):
    """The Python API's name of a proto enum value (None for UNSPECIFIED)."""
    if not value:
        return None
    prefix = enum.DESCRIPTOR.values_by_number[0].name[: -len("UNSPECIFIED")]
    name = enum.Name(value)[len(prefix) :]
    return {"ONE_VS_THREE": "1v3", "TWO_VS_TWO": "2v2"}.get(name, name.lower())


class FakeContext:
    """Enough of grpc.aio.ServicerContext for HandevalService._call, for in-process calls:
    abort() records its arguments in ``aborted`` and raises, as the real one does."""

    def __init__(self):
        self.aborted = None

    def time_remaining(self):
        return None

    def peer(self):
        return "test"

    async def abort(self, code, details="", trailing_metadata=()):
        self.aborted = (code, details, trailing_metadata)
        raise RuntimeError("aborted")


def metric_value(text: str, name: str, **labels) -> float:
    """Sum of the samples of ``name`` whose labels include ``labels``."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name) or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        metric, _, rest = head.partition("{")
        if metric != name:
            continue
        got = dict(kv.split("=", 1) for kv in rest.rstrip("}").split(",") if kv) if rest else {}
        got = {k: v.strip('"') for k, v in got.items()}
        if all(got.get(k) == v for k, v in labels.items()):
            total += float(value)
    return total


def small_limits_server(tmp_path_factory):
    """A single-process server with small limits so the limit tests are cheap (max batch
    500 items, max message 256 KiB), logging every call (debug)."""
    s = ServerProcess(
        tmp_path_factory.mktemp("grpc"),
        "--max-batch",
        "500",
        "--max-message-bytes",
        str(256 * 1024),
        "--log-level",
        "debug",
    )
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


#: One small_limits_server for the whole session (for each pytest-xdist worker), shared by
#: the modules that import it: their tests only make calls, each test counts what it
#: checks from a reading it takes first, and none stops or reconfigures the server.
server = pytest.fixture(small_limits_server, scope="session", name="server")


@pytest.fixture(scope="session")
def channel(server):
    with server.channel() as ch:
        yield ch


@pytest.fixture(scope="session")
def stub(channel):
    return handeval_pb2_grpc.HandevalStub(channel)


#: The method path of Evaluate, for raw HTTP/2 and generic calls.
EVALUATE = "/handeval.v2.Handeval/Evaluate"
#: A tiny request (one 3-card row): what a well-behaved client sends while a test attacks.
TINY = pb.EvaluateRequest(
    shisanshui=ssw.ShisanshuiEvaluateRequest(
        items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))]
    )
)


def new_client_call(s: ServerProcess, timeout: float = 10.0, metadata=()) -> grpc.StatusCode:
    """A tiny Evaluate on a new connection of its own: its status code."""
    with s.channel(options=[("grpc.use_local_subchannel_pool", 1)]) as ch:
        try:
            handeval_pb2_grpc.HandevalStub(ch).Evaluate(TINY, timeout=timeout, metadata=metadata)
            return grpc.StatusCode.OK
        except grpc.RpcError as e:
            return e.code()


def no_traceback(s: ServerProcess) -> None:
    log = s.log()
    assert "Traceback" not in log, log[-3000:]


def served_and_exits_cleanly(s: ServerProcess) -> None:
    """How an attack test ends: a new client is still served, the server logged no
    traceback, and it exits 0 when terminated."""
    assert new_client_call(s) == grpc.StatusCode.OK
    no_traceback(s)
    assert s.terminate() == 0


def wait_for(pred, timeout=30.0, what="condition", server=None):
    """Poll ``pred`` every 20 ms until true; on timeout fail naming ``what`` (a text, or a
    function giving it then: the state at the failure), with the tail of ``server``'s log
    when given."""
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(
                f"timed out waiting for {said}" + (f"; server log:\n{server.log()[-3000:]}" if server else "")
            )
        time.sleep(0.02)


def random_deals(n, seed=0):
    """``n`` seeded random 4-player 十三水 deals as proto messages (rows in deal order,
    fouled or not: the server scores either)."""
    from handeval.v2 import shisanshui_pb2 as ssw

    rng = random.Random(seed)
    out = []
    for _ in range(n):
        c = rng.sample(DECK, 52)
        out.append(
            ssw.ShisanshuiDeal(
                players=[
                    ssw.ShisanshuiPlayer(
                        arrangement=ssw.ShisanshuiArrangement(
                            front=C(c[13 * i : 13 * i + 3]),
                            middle=C(c[13 * i + 3 : 13 * i + 8]),
                            back=C(c[13 * i + 8 : 13 * i + 13]),
                        )
                    )
                    for i in range(4)
                ]
            )
        )
    return out


def settle_request(n, seed=0, pool=1000):
    """A SettleRequest of ``n`` 十三水 deals for the tests that need a long call: the
    ``min(n, pool)`` deals of ``random_deals(min(n, pool), seed)``, repeated. Built as
    bytes (a repeated field's encoding is its items' encodings one after the other):
    150,000 deal messages built one by one take the client about 20 s of CPU, while the
    server's work does not depend on the deals being distinct."""
    from handeval.v2 import handeval_pb2 as pb, shisanshui_pb2 as ssw

    base = random_deals(min(n, pool), seed)
    k, r = divmod(n, len(base)) if base else (0, 0)
    req = pb.SettleRequest()
    req.shisanshui.MergeFromString(
        ssw.ShisanshuiSettleRequest(deals=base).SerializeToString() * k
        + ssw.ShisanshuiSettleRequest(deals=base[:r]).SerializeToString()
    )
    return req


def server_connections(port: int) -> int:
    """Established TCP connections whose local port is ``port`` (the server's side;
    accepted or still in the listen backlog), from /proc/net/tcp and tcp6."""
    return len(established_peer_ports(port))


def children(pid: int) -> set:
    """Pids of the child processes of ``pid`` (the workers of a supervisor)."""
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out |= {int(x) for x in (task / "children").read_text().split()}
        except OSError:  # the thread ended meanwhile
            pass
    return out


# ---------------------------------------------------------------- test certificates

#: Skip marker for tests that make certificates with the openssl command.
needs_openssl = pytest.mark.skipif(
    subprocess.run(["sh", "-c", "command -v openssl"], capture_output=True).returncode != 0,
    reason="needs the openssl command to make test certificates",
)


def _openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_cert(d: Path, ca: str, name: str) -> None:
    """In ``d``: the CA ``{ca}.pem``/``{ca}.key`` (made once) and ``{name}.pem``/``{name}.key``
    signed by it, valid one day for 127.0.0.1 and localhost."""
    if not (d / f"{ca}.pem").exists():
        _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.pem",
                 "-days", "1", "-subj", f"/CN={ca}", cwd=d)  # fmt: skip
    (d / "san.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
             "-subj", f"/CN={name}", cwd=d)  # fmt: skip
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
             "-out", f"{name}.pem", "-days", "1", "-extfile", "san.cnf", cwd=d)  # fmt: skip

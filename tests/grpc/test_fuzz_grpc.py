"""Fuzzing a live `handeval serve`: random well-typed requests for every RPC
and game (fields filled from the message descriptors, strings that look like cards,
seats, colours and rule options, or junk), and mutated wire bytes of valid requests (bit
flips, truncation, splices, repeats). Every answer must be OK, INVALID_ARGUMENT or
RESOURCE_EXHAUSTED (every message is typed: no request can make the service answer
INTERNAL, UNKNOWN or UNIMPLEMENTED); the server keeps serving and logs no traceback.

Calls per kind: ``HANDEVAL_FUZZ_GRPC`` (default 300; docs/hardening.md has the long run).
Seed: ``HANDEVAL_FUZZ_SEED`` (default 8).
"""

from __future__ import annotations

import os
import random

import grpc
import pytest
from google.protobuf import descriptor as _d
from grpc_health.v1 import health_pb2, health_pb2_grpc

from handeval.v2 import handeval_pb2 as pb
from harness.deck import DECK

from grpc_fixtures import ServerProcess

N = int(os.environ.get("HANDEVAL_FUZZ_GRPC", "300"))
SEED = int(os.environ.get("HANDEVAL_FUZZ_SEED", "8"))
RPCS = {
    "Evaluate": pb.EvaluateRequest,
    "Compare": pb.CompareRequest,
    "Settle": pb.SettleRequest,
    "Arrange": pb.ArrangeRequest,
}
ALLOWED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.RESOURCE_EXHAUSTED}
CARD_FIELDS = {
    "row",
    "hand",
    "front",
    "middle",
    "back",
    "cards",
    "play",
    "table",
    "a",
    "b",
    "rows",
    "hands",
    "remaining",
    "opponents",
    "shown_triple",
}
WORDS = [
    "red",
    "black",
    "lowest",
    "second_highest",
    "shcd",
    "hsdc",
    "larger_side",
    "losing_side",
    "chu",
    "other",
    "liu_dui_ban",
    "san_shunzi",
    "qing_long",
    "dragon",
    "six_pairs",
    "pass",
    "single",
    "x",
    "",
    "deal",
    "finish",
    "meng_xuan",
    "meng_chuai",
    "cheng_chu",
    "ping_da",
    "chuai",
    "bao_chuai",
    "jiao",
]


class Filler:
    """Random values for a message, from its descriptor."""

    def __init__(self, rng: random.Random):
        self.r = rng

    def cards(self) -> str:
        r = self.r
        k = r.choice([1, 2, 3, 4, 5, 5, 6, 13, 13, 14, 0])
        cards = r.sample(DECK, min(k, 52))
        if r.random() < 0.1 and cards:
            cards.append(cards[0])
        if r.random() < 0.1:
            cards.insert(r.randrange(len(cards) + 1), r.choice(["Xx", "1s", "♥", "10", ",", "A♠♠", "\u0000"]))
        return r.choice([" ", ",", ", "]).join(cards)

    def string(self, name: str) -> str:
        r = self.r
        roll = r.random()
        if roll < 0.03:
            return r.choice(["A" * 70_000, "As " * 30_000, "\U0001f0a1" * 1000])  # big (may exceed the limit)
        if roll < 0.1:
            codes = (r.randrange(1, 0x2FFFF) for _ in range(r.randrange(12)))
            return "".join(chr(c) for c in codes if not 0xD800 <= c < 0xE000)
        if name == "cards" and roll < 0.9:  # an entry of a Cards message: one card, mostly
            return r.choice(DECK)
        if name in CARD_FIELDS:
            return self.cards()
        return r.choice(WORDS)

    def scalar(self, fd):
        r = self.r
        t = fd.type
        if t == _d.FieldDescriptor.TYPE_STRING:
            return self.string(fd.name)
        if t == _d.FieldDescriptor.TYPE_BYTES:
            return bytes(r.randrange(60) for _ in range(r.choice([0, 3, 5, 10, 13])))
        if t == _d.FieldDescriptor.TYPE_BOOL:
            return r.random() < 0.5
        if t == _d.FieldDescriptor.TYPE_ENUM:
            return r.choice([v.number for v in fd.enum_type.values])
        if t in (_d.FieldDescriptor.TYPE_DOUBLE, _d.FieldDescriptor.TYPE_FLOAT):
            return r.choice([0.0, -1.5, 1e300, float("inf"), float("nan")])
        bits = (
            32
            if t
            in (
                _d.FieldDescriptor.TYPE_INT32,
                _d.FieldDescriptor.TYPE_SINT32,
                _d.FieldDescriptor.TYPE_SFIXED32,
                _d.FieldDescriptor.TYPE_UINT32,
                _d.FieldDescriptor.TYPE_FIXED32,
            )
            else 64
        )
        unsigned = t in (
            _d.FieldDescriptor.TYPE_UINT32,
            _d.FieldDescriptor.TYPE_UINT64,
            _d.FieldDescriptor.TYPE_FIXED32,
            _d.FieldDescriptor.TYPE_FIXED64,
        )
        lo, hi = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        v = r.choice([0, 1, 2, 3, 4, -1, 13, 100, lo, hi, r.randint(lo, hi), 2 ** (bits - 2)])
        return min(max(v, lo), hi)

    def fill(self, msg, depth=0):
        r = self.r
        oneof_pick = {
            o.name: r.choice(o.fields)
            for o in msg.DESCRIPTOR.oneofs
            if not (len(o.fields) == 1 and o.name == "_" + o.fields[0].name)
        }  # real oneofs
        for fd in msg.DESCRIPTOR.fields:
            o = fd.containing_oneof
            if o is not None and o.name in oneof_pick and oneof_pick[o.name] is not fd:
                continue
            if o is None and r.random() < 0.15:
                continue  # leave unset
            if o is not None and o.name not in oneof_pick and r.random() < 0.6:
                continue  # proto3 optional: usually unset (the default rule)
            repeated = fd.is_repeated
            count = r.choice([0, 1, 1, 2, 3, 5]) if repeated else 1
            if depth > 6:
                count = 0 if repeated else count
            for _ in range(count):
                if fd.type == _d.FieldDescriptor.TYPE_MESSAGE:
                    if fd.message_type.GetOptions().map_entry:
                        continue
                    sub = getattr(msg, fd.name).add() if repeated else getattr(msg, fd.name)
                    if depth > 6:
                        continue
                    self.fill(sub, depth + 1)
                    if not repeated and not sub.ListFields():
                        sub.SetInParent()
                else:
                    v = self.scalar(fd)
                    if repeated:
                        getattr(msg, fd.name).append(v)
                    else:
                        setattr(msg, fd.name, v)
        return msg


def request(rpc: str, rng: random.Random):
    msg = RPCS[rpc]()
    games = [f.name for f in msg.DESCRIPTOR.oneofs_by_name["game"].fields]
    if rng.random() < 0.95:
        sub = getattr(msg, rng.choice(games))
        Filler(rng).fill(sub)
        sub.SetInParent()
    return msg


def mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        if op == 0 and b:  # flip bits
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1 and b:  # truncate
            del b[rng.randrange(len(b)) :]
        elif op == 2:  # insert random bytes
            i = rng.randrange(len(b) + 1)
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 3 and b:  # set a byte to a boundary value (lengths, tags, varints)
            b[rng.randrange(len(b))] = rng.choice([0x00, 0x7F, 0x80, 0xFF])
        elif op == 4 and len(b) > 2:  # duplicate a slice (repeated fields, unknown fields)
            i = rng.randrange(len(b))
            j = rng.randrange(i, len(b))
            b[j:j] = b[i : j + 1]
        elif op == 5:  # splice a varint length prefix claiming far more than follows
            b[0:0] = bytes([0x12, 0xFF, 0xFF, 0xFF, 0x0F])
    return bytes(b)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(
        tmp_path_factory.mktemp("fuzz-grpc"), "--max-batch", "50", "--max-message-bytes", str(64 * 1024), metrics=False
    )
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


def _check(code, details, what):
    if code not in ALLOWED:
        raise AssertionError(f"{what}: {code} {details!r}")


def _raw(channel, rpc):
    return channel.unary_unary(f"/handeval.v2.Handeval/{rpc}", request_serializer=None, response_deserializer=None)


def _call(stub, data, what):
    try:
        stub(data, timeout=60)
        code, details = grpc.StatusCode.OK, ""
    except grpc.RpcError as e:
        code, details = e.code(), e.details()
    _check(code, details, what)
    return code


def _still_serving(server):
    with server.channel() as ch:
        r = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
    assert r.status == health_pb2.HealthCheckResponse.SERVING
    log = server.log()
    assert "Traceback" not in log and "internal error" not in log, log[-4000:]


@pytest.mark.parametrize("rpc", list(RPCS))
def test_random_requests(server, rpc):
    rng = random.Random(f"{SEED}-{rpc}")
    codes = {}
    with server.channel() as ch:
        stub = _raw(ch, rpc)
        for i in range(N):
            msg = request(rpc, rng)
            code = _call(stub, msg.SerializeToString(), f"{rpc} #{i}: {str(msg)[:2000]}")
            codes[code.name] = codes.get(code.name, 0) + 1
    print(f"{rpc}: {N} random requests -> {codes}")
    assert codes.get("OK", 0) > 0, "no random request was answered OK: the generator is too wild"
    _still_serving(server)


@pytest.mark.parametrize("rpc", list(RPCS))
def test_mutated_wire_bytes(server, rpc):
    rng = random.Random(f"{SEED}-mut-{rpc}")
    codes = {}
    with server.channel() as ch:
        stub = _raw(ch, rpc)
        for i in range(N):
            data = mutate(request(rpc, rng).SerializeToString(), rng)
            code = _call(stub, data, f"{rpc} mutated #{i}: {data[:300]!r}")
            codes[code.name] = codes.get(code.name, 0) + 1
    print(f"{rpc}: {N} mutated requests -> {codes}")
    assert codes.get("INVALID_ARGUMENT", 0) > 0
    _still_serving(server)


def test_corrupt_bytes_are_invalid_argument(server):
    """Regression: undecodable bytes were UNKNOWN, with a traceback in
    the log; now INVALID_ARGUMENT naming the message type."""
    with server.channel() as ch:
        for data in (b"\xff\xff\xff", b"\x0a\x05garbage", b"\x12\x80\x80\x80\x80\x10"):
            with pytest.raises(grpc.RpcError) as e:
                _raw(ch, "Evaluate")(data, timeout=30)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "handeval.v2.EvaluateRequest" in e.value.details()
    _still_serving(server)

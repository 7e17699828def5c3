"""Work attacks on `handeval serve` (event-loop stalls from requests priced as cheap, work
starvation, big pooled work delaying small calls), and their measure: tiny calls'
p50/p99/max latency with each attack running against the same run without it.

Each attack is a function ``attack(target, stop, duration)`` that sends its requests from
``STREAMS`` concurrent streams, back to back, until ``stop`` is set or ``duration``
seconds have passed (bounded in time; loopback targets only), and returns the status codes
it got. ``ATTACKS`` names them; scripts/attacks_work.py runs them, scripts/slow_peers.py
and tests/grpc use them.
"""

from __future__ import annotations

import collections
import random
import threading
import time
from typing import Callable, Dict, List

import grpc

from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw, tienlen_pb2 as tl
from harness.deck import DECK

#: Concurrent streams of each attack.
STREAMS = 2
#: Largest request of a default server (--max-message-bytes, 16 MiB), less room for the
#: framing.
MESSAGE = 16 * 1024 * 1024 - 4096


def _loopback(target: str) -> str:
    host = target.rsplit(":", 1)[0].strip("[]")
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"{target}: attacks go to loopback addresses only")
    return target


def _cards(tokens) -> bytes:
    return common_pb2.Cards(cards=list(tokens)).SerializeToString()


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(probe: bytes, body: bytes) -> bytes:
    """A length-delimited field of the key that ``probe`` (a message setting only that
    field, empty) starts with, holding ``body`` as is: no re-serialization, so repeated
    singular fields and field order stay as written."""
    return probe[:-1] + _varint(len(body)) + body


_GAME = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest()).SerializeToString()
_ITEMS = ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem()]).SerializeToString()


def _evaluate(body: bytes) -> bytes:
    """An EvaluateRequest whose 十三水 request's bytes are ``body``."""
    return _field(_GAME, body)


def _item(field: str, cards_bytes: bytes) -> bytes:
    """A ShisanshuiEvaluateRequest `items` entry holding one `field` (row, hand) of
    ``cards_bytes`` (a Cards message's bytes)."""
    probe = ssw.ShisanshuiEvaluateItem(**{field: common_pb2.Cards()}).SerializeToString()
    return _field(_ITEMS, _field(probe, cards_bytes))


def huge_row() -> bytes:
    """One 十三水 Evaluate `row` item of ~4.2 M card tokens (16 MiB)."""
    entry = _cards(["As"])
    return _evaluate(_item("row", entry * (MESSAGE // len(entry) - 8)))


def many_long_rows() -> bytes:
    """1,250 `row` items of 3,300 tokens each."""
    return _evaluate(_item("row", _cards(["As"]) * 3300) * 1250)


def huge_suit_order() -> bytes:
    """A 16 MiB `rules.suit_order` and one row."""
    body = ssw.ShisanshuiEvaluateRequest(rules=ssw.ShisanshuiRules(suit_order="s" * (MESSAGE - 64)))
    return _evaluate(body.SerializeToString() + _item("row", _cards(["As", "Ks", "Qs"])))


def repeated_rules() -> bytes:
    """8 M repeated (empty) `rules` fields: proto3 merges them."""
    one = ssw.ShisanshuiEvaluateRequest(rules=ssw.ShisanshuiRules()).SerializeToString()
    return _evaluate(one * min(8_000_000, MESSAGE // len(one)) + _item("row", _cards(["As", "Ks", "Qs"])))


def repeated_row_size() -> bytes:
    """8 M repeated `row_size` fields (the last wins)."""
    one = ssw.ShisanshuiEvaluateRequest(row_size=5).SerializeToString()
    return _evaluate(one * min(8_000_000, MESSAGE // len(one)) + _item("row", _cards(["As", "Ks", "Qs"])))


def hand_after_empty_row() -> bytes:
    """1,250 items whose first field is an empty `row` and whose second, a `hand` of
    3,300 tokens, is the one the item keeps (a oneof: the last wins)."""
    empty_row = ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards()).SerializeToString()
    hand = _field(ssw.ShisanshuiEvaluateItem(hand=common_pb2.Cards()).SerializeToString(), _cards(["As"]) * 3300)
    return _evaluate(_field(_ITEMS, empty_row + hand) * 1250)


def huge_arranges() -> bytes:
    """An Arrange of 10,000 hands × 10,000 samples (~1.7 CPU-hours)."""
    rng = random.Random(3)
    hands = [ssw.ShisanshuiArrangeItem(hand=common_pb2.Cards(cards=rng.sample(DECK, 13))) for _ in range(100)]
    body = ssw.ShisanshuiArrangeRequest(items=hands).SerializeToString() * 100
    req = pb.ArrangeRequest()
    req.shisanshui.MergeFromString(body + ssw.ShisanshuiArrangeRequest(samples=10_000).SerializeToString())
    return req.SerializeToString()


def packed_rows_16mib() -> bytes:
    """16 MiB of packed 5-card rows (3.3 M rows)."""
    rng = random.Random(5)
    rows = b"".join(bytes(rng.sample(range(52), 5)) for _ in range(1000))
    data = rows * (MESSAGE // len(rows))
    return pb.EvaluateRequest(
        shisanshui=ssw.ShisanshuiEvaluateRequest(packed_rows=data, row_size=5)
    ).SerializeToString()


def tienlen_settle_10k() -> bytes:
    """A Settle of 10,000 越式13张 records (40 whole random games, repeated)."""
    from handeval.load import scenarios

    rng = random.Random(7)
    deals = [scenarios._tienlen_deal(tl, scenarios._tienlen_game(rng)) for _ in range(40)]
    body = tl.TienlenSettleRequest(deals=deals).SerializeToString() * 250
    req = pb.SettleRequest()
    req.tienlen.MergeFromString(body)
    return req.SerializeToString()


def _suggest_record(rng, effort: int) -> tl.TienlenEvaluateItem:
    """A fresh 4-seat 越式13张 game record (hands only) asking the suggestion for the seat
    to move at ``effort``."""
    deck = rng.sample(DECK, 52)
    hands = [common_pb2.Cards(cards=deck[13 * i : 13 * i + 13]) for i in range(4)]
    return tl.TienlenEvaluateItem(
        game=tl.TienlenGameRecord(hands=hands, suggest=common_pb2.SuggestQuery(seed=1, effort=effort))
    )


def small_suggest() -> bytes:
    """One 越式13张 game record asking the largest-effort suggestion (64 determinizations,
    up to ~50 ms of CPU, docs/suggest.md) in under 1 KiB: small in bytes, not in work."""
    item = _suggest_record(random.Random(11), 64)
    return pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=[item])).SerializeToString()


def suggest_batch() -> bytes:
    """1,000 越式13张 game records each asking the largest-effort suggestion (tens of CPU-seconds;
    2,049,000 units of the default work budget of 6,000,000)."""
    rng = random.Random(13)
    items = [_suggest_record(rng, 64) for _ in range(1000)]
    return pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=items)).SerializeToString()


#: name → (RPC, the request's bytes). Items 1 (event-loop stalls), 3 (starvation), 5 (big
#: pooled work).
REQUESTS: Dict[str, tuple] = {
    "huge_row": ("Evaluate", huge_row),
    "many_long_rows": ("Evaluate", many_long_rows),
    "huge_suit_order": ("Evaluate", huge_suit_order),
    "repeated_rules": ("Evaluate", repeated_rules),
    "repeated_row_size": ("Evaluate", repeated_row_size),
    "hand_after_empty_row": ("Evaluate", hand_after_empty_row),
    "huge_arranges": ("Arrange", huge_arranges),
    "packed_rows_16mib": ("Evaluate", packed_rows_16mib),
    "tienlen_settle_10k": ("Settle", tienlen_settle_10k),
    "small_suggest": ("Evaluate", small_suggest),
    "suggest_batch": ("Evaluate", suggest_batch),
}

_built: Dict[str, bytes] = {}


def request(name: str) -> bytes:
    """The attack's request bytes (built once)."""
    if name not in _built:
        _built[name] = REQUESTS[name][1]()
    return _built[name]


def channel(target: str) -> grpc.Channel:
    return grpc.insecure_channel(
        _loopback(target),
        options=[("grpc.max_send_message_length", 64 << 20), ("grpc.max_receive_message_length", 64 << 20)],
    )


def run_attack(
    name: str, target: str, stop: threading.Event, duration: float, streams: int = STREAMS, call_timeout: float = 30.0
) -> collections.Counter:
    """``streams`` streams sending attack ``name`` back to back until ``stop`` or
    ``duration`` s; each call bounded by ``call_timeout`` (cut short at the end). The
    status codes got."""
    rpc, _ = REQUESTS[name]
    data = request(name)
    end = time.monotonic() + duration
    codes: collections.Counter = collections.Counter()
    lock = threading.Lock()

    def stream():
        with channel(target) as ch:
            call = ch.unary_unary(f"/handeval.v2.Handeval/{rpc}", request_serializer=None, response_deserializer=None)
            while not stop.is_set() and time.monotonic() < end:
                fut = call.future(data, timeout=max(0.1, min(call_timeout, end - time.monotonic())))
                while not fut.done():
                    if stop.wait(0.05) or time.monotonic() > end:
                        fut.cancel()
                        break
                try:
                    fut.result()
                    code = "OK"
                except grpc.FutureCancelledError:
                    code = "CANCELLED"
                except grpc.RpcError as e:
                    code = e.code().name
                with lock:
                    codes[code] += 1

    threads = [threading.Thread(target=stream, daemon=True) for _ in range(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(duration + call_timeout + 10)
    return codes


def _attack(name: str) -> Callable[[str, threading.Event, float], collections.Counter]:
    def attack(target: str, stop: threading.Event, duration: float) -> collections.Counter:
        return run_attack(name, target, stop, duration)

    attack.__name__ = name
    attack.__doc__ = REQUESTS[name][1].__doc__
    return attack


#: name → attack(target, stop, duration).
ATTACKS: Dict[str, Callable] = {name: _attack(name) for name in REQUESTS}

TINY = pb.EvaluateRequest(
    shisanshui=ssw.ShisanshuiEvaluateRequest(
        items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=["As", "Ks", "Qs"]))]
    )
).SerializeToString()


#: A small call that always runs on a compute thread: a one-hand exact Arrange.
SMALL_POOLED = pb.ArrangeRequest(
    shisanshui=ssw.ShisanshuiArrangeRequest(items=[ssw.ShisanshuiArrangeItem(hand=common_pb2.Cards(cards=DECK[:13]))])
).SerializeToString()

#: The probes: name → (RPC, request).
PROBES = {"tiny": ("Evaluate", TINY), "pooled": ("Arrange", SMALL_POOLED)}


def tiny_latencies(target: str, duration: float, pause: float = 0.005, probe: str = "tiny") -> List[float]:
    """Seconds of each probe call (``tiny``: a one-row 十三水 Evaluate, answered on the
    event loop; ``pooled``: a one-hand Arrange, on a compute thread) of a new client, back
    to back with ``pause`` between, for ``duration`` s."""
    rpc, data = PROBES[probe]
    out = []
    with channel(target) as ch:
        call = ch.unary_unary(f"/handeval.v2.Handeval/{rpc}", request_serializer=None, response_deserializer=None)
        call(data, timeout=30)  # connected
        end = time.monotonic() + duration
        while time.monotonic() < end:
            start = time.perf_counter()
            try:
                call(data, timeout=30)
            except grpc.RpcError:
                pass
            out.append(time.perf_counter() - start)
            time.sleep(pause)
    return out


def summary(xs: List[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "no calls"
    p = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))] * 1000  # noqa: E731
    return f"n={len(xs)} p50={p(0.5):.1f}ms p99={p(0.99):.1f}ms max={xs[-1] * 1000:.1f}ms"


def measure(target: str, name: str, seconds: float, probe: str = "tiny") -> dict:
    """Probe calls without the attack, then during it (the attack warmed up for 1 s)."""
    request(name)
    quiet = tiny_latencies(target, seconds, probe=probe)
    stop = threading.Event()
    codes: collections.Counter = collections.Counter()
    attacker = threading.Thread(target=lambda: codes.update(run_attack(name, target, stop, seconds + 5)), daemon=True)
    attacker.start()
    time.sleep(1.0)
    loud = tiny_latencies(target, seconds, probe=probe)
    stop.set()
    attacker.join(60)
    return {"attack": name, "without": summary(quiet), "during": summary(loud), "attack_codes": dict(codes)}


def load_average() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"

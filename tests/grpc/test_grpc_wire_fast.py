"""The fast reader/writer of 十三水 Evaluate (rust/handeval-wire/src/shisanshui/fast.rs:
card strings read in place from the request's bytes, the answer written straight into the
output buffer) answers exactly as the prost path does: the same bytes, the same error
(code, field, description, reason), the same counts for the metrics — for random valid
requests and for odd and broken ones (fields out of order, repeated singular fields,
unknown fields, bad UTF-8, bad cards, bad packed rows, truncated or flipped bytes).

The prost path is reached through the public surface: an unknown field (number 15) put
BEFORE the request's game is skipped by prost and changes nothing else of how the bytes
parse, but the fast reader takes only a request that is exactly one game field, so the
prefixed request is answered the prost way."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from handeval import _core
from handeval.v2 import common_pb2, handeval_pb2, shisanshui_pb2 as pb
from harness.deck import DECK

#: An unknown field (15, varint 0) of EvaluateRequest: prost skips it.
PROST_WAY = b"\x78\x00"


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def ld(field: int, body: bytes) -> bytes:
    """A length-delimited field."""
    return varint(field << 3 | 2) + varint(len(body)) + body


def vi(field: int, value: int) -> bytes:
    """A varint field."""
    return varint(field << 3) + varint(value)


def outcome(data: bytes, max_batch: int):
    call = _core.WireCall(None)
    try:
        got = ("ok", _core.wire_answer("Evaluate", data, call, max_batch, 1000, False))
    except _core.WireError as e:
        got = ("error", e.code, e.field, e.description, e.reason, str(e))
    return got, call.game, call.items, call.item_errors


def assert_same(data: bytes, max_batch: int = 10_000):
    fast = outcome(data, max_batch)
    slow = outcome(PROST_WAY + data, max_batch)
    assert fast == slow
    return fast


card_token = st.one_of(
    st.sampled_from(DECK),
    st.sampled_from(DECK).map(str.upper),
    st.sampled_from(DECK).map(lambda c: f" {c}\t"),
    st.sampled_from(["", "Xs", "1s", "10s", "A", "Asx", "♠A", "a s"]),
)


def cards_body(tokens) -> bytes:
    return b"".join(ld(1, t.encode()) for t in tokens)


@st.composite
def item(draw) -> bytes:
    """One ShisanshuiEvaluateItem's bytes: mostly plain rows, some of every odd kind."""
    kind = draw(
        st.sampled_from(
            [
                "row",
                "row",
                "row",
                "row",
                "tokens",
                "hand",
                "arrangement",
                "empty",
                "bad_utf8",
                "unknown",
                "row_twice",
                "cards_unknown",
                "raw",
            ]
        )
    )
    size = draw(st.sampled_from([3, 5, 5]))
    if kind == "row":
        return ld(1, cards_body(draw(st.permutations(DECK))[:size]))
    if kind == "tokens":  # any count, odd tokens, repeats
        return ld(1, cards_body(draw(st.lists(card_token, max_size=7))))
    if kind == "hand":
        return pb.ShisanshuiEvaluateItem(
            hand=common_pb2.Cards(cards=draw(st.permutations(DECK))[:13])
        ).SerializeToString()
    if kind == "arrangement":
        h = draw(st.permutations(DECK))
        return pb.ShisanshuiEvaluateItem(
            arrangement=pb.ShisanshuiArrangement(
                front=common_pb2.Cards(cards=h[:3]),
                middle=common_pb2.Cards(cards=h[3:8]),
                back=common_pb2.Cards(cards=h[8:13]),
            )
        ).SerializeToString()
    if kind == "empty":
        return b""
    row = cards_body(draw(st.permutations(DECK))[:size])
    if kind == "bad_utf8":
        return ld(1, row + ld(1, b"\xffs"))
    if kind == "unknown":
        return ld(1, row) + vi(9, 1)
    if kind == "row_twice":  # proto3 merges the two rows' cards
        return ld(1, row) + ld(1, cards_body(draw(st.permutations(DECK))[:2]))
    if kind == "cards_unknown":
        return ld(1, row + vi(7, 3))
    return draw(st.binary(max_size=12))


rules_body = st.one_of(
    st.just(b""),
    st.builds(
        lambda tb, a, rake: pb.ShisanshuiRules(suit_tiebreak=tb, a2345=a, rake_percent=rake).SerializeToString(),
        st.booleans(),
        st.integers(0, 3),
        st.integers(-5, 120),
    ),
    st.builds(
        lambda o: pb.ShisanshuiRules(suit_order=o).SerializeToString(), st.sampled_from(["shcd", "cdhs", "xx", ""])
    ),
)


@st.composite
def packed(draw) -> bytes:
    rows = draw(st.lists(st.permutations(range(52)).map(lambda p: p[:5]), max_size=70))
    data = bytearray(b for r in rows for b in r)
    if data and draw(st.booleans()):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data[: len(data) - draw(st.sampled_from([0, 0, 0, 1, 2]))] if data else data)


@st.composite
def request(draw) -> bytes:
    """An EvaluateRequest's bytes: the game's fields in any order, some repeated or
    unknown, maybe broken by a flipped, dropped or added byte."""
    fields = [ld(2, i) for i in draw(st.lists(item(), max_size=40))]
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
        fields.append(ld(1, draw(rules_body)))
    for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
        fields.append(ld(3, draw(packed())))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        fields.append(vi(4, draw(st.sampled_from([0, 3, 5, 5, 4, -1, 2**32 + 5, 2**40]))))
    if draw(st.integers(0, 9)) == 0:
        fields.append(vi(11, 1))  # unknown to ShisanshuiEvaluateRequest
    if draw(st.booleans()):
        fields = draw(st.permutations(fields))
    else:  # the order a protobuf library writes
        fields.sort(key=lambda f: f[0] >> 3)
    data = ld(1, b"".join(fields))
    if draw(st.integers(0, 5)) == 0:
        data += draw(st.sampled_from([ld(1, b""), ld(2, b""), vi(9, 1)]))  # a second game or unknown field
    change = draw(st.sampled_from(["none"] * 6 + ["flip", "drop", "add", "cut"]))
    if change != "none" and data:
        at = draw(st.integers(0, len(data) - 1))
        if change == "flip":
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        elif change == "drop":
            data = data[:at] + data[at + 1 :]
        elif change == "add":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at:]
        else:
            data = data[:at]
    return data


@settings(max_examples=1500, deadline=None)
@given(request(), st.sampled_from([10_000, 10_000, 3]))
def test_fast_answers_like_prost(data, max_batch):
    assert_same(data, max_batch)


def test_the_benchmark_shapes_take_the_fast_way_and_answer_like_prost():
    """The bench's shapes (1,000 rows; 100,000 packed rows; one row; rows and packed rows
    together) answer alike both ways, and with real answers (no errors)."""
    import random

    rng = random.Random(5)
    rows = [
        pb.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=rng.sample(DECK, rng.choice([3, 5])))) for _ in range(1000)
    ]
    packed_rows = b"".join(bytes(rng.sample(range(52), 5)) for _ in range(100_000))
    for req in (
        pb.ShisanshuiEvaluateRequest(items=rows),
        pb.ShisanshuiEvaluateRequest(packed_rows=packed_rows),
        pb.ShisanshuiEvaluateRequest(items=rows[:1]),
        pb.ShisanshuiEvaluateRequest(
            items=rows[:50],
            packed_rows=packed_rows[:1500],
            row_size=5,
            rules=pb.ShisanshuiRules(a2345=2, suit_order="cdhs"),
        ),
    ):
        (kind, answer), game, items, errors = assert_same(
            handeval_pb2.EvaluateRequest(shisanshui=req).SerializeToString()
        )
        res = handeval_pb2.EvaluateResponse.FromString(answer).shisanshui
        assert (kind, game, errors) == ("ok", "shisanshui", 0)
        assert items == len(req.items) + len(req.packed_rows) // 5
        assert [r.WhichOneof("result") for r in res.results] == ["row"] * len(req.items)
        assert len(res.packed_categories) == len(req.packed_rows) // 5


def test_every_category_both_ways():
    """A row of each category (and A2345 both ways), 3- and 5-card, written alike."""
    rows = [
        "As Ks Qs Js Ts",
        "5h 4h 3h 2h Ah",
        "9c 9d 9h 9s 2c",
        "Kd Kc Kh 3s 3d",
        "2d 7d 9d Jd Ad",
        "9s 8h 7d 6c 5s",
        "5c 4d 3h 2s Ad",
        "Qs Qh Qd 7c 2s",
        "Js Jh 4d 4c 9s",
        "Ts Th 8c 6d 2h",
        "Ah Qc 9d 6s 3c",
        "Qs Qh Qd",
        "7s 7h Ad",
        "Ks 9c 3h",
    ]
    for a2345 in (0, 1, 2):
        req = pb.ShisanshuiEvaluateRequest(
            rules=pb.ShisanshuiRules(a2345=a2345),
            items=[pb.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=r.split())) for r in rows],
        )
        (kind, answer), *_ = assert_same(handeval_pb2.EvaluateRequest(shisanshui=req).SerializeToString())
        res = handeval_pb2.EvaluateResponse.FromString(answer).shisanshui
        assert kind == "ok" and len({r.row.category for r in res.results}) == 9


def test_wire_inline_prices_only_the_fast_shapes():
    """The servicer answers on its event loop a large request only when the binding
    prices it (rows, packed rows) within the budget; anything else is not priced."""
    import random

    rng = random.Random(9)

    def ev(**kw) -> bytes:
        return handeval_pb2.EvaluateRequest(shisanshui=pb.ShisanshuiEvaluateRequest(**kw)).SerializeToString()

    def rows(n):
        return [pb.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards=rng.sample(DECK, 5))) for _ in range(n)]

    packed_rows = bytes(rng.randrange(52) for _ in range(500_000))
    assert _core.wire_inline("Evaluate", ev(items=rows(1000)), 1e-3)
    assert _core.wire_inline("Evaluate", ev(packed_rows=packed_rows), 1e-3)
    assert not _core.wire_inline("Evaluate", ev(items=rows(1000)), 1e-4)  # over the budget
    assert not _core.wire_inline("Evaluate", ev(items=rows(5000)), 1e-3)
    assert not _core.wire_inline("Evaluate", ev(packed_rows=packed_rows * 10), 1e-3)
    # Past WIRE_INLINE_BYTES only the priced shapes: not a hand, not another RPC's.
    hand = pb.ShisanshuiEvaluateItem(hand=common_pb2.Cards(cards=rng.sample(DECK, 13)))
    assert len(ev(items=rows(50))) > _core.WIRE_INLINE_BYTES
    assert not _core.wire_inline("Evaluate", ev(items=rows(50) + [hand]), 1e-3)  # not priced
    assert not _core.wire_inline("Evaluate", PROST_WAY + ev(items=rows(50)), 1e-3)
    assert not _core.wire_inline("Evaluate", b"\xff" * 2000, 1e-3)
    assert not _core.wire_inline("Compare", ev(items=rows(50)), 1e-3)
    # At most WIRE_INLINE_BYTES: inline, whatever the shape, but never an Arrange.
    assert _core.wire_inline("Evaluate", ev(items=rows(10) + [hand]), 1e-3)
    assert _core.wire_inline("Compare", ev(items=rows(10)), 1e-3)
    assert not _core.wire_inline("Arrange", ev(items=rows(10)), 1e-3)

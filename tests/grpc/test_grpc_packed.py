"""The packed bulk path of 十三水 Evaluate (``packed_rows`` → ``packed_categories``)
against a real server: answers equal the Python API (string classify and the in-process
``categories_from_ids``), rows are bounded by message size not by --max-batch, and a bad
packed request is INVALID_ARGUMENT whose BadRequest detail names the field and the row."""

from __future__ import annotations

import random

import grpc
import pytest

from handeval import shisanshui
from handeval.server.client import bad_request_fields
from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw
from harness.deck import DECK

#: One 5-card row of every category, lowest first (so the check covers all 9 codes).
EVERY_CATEGORY = [
    "2s 5h 7d 9c Jc",
    "2s 2h 7d 9c Jc",
    "2s 2h 7d 7c Jc",
    "2s 2h 2d 9c Jc",
    "Ah 2s 3h 4d 5c",
    "2s 5s 7s 9s Js",
    "2s 2h 2d 9c 9s",
    "2s 2h 2d 2c Js",
    "Ts Js Qs Ks As",
]


def packed_id(card: str) -> int:
    return DECK.index(card)


def evaluate(stub, timeout=30, **kw):
    return stub.Evaluate(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(**kw)), timeout=timeout).shisanshui


def random_rows(n, size, seed):
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(n)]


def test_card_id_encoding_is_the_documented_one(stub):
    # id = rank * 4 + suit, rank 0 = '2' .. 12 = 'A', suits s h d c: the proto's examples
    assert [packed_id(c) for c in ("2s", "2c", "3s", "Td", "As", "Ac")] == [0, 3, 4, 34, 48, 51]
    royal = bytes([48, 44, 40, 36, 32])  # As Ks Qs Js Ts
    quads = bytes([0, 1, 2, 3, 51])  # 2s 2h 2d 2c Ac
    flush = bytes([0 + 3, 8 + 3, 16 + 3, 24 + 3, 51])  # 2c 4c 6c 8c Ac
    got = evaluate(stub, packed_rows=royal + quads + flush).packed_categories
    assert [shisanshui.CATEGORIES[b] for b in got] == ["straight_flush", "four_of_a_kind", "flush"]


def test_every_category_code(stub):
    data = b"".join(bytes(packed_id(c) for c in row.split()) for row in EVERY_CATEGORY)
    res = evaluate(stub, packed_rows=data)
    assert list(res.packed_categories) == list(range(9))
    assert [shisanshui.CATEGORIES[b] for b in res.packed_categories] == [
        shisanshui.classify(r).category for r in EVERY_CATEGORY
    ]
    assert len(res.results) == 0


@pytest.mark.parametrize("size", [5, 3])
def test_random_rows_equal_the_python_api(stub, size):
    # 20,000 rows: far over the fixture's --max-batch of 500 items (rows are not items),
    # under its 256 KiB message limit.
    rows = random_rows(20_000, size, seed=size)
    data = b"".join(bytes(r) for r in rows)
    kw = {"row_size": 3} if size == 3 else {}
    got = evaluate(stub, packed_rows=data, **kw).packed_categories
    assert got == shisanshui.categories_from_ids(data, size)
    for r, code in zip(rows[:2000], got):
        assert shisanshui.classify([DECK[i] for i in r]).category == shisanshui.CATEGORIES[code]
    assert len(set(got)) >= (7 if size == 5 else 3)  # the sample spans many categories


def test_rules_are_applied_and_items_answered_alongside(stub):
    wheel = bytes(packed_id(c) for c in "Ah 2s 3h 4d 5c".split())
    rules = ssw.ShisanshuiRules(a2345=ssw.SHISANSHUI_A2345_SECOND_HIGHEST)
    res = evaluate(
        stub,
        rules=rules,
        packed_rows=wheel,
        items=[
            ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split())),
            ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As As".split())),
        ],
    )
    assert res.packed_categories == shisanshui.categories_from_ids(
        wheel, 5, rules=shisanshui.Rules(a2345="second_highest")
    )
    assert shisanshui.CATEGORIES[res.packed_categories[0]] == "straight"
    assert [r.WhichOneof("result") for r in res.results] == ["row", "error"]
    assert res.results[0].row.category == ssw.SHISANSHUI_CATEGORY_HIGH_CARD and "As" in res.results[1].error.message


def test_no_packed_rows_gives_empty_packed_categories(stub):
    res = evaluate(stub, items=[ssw.ShisanshuiEvaluateItem(row=common_pb2.Cards(cards="As Ks Qs".split()))])
    assert res.packed_categories == b"" and res.results[0].row.category == ssw.SHISANSHUI_CATEGORY_HIGH_CARD
    assert evaluate(stub, packed_rows=b"", row_size=3).packed_categories == b""


def _bad(stub, **kw):
    with pytest.raises(grpc.RpcError) as ei:
        evaluate(stub, **kw)
    e = ei.value
    assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
    fields = bad_request_fields(e)
    assert len(fields) == 1, fields
    return fields[0]


def test_bad_card_id_is_invalid_argument_naming_field_and_row(stub):
    good = bytes(random_rows(10, 5, seed=9)[3])
    field, msg = _bad(stub, packed_rows=good * 3 + bytes([0, 1, 2, 3, 52]))
    assert field == "shisanshui.packed_rows"
    assert "row 3" in msg and "bytes 15..19" in msg and "52" in msg


def test_repeated_card_in_a_row_is_invalid_argument(stub):
    field, msg = _bad(stub, packed_rows=bytes([0, 1, 2, 3, 4, 7, 9, 11, 7, 40]))
    assert field == "shisanshui.packed_rows"
    assert "row 1" in msg and "duplicate" in msg and "3c" in msg  # id 7 = rank 1 ('3'), suit 3 (c)


def test_partial_row_is_invalid_argument(stub):
    field, msg = _bad(stub, packed_rows=bytes([0, 1, 2, 3, 4, 5, 6]))
    assert field == "shisanshui.packed_rows" and "7 bytes" in msg and "5-card" in msg
    field, msg = _bad(stub, packed_rows=bytes([0, 1, 2, 3]), row_size=3)
    assert field == "shisanshui.packed_rows" and "3-card" in msg


@pytest.mark.parametrize("row_size", [4, 1, -5, 13])
def test_bad_row_size_is_invalid_argument(stub, row_size):
    field, msg = _bad(stub, packed_rows=bytes(range(20)), row_size=row_size)
    assert field == "shisanshui.row_size" and str(row_size) in msg


def test_bad_request_does_not_poison_the_next(stub):
    _bad(stub, packed_rows=bytes([60] * 5))
    assert evaluate(stub, packed_rows=bytes([0, 4, 8, 12, 21])).packed_categories == bytes([0])  # 2s 3s 4s 5s 7h


def test_too_large_packed_message_is_resource_exhausted(stub):
    data = b"".join(bytes(r) for r in random_rows(60_000, 5, seed=3))  # 300 kB > 256 KiB
    with pytest.raises(grpc.RpcError) as ei:
        evaluate(stub, packed_rows=data)
    assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_packed_rows_count_as_items_in_the_metrics(stub, server):
    from grpc_fixtures import metric_value

    before = metric_value(server.metrics(), "handeval_batch_items_sum", rpc="Evaluate", game="shisanshui") or 0
    evaluate(stub, packed_rows=bytes(range(50)))  # ten 5-card rows
    after = metric_value(server.metrics(), "handeval_batch_items_sum", rpc="Evaluate", game="shisanshui")
    assert after - before == 10

"""The gRPC service end to end for 十三水: a real `handeval serve` process on loopback,
called through the generated stubs; results must equal the Python API's. Also the
service-wide behaviour: per-item errors, INVALID_ARGUMENT details, limits, deadlines,
health, reflection, metrics and `handeval call`."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from handeval import HandevalError, shisanshui
from handeval.server.client import bad_request_fields
from handeval.v2 import common_pb2, handeval_pb2 as pb, shisanshui_pb2 as ssw
from harness.deck import DECK

from grpc_fixtures import C, FakeContext, metric_value

VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "seed_examples.json").read_text(encoding="utf-8"))


def rows_equal(msg: ssw.ShisanshuiRow, row: shisanshui.Row):
    assert (ssw.ShisanshuiCategory.Name(msg.category), msg.category_zh, msg.strength, list(msg.cards.cards)) == (
        "SHISANSHUI_CATEGORY_" + row.category.upper(),
        row.category_zh,
        row.strength,
        row.cards,
    )


def settlement_dict(m: ssw.ShisanshuiSettlement) -> dict:
    """The proto settlement in the shape of handeval.shisanshui.Settlement.to_dict()."""
    return {
        "waters": list(m.waters),
        "deltas": list(m.deltas),
        "pairwise": [list(r.values) for r in m.pairwise],
        "fouls": list(m.fouls),
        "specials": [special_name(s) for s in m.specials],
        "home_runs": list(m.home_runs),
        "theoretical": list(m.theoretical),
        "rake": m.rake,
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "kind": ssw.ShisanshuiPairKind.Name(p.kind)[len("SHISANSHUI_PAIR_KIND_") :].lower(),
                "rows": list(p.rows),
                "scooper": p.scooper if p.HasField("scooper") else None,
                "home_run": p.home_run,
                "waters": p.waters,
            }
            for p in m.pairs
        ],
    }


def special_name(value):
    """A ShisanshuiSpecialKind value → the API's special id (None for UNSPECIFIED)."""
    return ssw.ShisanshuiSpecialKind.Name(value)[len("SHISANSHUI_SPECIAL_KIND_") :].lower() if value else None


def arrangement(p) -> ssw.ShisanshuiArrangement:
    return ssw.ShisanshuiArrangement(front=C(p["front"]), middle=C(p["middle"]), back=C(p["back"]))


def settle_request(deals, rules=None):
    return pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(rules=rules, deals=deals))


def random_deal(rng, n):
    cards = rng.sample(DECK, 13 * n)
    return [
        {
            "front": " ".join(cards[13 * i : 13 * i + 3]),
            "middle": " ".join(cards[13 * i + 3 : 13 * i + 8]),
            "back": " ".join(cards[13 * i + 8 : 13 * i + 13]),
        }
        for i in range(n)
    ]


# ---- results equal the Python API's ----


def test_settle_seed_vectors_equal_python(stub):
    cases = VECTORS["shisanshui_score"]
    deals = [
        ssw.ShisanshuiDeal(
            players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in c["players"]], base=c["base"]
        )
        for c in cases
    ]
    resp = stub.Settle(settle_request(deals), timeout=30)
    assert resp.WhichOneof("game") == "shisanshui"
    results = resp.shisanshui.results
    assert len(results) == len(cases)
    for c, r in zip(cases, results):
        assert r.WhichOneof("result") == "settlement", r
        got = settlement_dict(r.settlement)
        assert got["waters"] == c["expected_waters"]
        if "expected_pairwise_for_seat0" in c:
            assert got["pairwise"][0] == c["expected_pairwise_for_seat0"]
        assert got == shisanshui.settle(c["players"], base=c["base"]).to_dict()


def test_settle_random_deals_with_carried_and_rules_equal_python(stub):
    rng = random.Random(6)
    rules = shisanshui.Rules(suit_tiebreak=False, home_run_min_opponents=2, rake_percent=5)
    proto_rules = ssw.ShisanshuiRules(suit_tiebreak=False, home_run_min_opponents=2, rake_percent=5)
    deals, expected = [], []
    for _ in range(60):
        players = random_deal(rng, rng.randint(2, 4))
        carried = [rng.choice([None, 5, 50, 500]) for _ in players]
        base = rng.randint(1, 20)
        deals.append(
            ssw.ShisanshuiDeal(
                players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in players],
                base=base,
                carried=[common_pb2.Carried() if c is None else common_pb2.Carried(amount=c) for c in carried],
            )
        )
        expected.append(shisanshui.settle(players, base=base, carried=carried, rules=rules).to_dict())
    resp = stub.Settle(settle_request(deals, proto_rules), timeout=30)
    got = [settlement_dict(r.settlement) for r in resp.shisanshui.results]
    assert got == expected
    assert any(d["rake"] > 0 for d in got) and any(any(d["fouls"]) for d in got)


def test_settle_declared_special(stub):
    v = VECTORS["shisanshui_special"][2]
    normal = {"front": "Qs Qh Qd", "middle": "3h 4h 6h 8h Th", "back": "As Ah Ad 4s 4d"}
    players = [normal, {"special": v["expected"], "cards": v["cards"]}]
    deal = ssw.ShisanshuiDeal(
        players=[
            ssw.ShisanshuiPlayer(arrangement=arrangement(normal)),
            ssw.ShisanshuiPlayer(
                special=ssw.ShisanshuiDeclaredSpecial(
                    kind=ssw.ShisanshuiSpecialKind.Value("SHISANSHUI_SPECIAL_KIND_" + v["expected"].upper()),
                    cards=C(v["cards"]),
                )
            ),
        ],
        base=3,
    )
    r = stub.Settle(settle_request([deal]), timeout=10).shisanshui.results[0]
    assert settlement_dict(r.settlement) == shisanshui.settle(players, base=3).to_dict()
    assert list(r.settlement.waters) == [-v["waters"], v["waters"]]
    assert [special_name(x) for x in r.settlement.specials] == [None, v["expected"]]


def test_evaluate_specials_rows_and_arrangements_equal_python(stub):
    rng = random.Random(1)
    hands = [v["cards"] for v in VECTORS["shisanshui_special"]] + [" ".join(rng.sample(DECK, 13)) for _ in range(30)]
    rows = [" ".join(rng.sample(DECK, rng.choice([3, 5]))) for _ in range(200)]
    arrs = [random_deal(rng, 1)[0] for _ in range(50)]
    items = (
        [ssw.ShisanshuiEvaluateItem(hand=C(h)) for h in hands]
        + [ssw.ShisanshuiEvaluateItem(row=C(r)) for r in rows]
        + [ssw.ShisanshuiEvaluateItem(arrangement=arrangement(a)) for a in arrs]
    )
    res = stub.Evaluate(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)), timeout=30)
    res = list(res.shisanshui.results)
    assert len(res) == len(items)
    for h, r in zip(hands, res[: len(hands)]):
        want = shisanshui.special_hand(h)
        assert r.WhichOneof("result") == "hand"
        if want is None:
            assert not r.hand.HasField("special")
        else:
            s = r.hand.special
            assert (special_name(s.kind), s.name_zh, s.waters, [list(c.cards) for c in s.split] or None) == (
                want.id,
                want.name_zh,
                want.waters,
                want.split,
            )
    for v, r in zip(VECTORS["shisanshui_special"], res):
        assert (special_name(r.hand.special.kind), r.hand.special.waters) == (v["expected"], v["waters"])
    for row, r in zip(rows, res[len(hands) : len(hands) + len(rows)]):
        rows_equal(r.row, shisanshui.classify(row))
    for a, r in zip(arrs, res[len(hands) + len(rows) :]):
        assert r.arrangement.foul == shisanshui.is_foul(a["front"], a["middle"], a["back"])
        for name in ("front", "middle", "back"):
            rows_equal(getattr(r.arrangement, name), shisanshui.classify(a[name]))
    assert any(r.arrangement.foul for r in res[-len(arrs) :])


def test_compare_pairs_and_order_equal_python(stub):
    rng = random.Random(2)
    pairs = []
    for _ in range(150):
        n = rng.choice([3, 5])
        cards = rng.sample(DECK, 2 * n)
        pairs.append((" ".join(cards[:n]), " ".join(cards[n:])))
    # equal ranks, different suits: the suit tie-break decides unless it is off
    pairs.append(("As Kh Qd Jc 9s", "Ah Ks Qc Jd 9h"))
    # Orders of rows from one deck (checked with compare) and of independent rows, which
    # may share cards (checked with order_keys: strongest first, ties in request order).
    decks = [rng.sample(DECK, 5 * rng.randint(1, 8)) for _ in range(20)]
    orders = [[" ".join(d[i : i + 5]) for i in range(0, len(d), 5)] for d in decks]
    loose = [[" ".join(rng.sample(DECK, n)) for _ in range(rng.randint(1, 20))] for n in (3, 5) * 5]
    loose.append(["As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "Ts Js Qs Ks As", "As Ks Qs Js Ts"])
    items = [ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C(a), b=C(b))) for a, b in pairs] + [
        ssw.ShisanshuiCompareItem(order=ssw.ShisanshuiRowList(rows=[C(r) for r in o])) for o in orders + loose
    ]
    for rules, proto_rules in (
        (None, None),
        (shisanshui.Rules(suit_tiebreak=False), ssw.ShisanshuiRules(suit_tiebreak=False)),
    ):
        req = pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(rules=proto_rules, items=items))
        res = stub.Compare(req, timeout=30).shisanshui.results
        got = [r.comparison for r in res[: len(pairs)]]
        assert got == [shisanshui.compare(a, b, rules=rules) for a, b in pairs]
        for o, r in zip(orders, res[len(pairs) :]):
            idx = list(r.order.indices)
            assert sorted(idx) == list(range(len(o)))
            for i, j in zip(idx, idx[1:]):  # strongest first
                assert shisanshui.compare(o[i], o[j], rules=rules) >= 0
        for o, r in zip(loose, res[len(pairs) + len(orders) :]):
            keys = shisanshui.order_keys(o, rules=rules)
            assert list(r.order.indices) == sorted(range(len(o)), key=lambda i: (-keys[i], i))
        # Equal rows (the same cards in any order; with suit_tiebreak off, the same ranks) tie,
        # ties in request order.
        assert list(res[-1].order.indices) == ([0, 2, 3, 1] if rules is None else [0, 1, 2, 3])
    assert got[-1] == 0  # the rules reached the server: no suit tie-break → a tie


# ---- errors ----


def test_per_item_errors_leave_the_rest_answered(stub):
    items = [
        ssw.ShisanshuiEvaluateItem(row=C("As Ks Qs")),
        ssw.ShisanshuiEvaluateItem(row=C("As Zz Qs")),
        ssw.ShisanshuiEvaluateItem(hand=C("As Ks")),
        ssw.ShisanshuiEvaluateItem(),
        ssw.ShisanshuiEvaluateItem(
            arrangement=ssw.ShisanshuiArrangement(
                front=C("2s 3s 4s"), middle=C("As Ks Qs Js Ts"), back=C("2s 9h 9d 9c 9s")
            )
        ),
        ssw.ShisanshuiEvaluateItem(row=C("2h 2d 2c")),
    ]
    res = stub.Evaluate(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)), timeout=10)
    kinds = [r.WhichOneof("result") for r in res.shisanshui.results]
    assert kinds == ["row", "error", "error", "error", "error", "row"]
    errs = [r.error for r in res.shisanshui.results if r.WhichOneof("result") == "error"]
    # each error names the item by its index and the field inside it
    assert errs[0].field == "items[1].row" and "Zz" in errs[0].message and "position 1" in errs[0].message
    assert errs[1].field == "items[2].hand" and "13 cards" in errs[1].message
    assert errs[2].field == "items[3]" and "row, hand, arrangement" in errs[2].message
    assert errs[3].field.startswith("items[4].arrangement.") and "2s" in errs[3].message  # the card in two rows
    rows_equal(res.shisanshui.results[5].row, shisanshui.classify("2h 2d 2c"))


def test_settle_item_error_names_the_seat_field(stub):
    good = VECTORS["shisanshui_score"][0]["players"]
    dup = [good[0], dict(good[1], front="Qs 3d 5c")]  # Qs is also in seat 0's front
    deals = [
        ssw.ShisanshuiDeal(players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in ps])
        for ps in (good, dup, good)
    ]
    deals.append(
        ssw.ShisanshuiDeal(players=[ssw.ShisanshuiPlayer(arrangement=arrangement(good[0])), ssw.ShisanshuiPlayer()])
    )
    res = stub.Settle(settle_request(deals), timeout=10).shisanshui.results
    assert [r.WhichOneof("result") for r in res] == ["settlement", "error", "settlement", "error"]
    assert res[1].error.field.startswith("deals[1].players[1]") and "Qs" in res[1].error.message
    assert res[3].error.field == "deals[3].players[1]"
    with pytest.raises(HandevalError, match="Qs"):
        shisanshui.settle(dup)


def test_foul_is_an_item_error_when_foul_scoring_is_off(stub):
    fouled = [
        {"front": "As Ah Ad", "middle": "3s 4h 6d 7s 9h", "back": "Ks Kh 4d 6h 8s"},
        VECTORS["shisanshui_score"][0]["players"][1],
    ]
    deal = ssw.ShisanshuiDeal(players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in fouled])
    on = stub.Settle(settle_request([deal]), timeout=10).shisanshui.results[0]
    assert on.WhichOneof("result") == "settlement", on
    assert list(on.settlement.fouls) == [True, False]
    off = stub.Settle(settle_request([deal], ssw.ShisanshuiRules(foul_scoring=False)), timeout=10).shisanshui.results[0]
    assert off.WhichOneof("result") == "error" and "players[0]" in off.error.field + off.error.message


def _status(excinfo):
    e = excinfo.value
    return e.code(), e.details(), bad_request_fields(e)


def test_invalid_rule_option_is_invalid_argument_with_field(stub):
    req = pb.CompareRequest(
        shisanshui=ssw.ShisanshuiCompareRequest(
            rules=ssw.ShisanshuiRules(a2345=7),
            items=[ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C("As Ks Qs"), b=C("2s 3s 4s")))],
        )
    )
    with pytest.raises(grpc.RpcError) as ei:
        stub.Compare(req, timeout=10)
    code, details, fields = _status(ei)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields and fields[0][0] == "shisanshui.rules.a2345" and "7" in fields[0][1]
    deals = random_deals_proto(2)
    for bad in (ssw.ShisanshuiRules(suit_order="sshd"), ssw.ShisanshuiRules(rake_percent=101)):
        with pytest.raises(grpc.RpcError) as ei:
            stub.Settle(settle_request(deals, bad), timeout=10)
        code, _, fields = _status(ei)
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert fields[0][0] == "shisanshui.rules." + bad.ListFields()[0][0].name


def random_deals_proto(n):
    from grpc_fixtures import random_deals

    return random_deals(n)


def test_request_without_game_is_invalid_argument(stub):
    for call, req in ((stub.Evaluate, pb.EvaluateRequest()), (stub.Arrange, pb.ArrangeRequest())):
        with pytest.raises(grpc.RpcError) as ei:
            call(req, timeout=10)
        code, details, fields = _status(ei)
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert fields[0][0] == "game" and "shisanshui" in fields[0][1]


def test_too_large_batch_is_invalid_argument(stub, server):
    items = [ssw.ShisanshuiEvaluateItem(row=C("As Ks Qs"))] * 501  # the fixture's --max-batch is 500
    with pytest.raises(grpc.RpcError) as ei:
        stub.Evaluate(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)), timeout=10)
    code, details, fields = _status(ei)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields[0][0] == "shisanshui.items" and "501" in fields[0][1] and "500" in fields[0][1]
    ok = stub.Evaluate(pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items[:500])), timeout=10)
    assert len(ok.shisanshui.results) == 500


def test_too_large_message_is_resource_exhausted(stub):
    big = C(["As"] * 100_000)  # ~400 KB > the fixture's 256 KiB limit
    with pytest.raises(grpc.RpcError) as ei:
        stub.Evaluate(
            pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=big)])),
            timeout=10,
        )
    assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_exceeded_deadline(stub):
    rng = random.Random(3)
    deals = [
        ssw.ShisanshuiDeal(players=[ssw.ShisanshuiPlayer(arrangement=arrangement(p)) for p in random_deal(rng, 4)])
        for _ in range(500)
    ]
    with pytest.raises(grpc.RpcError) as ei:
        stub.Settle(settle_request(deals), timeout=0.001)
    assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    # the server is still fine afterwards
    assert len(stub.Settle(settle_request(deals[:5]), timeout=30).shisanshui.results) == 5


# ---- health, reflection, metrics, CLI ----


def test_health(channel):
    h = health_pb2_grpc.HealthStub(channel)
    for service in ("", "handeval.v2.Handeval"):
        assert (
            h.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status
            == health_pb2.HealthCheckResponse.SERVING
        )
    with pytest.raises(grpc.RpcError) as ei:
        h.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=5)
    assert ei.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection(channel):
    from google.protobuf import descriptor_pb2

    r = reflection_pb2_grpc.ServerReflectionStub(channel)
    reqs = [
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="handeval.v2.Handeval"),
    ]
    answers = list(r.ServerReflectionInfo(iter(reqs), timeout=10))
    names = {s.name for s in answers[0].list_services_response.service}
    assert {"handeval.v2.Handeval", "grpc.health.v1.Health"} <= names
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(b)
        for b in answers[1].file_descriptor_response.file_descriptor_proto
    ]
    service = next(s for f in files if f.name == "handeval/v2/handeval.proto" for s in f.service)
    assert [m.name for m in service.method] == ["Evaluate", "Compare", "Settle", "Arrange", "Tables"]


def test_metrics_scraped(stub, server):
    before = server.metrics()
    n0 = metric_value(before, "handeval_requests_total", rpc="Compare", game="shisanshui", code="OK")
    req = pb.CompareRequest(
        shisanshui=ssw.ShisanshuiCompareRequest(
            items=[ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C("As Ks Qs"), b=C("2s 3s 4s")))] * 7
        )
    )
    for _ in range(3):
        stub.Compare(req, timeout=10)
    text = server.metrics()
    assert metric_value(text, "handeval_requests_total", rpc="Compare", game="shisanshui", code="OK") == n0 + 3
    assert metric_value(text, "handeval_request_seconds_count", rpc="Compare", game="shisanshui") >= 3
    assert metric_value(text, "handeval_batch_items_sum", rpc="Compare", game="shisanshui") >= 21
    assert metric_value(text, "handeval_requests_total", code="INVALID_ARGUMENT") >= 0
    assert "handeval_item_errors_total" in text and "handeval_inflight_requests" in text


def test_handeval_call_cli(server):
    req = json.dumps({"shisanshui": {"items": [{"row": {"cards": ["As", "Ks", "Qs", "Js", "Ts"]}}]}})
    out = subprocess.run(
        [sys.executable, "-m", "handeval", "call", "Evaluate", req, "--target", server.target],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["shisanshui"]["results"][0]["row"]["category"] == "SHISANSHUI_CATEGORY_STRAIGHT_FLUSH"
    bad = subprocess.run(
        [sys.executable, "-m", "handeval", "call", "Evaluate", "{}", "--target", server.target],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and "INVALID_ARGUMENT" in bad.stderr and "field game" in bad.stderr


def test_debug_log_has_one_line_per_call(stub, server):
    # Its own calls (a Settle, and a request naming no game): the test may run alone or on
    # another pytest-xdist worker than the module's other tests.
    before = server.log().count('"event": "call"')
    stub.Settle(settle_request([]), timeout=10)
    with pytest.raises(grpc.RpcError):
        stub.Evaluate(pb.EvaluateRequest(), timeout=10)
    from grpc_fixtures import wait_for

    # a call's line is written as it ends, which may be after its client has the status
    wait_for(
        lambda: server.log().count('"event": "call"') >= before + 2, timeout=30, what="the calls' lines", server=server
    )
    log = server.log()
    assert log.count('"event": "call"') == before + 2 and '"rpc": "Settle"' in log
    assert '"event": "error"' in log and "WARNING" in log


def test_example_client_runs(server):
    example = Path(__file__).parents[2] / "examples" / "client.py"
    out = subprocess.run(
        [sys.executable, str(example), "--target", server.target], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "SHISANSHUI_CATEGORY_STRAIGHT_FLUSH (同花顺)" in out.stdout
    assert "item error: items[1].row" in out.stdout and "ERROR_REASON_BAD_CARD" in out.stdout
    assert "special: SHISANSHUI_SPECIAL_KIND_LIU_DUI_BAN" in out.stdout and "waters [10, -10]" in out.stdout
    assert "INVALID_ARGUMENT: ERROR_REASON_BAD_RULE [('shisanshui.rules.rake_percent'" in out.stdout
    assert "seat 1 led with 3s; seat 3 to move;" in out.stdout
    assert "item error: items[1].game.actions[2].seat: ERROR_REASON_NOT_YOUR_TURN" in out.stdout


# ---- in-process: the servicer's INTERNAL path, the serve settings ----


def test_internal_fault_is_internal_without_details(monkeypatch, caplog):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import grpc

    from handeval.server import service
    from handeval.server.config import ServerConfig
    from handeval.v2 import handeval_pb2 as pb

    def broken(*args):
        raise KeyError("secret internal detail")

    monkeypatch.setattr(service._core, "wire_answer", broken)
    ctx = FakeContext()
    with ThreadPoolExecutor(1) as ex:
        svc = service.HandevalService(ServerConfig(), ex)
        req = pb.EvaluateRequest(
            shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=C("As Ks Qs"))])
        )
        with pytest.raises(RuntimeError, match="aborted"):
            asyncio.run(svc.Evaluate(req.SerializeToString(), ctx))
    code, details, _ = ctx.aborted
    assert code == grpc.StatusCode.INTERNAL
    assert "secret" not in details and "incident" in details
    assert "secret internal detail" in caplog.text  # logged on the server


def test_serve_settings_from_environment_and_flags(monkeypatch, tmp_path):
    from handeval.cli import _build_parser
    from handeval.server.config import ServerConfig
    from handeval.server.flags import config_from_args

    for k in ("HOST", "PORT", "WORKERS", "METRICS_PORT", "MAX_BATCH", "TOKEN", "TOKEN_FILE", "TLS_CERT", "TLS_KEY"):
        monkeypatch.delenv(f"HANDEVAL_{k}", raising=False)
    assert config_from_args(_build_parser().parse_args(["serve"])) == ServerConfig()
    monkeypatch.setenv("HANDEVAL_PORT", "6000")
    monkeypatch.setenv("HANDEVAL_WORKERS", "3")
    monkeypatch.setenv("HANDEVAL_METRICS_PORT", "9100")
    monkeypatch.setenv("HANDEVAL_MAX_BATCH", "77")
    monkeypatch.setenv("HANDEVAL_TOKEN", "t0k")
    c = config_from_args(_build_parser().parse_args(["serve", "--workers", "2"]))  # a flag beats the environment
    assert (c.host, c.port, c.workers, c.metrics_port, c.max_batch, c.token) == ("127.0.0.1", 6000, 2, 9100, 77, "t0k")
    (tmp_path / "tok").write_text("from-file\n")
    c = config_from_args(_build_parser().parse_args(["serve", "--token-file", str(tmp_path / "tok")]))
    assert c.token == "from-file"
    assert ServerConfig.from_json(c.to_json()) == c
    for bad in (["--tls-cert", "x"], ["--workers", "0"], ["--workers", "2", "--port", "0"]):
        with pytest.raises(ValueError):
            config_from_args(_build_parser().parse_args(["serve", *bad]))


# ---- hardening: bounded work, deadlines and cancellation inside an item, echoes ----


def _order_request(n, seed=0):
    """One `order` item of n rows, drawn from a pool of 1,000 random rows (the rows of an
    order are independent: they may share cards or repeat)."""
    rng = random.Random(seed)
    pool = [" ".join(rng.sample(DECK, 5)) for _ in range(min(n, 1000))]
    k, r = divmod(n, len(pool)) if pool else (0, 0)
    # The pool repeated as bytes (a repeated field's encoding is its items' encodings one
    # after the other): 2 M Cards messages built one by one take the client ~18 s of CPU.
    enc = lambda rows: ssw.ShisanshuiRowList(rows=[C(x) for x in rows]).SerializeToString()  # noqa: E731
    req = pb.CompareRequest()
    req.shisanshui.items.add().order.MergeFromString(enc(pool) * k + enc(pool[:r]))
    return req


def test_order_rows_count_against_max_batch(stub):
    """An `order` item's rows are items: 501 rows in one item exceed --max-batch 500."""
    with pytest.raises(grpc.RpcError) as ei:
        stub.Compare(_order_request(501), timeout=10)
    code, _, fields = _status(ei)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert fields[0][0] == "shisanshui.items" and "502" in fields[0][1] and "rows" in fields[0][1]
    ok = stub.Compare(_order_request(499), timeout=10).shisanshui.results[0].order.indices
    assert sorted(ok) == list(range(499))


@pytest.fixture(scope="module")
def big_server(tmp_path_factory):
    """Room for one huge `order` item (the deadline and cancellation tests)."""
    from grpc_fixtures import ServerProcess

    s = ServerProcess(
        tmp_path_factory.mktemp("grpc-big"), "--max-batch", str(2 * BIG_ORDER), "--max-message-bytes", str(64 << 20)
    )
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


BIG_ORDER = 2_000_000  # rows (32 MB): seconds of keys + sort on a 2-core machine


def _timed(call):
    import time

    start = time.monotonic()
    call()
    return time.monotonic() - start


def test_deadline_stops_a_long_order_item(big_server):
    # Serialized before the call: 2 M Cards messages take the client longer to serialize
    # than the deadline on a loaded machine, and the server would never see the call.
    data = _order_request(BIG_ORDER, seed=1).SerializeToString()
    with big_server.channel() as ch:
        stub = handeval_stub(ch)
        raw = ch.unary_unary("/handeval.v2.Handeval/Compare", request_serializer=None, response_deserializer=None)
        # The deadline is sized by measurement: the time this server takes for an eighth
        # of the item (its parsing included), so the whole item outlasts it on any machine.
        eighth_data = _order_request(BIG_ORDER // 8, seed=1).SerializeToString()
        eighth = _timed(lambda: raw(eighth_data, timeout=120))
        with pytest.raises(grpc.RpcError) as ei:
            raw(data, timeout=eighth)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        from grpc_fixtures import wait_for

        # The server stops inside the item: at its own deadline check, or when grpc cancels
        # the call at the deadline (whichever comes first). The deadline can also pass
        # while the 2 M rows are still being parsed: the server then stops before the item
        # starts (also a stop, not a leak).
        wait_for(
            lambda: (
                "; stopped inside a long item" in big_server.log() or "stopped after 0 of 1 items" in big_server.log()
            ),
            what="the server to stop the item at its deadline",
            server=big_server,
        )
        small = stub.Compare(_order_request(5), timeout=30).shisanshui.results[0]
        assert len(small.order.indices) == 5


def test_bad_order_rows_are_named_by_their_index(big_server):
    """A bad row, or a row of another size than row 0, is that item's ItemError naming the
    row by its index in the item (also past the server's first chunk of rows)."""
    rows = [" ".join(r.cards) for r in _order_request(10_000).shisanshui.items[0].order.rows]
    cases = {
        3: ("As Ks Xs Js Ts", "bad card"),
        5000: ("As Ks Xs Js Ts", "bad card"),
        9999: ("2s 3s 4s", "has 3 cards, the first row has 5"),
        7000: ("2s 2h 3d 3d 4c", "duplicate"),
    }
    items = []
    for i, (row, _) in cases.items():
        bad = list(rows)
        bad[i] = row
        items.append(ssw.ShisanshuiCompareItem(order=ssw.ShisanshuiRowList(rows=[C(r) for r in bad])))
    with big_server.channel() as ch:
        res = (
            handeval_stub(ch)
            .Compare(pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(items=items)), timeout=60)
            .shisanshui.results
        )
    for n, (i, (_, what)) in enumerate(cases.items()):
        assert res[n].error.field == f"items[{n}].order.rows[{i}]", res[n]
        assert what in res[n].error.message


def test_cancelled_call_stops_its_work(big_server):
    req = _order_request(BIG_ORDER, seed=2)
    from grpc_fixtures import metric_value, wait_for

    with big_server.channel() as ch:
        stub = handeval_stub(ch)
        before = big_server.log().count('"event": "stopped"')
        fut = stub.Compare.future(req, timeout=120)
        # In flight once the 32 MB request is received and parsed (the metric, polled):
        # the item's keys then take seconds more, so the cancel arrives while it runs.
        wait_for(
            lambda: metric_value(big_server.metrics(), "handeval_inflight_requests") >= 1 or fut.done(),
            timeout=60,
            what="the call to be in flight",
            server=big_server,
        )
        assert fut.cancel(), "the call finished before the cancel"
        wait_for(
            lambda: big_server.log().count('"event": "stopped"') > before,
            timeout=60,
            what="the server to stop the cancelled call",
            server=big_server,
        )
        assert "the call was cancelled; stopped" in big_server.log()
        assert len(stub.Compare(_order_request(5), timeout=30).shisanshui.results[0].order.indices) == 5


def handeval_stub(ch):
    from handeval.v2 import handeval_pb2_grpc

    return handeval_pb2_grpc.HandevalStub(ch)


def test_echoed_input_is_cut(stub, server):
    """A huge bad card comes back cut to 64 characters, once; a huge bad rule value is
    still INVALID_ARGUMENT (the status trailer stays small); the log line stays short."""
    token = "Z" * 200_000
    res = stub.Evaluate(
        pb.EvaluateRequest(
            shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row=C(["As", token, "Ks"]))])
        ),
        timeout=10,
    ).shisanshui.results[0]
    assert res.error.field == "items[0].row"
    assert len(res.error.message) < 400 and "position 1" in res.error.message, res.error.message
    assert "Z" * 64 in res.error.message and "Z" * 65 not in res.error.message
    for rules in (ssw.ShisanshuiRules(suit_order="s" * 10_000),):
        req = pb.CompareRequest(
            shisanshui=ssw.ShisanshuiCompareRequest(
                rules=rules,
                items=[ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C("As Ks Qs"), b=C("2s 3s 4s")))],
            )
        )
        with pytest.raises(grpc.RpcError) as ei:
            stub.Compare(req, timeout=10)
        code, details, fields = _status(ei)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, details
        assert fields[0][0] == "shisanshui.rules." + rules.ListFields()[0][0].name
        assert len(fields[0][1]) < 400 and len(details) < 500
    assert max(len(line) for line in server.log().splitlines()) < 2000

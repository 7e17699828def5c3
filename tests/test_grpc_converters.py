"""The request converters of the games built in parallel (tienlen, dachu, 十三水 arrange),
run in-process against stand-in modules with the API.md signatures: they check that each
proto field reaches the right Python argument and each result field comes back, so the
converters are known to work before the real games are merged (test_grpc_games.py then
checks them end to end)."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import List, Optional

import pytest

from handeval._result import Result
from handeval.errors import fail
from handeval.server import common, dachu as dachu_conv, shisanshui as ssw_conv, tienlen as tl_conv
from handeval.v1 import common_pb2, dachu_pb2 as dc, shisanshui_pb2 as ssw, tienlen_pb2 as tl


@dataclass(frozen=True)
class Play(Result):
    kind: str
    cards: List[str]


@dataclass(frozen=True)
class Line(Result):
    seat: int
    amount: int
    reason: str


@dataclass(frozen=True)
class Settled(Result):
    deltas: List[int]
    rake: int
    lines: List[Line] = field(default_factory=list)


def split(cards):
    return cards.split() if isinstance(cards, str) else list(cards)


@pytest.fixture
def calls():
    return []


@pytest.fixture
def tienlen(monkeypatch, calls):
    m = types.ModuleType("handeval.tienlen")

    @dataclass(frozen=True)
    class Rules:
        first_lead_must_contain_lowest: bool = False
        rake_percent: int = 5

    def classify(cards):
        cs = split(cards)
        if len(cs) == 2 and cs[0][0] != cs[1][0]:
            fail("cards", "3s 4h is not a play")
        return Play({1: "single", 2: "pair"}.get(len(cs), "straight"), cs)

    def settle(remaining, winner, base, played_any=None, chops=(), carried=None, rules=None):
        calls.append(("settle", remaining, winner, base, played_any, chops, carried, rules))
        return Settled([base, -base], 0, [Line(1, -base, "cards left")])

    def settle_instant(hands13, base, carried=None, rules=None):
        calls.append(("settle_instant", hands13, base, carried, rules))
        return Settled([3 * base, -base, -base, -base], 0)

    m.Rules = Rules
    m.classify = classify
    m.instant_win = lambda cards: "dragon" if len(cards.split()) == 13 else None
    m.legal_plays = lambda hand, table=None, passed=False: calls.append(("legal", hand, table, passed)) or [["9h"], Play("single", ["2s"])]
    m.beats = lambda play, table, rules=None: calls.append(("beats", rules)) or play > table
    m.chop_transfers = lambda rnd, base: calls.append(("chop", rnd, base)) or [{"from": 1, "to": 3, "amount": 8 * base}]
    m.settle = settle
    m.settle_instant = settle_instant
    monkeypatch.setitem(sys.modules, "handeval.tienlen", m)
    return m


@pytest.fixture
def dachu(monkeypatch, calls):
    m = types.ModuleType("handeval.dachu")

    def settle(base, places, multiplier=1):
        calls.append(("settle", base, places, multiplier))
        return Settled([3 * base * multiplier, -base, -base, -base * multiplier], 0, [Line(0, 3 * base, "win")])

    m.classify = lambda cards, chu: Play("du_chu" if cards == "Ah Ad" and chu == "red" else "single", split(cards))
    m.beats = lambda play, table, chu: calls.append(("beats", chu)) or True
    m.legal_plays = lambda hand, table, chu: [["9h"], ["Ts", "Js", "Qs"]]
    m.settle = settle
    monkeypatch.setitem(sys.modules, "handeval.dachu", m)
    return m


def test_tienlen_evaluate_and_compare(tienlen, calls):
    req = tl.TienlenEvaluateRequest(items=[
        tl.TienlenEvaluateItem(play="5h 5s"), tl.TienlenEvaluateItem(play="3s 4h"),
        tl.TienlenEvaluateItem(hand=" ".join(["3s"] * 13)), tl.TienlenEvaluateItem(hand="3s"),
        tl.TienlenEvaluateItem(legal_plays=tl.TienlenLegalPlaysQuery(hand="9h 2s", table="8h", passed=True)),
        tl.TienlenEvaluateItem(legal_plays=tl.TienlenLegalPlaysQuery(hand="9h 2s"))])
    batch = common.Batch(None)
    res = tl_conv.evaluate(req, batch).results
    assert (res[0].play.kind, list(res[0].play.cards)) == ("pair", ["5h", "5s"])
    assert res[1].error.field == "cards" and "not a play" in res[1].error.message and batch.item_errors == 1
    assert res[2].hand.instant_win == "dragon" and not res[3].hand.HasField("instant_win")
    assert [(p.kind, list(p.cards)) for p in res[4].legal_plays.plays] == [("single", ["9h"]), ("single", ["2s"])]
    assert calls == [("legal", "9h 2s", "8h", True), ("legal", "9h 2s", None, False)]

    calls.clear()
    creq = tl.TienlenCompareRequest(rules=tl.TienlenRules(rake_percent=0),
                                    items=[tl.TienlenCompareItem(play="5h", table="4h")])
    assert tl_conv.compare(creq, common.Batch(None)).results[0].beats is True
    assert calls[-1] == ("beats", tienlen.Rules(rake_percent=0))


def test_tienlen_settle(tienlen, calls):
    req = tl.TienlenSettleRequest(rules=tl.TienlenRules(first_lead_must_contain_lowest=True), deals=[
        tl.TienlenDeal(game=tl.TienlenGame(remaining=["", "3s 4h"], winner=0, played_any=[True, False],
                                           chops=[tl.TienlenRound(turns=[tl.TienlenTurn(seat=0, play="2h"), tl.TienlenTurn(seat=1, play="pass")])]),
                       base=10, carried=[common_pb2.Carried(amount=100), common_pb2.Carried()]),
        tl.TienlenDeal(instant=tl.TienlenInstantDeal(hands=["a", "b", "c", "d"])),
        tl.TienlenDeal(chop_round=tl.TienlenRound(turns=[tl.TienlenTurn(seat=3, play="4s 4h 5s 5h 6s 6h")]), base=10),
        tl.TienlenDeal()])
    res = tl_conv.settle(req, common.Batch(None)).results
    rules = tienlen.Rules(first_lead_must_contain_lowest=True)
    assert calls.pop(0) == ("beats", rules)  # the rules are checked once up front
    assert calls[0] == ("settle", ["", "3s 4h"], 0, 10, [True, False], [[[0, "2h"], [1, "pass"]]], [100, None], rules)
    assert list(res[0].settlement.deltas) == [10, -10]
    assert [dict(line) for line in res[0].settlement.lines] == [{"seat": 1, "amount": -10, "reason": "cards left"}]
    assert calls[1] == ("settle_instant", ["a", "b", "c", "d"], 1, None, rules)
    assert list(res[1].settlement.deltas) == [3, -1, -1, -1]
    assert calls[2] == ("chop", [[3, "4s 4h 5s 5h 6s 6h"]], 10)
    assert [(t.from_seat, t.to_seat, t.amount) for t in res[2].settlement.transfers] == [(1, 3, 80)]
    assert res[3].error.field == "deal"


def test_rules_field_missing_from_the_python_rules_is_bad_request(tienlen):
    tienlen.Rules = dataclass(frozen=True)(type("Rules", (), {"__annotations__": {"rake_percent": int}, "rake_percent": 5}))
    req = tl.TienlenCompareRequest(rules=tl.TienlenRules(first_lead_must_contain_lowest=True))
    with pytest.raises(common.BadRequest) as ei:
        tl_conv.compare(req, common.Batch(None))
    assert ei.value.field == "tienlen.rules.first_lead_must_contain_lowest"


def test_dachu_converters(dachu, calls):
    ev = dc.DachuEvaluateRequest(chu="red", items=[
        dc.DachuEvaluateItem(play="Ah Ad"), dc.DachuEvaluateItem(legal_plays=dc.DachuLegalPlaysQuery(hand="9h Ts Js Qs"))])
    res = dachu_conv.evaluate(ev, common.Batch(None)).results
    assert res[0].play.kind == "du_chu"
    assert [(p.kind, list(p.cards)) for p in res[1].legal_plays.plays] == [("single", ["9h"]), ("single", ["Ts", "Js", "Qs"])]
    cmp = dc.DachuCompareRequest(chu="black", items=[dc.DachuCompareItem(play="2s", table="As")])
    assert dachu_conv.compare(cmp, common.Batch(None)).results[0].beats and calls[-1] == ("beats", "black")
    with pytest.raises(common.BadRequest):
        dachu_conv.compare(dc.DachuCompareRequest(items=[dc.DachuCompareItem(play="2s", table="As")]), common.Batch(None))

    good, bad = dc.DachuDeal(), dc.DachuDeal()
    good.args.update({"base": 10, "places": [1, 4, 2, 3], "multiplier": 2})
    bad.args.update({"base": 10, "seats": [1]})
    res = dachu_conv.settle(dc.DachuSettleRequest(deals=[good, bad]), common.Batch(None)).results
    assert calls[-1] == ("settle", 10, [1, 4, 2, 3], 2)  # integral Struct numbers come back as int
    assert list(res[0].settlement.deltas) == [60, -10, -10, -20]
    assert res[0].settlement.detail["deltas"] == [60, -10, -10, -20]
    assert res[1].error.field == "args"


def test_shisanshui_arrange_converter(monkeypatch, calls):
    from handeval import shisanshui

    @dataclass(frozen=True)
    class Arr(Result):
        front: List[str]
        middle: List[str]
        back: List[str]
        expected: float
        special: Optional[str] = None
        declare_special: bool = False
        alternatives: list = field(default_factory=list)

    def arrange_one(cards, opponents=3, top_k=1, seed=0, rules=None):
        cs = cards.split()
        if len(cs) != 13:
            fail("cards", f"expected 13 cards, got {len(cs)}")
        a = Arr(cs[:3], cs[3:8], cs[8:], 1.5, "liu_dui_ban", True)
        return Arr(a.front, a.middle, a.back, a.expected, a.special, a.declare_special, [a] * top_k)

    def arrange_many(hands, **kw):
        calls.append(("many", len(hands), kw))
        return [arrange_one(h, **kw) for h in hands]

    def best_response(cards, opponents, rules=None):
        calls.append(("best", cards, opponents))
        return Arr(["As"], ["Ks"], ["Qs"], -2.0)

    monkeypatch.setattr(shisanshui, "arrange", arrange_one, raising=False)
    monkeypatch.setattr(shisanshui, "arrange_many", arrange_many, raising=False)
    monkeypatch.setattr(shisanshui, "best_response", best_response, raising=False)
    hand = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    opp = ssw.ShisanshuiArrangement(front="2h 3h 4h", middle="5h 6h 7h 8h 9h", back="Th Jh Qh Kh Ah")
    req = ssw.ShisanshuiArrangeRequest(top_k=2, seed=9, items=[
        ssw.ShisanshuiArrangeItem(hand=hand), ssw.ShisanshuiArrangeItem(best_response=ssw.ShisanshuiBestResponseItem(cards=hand, opponents=[opp])),
        ssw.ShisanshuiArrangeItem(hand="As Ks"), ssw.ShisanshuiArrangeItem(hand=hand), ssw.ShisanshuiArrangeItem()])
    batch = common.Batch(None)
    res = ssw_conv.arrange(req, batch).results
    assert [r.WhichOneof("result") for r in res] == ["answer", "answer", "error", "answer", "error"]
    assert calls[0] == ("many", 3, {"top_k": 2, "seed": 9})  # then one by one after the bad hand
    a = res[0].answer
    assert (list(a.best.front), a.best.expected, a.special, a.declare_special, len(a.alternatives)) == (
        hand.split()[:3], 1.5, "liu_dui_ban", True, 2)
    assert ("best", hand, [{"front": opp.front, "middle": opp.middle, "back": opp.back}]) in calls
    assert res[1].answer.best.expected == -2.0 and not res[1].answer.HasField("special")
    assert "13" in res[2].error.message and batch.item_errors == 2


def test_deadline_stops_a_batch():
    batch = common.Batch(deadline=0.0)  # long past
    with pytest.raises(common.DeadlineExceeded):
        ssw_conv.evaluate(ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row="As Ks Qs")]), batch)


class _AbortContext:
    """Enough of grpc.aio.ServicerContext for HandevalService._call."""

    def __init__(self):
        self.aborted = None

    def time_remaining(self):
        return None

    def peer(self):
        return "test"

    async def abort(self, code, details="", trailing_metadata=()):
        self.aborted = (code, details, trailing_metadata)
        raise RuntimeError("aborted")


def test_internal_fault_is_internal_without_details(monkeypatch, caplog):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import grpc

    from handeval.server import service
    from handeval.server.config import ServerConfig
    from handeval.v1 import handeval_pb2 as pb

    def broken(req, batch):
        raise KeyError("secret internal detail")

    monkeypatch.setattr(ssw_conv, "evaluate", broken)
    ctx = _AbortContext()
    with ThreadPoolExecutor(1) as ex:
        svc = service.HandevalService(ServerConfig(), ex)
        req = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[ssw.ShisanshuiEvaluateItem(row="As Ks Qs")]))
        with pytest.raises(RuntimeError, match="aborted"):
            asyncio.run(svc.Evaluate(req, ctx))
    code, details, _ = ctx.aborted
    assert code == grpc.StatusCode.INTERNAL
    assert "secret" not in details and "incident" in details
    assert "secret internal detail" in caplog.text  # logged on the server


def test_serve_settings_from_environment_and_flags(monkeypatch, tmp_path):
    from handeval.cli import _build_parser
    from handeval.server.config import ServerConfig, config_from_args

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

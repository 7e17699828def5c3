"""越式13张 requests ↔ handeval.tienlen (RULES.md section 2), per the contract of
API.md: ``classify``, ``instant_win``, ``legal_plays``, ``beats``, ``settle``,
``settle_instant``, ``chop_transfers``. A function this build lacks → UNIMPLEMENTED.
"""

from __future__ import annotations

from handeval.errors import fail
from handeval.server.common import Batch, api, cards_of, carried_from, rules_from, to_struct, with_rules
from handeval.v1 import tienlen_pb2 as pb

GAME = "tienlen"


def _rules(req):
    def probe(rules):
        api(GAME, "beats")("4s", "3s", rules=rules)

    return rules_from(req.rules, GAME, "tienlen.rules", probe)


def _play(p, classify=None) -> pb.TienlenPlay:
    kind = getattr(p, "kind", None)
    if kind is None and classify is not None:
        kind = classify(cards_of(p)).kind
    return pb.TienlenPlay(kind=kind or "", cards=cards_of(p))


def _instant_id(x):
    if x is None or isinstance(x, str):
        return x
    return getattr(x, "id", None) or getattr(x, "kind", None)


def evaluate(req: pb.TienlenEvaluateRequest, batch: Batch) -> pb.TienlenEvaluateResponse:
    rules = _rules(req)
    kinds = {item.WhichOneof("item") for item in req.items}
    classify = api(GAME, "classify") if kinds & {"play", "legal_plays"} else None
    instant_win = api(GAME, "instant_win") if "hand" in kinds else None
    legal_plays = api(GAME, "legal_plays") if "legal_plays" in kinds else None

    def one(item):
        kind = item.WhichOneof("item")
        if kind == "play":
            return {"play": _play(classify(item.play, **with_rules(classify, rules)))}
        if kind == "hand":
            return {"hand": pb.TienlenInstantWin(instant_win=_instant_id(instant_win(item.hand, **with_rules(instant_win, rules))))}
        if kind == "legal_plays":
            q = item.legal_plays
            table = q.table if q.HasField("table") else None
            plays = legal_plays(q.hand, table=table, passed=q.passed, **with_rules(legal_plays, rules))
            return {"legal_plays": pb.TienlenPlays(plays=[_play(p, classify) for p in plays])}
        fail("item", "set one of play, hand, legal_plays")

    return pb.TienlenEvaluateResponse(results=batch.each(req.items, one, pb.TienlenEvaluateResult))


def compare(req: pb.TienlenCompareRequest, batch: Batch) -> pb.TienlenCompareResponse:
    rules = _rules(req)
    beats = api(GAME, "beats")

    def one(item):
        return {"beats": bool(beats(item.play, item.table, **with_rules(beats, rules)))}

    return pb.TienlenCompareResponse(results=batch.each(req.items, one, pb.TienlenCompareResult))


def _round(r):
    return [[t.seat, t.play] for t in r.turns]


def _transfer(t) -> pb.TienlenTransfer:
    get = t.get if isinstance(t, dict) else (lambda k: getattr(t, {"from": "from_seat", "to": "to_seat"}.get(k, k), None))
    return pb.TienlenTransfer(from_seat=get("from"), to_seat=get("to"), amount=get("amount"))


def settlement_msg(s) -> pb.TienlenSettlement:
    return pb.TienlenSettlement(
        deltas=list(s.deltas), rake=int(getattr(s, "rake", 0) or 0),
        lines=[to_struct(line) for line in (getattr(s, "lines", None) or [])],
    )


def settle(req: pb.TienlenSettleRequest, batch: Batch) -> pb.TienlenSettleResponse:
    rules = _rules(req)
    kinds = {d.WhichOneof("deal") for d in req.deals}
    fns = {
        name: api(GAME, fn)
        for name, fn in (("game", "settle"), ("instant", "settle_instant"), ("chop_round", "chop_transfers"))
        if name in kinds
    }

    def one(deal):
        kind = deal.WhichOneof("deal")
        base = deal.base if deal.HasField("base") else 1
        carried = carried_from(deal.carried)
        if kind == "game":
            g, fn = deal.game, fns["game"]
            kw = {"carried": carried, **with_rules(fn, rules)}
            if g.played_any:
                kw["played_any"] = list(g.played_any)
            if g.chops:
                kw["chops"] = [_round(r) for r in g.chops]
            return {"settlement": settlement_msg(fn(list(g.remaining), g.winner, base, **kw))}
        if kind == "instant":
            fn = fns["instant"]
            return {"settlement": settlement_msg(fn(list(deal.instant.hands), base, carried=carried, **with_rules(fn, rules)))}
        if kind == "chop_round":
            transfers = fns["chop_round"](_round(deal.chop_round), base)
            return {"settlement": pb.TienlenSettlement(transfers=[_transfer(t) for t in transfers])}
        fail("deal", "set one of game, instant, chop_round")

    return pb.TienlenSettleResponse(results=batch.each(req.deals, one, pb.TienlenSettleResult))

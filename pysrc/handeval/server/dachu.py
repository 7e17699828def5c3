"""打儲 requests ↔ handeval.dachu (RULES.md section 3), per the contract of API.md:
``classify(cards, chu)``, ``beats(play, table, chu)``, ``legal_plays(hand, table, chu)``,
``settle(**args)``. A function this build lacks → UNIMPLEMENTED.
"""

from __future__ import annotations

from handeval.errors import fail
from handeval.server.common import (
    BadRequest, Batch, api, cards_of, from_struct, rules_from, to_struct, with_rules,
)
from handeval.v1 import dachu_pb2 as pb

GAME = "dachu"
CHU = ("red", "black")


def _rules(req):
    return rules_from(req.rules, GAME, "dachu.rules")


def _chu(req) -> str:
    if req.chu not in CHU:
        raise BadRequest("dachu.chu", f"{req.chu!r} is not one of \"red\", \"black\"")
    return req.chu


def _play(p, classify, chu) -> pb.DachuPlay:
    kind = getattr(p, "kind", None)
    if kind is None:
        kind = classify(cards_of(p), chu).kind
    return pb.DachuPlay(kind=kind, cards=cards_of(p))


def evaluate(req: pb.DachuEvaluateRequest, batch: Batch) -> pb.DachuEvaluateResponse:
    chu, rules = _chu(req), _rules(req)
    kinds = {item.WhichOneof("item") for item in req.items}
    classify = api(GAME, "classify")
    legal_plays = api(GAME, "legal_plays") if "legal_plays" in kinds else None

    def one(item):
        kind = item.WhichOneof("item")
        if kind == "play":
            return {"play": _play(classify(item.play, chu, **with_rules(classify, rules)), classify, chu)}
        if kind == "legal_plays":
            q = item.legal_plays
            table = q.table if q.HasField("table") else None
            plays = legal_plays(q.hand, table, chu, **with_rules(legal_plays, rules))
            return {"legal_plays": pb.DachuPlays(plays=[_play(p, classify, chu) for p in plays])}
        fail("item", "set one of play, legal_plays")

    return pb.DachuEvaluateResponse(results=batch.each(req.items, one, pb.DachuEvaluateResult))


def compare(req: pb.DachuCompareRequest, batch: Batch) -> pb.DachuCompareResponse:
    chu, rules = _chu(req), _rules(req)
    beats = api(GAME, "beats")

    def one(item):
        return {"beats": bool(beats(item.play, item.table, chu, **with_rules(beats, rules)))}

    return pb.DachuCompareResponse(results=batch.each(req.items, one, pb.DachuCompareResult))


def settlement_msg(s) -> pb.DachuSettlement:
    return pb.DachuSettlement(
        deltas=list(getattr(s, "deltas", []) or []), rake=int(getattr(s, "rake", 0) or 0),
        lines=[to_struct(line) for line in (getattr(s, "lines", None) or [])],
        detail=to_struct(s),
    )


def settle(req: pb.DachuSettleRequest, batch: Batch) -> pb.DachuSettleResponse:
    rules = _rules(req)
    settle_fn = api(GAME, "settle")

    def one(deal):
        kw = from_struct(deal.args)
        kw.update(with_rules(settle_fn, rules))
        try:
            return {"settlement": settlement_msg(settle_fn(**kw))}
        except TypeError as e:  # an unknown or missing keyword: the item's fault
            fail("args", str(e))

    return pb.DachuSettleResponse(results=batch.each(req.deals, one, pb.DachuSettleResult))

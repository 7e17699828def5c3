"""打儲 requests ↔ handeval.dachu (docs/rules.md §3): plays, legal and timeout plays,
the deal's declarations and the calling (the game flow, stateless: the client sends the
actions so far and gets the state), beating, and settlement."""

from __future__ import annotations

from handeval import dachu as api
from handeval.errors import HandevalError
from handeval.server.common import BadRequest, Batch, ItemFailed, at, carried_from, echo, opt, rename, rules_from
from handeval.v1 import common_pb2, dachu_pb2 as pb

CHU = ("red", "black")
#: Evaluate items that need the request's 儲 colour.
NEEDS_CHU = ("play", "legal_plays", "timeout_play")


def _rules(req):
    return rules_from(req, api.Rules, "dachu.rules")


def _chu(req) -> str:
    if req.chu not in CHU:
        raise BadRequest("dachu.chu", f"{echo(req.chu)} is not one of \"red\", \"black\"")
    return req.chu


def _play(m: pb.DachuPlay, p) -> None:
    """Write the play ``p`` into ``m`` in place."""
    m.kind = p.kind
    m.cards.extend(p.cards)


# ---- the deal and the calling ----

def _deal_action(a) -> tuple:
    """A DachuDealAction → the Python API's action tuple."""
    if a.kind in ("deal", "finish"):
        return (a.kind,)
    if a.kind == "cheng_chu":
        return (a.kind, a.seat, a.colour) if a.colour else (a.kind, a.seat)
    return (a.kind, a.seat, a.cards)


def _deal_action_msg(t) -> pb.DachuDealAction:
    kind, rest = t[0], t[1:]
    if kind == "cheng_chu":
        return pb.DachuDealAction(kind=kind, seat=rest[0], colour=rest[1] if len(rest) > 1 else "")
    if kind in ("meng_xuan", "meng_chuai"):
        cards = rest[1]
        return pb.DachuDealAction(kind=kind, seat=rest[0], cards=cards if isinstance(cards, str) else " ".join(cards))
    return pb.DachuDealAction(kind=kind)


def _apply(state, actions, to_tuple, path: str):
    """Apply the actions in order; an illegal one is an ItemFailed naming it."""
    for k, a in enumerate(actions):
        try:
            state = state.apply(to_tuple(a))
        except HandevalError as e:
            raise rename(e, {"action": ""}, f"{path}[{k}]") from None
    return state


def _deal(q, rules, path: str):
    try:
        d = api.Deal(list(q.hands), q.first_seat, rules=rules)
    except HandevalError as e:
        raise rename(e, {}, path) from None
    return _apply(d, q.actions, _deal_action, f"{path}.actions")


def _cards_or_empty(x) -> common_pb2.Cards:
    return common_pb2.Cards(cards=x or ())


def _deal_msg(d) -> pb.DachuDealState:
    return pb.DachuDealState(
        dealt=d.dealt, finished=d.finished, chu=d.chu, chu_source=d.chu_source, chu_side=d.chu_side or (),
        teams=d.teams, multiplier=d.multiplier, declared=d.declared,
        legal_actions=[_deal_action_msg(a) for a in d.legal_actions], first_leader=d.first_leader,
        last_card=d.last_card, held=[common_pb2.Cards(cards=h) for h in d.held],
        meng_xuan=[x or "" for x in d.meng_xuan], meng_chuai=[_cards_or_empty(x) for x in d.meng_chuai],
        cheng_chu=d.cheng_chu,
    )


def _calling(q, rules, path: str):
    origin = q.WhichOneof("origin")
    start_seat, first_side = opt(q, "start_seat"), opt(q, "first_side")
    try:
        if origin == "deal":
            c = _deal(q.deal, rules, f"{path}.deal").calling(start_seat, first_side)
        elif origin == "start":
            s = q.start
            c = api.Calling(list(s.chu_side), s.declared, opt(s, "multiplier", 1), start_seat or 0, first_side,
                            rules=rules)
        else:
            raise ItemFailed(path, "set deal or start")
    except HandevalError as e:
        raise rename(e, {"chu_side": "start.chu_side", "multiplier": "start.multiplier"}, path) from None
    return _apply(c, q.calls, lambda a: (a.call, a.seat), f"{path}.calls")


def _calling_msg(c) -> pb.DachuCallingState:
    return pb.DachuCallingState(
        turn=c.turn, legal_actions=[pb.DachuCall(call=call, seat=seat) for call, seat in c.legal_actions],
        multiplier=c.multiplier, over=c.over, phase=c.phase, calling_side=c.calling_side, outcome=c.outcome,
        chu_side=c.chu_side, surrendered=c.surrendered, bei_bao_da=c.bei_bao_da, playing=c.playing,
        surrendered_side=c.surrendered_side,
    )


# ---- Evaluate ----

def evaluate(req: pb.DachuEvaluateRequest, batch: Batch) -> pb.DachuEvaluateResponse:
    rules = _rules(req)
    chu = _chu(req) if any(item.WhichOneof("item") in NEEDS_CHU for item in req.items) else None
    resp = pb.DachuEvaluateResponse()

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "play":
            _play(out.play, at("play", api.classify, item.play, chu, rules=rules))
        elif kind == "legal_plays":
            q = item.legal_plays
            try:
                plays = api.legal_plays(q.hand, opt(q, "table"), chu, first_lead=q.first_lead,
                                        surrendered=q.surrendered, shown_triple=opt(q, "shown_triple"), rules=rules)
            except HandevalError as e:
                raise rename(e, {}, "legal_plays") from None
            out.legal_plays.SetInParent()  # also when there is no legal play
            for p in plays:
                _play(out.legal_plays.plays.add(), p)
        elif kind == "timeout_play":
            q = item.timeout_play
            try:
                cards = api.timeout_play(q.hand, opt(q, "table"), chu, first_lead=q.first_lead,
                                         shown_triple=opt(q, "shown_triple"), rules=rules)
            except HandevalError as e:
                raise rename(e, {}, "timeout_play") from None
            out.timeout_play.SetInParent()
            out.timeout_play.passes = cards is None
            out.timeout_play.cards.extend(cards or ())
        elif kind == "deal":
            out.deal.CopyFrom(_deal_msg(_deal(item.deal, rules, "deal")))
        elif kind == "calling":
            out.calling.CopyFrom(_calling_msg(_calling(item.calling, rules, "calling")))
        else:
            raise ItemFailed("", "set one of play, legal_plays, timeout_play, deal, calling")

    batch.each(req.items, one, resp.results)
    return resp


def compare(req: pb.DachuCompareRequest, batch: Batch) -> pb.DachuCompareResponse:
    chu, rules = _chu(req), _rules(req)
    resp = pb.DachuCompareResponse()

    def one(item, out):  # a HandevalError becomes this item's error in Batch.one
        out.beats = api.beats(item.play, item.table, chu, rules=rules)

    batch.each(req.items, one, resp.results)
    return resp


# ---- Settle ----

def fill_settlement(x: pb.DachuSettlement, s) -> None:
    """Write the settlement ``s`` into ``x`` in place."""
    x.deltas.extend(s.deltas)
    for line in s.lines:
        x.lines.add(item=line.item, seat=line.seat, amount=line.amount, note=line.note)
    if s.verdict is not None:
        x.verdict = s.verdict
    x.wipe_out = s.wipe_out
    x.result_multiplier = s.result_multiplier
    x.theoretical.extend(s.theoretical)


def settle(req: pb.DachuSettleRequest, batch: Batch) -> pb.DachuSettleResponse:
    rules = _rules(req)
    resp = pb.DachuSettleResponse()

    def one(deal, out):
        kw = dict(places=list(deal.places) or None, base=opt(deal, "base", 1), escaped=list(deal.escaped),
                  carried=carried_from(deal.carried), rules=rules)
        if deal.HasField("calling"):
            chu_side = _calling(deal.calling, rules, "calling")
        else:
            chu_side = list(deal.chu_side)
            kw.update(multiplier=opt(deal, "multiplier"), surrendered=list(deal.surrendered),
                      bei_bao_da=list(deal.bei_bao_da))
        try:
            s = api.settle(chu_side, **kw)
        except HandevalError as e:
            raise rename(e, {"chu_side": "calling" if deal.HasField("calling") else "chu_side"}) from None
        fill_settlement(out.settlement, s)

    batch.each(req.deals, one, resp.results, "deals")
    return resp

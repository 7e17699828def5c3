"""越式13张 requests ↔ handeval.tienlen (RULES.md section 2): plays, instant wins,
legal plays, the first leader and a round's state (the game flow, stateless: the client
sends the round's history), beating, and settlement."""

from __future__ import annotations

from handeval import tienlen as api
from handeval.errors import HandevalError
from handeval.server.common import Batch, ItemFailed, at, carried_from, opt, rename, rules_from
from handeval.v1 import tienlen_pb2 as pb


def _rules(req):
    return rules_from(req.rules, api.Rules, "tienlen.rules")


def _play(p) -> pb.TienlenPlay:
    return pb.TienlenPlay(kind=p.kind, cards=p.cards)


def _round(turns):
    return [[t.seat, t.play] for t in turns]


def _transfers(transfers):
    return [pb.TienlenTransfer(from_seat=t["from"], to_seat=t["to"], amount=t["amount"]) for t in transfers]


def _round_state(q, rules) -> pb.TienlenRoundState:
    turns = _round(q.turns)
    players = q.players or 4
    leader = opt(q, "leader")
    first = at("round_state.hands", api.first_leader, list(q.hands), rules=rules) if q.hands else None
    # The API names the round "round" (round[2] = its third action): here it is `turns`.
    renames = {"round": "turns", "first_lead": "hands"}
    try:
        s = api.round_state(turns, players=players, leader=leader, first_lead=first)
        check = None
        if q.HasField("check"):
            reason = api.check_action(turns, q.check.seat, q.check.play, players=players, leader=leader,
                                      first_lead=first)
            check = pb.TienlenCheck(allowed=reason is None, reason=reason or "")
        transfers = api.chop_transfers(turns, opt(q, "base", 1), players=players, leader=s.leader)
    except HandevalError as e:
        raise rename(e, {**renames, "seat": "check.seat", "action": "check.play"}, "round_state") from None
    return pb.TienlenRoundState(
        plays=[pb.TienlenSeatPlay(seat=seat, play=_play(p)) for seat, p in s.plays], passed=s.passed,
        to_move=s.to_move, over=s.over, next_leader=s.next_leader, leader=s.leader,
        transfers=_transfers(transfers), check=check,
    )


def evaluate(req: pb.TienlenEvaluateRequest, batch: Batch) -> pb.TienlenEvaluateResponse:
    rules = _rules(req)
    Result = pb.TienlenEvaluateResult

    def one(item):
        kind = item.WhichOneof("item")
        if kind == "play":
            return Result(play=_play(at("play", api.classify, item.play)))
        if kind == "hand":
            return Result(hand=pb.TienlenInstantWin(instant_win=at("hand", api.instant_win, item.hand)))
        if kind == "legal_plays":
            q = item.legal_plays
            try:
                plays = api.legal_plays(q.hand, table=opt(q, "table"), passed=q.passed)
            except HandevalError as e:
                raise rename(e, {"cards": "hand"}, "legal_plays") from None
            return Result(legal_plays=pb.TienlenPlays(plays=[_play(p) for p in plays]))
        if kind == "first_leader":
            f = at("first_leader.hands", api.first_leader, list(item.first_leader.hands), rules=rules)
            return Result(first_leader=pb.TienlenFirstLead(seat=f.seat, card=f.card, must_contain=f.must_contain))
        if kind == "round_state":
            return Result(round_state=_round_state(item.round_state, rules))
        raise ItemFailed("", "set one of play, hand, legal_plays, first_leader, round_state")

    return pb.TienlenEvaluateResponse(results=batch.each(req.items, one, Result))


def compare(req: pb.TienlenCompareRequest, batch: Batch) -> pb.TienlenCompareResponse:
    rules = _rules(req)
    Result = pb.TienlenCompareResult

    def one(item):
        try:
            return Result(beats=api.beats(item.play, item.table, rules=rules))
        except HandevalError as e:
            raise rename(e, {}) from None

    return pb.TienlenCompareResponse(results=batch.each(req.items, one, Result))


def _line(x) -> pb.TienlenLine:
    return pb.TienlenLine(kind=x.kind, seat=x.seat, other=x.other, multiplier=x.multiplier, amount=x.amount,
                          cards=x.cards, text=x.text)


def settlement_msg(s) -> pb.TienlenSettlement:
    return pb.TienlenSettlement(
        deltas=s.deltas, rake=s.rake, lines=[_line(x) for x in s.lines], winner=s.winner, pays=s.pays,
        chops=s.chops, theoretical=s.theoretical, capped=s.capped, instant=[x or "" for x in s.instant],
    )


def settle(req: pb.TienlenSettleRequest, batch: Batch) -> pb.TienlenSettleResponse:
    rules = _rules(req)
    Result = pb.TienlenSettleResult

    def one(deal):
        kind = deal.WhichOneof("deal")
        base = opt(deal, "base", 1)
        carried = carried_from(deal.carried)
        try:
            if kind == "game":
                g = deal.game
                s = api.settle(list(g.remaining), g.winner, base, played_any=list(g.played_any) or None,
                               chops=[_round(r.turns) for r in g.chops], carried=carried, rules=rules)
                return Result(settlement=settlement_msg(s))
            if kind == "instant":
                s = api.settle_instant(list(deal.instant.hands), base, carried=carried, rules=rules)
                return Result(settlement=settlement_msg(s))
            if kind == "chop_round":
                transfers = api.chop_transfers(_round(deal.chop_round.turns), base)
                return Result(settlement=pb.TienlenSettlement(transfers=_transfers(transfers)))
        except HandevalError as e:
            renames = {"round": "chop_round.turns", "hands13": "instant.hands", "remaining": "game.remaining",
                       "winner": "game.winner", "played_any": "game.played_any", "chops": "game.chops"}
            raise rename(e, renames) from None
        raise ItemFailed("", "set one of game, instant, chop_round")

    return pb.TienlenSettleResponse(results=batch.each(req.deals, one, Result, "deals"))

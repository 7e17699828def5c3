"""越式13张 requests ↔ handeval.tienlen (docs/rules.md §2): plays, instant wins,
legal plays, the first leader and a round's state (the game flow, stateless: the client
sends the round's history), beating, and settlement."""

from __future__ import annotations

from handeval import tienlen as api
from handeval.errors import HandevalError
from handeval.server.common import Batch, ItemFailed, at, carried_from, opt, rename, rules_from
from handeval.v1 import tienlen_pb2 as pb


def _rules(req):
    return rules_from(req, api.Rules, "tienlen.rules")


def _play(m: pb.TienlenPlay, p) -> None:
    """Write the play ``p`` into ``m`` in place."""
    m.kind = p.kind
    m.cards.extend(p.cards)


def _round(turns):
    return [[t.seat, t.play] for t in turns]


def _transfers(out, transfers) -> None:
    for t in transfers:
        out.add(from_seat=t["from"], to_seat=t["to"], amount=t["amount"])


def _round_state(m: pb.TienlenRoundState, q, rules) -> None:
    turns = _round(q.turns)
    players = q.players or 4
    leader = opt(q, "leader")
    first = at("round_state.hands", api.first_leader, list(q.hands), rules=rules) if q.hands else None
    # The API names the round "round" (round[2] = its third action): here it is `turns`.
    renames = {"round": "turns", "first_lead": "hands"}
    try:
        s = api.round_state(turns, players=players, leader=leader, first_lead=first, rules=rules)
        check = None
        if q.HasField("check"):
            reason = api.check_action(turns, q.check.seat, q.check.play, players=players, leader=leader,
                                      first_lead=first, rules=rules)
            check = pb.TienlenCheck(allowed=reason is None, reason=reason or "")
        transfers = api.chop_transfers(turns, opt(q, "base", 1), players=players, leader=s.leader, rules=rules)
    except HandevalError as e:
        raise rename(e, {**renames, "seat": "check.seat", "action": "check.play"}, "round_state") from None
    m.SetInParent()  # set even when every field is at its default
    m.MergeFrom(pb.TienlenRoundState(passed=s.passed, to_move=s.to_move, over=s.over, next_leader=s.next_leader,
                                     leader=s.leader, check=check))
    for seat, p in s.plays:
        _play(m.plays.add(seat=seat).play, p)
    _transfers(m.transfers, transfers)


def evaluate(req: pb.TienlenEvaluateRequest, batch: Batch) -> pb.TienlenEvaluateResponse:
    rules = _rules(req)
    resp = pb.TienlenEvaluateResponse()

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "play":
            _play(out.play, at("play", api.classify, item.play))
        elif kind == "hand":
            win = at("hand", api.instant_win, item.hand)
            out.hand.SetInParent()
            if win is not None:  # unset = no instant win
                out.hand.instant_win = win
        elif kind == "legal_plays":
            q = item.legal_plays
            try:
                plays = api.legal_plays(q.hand, table=opt(q, "table"), passed=q.passed)
            except HandevalError as e:
                raise rename(e, {"cards": "hand"}, "legal_plays") from None
            out.legal_plays.SetInParent()  # also when there is no legal play
            for p in plays:
                _play(out.legal_plays.plays.add(), p)
        elif kind == "first_leader":
            f = at("first_leader.hands", api.first_leader, list(item.first_leader.hands), rules=rules)
            x = out.first_leader
            x.seat, x.card, x.must_contain = f.seat, f.card, f.must_contain
        elif kind == "round_state":
            _round_state(out.round_state, item.round_state, rules)
        else:
            raise ItemFailed("", "set one of play, hand, legal_plays, first_leader, round_state")

    batch.each(req.items, one, resp.results)
    return resp


def compare(req: pb.TienlenCompareRequest, batch: Batch) -> pb.TienlenCompareResponse:
    rules = _rules(req)
    resp = pb.TienlenCompareResponse()

    def one(item, out):  # a HandevalError becomes this item's error in Batch.one
        out.beats = api.beats(item.play, item.table, rules=rules)

    batch.each(req.items, one, resp.results)
    return resp


def fill_settlement(x: pb.TienlenSettlement, s) -> None:
    """Write the settlement ``s`` into ``x`` in place."""
    x.deltas.extend(s.deltas)
    x.rake = s.rake
    for line in s.lines:
        x.lines.add(kind=line.kind, seat=line.seat, other=line.other, multiplier=line.multiplier,
                    amount=line.amount, cards=line.cards, text=line.text)
    x.winner = s.winner
    x.pays.extend(s.pays)
    x.chops.extend(s.chops)
    x.theoretical.extend(s.theoretical)
    x.capped.extend(s.capped)
    x.instant.extend([w or "" for w in s.instant])


def settle(req: pb.TienlenSettleRequest, batch: Batch) -> pb.TienlenSettleResponse:
    rules = _rules(req)
    resp = pb.TienlenSettleResponse()

    def one(deal, out):
        kind = deal.WhichOneof("deal")
        base = opt(deal, "base", 1)
        carried = carried_from(deal.carried)
        try:
            if kind == "game":
                g = deal.game
                s = api.settle(list(g.remaining), g.winner, base, played_any=list(g.played_any) or None,
                               chops=[_round(r.turns) for r in g.chops], carried=carried, rules=rules)
            elif kind == "instant":
                s = api.settle_instant(list(deal.instant.hands), base, carried=carried, rules=rules)
            elif kind == "chop_round":
                out.settlement.SetInParent()
                _transfers(out.settlement.transfers, api.chop_transfers(_round(deal.chop_round.turns), base, rules=rules))
                return
            else:
                raise ItemFailed("", "set one of game, instant, chop_round")
        except HandevalError as e:
            renames = {"round": "chop_round.turns", "hands13": "instant.hands", "remaining": "game.remaining",
                       "winner": "game.winner", "played_any": "game.played_any", "chops": "game.chops"}
            raise rename(e, renames) from None
        fill_settlement(out.settlement, s)

    batch.each(req.deals, one, resp.results, "deals")
    return resp

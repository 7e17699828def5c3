"""越式13张 requests ↔ handeval.tienlen (docs/rules.md §2): plays, instant wins,
legal plays, the first leader, a round's state, a whole game record's state (the game
flow, stateless: the client sends the record), beating, and settlement."""

from __future__ import annotations

from handeval import tienlen as api
from handeval.errors import HandevalError
from handeval.server.common import (
    BadRequest, Batch, ItemFailed, at, cards, carried_from, enum_value, join, opt, rename, rules_from,
)
from handeval.v2 import common_pb2, tienlen_pb2 as pb

#: Seats of a game, and the plays a record can hold: 52 cards, a play has at least one.
MAX_SEATS = 4
MAX_PLAYS = 52
#: Actions a record can hold: each play followed by at most (seats - 1) passes.
MAX_ACTIONS = MAX_PLAYS * MAX_SEATS
#: Rounds an outcome's chop list can hold: each round holds a play.
MAX_CHOP_ROUNDS = MAX_PLAYS

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS
KIND = {name: enum_value(pb.TienlenPlayKind, name) for name in api.KINDS}


def _rules(req):
    return rules_from(req, api.Rules, "tienlen.rules")


def check_limits(rpc: str, req) -> None:
    """Records longer than 52 cards allow fail the request (reason too_large) before any
    work: a game record's actions, a round's actions, an outcome's chop rounds."""
    def over(field: str, n: int, limit: int, what: str):
        if n > limit:
            raise BadRequest(f"tienlen.{field}", f"{n} {what} exceed the {limit} that 52 cards allow", "too_large")

    if rpc == "Evaluate":
        for i, item in enumerate(req.items):
            kind = item.WhichOneof("item")
            if kind == "game":
                over(f"items[{i}].game.actions", len(item.game.actions), MAX_ACTIONS, "actions")
            elif kind == "round_state":
                over(f"items[{i}].round_state.actions", len(item.round_state.actions), MAX_ACTIONS, "actions")
    elif rpc == "Settle":
        for i, deal in enumerate(req.deals):
            kind = deal.WhichOneof("deal")
            if kind == "record":
                over(f"deals[{i}].record.actions", len(deal.record.actions), MAX_ACTIONS, "actions")
            elif kind == "chop_round":
                over(f"deals[{i}].chop_round.actions", len(deal.chop_round.actions), MAX_ACTIONS, "actions")
            elif kind == "outcome":
                o = deal.outcome
                over(f"deals[{i}].outcome.chops", len(o.chops), MAX_CHOP_ROUNDS, "chop rounds")
                over(f"deals[{i}].outcome.chops", sum(len(r.actions) for r in o.chops), MAX_ACTIONS, "actions")


def _play(m: pb.TienlenPlay, p) -> None:
    """Write the play ``p`` into ``m`` in place."""
    m.kind = KIND[p.kind]
    m.cards.cards.extend(p.cards)


def _action(a, field: str):
    """A PlayAction → the Python API's ``(seat, cards | "pass")``; a pass with cards, or
    a kind 越式13张 has not, is refused naming the field."""
    if a.kind == PLAY:
        return (a.seat, cards(a.cards))
    if a.kind == PASS:
        if a.cards.cards:
            raise ItemFailed(f"{field}.cards", "a pass holds no cards", "inconsistent")
        return (a.seat, "pass")
    raise ItemFailed(f"{field}.kind", "set ACTION_KIND_PLAY or ACTION_KIND_PASS (越式13张 has no timeout action)")


def _actions(actions, field: str) -> list:
    return [_action(a, f"{field}[{k}]") for k, a in enumerate(actions)]


def _transfers(out, transfers) -> None:
    for t in transfers:
        out.add(from_seat=t["from"], to_seat=t["to"], amount=t["amount"])


def _hands(hands, field: str, players=None) -> list:
    if players is not None and len(hands) != players:
        raise ItemFailed(field, f"{len(hands)} hands for {players} players: send one per seat", "wrong_count")
    return [cards(h) for h in hands]


def _round_state(m: pb.TienlenRoundState, q, rules) -> None:
    turns = _actions(q.actions, "round_state.actions")
    players = q.players or (len(q.hands) or 4)
    leader = opt(q, "leader")
    first = None
    if q.hands:
        first = at("round_state.hands", api.first_leader, _hands(q.hands, "round_state.hands", players), rules=rules)
    # The API names the round "round" (round[2] = its third action): here it is `actions`.
    renames = {"round": "round_state.actions", "first_lead": "round_state.hands"}
    try:
        s = api.round_state(turns, players=players, leader=leader, first_lead=first, rules=rules)
        check = None
        if q.HasField("check"):
            seat, action = _action(q.check, "round_state.check")
            reason = api.check_action(turns, seat, action, players=players, leader=leader, first_lead=first, rules=rules)
            check = pb.TienlenCheck(allowed=reason is None)
            if reason is not None:
                check.reason = common_pb2.ERROR_REASON_ILLEGAL_ACTION
                check.message = reason
        transfers = api.chop_transfers(turns, opt(q, "base", 1), players=players, leader=s.leader, rules=rules)
    except HandevalError as e:
        raise rename(e, {**renames, "seat": "round_state.check.seat", "action": "round_state.check"}) from None
    m.SetInParent()  # set even when every field is at its default
    m.MergeFrom(pb.TienlenRoundState(passed=s.passed, to_move=s.to_move, over=s.over, next_leader=s.next_leader,
                                     leader=s.leader, check=check))
    for seat, p in s.plays:
        _play(m.plays.add(seat=seat).play, p)
    _transfers(m.transfers, transfers)


# ---- game records ----

def replay(record, rules, field: str):
    """Replay a TienlenGameRecord action by action → (the Game, its tricks as
    ``[leader, first, last, over, won_by]``). An action the record does not allow is an
    ItemFailed at ``field.actions[k]…`` with the engine's reason. Tricks are
    ``[round, leader, first, last, over, won_by]``."""
    try:
        g = api.Game(_hands(record.hands, f"{field}.hands"), rules=rules)
    except HandevalError as e:
        raise rename(e, {"hands": f"{field}.hands"}) from None
    tricks: list = []
    for k, a in enumerate(record.actions):
        path = f"{field}.actions[{k}]"
        action = _action(a, path)
        round_before, leader = g.round, g.leader
        try:
            g = g.apply(action)
        except HandevalError as e:
            # apply names the action "action" (action.cards…): here actions[k]
            raise rename(e, {"action": path}, "" if (e.field or "").startswith("action") else path) from None
        if not tricks or round_before != tricks[-1][0]:
            tricks.append([round_before, leader, k, k, False, None])
        tricks[-1][3] = k
        if g.round != round_before:  # the trick ended with this action: its last player leads next
            tricks[-1][4] = True
            tricks[-1][5] = g.leader
    return g, tricks


def _game_state(m: pb.TienlenGameState, record, rules) -> None:
    g, tricks = replay(record, rules, "game")
    base = opt(record, "base", 1)
    m.SetInParent()
    m.over = g.over
    if g.winner is not None:
        m.winner = g.winner
    if g.turn is not None:
        m.to_move = g.turn
    if g.turn is not None:
        offer = m.offers.add(seat=g.turn, may_pass=g.may_pass)
        for p in g.legal_plays:
            _play(offer.plays.add(), p)
    for seat, plays in g.chop_offers:
        offer = m.offers.add(seat=seat, may_pass=False)
        for p in plays:
            _play(offer.plays.add(), p)
    if g.table is not None:
        _play(m.table, g.table)
        m.table_seat = g.table_seat
    if g.leader is not None:
        m.leader = g.leader
    m.passed.extend(g.passed)
    for h in g.held:
        m.hands.add().cards.extend(h)
    m.played_any.extend(g.played_any)
    for _, leader, first, last, over, won_by in tricks:
        t = m.tricks.add(leader=leader or 0, first_action=first, last_action=last, over=over)
        if won_by is not None:
            t.won_by = won_by
    for frm, to, value in g.chops:
        m.transfers.add(from_seat=frm, to_seat=to, amount=value * base)
    first = api.first_leader(_hands(record.hands, "game.hands"), rules=rules)
    m.first_lead.seat, m.first_lead.card, m.first_lead.must_contain = first.seat, first.card, first.must_contain
    m.instant = enum_value(pb.TienlenInstantWinKind, g.instant)
    m.round = g.round
    m.must_contain = g.must_contain or ""


def evaluate(req: pb.TienlenEvaluateRequest, batch: Batch) -> pb.TienlenEvaluateResponse:
    rules = _rules(req)
    resp = pb.TienlenEvaluateResponse()

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "play":
            _play(out.play, at("play", api.classify, cards(item.play)))
        elif kind == "hand":
            win = at("hand", api.instant_hand, cards(item.hand))
            out.hand.SetInParent()
            if win is not None:  # UNSPECIFIED = no instant win
                out.hand.kind = enum_value(pb.TienlenInstantWinKind, win.kind)
                out.hand.cards.cards.extend(win.cards)
        elif kind == "legal_plays":
            q = item.legal_plays
            table = cards(q.table) if q.HasField("table") else None
            try:
                plays = api.legal_plays(cards(q.hand), table=table, passed=q.passed)
            except HandevalError as e:
                raise rename(e, {"cards": "hand", "hand": "hand", "table": "table"}, "legal_plays") from None
            out.legal_plays.SetInParent()  # also when there is no legal play
            for p in plays:
                _play(out.legal_plays.plays.add(), p)
        elif kind == "first_leader":
            f = at("first_leader.hands", api.first_leader, _hands(item.first_leader.hands, "first_leader.hands"),
                   rules=rules)
            x = out.first_leader
            x.seat, x.card, x.must_contain = f.seat, f.card, f.must_contain
        elif kind == "round_state":
            _round_state(out.round_state, item.round_state, rules)
        elif kind == "game":
            _game_state(out.game, item.game, rules)
        else:
            raise ItemFailed("", "set one of play, hand, legal_plays, first_leader, round_state, game")

    batch.each(req.items, one, resp.results)
    return resp


def compare(req: pb.TienlenCompareRequest, batch: Batch) -> pb.TienlenCompareResponse:
    rules = _rules(req)
    resp = pb.TienlenCompareResponse()

    def one(item, out):
        try:
            out.beats = api.beats(cards(item.play), cards(item.table), rules=rules)
        except HandevalError as e:
            raise rename(e, {}) from None

    batch.each(req.items, one, resp.results)
    return resp


LINE_KIND = {v.name[len("TIENLEN_LINE_KIND_"):].lower(): v.number for v in pb.TienlenLineKind.DESCRIPTOR.values}


def fill_settlement(x: pb.TienlenSettlement, s) -> None:
    """Write the settlement ``s`` into ``x`` in place."""
    x.deltas.extend(s.deltas)
    x.rake = s.rake
    for line in s.lines:
        m = x.lines.add(kind=LINE_KIND[line.kind], seat=line.seat, multiplier=line.multiplier, amount=line.amount,
                        text=line.text)
        if line.other is not None:
            m.other = line.other
        m.cards.cards.extend(line.cards)
    x.winner = s.winner
    x.pays.extend(s.pays)
    x.chops.extend(s.chops)
    x.theoretical.extend(s.theoretical)
    x.capped.extend(s.capped)
    x.instant.extend([enum_value(pb.TienlenInstantWinKind, w) for w in s.instant])


def _outcome(o, base, carried, rules):
    chops = [_actions(r.actions, f"outcome.chops[{k}].actions") for k, r in enumerate(o.chops)]
    seen = {}
    for k, r in enumerate(chops):
        key = tuple((seat, tuple(c) if isinstance(c, list) else c) for seat, c in r)
        if key in seen:
            raise ItemFailed(f"outcome.chops[{k}]", f"the same round as chops[{seen[key]}]: a round is settled once",
                             "inconsistent")
        seen[key] = k
    try:
        return api.settle([cards(r) for r in o.remaining], o.winner, base, played_any=list(o.played_any) or None,
                          chops=chops, carried=carried, rules=rules)
    except HandevalError as e:
        renames = {"remaining": "outcome.remaining", "winner": "outcome.winner", "played_any": "outcome.played_any",
                   "chops": "outcome.chops"}
        raise rename(e, renames) from None


def settle(req: pb.TienlenSettleRequest, batch: Batch) -> pb.TienlenSettleResponse:
    rules = _rules(req)
    resp = pb.TienlenSettleResponse()

    def one(deal, out):
        kind = deal.WhichOneof("deal")
        base = opt(deal, "base", 1)
        carried = carried_from(deal.carried)
        if kind == "outcome":
            s = _outcome(deal.outcome, base, carried, rules)
        elif kind == "record":
            g, _ = replay(deal.record, rules, "record")
            if deal.record.HasField("base"):  # the record's own base, unless the deal sets another
                if deal.HasField("base") and deal.base != deal.record.base:
                    raise ItemFailed("record.base", f"{deal.record.base} is not the deal's base {deal.base}",
                                     "inconsistent")
                base = deal.record.base
            if not g.over:
                raise ItemFailed("record.actions", "the game is not over: nobody has gone out", "illegal_action")
            try:
                s = g.settle(base, carried)
            except HandevalError as e:
                raise rename(e, {}) from None
        else:
            try:
                if kind == "instant":
                    s = api.settle_instant(_hands(deal.instant.hands, "instant.hands"), base, carried=carried,
                                           rules=rules)
                elif kind == "chop_round":
                    out.settlement.SetInParent()
                    _transfers(out.settlement.transfers,
                               api.chop_transfers(_actions(deal.chop_round.actions, "chop_round.actions"), base,
                                                  rules=rules))
                    return
                else:
                    raise ItemFailed("", "set one of outcome, instant, chop_round, record")
            except HandevalError as e:
                raise rename(e, {"round": "chop_round.actions", "hands13": "instant.hands"}) from None
        fill_settlement(out.settlement, s)

    batch.each(req.deals, one, resp.results, "deals")
    return resp

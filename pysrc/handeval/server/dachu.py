"""打儲 requests ↔ handeval.dachu (docs/rules.md §3): plays, legal and timeout plays,
the deal's declarations, the calling, a whole game record's state (the game flow,
stateless: the client sends the record and gets the state), beating, and settlement."""

from __future__ import annotations

from handeval import dachu as api, parse_cards
from handeval.errors import HandevalError
from handeval.server.common import (
    BadRequest, Batch, ItemFailed, cards, carried_from, enum_name, enum_value, opt, rename, required, rules_from,
)
from handeval.v2 import common_pb2, dachu_pb2 as pb

#: Bounds that follow from the game: 4 seats of 13 cards; 9 deals, each seat's 夢宣, 夢踹
#: and 撐儲, and the finish; a calling of at most 4 seats x 2 rounds x 2 (a 包踹 flow).
MAX_DEAL_ACTIONS = 9 + 4 * 3 + 1
MAX_CALLS = 16
#: Play actions a record can hold: 52 cards, each play followed by at most 3 passes.
MAX_PLAY_ACTIONS = 52 * 4

PLAY, PASS, TIMEOUT = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS, common_pb2.ACTION_KIND_TIMEOUT
KIND = {name: enum_value(pb.DachuPlayKind, name) for name in api.KINDS}
CALL = {name: enum_value(pb.DachuCallKind, name) for name in api.CALLS}
LINE_KIND = {v.name[len("DACHU_LINE_KIND_"):].lower(): v.number for v in pb.DachuLineKind.DESCRIPTOR.values}


def _rules(req):
    return rules_from(req, api.Rules, "dachu.rules")


def check_limits(rpc: str, req) -> None:
    """Records longer than the game allows fail the request (reason too_large) before
    any work."""
    def over(field: str, n: int, limit: int):
        if n > limit:
            raise BadRequest(f"dachu.{field}", f"{n} entries exceed the {limit} that a game of 52 cards allows",
                             "too_large")

    def deal(path, d):
        over(f"{path}.actions", len(d.actions), MAX_DEAL_ACTIONS)

    def calling(path, c):
        over(f"{path}.calls", len(c.calls), MAX_CALLS)
        if c.WhichOneof("origin") == "deal":
            deal(f"{path}.deal", c.deal)

    def record(path, r):
        over(f"{path}.deal_actions", len(r.deal_actions), MAX_DEAL_ACTIONS)
        over(f"{path}.calls", len(r.calls), MAX_CALLS)
        over(f"{path}.plays", len(r.plays), MAX_PLAY_ACTIONS)

    if rpc == "Evaluate":
        for i, item in enumerate(req.items):
            kind = item.WhichOneof("item")
            if kind == "deal":
                deal(f"items[{i}].deal", item.deal)
            elif kind == "calling":
                calling(f"items[{i}].calling", item.calling)
            elif kind == "game":
                record(f"items[{i}].game", item.game)
    elif rpc == "Settle":
        for i, d in enumerate(req.deals):
            kind = d.WhichOneof("deal")
            if kind == "record":
                record(f"deals[{i}].record", d.record)
            elif kind == "outcome" and d.outcome.HasField("calling"):
                calling(f"deals[{i}].outcome.calling", d.outcome.calling)


def _chu(value: int, field: str) -> str:
    return required(enum_name(pb.DachuColour, value, field), field, "the 儲 colour (DACHU_COLOUR_RED or DACHU_COLOUR_BLACK)")


def _play(m: pb.DachuPlay, p) -> None:
    """Write the play ``p`` into ``m`` in place."""
    m.kind = KIND[p.kind]
    m.cards.cards.extend(p.cards)


def _opt_cards(msg, name: str):
    """A ``Cards`` field: its list, or None when unset."""
    return cards(getattr(msg, name)) if msg.HasField(name) else None


# ---- the deal and the calling ----

def _deal_action(a, field: str) -> tuple:
    """A DachuDealAction → the Python API's action tuple; fields the kind does not take
    are refused, not ignored."""
    kind = enum_name(pb.DachuDealActionKind, a.kind, f"{field}.kind")
    if kind is None:
        raise ItemFailed(f"{field}.kind", "set the action's kind")
    takes = {"deal": (), "finish": (), "cheng_chu": ("seat", "colour"), "meng_xuan": ("seat", "cards"),
             "meng_chuai": ("seat", "cards")}[kind]
    for name in ("seat", "cards", "colour"):
        if name not in takes and (a.HasField(name) if name == "cards" else getattr(a, name)):
            raise ItemFailed(f"{field}.{name}", f"a {kind} action takes no {name}", "inconsistent")
    if kind in ("deal", "finish"):
        return (kind,)
    if kind == "cheng_chu":
        colour = enum_name(pb.DachuColour, a.colour, f"{field}.colour")
        return (kind, a.seat, colour) if colour else (kind, a.seat)
    return (kind, a.seat, cards(a.cards))


def _deal_action_msg(t) -> pb.DachuDealAction:
    kind, rest = t[0], t[1:]
    m = pb.DachuDealAction(kind=enum_value(pb.DachuDealActionKind, kind))
    if kind == "cheng_chu":
        m.seat = rest[0]
        if len(rest) > 1:
            m.colour = enum_value(pb.DachuColour, rest[1])
    elif kind in ("meng_xuan", "meng_chuai"):
        m.seat = rest[0]
        c = rest[1]
        m.cards.cards.extend(c.split() if isinstance(c, str) else c)
    return m


def _apply(state, actions, to_tuple, path: str):
    """Apply the actions in order; an illegal one is an ItemFailed naming it."""
    for k, a in enumerate(actions):
        field = f"{path}[{k}]"
        try:
            state = state.apply(to_tuple(a, field))
        except HandevalError as e:
            raise rename(e, {"action": ""}, field) from None
    return state


def _deal_of(hands, first_seat, actions, rules, path: str, actions_name: str = "actions"):
    if len(hands) != 4:
        raise ItemFailed(f"{path}.hands", f"{len(hands)} hands: 打儲 deals 4", "wrong_count")
    try:
        d = api.Deal([cards(h) for h in hands], first_seat, rules=rules)
    except HandevalError as e:
        raise rename(e, {}, path) from None
    return _apply(d, actions, _deal_action, f"{path}.{actions_name}")


def _deal(q, rules, path: str):
    return _deal_of(q.hands, q.first_seat, q.actions, rules, path)


def _seat_cards(x) -> common_pb2.Cards:
    return common_pb2.Cards(cards=(x.split() if isinstance(x, str) else x) if x else ())


def _deal_msg(m: pb.DachuDealState, d) -> None:
    m.SetInParent()
    m.MergeFrom(pb.DachuDealState(
        dealt=d.dealt, finished=d.finished, chu=enum_value(pb.DachuColour, d.chu),
        chu_source=enum_value(pb.DachuChuSource, d.chu_source), chu_side=d.chu_side or (),
        teams=enum_value(pb.DachuTeams, d.teams), multiplier=d.multiplier, declared=d.declared,
        legal_actions=[_deal_action_msg(a) for a in d.legal_actions], first_leader=d.first_leader,
        last_card=d.last_card or "", held=[common_pb2.Cards(cards=h) for h in d.held],
        meng_xuan=[_seat_cards(x) for x in d.meng_xuan], meng_chuai=[_seat_cards(x) for x in d.meng_chuai],
        cheng_chu=d.cheng_chu,
    ))


def _call(a, field: str) -> tuple:
    call = enum_name(pb.DachuCallKind, a.call, f"{field}.call")
    if call is None:
        raise ItemFailed(f"{field}.call", "set the call")
    return (call, a.seat)


def _calling(q, rules, path: str):
    origin = q.WhichOneof("origin")
    start_seat, first_side = opt(q, "start_seat"), enum_name(pb.DachuSide, q.first_side, f"{path}.first_side")
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
    return _apply(c, q.calls, _call, f"{path}.calls")


def _calling_msg(m: pb.DachuCallingState, c) -> None:
    m.SetInParent()
    m.MergeFrom(pb.DachuCallingState(
        turn=c.turn, legal_actions=[pb.DachuCall(call=CALL[call], seat=seat) for call, seat in c.legal_actions],
        multiplier=c.multiplier, over=c.over, phase=enum_value(pb.DachuCallingPhase, c.phase),
        calling_side=enum_value(pb.DachuSide, c.calling_side), outcome=enum_value(pb.DachuCallingOutcome, c.outcome),
        chu_side=c.chu_side, surrendered=c.surrendered, bei_bao_da=c.bei_bao_da, playing=c.playing,
        surrendered_side=enum_value(pb.DachuSide, c.surrendered_side),
    ))


# ---- game records ----

def _play_action(a, field: str) -> tuple:
    if a.kind == PLAY:
        return ("play", a.seat, cards(a.cards))
    if a.kind in (PASS, TIMEOUT):
        if a.cards.cards:
            raise ItemFailed(f"{field}.cards", "a pass or a timeout holds no cards", "inconsistent")
        return ("pass" if a.kind == PASS else "timeout", a.seat)
    raise ItemFailed(f"{field}.kind", "set ACTION_KIND_PLAY, ACTION_KIND_PASS or ACTION_KIND_TIMEOUT")


def replay(r, rules, path: str):
    """Replay a DachuGameRecord phase by phase → (deal, calling or None, game or None,
    tricks). Actions of a phase that has not begun are refused naming the first one."""
    d = _deal_of(r.hands, r.first_seat, r.deal_actions, rules, path, "deal_actions")
    if not d.finished:
        for name in ("calls", "plays"):
            if getattr(r, name):
                raise ItemFailed(f"{path}.{name}[0]", "the deal is not finished (its actions end with FINISH)",
                                 "illegal_action")
        return d, None, None, []
    try:
        c = d.calling(opt(r, "start_seat"), enum_name(pb.DachuSide, r.first_side, f"{path}.first_side"))
    except HandevalError as e:
        raise rename(e, {}, path) from None
    c = _apply(c, r.calls, _call, f"{path}.calls")
    if not c.over or c.outcome != "play":
        if r.plays:
            raise ItemFailed(f"{path}.plays[0]", "the calling is not over with a play" if not c.over else
                             "a whole side surrendered: nobody plays", "illegal_action" if not c.over else "game_over")
        return d, c, None, []
    try:
        g = api.Game(d, c)
    except HandevalError as e:
        raise rename(e, {}, path) from None
    tricks: list = []  # [leader, first, last, over, won_by]
    for k, a in enumerate(r.plays):
        field = f"{path}.plays[{k}]"
        leader = g.leader
        try:
            g2 = g.apply(_play_action(a, field))
        except HandevalError as e:
            raise rename(e, {"action": ""}, field) from None
        if not tricks or tricks[-1][3]:
            tricks.append([leader, k, k, False, None])
        tricks[-1][2] = k
        if g2.table is None and not g2.over:  # the table was cleared: the trick ended
            tricks[-1][3] = True
            tricks[-1][4] = g.table_seat if a.kind != PLAY else a.seat
        g = g2
    return d, c, g, tricks


VERDICTS = ("win", "draw", "loss")


def _game_msg(m: pb.DachuGameState, r, rules) -> None:
    d, c, g, tricks = replay(r, rules, "game")
    m.SetInParent()
    _deal_msg(m.deal, d)
    m.chu = enum_value(pb.DachuColour, d.chu)
    m.multiplier = d.multiplier
    if c is None:
        m.phase = pb.DACHU_PHASE_DEAL
        return
    _calling_msg(m.calling, c)
    m.multiplier = c.multiplier
    if g is None:
        m.phase = pb.DACHU_PHASE_OVER if c.over else pb.DACHU_PHASE_CALLING
        return
    m.phase = pb.DACHU_PHASE_OVER if g.over else pb.DACHU_PHASE_PLAY
    p = m.play
    p.SetInParent()
    if g.turn is not None:
        p.to_move = g.turn
    p.may_pass = g.may_pass
    for x in g.legal_plays:
        _play(p.legal_plays.add(), x)
    if g.table is not None:
        _play(p.table, g.table)
        p.table_seat = g.table_seat
    if g.leader is not None:
        p.leader = g.leader
    p.passed.extend(g.passed)
    for h in g.held:
        p.hands.add().cards.extend(h)
    p.places.extend(g.places)
    for leader, first, last, over, won_by in tricks:
        t = p.tricks.add(leader=leader or 0, first_action=first, last_action=last, over=over)
        if won_by is not None:
            t.won_by = won_by
    p.over = g.over
    p.decided = g.decided is not None
    if g.decided in VERDICTS:
        p.verdict = enum_value(pb.DachuVerdict, g.decided)
    if g.wipe_out is not None:
        p.wipe_out = g.wipe_out
    if g.auto_lead is not None:
        p.auto_lead = g.auto_lead
    for x in g.shown_triples:
        p.shown_triples.add().cards.extend(x or ())


# ---- Evaluate ----

def evaluate(req: pb.DachuEvaluateRequest, batch: Batch) -> pb.DachuEvaluateResponse:
    rules = _rules(req)
    resp = pb.DachuEvaluateResponse()

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "play":
            q = item.play
            try:
                _play(out.play, api.classify(cards(q.cards), _chu(q.chu, "play.chu"), rules=rules))
            except HandevalError as e:
                raise rename(e, {}, "play") from None
        elif kind in ("legal_plays", "timeout_play"):
            q = getattr(item, kind)
            chu = _chu(q.chu, f"{kind}.chu")
            hand, table, shown = cards(q.hand), _opt_cards(q, "table"), _opt_cards(q, "shown_triple")
            columns = [cards(c) for c in q.columns] if kind == "timeout_play" else []
            if columns and hand:
                raise ItemFailed(f"{kind}.columns", "set either hand or columns, not both", "inconsistent")
            try:
                flat = [c for col in columns for c in col] or hand
                if shown is not None and not set(parse_cards(shown)) <= set(parse_cards(flat)):
                    raise ItemFailed(f"{kind}.shown_triple", "the shown triple is not in the hand", "card_not_in_hand")
                if kind == "legal_plays":
                    plays = api.legal_plays(hand, table, chu, first_lead=q.first_lead, surrendered=q.surrendered,
                                            shown_triple=shown, rules=rules)
                    out.legal_plays.SetInParent()  # also when there is no legal play
                    for p in plays:
                        _play(out.legal_plays.plays.add(), p)
                else:
                    if not flat:
                        raise ItemFailed(f"{kind}.hand", "an empty hand has no timeout play", "wrong_count")
                    try:
                        got = api.timeout_play(columns or hand, table, chu, first_lead=q.first_lead,
                                               surrendered=q.surrendered, shown_triple=shown, rules=rules)
                    except HandevalError as e:
                        # The API names a column hand[i]; over gRPC that is columns[i].
                        if columns and e.field and e.field.startswith("hand["):
                            raise rename(e, {"hand": "columns"}, kind) from None
                        raise
                    out.timeout_play.SetInParent()
                    out.timeout_play.passes = got is None
                    out.timeout_play.cards.cards.extend(got or ())
            except HandevalError as e:
                raise rename(e, {}, kind) from None
        elif kind == "deal":
            _deal_msg(out.deal, _deal(item.deal, rules, "deal"))
        elif kind == "calling":
            _calling_msg(out.calling, _calling(item.calling, rules, "calling"))
        elif kind == "game":
            _game_msg(out.game, item.game, rules)
        else:
            raise ItemFailed("", "set one of play, legal_plays, timeout_play, deal, calling, game")

    batch.each(req.items, one, resp.results)
    return resp


def compare(req: pb.DachuCompareRequest, batch: Batch) -> pb.DachuCompareResponse:
    rules = _rules(req)
    resp = pb.DachuCompareResponse()

    def one(item, out):
        chu = _chu(item.chu, "chu")
        try:
            out.beats = api.beats(cards(item.play), cards(item.table), chu, rules=rules)
        except HandevalError as e:
            raise rename(e, {}) from None

    batch.each(req.items, one, resp.results)
    return resp


# ---- Settle ----

def fill_settlement(x: pb.DachuSettlement, s) -> None:
    """Write the settlement ``s`` into ``x`` in place."""
    x.deltas.extend(s.deltas)
    for line in s.lines:
        x.lines.add(kind=LINE_KIND[line.item], seat=line.seat, amount=line.amount, text=line.note)
    x.verdict = enum_value(pb.DachuVerdict, s.verdict)
    x.wipe_out = s.wipe_out
    x.result_multiplier = s.result_multiplier
    x.theoretical.extend(s.theoretical)


def settle(req: pb.DachuSettleRequest, batch: Batch) -> pb.DachuSettleResponse:
    rules = _rules(req)
    resp = pb.DachuSettleResponse()

    def one(deal, out):
        kind = deal.WhichOneof("deal")
        kw = dict(base=opt(deal, "base", 1), escaped=list(deal.escaped), carried=carried_from(deal.carried))
        if kind == "record":
            d, c, g, _ = replay(deal.record, rules, "record")
            try:
                if g is not None:
                    if not g.over and g.decided is None and not deal.escaped:
                        raise ItemFailed("record.plays", "the game is not over (nor its result decided)",
                                         "illegal_action")
                    s = g.settle(**kw)
                elif c is not None and c.over:  # a whole side surrendered
                    s = c.settle(**kw)
                elif deal.escaped:  # an escape during the deal or the calling ends the game
                    if c is None:
                        raise ItemFailed("record.deal_actions", "an escape before the 儲 is known cannot be settled",
                                         "illegal_action")
                    s = api.settle(c.chu_side, multiplier=c.multiplier, rules=rules, **kw)
                else:
                    raise ItemFailed("record.calls" if c is not None else "record.deal_actions",
                                     "the game is not over", "illegal_action")
            except HandevalError as e:
                raise rename(e, {}) from None
        elif kind == "outcome":
            o = deal.outcome
            kw.update(places=list(o.places) or None, rules=rules)
            if o.HasField("calling"):
                for name in ("chu_side", "surrendered", "bei_bao_da"):
                    if getattr(o, name):
                        raise ItemFailed(f"outcome.{name}", "set either calling or chu_side, multiplier, surrendered "
                                         "and bei_bao_da, not both", "inconsistent")
                if o.HasField("multiplier"):
                    raise ItemFailed("outcome.multiplier", "set either calling or multiplier, not both", "inconsistent")
                chu_side = _calling(o.calling, rules, "outcome.calling")
            else:
                chu_side = list(o.chu_side)
                kw.update(multiplier=opt(o, "multiplier"), surrendered=list(o.surrendered),
                          bei_bao_da=list(o.bei_bao_da))
            try:
                s = api.settle(chu_side, **kw)
            except HandevalError as e:
                raise rename(e, {"chu_side": "outcome.calling" if o.HasField("calling") else "outcome.chu_side",
                                 "places": "outcome.places", "multiplier": "outcome.multiplier",
                                 "surrendered": "outcome.surrendered", "bei_bao_da": "outcome.bei_bao_da"}) from None
        else:
            raise ItemFailed("", "set outcome or record")
        fill_settlement(out.settlement, s)

    batch.each(req.deals, one, resp.results, "deals")
    return resp

"""十三水 requests ↔ handeval.shisanshui (docs/rules.md §1).

One function per RPC: ``evaluate``, ``compare``, ``settle``, ``arrange``; each takes the
game's request message and a :class:`~handeval.server.common.Batch` and returns the
game's response message.
"""

from __future__ import annotations

from handeval import shisanshui as api
from handeval.errors import HandevalError
from handeval.server.common import (
    CHECK_EVERY, BadRequest, Batch, ItemFailed, at, cards, carried_from, describe, enum_name, enum_value, opt, rename,
    rules_from,
)
from handeval.v2 import shisanshui_pb2 as pb

#: arrange_many is called on chunks of this many exact arrangements (a few ms), with a
#: deadline check between; with Monte-Carlo ``samples`` on one hand at a time, as
#: arrange_many itself runs them (~70 µs per sample and hand on 2 cores).
ARRANGE_CHUNK = 256
#: The rows of an ``order`` item get their keys in chunks of this many, with a deadline
#: check between.
ORDER_CHUNK = 4096
ROWS = ("front", "middle", "back")
#: ShisanshuiCategory value of each category name.
CATEGORY = {name: enum_value(pb.ShisanshuiCategory, name) for name in api.CATEGORIES}


def _rules(req):
    return rules_from(req, api.Rules, "shisanshui.rules")


def _row(m: pb.ShisanshuiRow, r) -> None:
    """Write the classified row ``r`` into ``m`` in place."""
    m.category = CATEGORY[r.category]
    m.category_zh = r.category_zh
    m.strength = r.strength
    m.cards.cards.extend(r.cards)


def _special(m: pb.ShisanshuiSpecial, s) -> None:
    m.kind = enum_value(pb.ShisanshuiSpecialKind, s.id)
    m.name_zh = s.name_zh
    m.waters = s.waters
    for row in s.split or ():
        m.split.add().cards.extend(row)


# ---- Evaluate ----

def _packed(req, rules) -> bytes:
    """The packed bulk path: card-id bytes -> category bytes in one Rust call (GIL
    released). One bad row fails the request (a packed answer has no per-row errors)."""
    row_size = req.row_size or 5
    if row_size not in (3, 5):
        raise BadRequest("shisanshui.row_size", f"must be 3 or 5 (or unset = 5), got {req.row_size}")
    if not req.packed_rows:
        return b""
    try:
        return api.categories_from_ids(req.packed_rows, row_size, rules=rules)
    except HandevalError as e:
        message = describe(e)
        field = e.field or ""
        if field.startswith("data[") and field.endswith("]"):  # data[i] = row i
            i = int(field[5:-1])
            message = f"row {i} (bytes {i * row_size}..{i * row_size + row_size - 1}): {message}"
        raise BadRequest("shisanshui.packed_rows", message, e.reason) from None


def evaluate(req: pb.ShisanshuiEvaluateRequest, batch: Batch) -> pb.ShisanshuiEvaluateResponse:
    rules = _rules(req)
    resp = pb.ShisanshuiEvaluateResponse(packed_categories=_packed(req, rules))

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "row":
            _row(out.row, at("row", api.classify, cards(item.row), rules=rules))
        elif kind == "hand":
            s = at("hand", api.special_hand, cards(item.hand))
            out.hand.SetInParent()
            if s is not None:
                _special(out.hand.special, s)
        elif kind == "arrangement":
            a = item.arrangement
            rows = [at(f"arrangement.{name}", api.classify, cards(getattr(a, name)), rules=rules) for name in ROWS]
            try:
                foul = api.is_foul(cards(a.front), cards(a.middle), cards(a.back), rules=rules)
            except HandevalError as e:
                raise rename(e, {}, "arrangement") from None
            m = out.arrangement
            m.foul = foul
            for name, r in zip(ROWS, rows):
                _row(getattr(m, name), r)
        else:
            raise ItemFailed("", "set one of row, hand, arrangement")

    batch.each(req.items, one, resp.results)
    return resp


# ---- Compare ----

def compare(req: pb.ShisanshuiCompareRequest, batch: Batch) -> pb.ShisanshuiCompareResponse:
    rules = _rules(req)
    resp = pb.ShisanshuiCompareResponse()

    def order(rows, out):
        # One total-order key per row from the core: the rows of an order are independent
        # (they may share cards). Keys come in chunks with a deadline check between, row 0
        # leading every chunk so each row's size is checked against it; then one stable
        # sort, so equal rows keep their request order.
        keys = []
        for start in range(0, len(rows), ORDER_CHUNK):
            batch.check(where="inside a long item")
            head = [rows[0]] if start else []
            try:
                keys += api.order_keys(head + rows[start:start + ORDER_CHUNK], rules=rules)[len(head):]
            except HandevalError as e:
                raise _order_error(e, start - len(head)) from None
        batch.check(where="inside a long item")
        out.indices.extend(sorted(range(len(rows)), key=keys.__getitem__, reverse=True))

    def one(item, out):
        kind = item.WhichOneof("item")
        if kind == "pair":
            try:
                out.comparison = api.compare(cards(item.pair.a), cards(item.pair.b), rules=rules)
            except HandevalError as e:
                raise rename(e, {}, "pair") from None
        elif kind == "order":
            order([cards(r) for r in item.order.rows], out.order)
        else:
            raise ItemFailed("", "set one of pair, order")

    batch.each(req.items, one, resp.results)
    return resp


def order_rows(req) -> int:
    """Rows inside Compare ``order`` items: counted as items against --max-batch."""
    return sum(len(item.order.rows) for item in req.items if item.WhichOneof("item") == "order")


def _order_error(e: HandevalError, offset: int):
    """An ``order_keys`` error (``rows[j]`` of a chunk) at the row's index in the item."""
    field = e.field or ""
    if not field.startswith("rows["):
        return e  # a rules error: Batch.each fails the request for it
    return ItemFailed(f"order.rows[{offset + int(field[5:field.index(']')])}]{field[field.index(']') + 1:]}", describe(e),
                      e.reason)


# ---- Settle ----

def _player(i, p):
    kind = p.WhichOneof("hand")
    if kind == "arrangement":
        a = p.arrangement
        return {"front": cards(a.front), "middle": cards(a.middle), "back": cards(a.back)}
    if kind == "special":
        special = enum_name(pb.ShisanshuiSpecialKind, p.special.kind, f"players[{i}].special.kind")
        if special is None:
            raise ItemFailed(f"players[{i}].special.kind", "set the declared special hand")
        return {"special": special, "cards": cards(p.special.cards)}
    raise ItemFailed(f"players[{i}]", "set arrangement or special")


def fill_settlement(x: pb.ShisanshuiSettlement, s) -> None:
    """Write the settlement ``s`` into ``x`` in place: its message bytes from the native
    result, merged (one call, where writing field by field from Python was most of a
    small Settle call's server CPU)."""
    x.MergeFromString(s._to_wire())


def settle(req: pb.ShisanshuiSettleRequest, batch: Batch) -> pb.ShisanshuiSettleResponse:
    rules = _rules(req)
    resp = pb.ShisanshuiSettleResponse()

    def one(deal, out):
        players = [_player(i, p) for i, p in enumerate(deal.players)]
        s = api.settle(players, base=opt(deal, "base", 1), carried=carried_from(deal.carried), rules=rules)
        fill_settlement(out.settlement, s)

    batch.each(req.deals, one, resp.results, "deals")
    return resp


# ---- Arrange ----

def _choice(m: pb.ShisanshuiArrangeChoice, a) -> None:
    m.arrangement.front.cards.extend(a.front)
    m.arrangement.middle.cards.extend(a.middle)
    m.arrangement.back.cards.extend(a.back)
    m.expected = a.expected


def answer_msg(m: pb.ShisanshuiArrangeAnswer, a) -> None:
    """Write the arrangement ``a`` into ``m`` in place."""
    _choice(m.best, a)
    m.special = enum_value(pb.ShisanshuiSpecialKind, a.special)
    m.declare_special = a.declare_special
    for x in a.alternatives:
        _choice(m.alternatives.add(), x)


def arrange(req: pb.ShisanshuiArrangeRequest, batch: Batch) -> pb.ShisanshuiArrangeResponse:
    rules = _rules(req)
    kw = {name: getattr(req, name) for name in ("opponents", "top_k", "seed", "samples") if req.HasField(name)}
    kinds = [item.WhichOneof("item") for item in req.items]
    resp = pb.ShisanshuiArrangeResponse()
    outs = [resp.results.add() for _ in kinds]  # filled by index: hands first, in chunks

    hands = [i for i, k in enumerate(kinds) if k == "hand"]
    step = 1 if req.samples else ARRANGE_CHUNK
    for start in range(0, len(hands), step):
        batch.check(start, len(req.items))
        chunk = hands[start:start + step]
        try:
            # one item per hand: its Arrangement, or the HandevalError that hand would raise
            answers = api.arrange_many([cards(req.items[i].hand) for i in chunk], rules=rules, **kw)
        except HandevalError as e:  # a bad option: the whole request's fault
            raise BadRequest(f"shisanshui.{e.field or 'items'}", describe(e), e.reason) from None
        for i, a in zip(chunk, answers):
            if isinstance(a, HandevalError):  # the error arrange(hand) raises, in place
                batch.fail(outs[i], rename(a, {"cards13": "hand", "cards": "hand"}), i)
            else:
                answer_msg(outs[i].answer, a)

    top_k = {"top_k": req.top_k} if req.HasField("top_k") else {}

    def other(i, out):
        if kinds[i] != "best_response":
            raise ItemFailed("", "set one of hand, best_response")
        br = req.items[i].best_response
        opponents = [{"front": cards(o.front), "middle": cards(o.middle), "back": cards(o.back)} for o in br.opponents]
        try:
            answer_msg(out.answer, api.best_response(cards(br.cards), opponents, rules=rules, **top_k))
        except HandevalError as e:
            raise rename(e, {"cards13": "cards"}, "best_response") from None

    others = [i for i, k in enumerate(kinds) if k != "hand"]
    for n, i in enumerate(others):
        if n % CHECK_EVERY == 0:
            batch.check(n, len(others))
        batch.one(other, i, outs[i], i)
    return resp

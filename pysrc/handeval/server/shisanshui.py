"""十三水 requests ↔ handeval.shisanshui (RULES.md section 1).

One function per RPC: ``evaluate``, ``compare``, ``settle``, ``arrange``; each takes the
game's request message and a :class:`~handeval.server.common.Batch` and returns the
game's response message.
"""

from __future__ import annotations

import functools

from handeval.errors import HandevalError, fail
from handeval.server.common import Batch, BadRequest, api, carried_from, item_error, rules_from
from handeval.v1 import common_pb2, shisanshui_pb2 as pb

GAME = "shisanshui"
#: arrange_many is called on chunks of this many hands, with a deadline check between.
ARRANGE_CHUNK = 256


def _rules(req):
    def probe(rules):
        api(GAME, "compare")("As Ks Qs", "2s 3s 4s", rules=rules)

    return rules_from(req.rules, GAME, "shisanshui.rules", probe)


def _row(r) -> pb.ShisanshuiRow:
    return pb.ShisanshuiRow(category=r.category, category_zh=r.category_zh, strength=r.strength, cards=r.cards)


def _special(s) -> pb.ShisanshuiSpecial:
    return pb.ShisanshuiSpecial(
        id=s.id, name_zh=s.name_zh, waters=s.waters,
        split=[common_pb2.Cards(cards=row) for row in (s.split or [])],
    )


# ---- Evaluate ----

def _packed(req, rules) -> bytes:
    """The packed bulk path: card-id bytes -> category bytes in one Rust call (GIL
    released). One bad row fails the request (a packed answer has no per-row errors)."""
    row_size = req.row_size or 5
    if row_size not in (3, 5):
        raise BadRequest("shisanshui.row_size", f"must be 3 or 5 (or unset = 5), got {req.row_size}")
    if not req.packed_rows:
        return b""
    from_ids = api(GAME, "categories_from_ids")
    try:
        return from_ids(req.packed_rows, row_size, rules=rules)
    except HandevalError as e:
        field = getattr(e, "field", None) or ""
        message = str(e)
        if field and message.startswith(f"{field}: "):
            message = message[len(field) + 2:]
        if field.startswith("data[") and field.endswith("]"):  # data[i] = row i
            i = int(field[5:-1])
            message = f"row {i} (bytes {i * row_size}..{i * row_size + row_size - 1}): {message}"
        raise BadRequest("shisanshui.packed_rows", message) from None


def evaluate(req: pb.ShisanshuiEvaluateRequest, batch: Batch) -> pb.ShisanshuiEvaluateResponse:
    rules = _rules(req)
    packed = _packed(req, rules)
    classify, is_foul, special_hand = api(GAME, "classify"), api(GAME, "is_foul"), api(GAME, "special_hand")

    def one(item):
        kind = item.WhichOneof("item")
        if kind == "row":
            return {"row": _row(classify(item.row, rules=rules))}
        if kind == "hand":
            s = special_hand(item.hand)
            return {"hand": pb.ShisanshuiHandResult(special=None if s is None else _special(s))}
        if kind == "arrangement":
            a = item.arrangement
            rows = {}
            for name in ("front", "middle", "back"):
                try:
                    rows[name] = _row(classify(getattr(a, name), rules=rules))
                except HandevalError as e:
                    fail(f"arrangement.{name}", str(e))
            foul = is_foul(a.front, a.middle, a.back, rules=rules)
            return {"arrangement": pb.ShisanshuiArrangementResult(foul=foul, **rows)}
        fail("item", "set one of row, hand, arrangement")

    return pb.ShisanshuiEvaluateResponse(results=batch.each(req.items, one, pb.ShisanshuiEvaluateResult),
                                         packed_categories=packed)


# ---- Compare ----

def compare(req: pb.ShisanshuiCompareRequest, batch: Batch) -> pb.ShisanshuiCompareResponse:
    rules = _rules(req)
    cmp, classify = api(GAME, "compare"), api(GAME, "classify")

    def one(item):
        kind = item.WhichOneof("item")
        if kind == "pair":
            return {"comparison": cmp(item.pair.a, item.pair.b, rules=rules)}
        if kind == "order":
            rows = list(item.order.rows)
            for i, r in enumerate(rows):  # name the bad row before sorting
                try:
                    classify(r, rules=rules)
                except HandevalError as e:
                    fail(f"order.rows[{i}]", str(e))
            key = functools.cmp_to_key(lambda i, j: cmp(rows[j], rows[i], rules=rules))
            return {"order": pb.ShisanshuiOrder(indices=sorted(range(len(rows)), key=key))}
        fail("item", "set one of pair, order")

    return pb.ShisanshuiCompareResponse(results=batch.each(req.items, one, pb.ShisanshuiCompareResult))


# ---- Settle ----

def _player(i, p):
    kind = p.WhichOneof("hand")
    if kind == "arrangement":
        a = p.arrangement
        return {"front": a.front, "middle": a.middle, "back": a.back}
    if kind == "special":
        return {"special": p.special.id, "cards": p.special.cards}
    fail(f"players[{i}]", "set arrangement or special")


def settlement_msg(s) -> pb.ShisanshuiSettlement:
    return pb.ShisanshuiSettlement(
        waters=s.waters, deltas=s.deltas,
        pairwise=[common_pb2.IntRow(values=row) for row in s.pairwise],
        fouls=s.fouls, specials=[x or "" for x in s.specials], home_runs=s.home_runs,
        theoretical=s.theoretical, rake=s.rake,
        pairs=[
            pb.ShisanshuiPair(a=p.a, b=p.b, kind=p.kind, rows=p.rows, scooper=p.scooper,
                              home_run=p.home_run, waters=p.waters)
            for p in s.pairs
        ],
    )


def settle(req: pb.ShisanshuiSettleRequest, batch: Batch) -> pb.ShisanshuiSettleResponse:
    rules = _rules(req)
    settle_fn = api(GAME, "settle")

    def one(deal):
        players = [_player(i, p) for i, p in enumerate(deal.players)]
        base = deal.base if deal.HasField("base") else 1
        return {"settlement": settlement_msg(settle_fn(players, base=base, carried=carried_from(deal.carried), rules=rules))}

    return pb.ShisanshuiSettleResponse(results=batch.each(req.deals, one, pb.ShisanshuiSettleResult))


# ---- Arrange ----

def _choice(a) -> pb.ShisanshuiArrangeChoice:
    expected = getattr(a, "expected", None)
    if expected is None:
        expected = getattr(a, "score", 0.0)
    return pb.ShisanshuiArrangeChoice(front=a.front, middle=a.middle, back=a.back, expected=float(expected))


def answer_msg(a) -> pb.ShisanshuiArrangeAnswer:
    special = getattr(a, "special", None)
    return pb.ShisanshuiArrangeAnswer(
        best=_choice(a),
        special=special,
        declare_special=bool(getattr(a, "declare_special", False)),
        alternatives=[_choice(x) for x in (getattr(a, "alternatives", None) or [])],
    )


def arrange(req: pb.ShisanshuiArrangeRequest, batch: Batch) -> pb.ShisanshuiArrangeResponse:
    rules = _rules(req)
    kw = {name: getattr(req, name) for name in ("opponents", "top_k", "seed") if req.HasField(name)}
    if rules is not None:
        kw["rules"] = rules
    kinds = [item.WhichOneof("item") for item in req.items]
    results: list = [None] * len(req.items)

    hands = [i for i, k in enumerate(kinds) if k == "hand"]
    if hands:
        arrange_one, arrange_many = api(GAME, "arrange"), api(GAME, "arrange_many")
        for start in range(0, len(hands), ARRANGE_CHUNK):
            batch.check_deadline(start, len(req.items))
            chunk = hands[start:start + ARRANGE_CHUNK]
            # one item per hand: its Arrangement, or the HandevalError it would raise
            try:
                answers = arrange_many([req.items[i].hand for i in chunk], **kw)
            except HandevalError:
                answers = None  # a bad option: every hand gets the error below
            for n, i in enumerate(chunk):
                if answers is not None and not isinstance(answers[n], HandevalError):
                    results[i] = pb.ShisanshuiArrangeResult(answer=answer_msg(answers[n]))
                    continue
                # a bad hand: its own call gives the error with this request's field names
                try:
                    results[i] = pb.ShisanshuiArrangeResult(answer=answer_msg(arrange_one(req.items[i].hand, **kw)))
                except HandevalError as e:
                    batch.item_errors += 1
                    results[i] = pb.ShisanshuiArrangeResult(error=item_error(e))

    others = [i for i, k in enumerate(kinds) if k != "hand"]
    if others:
        best_response = api(GAME, "best_response") if any(kinds[i] == "best_response" for i in others) else None

        def one(i):
            if kinds[i] != "best_response":
                fail("item", "set one of hand, best_response")
            br = req.items[i].best_response
            opponents = [{"front": o.front, "middle": o.middle, "back": o.back} for o in br.opponents]
            extra = {"rules": rules} if rules is not None else {}
            return {"answer": answer_msg(best_response(br.cards, opponents, **extra))}

        for i, r in zip(others, batch.each(others, one, pb.ShisanshuiArrangeResult)):
            results[i] = r

    return pb.ShisanshuiArrangeResponse(results=results)

"""The table streams' binding (`_core.WireTables`, rust/handeval-wire/src/tables) called
as the servicer calls it, without a server: each step's answer equals the unary
Evaluate `game` item's (`_core.wire_answer`) for the record so far, errors included
(their paths without the batch's ``items[0].``); a refused step leaves the table as it
was; the stream's bounds, idle tables, and the GIL released for the work."""

from __future__ import annotations

import gc
import random
import threading

import pytest

from handeval import _core
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, tables_pb2 as tb, tienlen_pb2 as tl
from harness.deck import DECK

LOOK = tb.TableLook()


def tables(max_tables=8, max_open_tables=10_000, max_work=0):
    return _core.WireTables(max_tables, max_open_tables, 100, 100, max_work)


def step(t, table="t", detach=True, **fields) -> tb.TablesResponse:
    req = tb.TablesRequest(table=table, **fields)
    return tb.TablesResponse.FromString(t.step(req.SerializeToString(), _core.WireCall(None), detach))


def unary_game(game, rules, viewer=None, suggest=None):
    """The unary Evaluate's result for the one `game` item `game` seen by `viewer`, asking `suggest`."""
    record = type(game)()
    record.CopyFrom(game)
    if viewer is not None:
        record.viewer = viewer
    if suggest is not None:
        record.suggest.CopyFrom(suggest)
    if isinstance(record, tl.TienlenGameRecord):
        items = [tl.TienlenEvaluateItem(game=record)]
        req = pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(rules=rules, items=items))
    else:
        req = pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(rules=rules, items=[dc.DachuEvaluateItem(game=record)]))
    data = _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 100, 100, False)
    out = pb.EvaluateResponse.FromString(data)
    return (out.tienlen if out.HasField("tienlen") else out.dachu).results[0]


def unary(record, rules, viewer=None, suggest=None):
    """(the state's bytes, None) or (None, the ItemError as the table names it)."""
    result = unary_game(record, rules, viewer, suggest)
    if result.HasField("error"):
        e = result.error
        field = e.field.removeprefix("items[0]").removeprefix(".")
        field = {"game.viewer": "viewer"}.get(field, field)
        if field.startswith("game.suggest"):
            field = field.removeprefix("game.")
        return None, (field, e.reason, e.message, e.action_index if e.HasField("action_index") else None)
    return result.game.SerializeToString(), None


def answered(r: tb.TablesResponse):
    kind = r.WhichOneof("answer")
    if kind == "error":
        e = r.error
        return None, (e.field, e.reason, e.message, e.action_index if e.HasField("action_index") else None)
    assert kind in ("tienlen", "dachu"), r
    return getattr(r, kind).SerializeToString(), None


def deal(rng, players):
    cards = list(DECK)
    rng.shuffle(cards)
    return [common_pb2.Cards(cards=cards[13 * p : 13 * p + 13]) for p in range(players)]


def views(rng, players):
    viewer = rng.choice([None, None, *range(players), players])
    suggest = rng.choice([None, common_pb2.SuggestQuery(), common_pb2.SuggestQuery(effort=1, seed=rng.randrange(99))])
    kw = {}
    if viewer is not None:
        kw["viewer"] = viewer
    if suggest is not None:
        kw["suggest"] = suggest
    return viewer, suggest, kw


@pytest.mark.parametrize("seed", range(6))
def test_a_tienlen_game_stepped_on_a_table_answers_as_the_unary_record(seed):
    rng = random.Random(seed)
    players = 2 + seed % 3
    rules = tl.TienlenRules()
    record = tl.TienlenGameRecord(hands=deal(rng, players))
    t = tables()
    start = tb.TableStart(tienlen=tb.TienlenTable(rules=rules, record=record))
    r = step(t, start=start)
    assert answered(r) == unary(record, rules) and r.actions == 0
    refused = 0
    while True:
        state = tl.TienlenGameState.FromString(unary(record, rules)[0])
        if state.over:
            break
        viewer, suggest, kw = views(rng, players)
        if rng.random() < 0.25 or not record.actions:
            # Not a legal action: the unary error, the table unchanged.
            a = common_pb2.PlayAction(
                seat=rng.randrange(players),
                kind=common_pb2.ACTION_KIND_PLAY,
                cards=common_pb2.Cards(cards=rng.sample(DECK, 2)),
            )
        else:
            a = rng.choice([x for o in state.offers for x in o.actions])
        after = tl.TienlenGameRecord()
        after.CopyFrom(record)
        after.actions.append(a)
        want = unary(after, rules, viewer, suggest)
        r = step(t, action=tb.TableAction(at=len(record.actions), play=a), **kw)
        assert answered(r) == want
        if want[1] is None:
            record = after
        else:
            refused += 1
        assert r.actions == len(record.actions)
    r = step(t, settle=tb.TableSettle())
    settle = pb.SettleRequest(tienlen=tl.TienlenSettleRequest(rules=rules, deals=[tl.TienlenDeal(record=record)]))
    out = pb.SettleResponse.FromString(
        _core.wire_answer("Settle", settle.SerializeToString(), _core.WireCall(None), 100, 100, False)
    )
    assert r.tienlen_settlement == out.tienlen.results[0].settlement
    assert refused > 0 or state.instant, state  # the first step is a wild one, unless the deal ended the game


def dachu_legal(state: dc.DachuGameState):
    out = []
    for o in state.offers:
        kind = o.WhichOneof("action")
        out.append(({"deal_action": "deal", "call": "call", "play": "play"}[kind], getattr(o, kind)))
    if state.phase == dc.DACHU_PHASE_DEAL:
        out += [("deal", a) for a in state.deal.legal_actions if ("deal", a) not in out]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_dachu_game_from_the_deal_answers_as_the_unary_record(seed):
    rng = random.Random(100 + seed)
    rules = dc.DachuRules()
    record = dc.DachuGameRecord(hands=deal(rng, 4), first_seat=rng.randrange(4))
    t = tables()
    r = step(t, "d", start=tb.TableStart(dachu=tb.DachuTable(rules=rules, record=record)))
    assert answered(r) == unary(record, rules)
    phases = set()
    while True:
        state = dc.DachuGameState.FromString(unary(record, rules)[0])
        phases.add(state.phase)
        legal = dachu_legal(state)
        if not legal:
            break
        viewer, suggest, kw = views(rng, 4)
        kind, a = rng.choice(legal)
        after = dc.DachuGameRecord()
        after.CopyFrom(record)
        {"deal": after.deal_actions, "call": after.calls, "play": after.plays}[kind].append(a)
        want = unary(after, rules, viewer, suggest)
        r = step(t, "d", action=tb.TableAction(**{kind: a}), **kw)
        assert answered(r) == want
        if want[1] is None:
            record = after
        assert r.actions == len(record.deal_actions) + len(record.calls) + len(record.plays)
    assert dc.DACHU_PHASE_PLAY in phases or dc.DACHU_PHASE_CALLING in phases


def test_errors_name_the_request_fields():
    rng = random.Random(7)
    t = tables()
    record = tl.TienlenGameRecord(hands=deal(rng, 4))
    start = tb.TableStart(tienlen=tb.TienlenTable(record=record))
    assert step(t, start=start).WhichOneof("answer") == "tienlen"
    bad_card = common_pb2.PlayAction(seat=0, kind=common_pb2.ACTION_KIND_PLAY, cards=common_pb2.Cards(cards=["Zz"]))
    r = step(t, action=tb.TableAction(at=0, play=bad_card))
    assert r.error.field == "game.actions[0].cards" and r.error.action_index == 0 and r.actions == 0, r
    assert step(t, action=tb.TableAction(at=3, play=bad_card)).error.field == "action.at"
    assert step(t, action=tb.TableAction(call=dc.DachuCall())).error.field == "action.call"
    assert step(t, look=LOOK, viewer=9).error.field == "viewer"
    assert step(t, look=LOOK, suggest=common_pb2.SuggestQuery(effort=65)).error.field == "suggest.effort"
    assert step(t, "x" * 65, look=LOOK).error.reason == common_pb2.ERROR_REASON_TOO_LARGE
    r = step(t, "nope", look=LOOK)
    assert (r.closed.reason, r.closed.message) == (
        tb.TABLE_CLOSED_REASON_NOT_OPEN,
        'no table "nope" on this stream: start it from its record',
    )
    viewer_set = tl.TienlenGameRecord(hands=record.hands, viewer=1)
    r = step(t, "v", start=tb.TableStart(tienlen=tb.TienlenTable(record=viewer_set)))
    assert r.error.field == "start.tienlen.record.viewer"
    with pytest.raises(_core.WireError) as ei:
        t.step(b"\xff\xff\xff", _core.WireCall(None), False)
    assert (ei.value.code, ei.value.field) == ("INVALID_ARGUMENT", "")
    r = step(t, close=tb.TableClose())
    assert (r.closed.reason, r.actions) == (tb.TABLE_CLOSED_REASON_CLOSED, 0)
    assert t.tables == 0


def test_bounds_idle_tables_and_the_process_count():
    rng = random.Random(8)
    before = _core.wire_open_tables()
    t = tables(max_tables=2)
    for name in ("a", "b"):
        start = tb.TableStart(tienlen=tb.TienlenTable(record=tl.TienlenGameRecord(hands=deal(rng, 2))))
        assert step(t, name, start=start).WhichOneof("answer") == "tienlen"
    r = step(t, "c", start=start)
    assert r.error.field == "start" and "--max-stream-tables" in r.error.message
    assert (t.tables, _core.wire_open_tables()) == (2, before + 2)
    assert t.bytes > 0
    assert t.expire(3600.0) == []
    closed = [tb.TablesResponse.FromString(b) for b in t.expire(0.0)]
    assert sorted(c.table for c in closed) == ["a", "b"]
    assert all(c.closed.reason == tb.TABLE_CLOSED_REASON_IDLE and c.actions == 0 for c in closed)
    assert (t.tables, t.bytes, _core.wire_open_tables()) == (0, 0, before)
    full = tables(max_open_tables=before + 1)
    assert step(full, "a", start=start).WhichOneof("answer") == "tienlen"
    r = step(full, "b", start=start)
    assert r.error.field == "start" and "--max-tables" in r.error.message
    full.clear()
    assert _core.wire_open_tables() == before
    # A stream's object dropped (its servicer gone) gives its tables' places back.
    assert step(full, "a", start=start).WhichOneof("answer") == "tienlen"
    assert _core.wire_open_tables() == before + 1
    del full
    gc.collect()
    assert _core.wire_open_tables() == before
    full = tables()
    with pytest.raises(ValueError):
        full.expire(-1.0)


def test_inline_steps_ask_no_search():
    t = tables()
    assert t.inline(tb.TablesRequest(table="t", look=LOOK, viewer=1).SerializeToString())
    assert not t.inline(
        tb.TablesRequest(table="t", look=LOOK, suggest=common_pb2.SuggestQuery(effort=8)).SerializeToString()
    )


def test_a_long_step_releases_the_gil():
    """The main thread runs while a long search steps on another: it sees the step's work
    begin (the call's item count, read under the GIL) and cancels it, and the search stops
    between two determinizations. A step holding the GIL would be over before the main
    thread could look (and answer its state)."""
    rng = random.Random(9)
    t = tables()
    start = tb.TableStart(tienlen=tb.TienlenTable(record=tl.TienlenGameRecord(hands=deal(rng, 4))))
    step(t, start=start)
    call = _core.WireCall(None)
    req = tb.TablesRequest(table="t", look=LOOK, suggest=common_pb2.SuggestQuery(effort=64, seed=1))
    seen = {}

    def search():
        try:
            seen["answer"] = tb.TablesResponse.FromString(t.step(req.SerializeToString(), call, True))
        except _core.WireError as e:
            seen["error"] = e.code

    th = threading.Thread(target=search)
    th.start()
    while call.items == 0 and th.is_alive():
        pass
    call.cancel()
    th.join()
    assert seen == {"error": "CANCELLED"}, seen
    # The table is as it was: the next look answers.
    assert step(t, look=LOOK).WhichOneof("answer") == "tienlen"

"""The Tables stream through a served handeval: every answer equals the unary Evaluate
`game` item of the record so far (states, seat views, suggestions, errors), settlements
equal Settle's; the client resumes tables from their records after the worker dies; the
stream's bounds hold."""

from __future__ import annotations

import os
import random
import signal
import threading

import grpc
import pytest

from handeval.server.table_client import TableStream, record_length
from handeval.v2 import (
    common_pb2,
    dachu_pb2 as dc,
    handeval_pb2 as pb,
    handeval_pb2_grpc,
    tables_pb2 as tb,
    tienlen_pb2 as tl,
)
from harness.deck import DECK
from harness.h2raw import DATA, RawConnection, call_headers, frame, grpc_message
from harness.server import ServerProcess

from grpc_fixtures import children, no_traceback, wait_for

PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS


def tienlen_table(rng, players):
    deck = rng.sample(DECK, 52)
    hands = [common_pb2.Cards(cards=deck[13 * i : 13 * i + 13]) for i in range(players)]
    return tb.TienlenTable(record=tl.TienlenGameRecord(hands=hands, base=10))


def dachu_table(rng):
    deck = rng.sample(DECK, 52)
    hands = [common_pb2.Cards(cards=deck[13 * i : 13 * i + 13]) for i in range(4)]
    return tb.DachuTable(record=dc.DachuGameRecord(hands=hands, first_seat=rng.randrange(4)))


def next_action(rng, state):
    """A seat's action from a full state (no viewer): a random offer; in the 打儲 deal the
    table's DEAL/FINISH mostly, a declaration sometimes. None when the game is over."""
    if state.WhichOneof("answer") == "tienlen":
        s = state.tienlen
        if s.over:
            return None
        offer = rng.choice(list(s.offers))
        return rng.choice(list(offer.actions))
    s = state.dachu
    if s.phase == dc.DACHU_PHASE_DEAL:
        legal = list(s.deal.legal_actions)
        return legal[0] if rng.random() < 0.7 else rng.choice(legal)
    if s.phase == dc.DACHU_PHASE_OVER or not s.offers:
        return None
    offer = rng.choice(list(s.offers))
    return getattr(offer, offer.WhichOneof("action"))


def unary_state(stub, start, record, viewer, suggest):
    """The unary Evaluate answer of the record so far (the item's state or its error)."""
    game = start.WhichOneof("game")
    item_record = type(record)()
    item_record.CopyFrom(record)
    if viewer is not None:
        item_record.viewer = viewer
    if suggest is not None:
        item_record.suggest.CopyFrom(suggest)
    rules = getattr(start, game).rules
    if game == "tienlen":
        req = pb.EvaluateRequest(
            tienlen=tl.TienlenEvaluateRequest(rules=rules, items=[tl.TienlenEvaluateItem(game=item_record)])
        )
    else:
        req = pb.EvaluateRequest(
            dachu=dc.DachuEvaluateRequest(rules=rules, items=[dc.DachuEvaluateItem(game=item_record)])
        )
    result = getattr(stub.Evaluate(req, timeout=30), game).results[0]
    return result


def as_table_error(unary_error):
    """The unary item's error as a table answers it: the same, its path without the
    batch's ``items[0].``."""
    e = type(unary_error)()
    e.CopyFrom(unary_error)
    assert e.field.startswith("items[0].")
    e.field = e.field[len("items[0].") :]
    return e


def same_as_unary(answer, unary):
    kind = answer.WhichOneof("answer")
    if kind == "error":
        assert unary.WhichOneof("result") == "error", (answer, unary)
        assert answer.error == as_table_error(unary.error)
    else:
        assert unary.game == getattr(answer, kind)


def play_games(stream, stub, rng, tables, check_unary=True, kill=None):
    """Plays every table of ``tables`` (name → TableStart) to its end, interleaved, with a
    random viewer and a default suggestion at random steps; each answer checked against
    the unary Evaluate; ``kill()`` is called once, in the middle."""
    states = {}
    for name, start in tables.items():
        game = start.WhichOneof("game")
        states[name] = stream.start(name, **{game: getattr(start, game)})
        assert states[name].WhichOneof("answer") == game, states[name]
    live = list(tables)
    steps = 0
    while live:
        name = rng.choice(live)
        action = next_action(rng, states[name])
        if action is None:
            live.remove(name)
            continue
        steps += 1
        if kill is not None and steps == 40:
            kill()
        players = len(stream.record(name).hands)
        viewer = rng.choice([None, *range(players)])
        suggest = common_pb2.SuggestQuery(seed=steps) if rng.random() < 0.3 else None
        answer = stream.act(name, action, viewer=viewer, suggest=suggest)
        assert answer.WhichOneof("answer") not in ("error", "closed"), answer
        assert answer.actions == record_length(stream.record(name))
        if check_unary:
            same_as_unary(answer, unary_state(stub, tables[name], stream.record(name), viewer, suggest))
        states[name] = stream.look(name) if viewer is not None or suggest is not None else answer
    return steps


def settle_same_as_unary(stream, stub, name, start):
    game = start.WhichOneof("game")
    answer = stream.settle(name, base=10)
    record = stream.record(name)
    if game == "tienlen":
        req = pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[tl.TienlenDeal(record=record, base=10)]))
    else:
        req = pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[dc.DachuDeal(record=record, base=10)]))
    unary = getattr(stub.Settle(req, timeout=30), game).results[0]
    assert unary.WhichOneof("result") == "settlement", unary
    assert getattr(answer, f"{game}_settlement") == unary.settlement
    assert sum(unary.settlement.deltas) + getattr(unary.settlement, "rake", 0) == 0  # zero-sum with the rake


def test_whole_games_on_one_stream_answer_as_the_unary_records(server, stub, channel):
    rng = random.Random(40)
    tables = {f"t{i}": tb.TableStart(tienlen=tienlen_table(rng, 2 + i % 3)) for i in range(3)}
    tables.update({f"d{i}": tb.TableStart(dachu=dachu_table(rng)) for i in range(3)})
    stream = TableStream(channel)
    try:
        assert play_games(stream, stub, rng, tables) > 60
        for name, start in tables.items():
            settle_same_as_unary(stream, stub, name, start)
        assert stream.resumes == 0
    finally:
        stream.end()


def test_a_refused_step_is_the_unary_error_and_changes_nothing(server, stub, channel):
    rng = random.Random(41)
    start = tienlen_table(rng, 4)
    stream = TableStream(channel)
    try:
        first = stream.start("x", tienlen=start)
        seat = first.tienlen.to_move
        other = (seat + 1) % 4
        wrong = common_pb2.PlayAction(
            seat=other, kind=PLAY, cards=common_pb2.Cards(cards=[list(start.record.hands[other].cards)[0]])
        )
        answer = stream.act("x", wrong)
        assert answer.WhichOneof("answer") == "error"
        assert answer.error.field.startswith("game.actions[0]")
        assert answer.error.action_index == 0
        unary = unary_state(stub, tb.TableStart(tienlen=start), _appended(start.record, wrong), None, None)
        assert answer.error == as_table_error(unary.error)
        assert answer.actions == 0 and record_length(stream.record("x")) == 0
        again = stream.look("x")
        assert again.tienlen == first.tienlen
    finally:
        stream.end()


def _appended(record, action):
    r = type(record)()
    r.CopyFrom(record)
    r.actions.append(action)
    return r


def raw_stream(channel, requests):
    """Answers of a raw Tables call sending ``requests`` (TablesRequest messages or bytes)."""
    stub = handeval_pb2_grpc.HandevalStub(channel)
    return list(stub.Tables(iter(requests), timeout=30))


def test_the_step_count_refuses_a_step_sent_twice(server, channel):
    rng = random.Random(42)
    start = tb.TableStart(tienlen=tienlen_table(rng, 2))
    first = raw_stream(channel, [tb.TablesRequest(table="a", start=start)])[0]
    action = first.tienlen.offers[0].actions[0]
    step = tb.TablesRequest(table="a", action=tb.TableAction(at=0, play=action))
    answers = raw_stream(channel, [tb.TablesRequest(table="a", start=start), step, step])
    assert answers[1].WhichOneof("answer") == "tienlen" and answers[1].actions == 1
    assert answers[2].WhichOneof("answer") == "error"
    assert answers[2].error.field == "action.at"
    assert answers[2].error.reason == common_pb2.ERROR_REASON_INCONSISTENT
    assert answers[2].actions == 1


def test_steps_for_tables_the_stream_does_not_hold_are_answered_closed(server, channel):
    answers = raw_stream(
        channel,
        [
            tb.TablesRequest(table="nobody", look=tb.TableLook()),
            tb.TablesRequest(table="", look=tb.TableLook()),
            tb.TablesRequest(table="x" * 65, look=tb.TableLook()),
        ],
    )
    assert answers[0].closed.reason == tb.TABLE_CLOSED_REASON_NOT_OPEN
    assert answers[1].error.field == "table"
    assert answers[2].error.field == "table"


def test_bytes_that_are_no_request_end_the_stream_naming_it(server, channel):
    call = channel.stream_stream("/handeval.v2.Handeval/Tables")
    with pytest.raises(grpc.RpcError) as e:
        list(call(iter([b"\xff\xff\xff"]), timeout=30))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture
def bounded_server(tmp_path):
    s = ServerProcess(
        tmp_path,
        "--max-stream-tables",
        "3",
        "--max-table-streams",
        "4",
        "--max-stream-idle",
        "1",
        "--max-table-idle",
        "0.5",
    )
    try:
        yield s.wait_serving()
    finally:
        s.close()


def test_the_stream_bounds_hold(bounded_server):
    rng = random.Random(43)
    with bounded_server.channel() as ch:
        starts = [tb.TablesRequest(table=f"t{i}", start=tb.TableStart(tienlen=tienlen_table(rng, 2))) for i in range(4)]
        answers = raw_stream(ch, starts)
        assert [a.WhichOneof("answer") for a in answers] == ["tienlen"] * 3 + ["error"]
        assert answers[3].error.reason == common_pb2.ERROR_REASON_TOO_LARGE
        assert "--max-stream-tables" in answers[3].error.message

        # A table untouched for --max-table-idle is closed and the stream told.
        stub = handeval_pb2_grpc.HandevalStub(ch)

        # t1 is stepped (a look every 50 ms, so the stream is never idle) until the
        # stream says t0 was closed.
        seen = threading.Event()

        def busy():
            yield starts[0]
            yield starts[1]
            for _ in range(2000):  # a hang guard of ~100 s
                if seen.wait(0.05):
                    return
                yield tb.TablesRequest(table="t1", look=tb.TableLook())

        answers = []
        for a in stub.Tables(busy(), timeout=120):
            answers.append(a)
            if a.WhichOneof("answer") == "closed" and a.table == "t0":
                seen.set()
        closed = [a for a in answers if a.WhichOneof("answer") == "closed"]
        assert any(a.table == "t0" and a.closed.reason == tb.TABLE_CLOSED_REASON_IDLE for a in closed), answers

        # A stream that sends nothing for --max-stream-idle ends DEADLINE_EXCEEDED: its
        # request iterator waits until the server has ended the call.
        ended = threading.Event()

        def idle():
            yield starts[0]
            ended.wait(120)

        with pytest.raises(grpc.RpcError) as e:
            try:
                list(stub.Tables(idle(), timeout=120))
            finally:
                ended.set()
        assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "--max-stream-idle" in e.value.details()

        # A client that never reads an answer (its window 0): after --max-stream-idle its
        # connection is closed, freeing the stream and its tables.
        host, port = bounded_server.target.rsplit(":", 1)
        raw = RawConnection(host, int(port), window=0)
        try:
            s_id = raw.next_stream
            raw.send(
                call_headers(s_id, "/handeval.v2.Handeval/Tables", raw.authority)
                + b"".join(frame(DATA, 0, s_id, grpc_message(r.SerializeToString())) for r in starts[:2])
            )
            # Its answer's send cannot be followed by a status: the connection is closed.
            wait_for(raw.closed.is_set, what="the unread stream's connection closed", server=bounded_server)
        finally:
            raw.close()

        # More streams than --max-table-streams (4; a quarter, 1, per client address).
        hold = threading.Event()

        def held():
            yield starts[0]
            hold.wait(20)

        first = stub.Tables(held(), timeout=30)
        assert next(first).WhichOneof("answer") == "tienlen"
        with pytest.raises(grpc.RpcError) as e:
            raw_stream(ch, [starts[1]])
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-table-streams" in e.value.details()
        hold.set()
        assert list(first) == []
    no_traceback(bounded_server)
    assert bounded_server.terminate() == 0


def test_games_finish_after_the_worker_dies(tmp_path):
    """Two workers; the one serving the stream is killed mid-game: the client resumes
    every table from its record on a new stream and finishes every game, each action
    applied once (the records are whole games the unary Settle accepts)."""
    s = ServerProcess(tmp_path, "--workers", "2").wait_serving()
    try:
        rng = random.Random(44)
        tables = {f"t{i}": tb.TableStart(tienlen=tienlen_table(rng, 4)) for i in range(3)}
        tables.update({f"d{i}": tb.TableStart(dachu=dachu_table(rng)) for i in range(2)})
        with s.channel() as ch:
            stream = TableStream(ch)
            stub = handeval_pb2_grpc.HandevalStub(ch)

            def kill_workers():
                for pid in children(s.proc.pid):
                    os.kill(pid, signal.SIGKILL)

            play_games(stream, stub, rng, tables, check_unary=False, kill=kill_workers)
            assert stream.resumes >= 1
            wait_for(lambda: len(children(s.proc.pid)) == 2, what="the workers restarted", server=s)
            for name, start in tables.items():
                settle_same_as_unary(stream, stub, name, start)
            stream.end()
    finally:
        s.close()

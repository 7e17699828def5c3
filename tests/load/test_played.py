"""The played load scenarios (handeval.load.play, table_wire, played_users): tables that
play whole 越式13张 and 打儲 games as a game server does, each action taken from the
answer; the floor's Tables stream (test_sweep_each.py: what the sweeps make of them)."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys

import grpc
import pytest

from handeval.load import play, scenarios, seats
from handeval.load.play import TABLES, Step, Unplayable
from handeval.load.table_wire import RecordWire, StreamWire
from handeval.load.tables_stream import TablesStream
from handeval.load.target import SpawnedServer
from handeval.v2 import common_pb2, tables_pb2 as tb, tienlen_pb2 as tl

from grpc_fixtures import small_limits_server

server = pytest.fixture(small_limits_server, scope="module", name="server")

if importlib.util.find_spec("locust") is None:
    pytest.skip("the load tests need Locust: pip install '.[load]'", allow_module_level=True)

RUN_TIMEOUT = 180
PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS


def bench_load(*args):
    return subprocess.run(
        [sys.executable, "-m", "handeval", "bench-load", *args], capture_output=True, text=True, timeout=RUN_TIMEOUT
    )


# ---------------------------------------------------------------- the guess of the next seat


def test_tienlen_next_seat_follows_the_trick():
    counts = [13, 13, 13, 13]
    assert seats.tienlen_next(0, 1, [], counts) == 1  # a play: the next seat
    assert seats.tienlen_next(1, 0, [2], counts) == 3  # a pass: the next seat still in the trick
    assert seats.tienlen_next(3, 0, [1, 2], counts) == 0  # the last pass: the trick's winner leads
    assert seats.tienlen_next(2, 3, [], [13, 13, 3, 13]) is None  # out of cards: the game is over


def test_dachu_next_seats_follow_the_play_and_the_sides():
    counts, playing = [10, 10, 10, 10], [0, 1, 2, 3]
    assert seats.dachu_play_next(0, 2, [], counts, playing, 0) == 1
    assert seats.dachu_play_next(3, 0, [1, 2], counts, playing, 0) == 0  # all passed: the player leads
    assert seats.dachu_play_next(1, 0, [], counts, [0, 1, 3], 0) == 3  # seat 2 sits out
    assert seats.dachu_play_next(3, 0, [1, 2], [0, 10, 10, 10], playing, 0) == 1  # the winner is out
    assert seats.dachu_call_next(0, [0, 2]) == 2 and seats.dachu_call_next(1, [0, 2]) == 3
    assert seats.dachu_call_next(3, [3]) == 0  # alone on its side: the other side calls


# ---------------------------------------------------------------- games against the service


def play_game(stub_of, table, check=None):
    """One whole game of ``table`` over unary records; ``check(step, answer, next)`` sees
    every answer and the step it led to. Returns the settlement."""
    wire = RecordWire(table)
    step = table.start()
    while True:
        rpc, payload = wire.encode(step)
        answer = wire.decode(rpc, stub_of(rpc)(payload, timeout=30))
        assert answer is not None
        if step.kind == "settle":
            return answer
        nxt = table.next(answer)
        if check:
            check(step, answer, nxt)
        step = nxt


@pytest.mark.parametrize("game", ["tienlen", "dachu"])
def test_played_games_take_each_action_from_the_answer(server, game):
    """Whole games against the service: the 托管 seat appends the suggestion of its own
    view, every other seat an action its view offered; the viewer asked is the seat with
    the decision (a wrong guess is corrected by a look before anyone acts, and is rare);
    each game settles. The same seed plays the same games (the records are equal)."""
    with server.channel() as ch:
        stubs = {r: ch.unary_unary(scenarios.method_path(r)) for r in ("Evaluate", "Settle")}
        steps = looks = suggested = 0
        records = []
        for seed in range(6):
            table = TABLES[game](random.Random(seed))

            def check(step, st, nxt, table=table):
                nonlocal suggested
                assert st.viewer == step.viewer  # the view asked for
                if nxt.kind != "action":
                    return
                seat = step.viewer  # the seat whose view decided
                if nxt.field == "deal" and nxt.action.kind in (1, 5):  # the dealer's DEAL and FINISH
                    return
                if seat == table.tuoguan:
                    sugg = st.suggestion if game == "tienlen" else _dachu_suggestion(st)
                    assert nxt.action == sugg.action
                    suggested += 1
                else:
                    offered = [getattr(o, o.WhichOneof("action")) for o in st.offers] if game == "dachu" else []
                    offered += [a for o in st.offers for a in getattr(o, "actions", ())] if game == "tienlen" else []
                    assert nxt.action in offered

            settlement = play_game(stubs.get, table, check)
            assert settlement.deltas and table.steps > 0
            steps, looks = steps + table.steps, looks + table.looks
            records.append(table.record.SerializeToString())
        again = []
        for seed in range(2):
            t = TABLES[game](random.Random(seed))
            play_game(stubs.get, t)
            again.append(t.record.SerializeToString())
    assert again == records[:2]
    assert suggested > 0 and looks <= 0.1 * steps
    # The floor's blind games are about as long as played ones.
    assert 0.75 < (steps / 6) / play.BLIND_STEPS[game] < 1.25


def _dachu_suggestion(st):
    from handeval.v2 import dachu_pb2 as dc

    if st.phase == dc.DACHU_PHASE_DEAL:
        return st.deal.suggestion
    return st.calling.suggestion if st.phase == dc.DACHU_PHASE_CALLING else st.play.suggestion


def test_the_next_action_depends_on_the_answer():
    """Not a list of requests built beforehand: the 托管 seat plays whatever its answer
    suggests, and another seat only what its answer offers."""

    def table(tuoguan_is_to_move: bool):
        t = TABLES["tienlen"](random.Random(3))
        t.start()
        t.tuoguan = t.viewer if tuoguan_is_to_move else (t.viewer + 1) % 4
        return t

    seat = table(True).viewer
    for cards in (["3s"], ["3s", "3h"], ["5d"]):
        st = tl.TienlenGameState(to_move=seat, viewer=seat, card_counts=[13] * 4)
        action = common_pb2.PlayAction(seat=seat, kind=PLAY, cards=common_pb2.Cards(cards=cards))
        st.suggestion.action.CopyFrom(action)
        st.offers.add(seat=seat, acting=common_pb2.ACTING_TURN).actions.add().CopyFrom(action)
        assert table(True).next(st).action == action  # the suggestion
        assert table(False).next(st).action == action  # the only offer
        st.ClearField("suggestion")
        with pytest.raises(Unplayable, match="NO_SUGGESTION"):
            table(True).next(st)
    st.to_move = (seat + 2) % 4  # another seat is to move: look at its view first
    assert table(False).next(st) == Step("look", (seat + 2) % 4)


@pytest.mark.parametrize("game", ["tienlen", "dachu"])
def test_a_stream_plays_the_same_games_as_records(server, game):
    """Three tables interleaved on one Tables stream play, step for step, the games the
    same seeds play over unary records (the stream answers as the record would, so the
    seeded choices are the same); every game settles."""
    with server.channel() as ch:
        stubs = {r: ch.unary_unary(scenarios.method_path(r)) for r in ("Evaluate", "Settle")}
        want = []
        for seed in range(3):
            t = TABLES[game](random.Random(seed))
            play_game(stubs.get, t)
            want.append(t.record.SerializeToString())
        stream, wire = TablesStream(ch, deadline_s=120), StreamWire()
        tables = [TABLES[game](random.Random(seed)) for seed in range(3)]
        steps = [t.start() for t in tables]
        settled = 0
        while any(steps):
            for i, (t, step) in enumerate(zip(tables, steps)):
                if step is None:
                    continue
                sent = wire.encode(f"t{i}", t, step)
                answer = wire.decode(f"t{i}", t, stream.send(sent), sent)
                assert answer is not None
                if step.kind == "settle":
                    settled += 1
                    steps[i] = None
                else:
                    steps[i] = t.next(answer)
        stream.close()
    assert settled == 3 and [t.record.SerializeToString() for t in tables] == want


def test_stream_answers_are_checked():
    table, wire = TABLES["tienlen"](random.Random(1)), StreamWire()
    sent = wire.encode("t0", table, table.start())
    assert wire.decode("t0", table, sent, sent) is None  # the floor's echo: play blind
    err = tb.TablesResponse(table="t0")
    err.error.reason, err.error.field = common_pb2.ERROR_REASON_NOT_YOUR_TURN, "game.actions[3].seat"
    with pytest.raises(Unplayable, match="ITEM_ERROR ERROR_REASON_NOT_YOUR_TURN"):
        wire.decode("t0", table, err.SerializeToString(), sent)
    closed = tb.TablesResponse(table="t0", closed=tb.TableClosed(reason=tb.TABLE_CLOSED_REASON_IDLE))
    with pytest.raises(Unplayable, match="TABLE_CLOSED TABLE_CLOSED_REASON_IDLE"):
        wire.decode("t0", table, closed.SerializeToString(), sent)
    with pytest.raises(Unplayable, match="OTHER_TABLE"):
        wire.decode("t0", table, tb.TablesResponse(table="t1").SerializeToString(), sent)
    state = tb.TablesResponse(table="t0", actions=0, tienlen=tl.TienlenGameState(to_move=2))
    assert wire.decode("t0", table, state.SerializeToString(), sent).to_move == 2


def test_the_floor_answers_a_tables_stream():
    """The floor echoes each message of a Tables stream (so a stream has a floor), or with
    --sized answers as many bytes as the message's first four say."""
    with SpawnedServer(kind="floor") as floor, grpc.insecure_channel(floor.target) as ch:
        stream = TablesStream(ch, deadline_s=30)
        assert [stream.send(bytes([k]) * 9) for k in range(3)] == [bytes([k]) * 9 for k in range(3)]
        stream.close()
    with SpawnedServer(kind="floor", extra=("--sized",)) as floor, grpc.insecure_channel(floor.target) as ch:
        stream = TablesStream(ch, deadline_s=30)
        assert len(stream.send((700).to_bytes(4, "big") + b"x" * 20)) == 700
        stream.close()
        assert len(ch.unary_unary(scenarios.method_path("Evaluate"))((33).to_bytes(4, "big"), timeout=10)) == 33


# ---------------------------------------------------------------- Locust and the capacity


def test_record_users_play_whole_games_under_locust(server, tmp_path):
    out = tmp_path / "run.json"
    r = bench_load(
        "--target", server.target, "--mix", "tienlen.record,dachu.record", "--users", "2", "--run-time", "4",
        "--json-out", str(out),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = {(x["method"], x["name"]): x for x in json.loads(out.read_text())["summary"]["rows"]}
    for name in ("tienlen.record@1", "dachu.record@1"):
        assert rows[("Evaluate", name)]["failures"] == 0 and rows[("Settle", name)]["requests"] > 0
        assert rows[("Settle", name)]["failures"] == 0


def test_stream_users_play_whole_games_under_locust(server, tmp_path):
    out = tmp_path / "run.json"
    r = bench_load(
        "--target", server.target, "--mix", "tienlen.stream@4,dachu.stream@4", "--users", "2", "--run-time", "4",
        "--json-out", str(out),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = {(x["method"], x["name"]): x for x in json.loads(out.read_text())["summary"]["rows"]}
    for name in ("tienlen.stream@4", "dachu.stream@4"):
        assert rows[("Tables", name)]["failures"] == 0 and rows[("TableSettle", name)]["requests"] > 0
        assert rows[("TableSettle", name)]["failures"] == 0


def test_stream_users_under_gevent_one_request_per_message(tmp_path):
    """A bidirectional stream of grpcio's blocking client under Locust's gevent: against the
    floor (echoes; the tables play blind), every message is one Locust request, no failure,
    and the games end with TableSettle."""
    out = tmp_path / "run.json"
    r = bench_load(
        "--spawn-server", "--server-kind", "floor", "--mix", "tienlen.stream@3,dachu.stream@2", "--users", "4",
        "--run-time", "3", "--json-out", str(out),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = json.loads(out.read_text())["summary"]["rows"]
    assert {x["method"] for x in rows} == {"Tables", "TableSettle"}
    assert all(x["failures"] == 0 and x["requests"] > 0 for x in rows)
    games = sum(x["requests"] for x in rows if x["method"] == "TableSettle")
    steps = sum(x["requests"] for x in rows if x["method"] == "Tables")
    assert games > 0 and steps >= games * min(play.BLIND_STEPS.values())

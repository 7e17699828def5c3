"""The 打儲 table as every surface gives it, from the core's one model: a seat's view of
the deal (Python `Deal.view`), its offers, 托管 in every phase (the record's `suggest` over
gRPC, Python's `Deal.suggest` / `Calling.suggest`, the CLI), and the one error a record
with several bad entries gets on each surface (the first the replay reaches)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from handeval import HandevalError, _core, dachu
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb
from harness.deck import DECK

from strategies import DC_HANDS


def evaluate_game(record: dc.DachuGameRecord):
    req = pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=[dc.DachuEvaluateItem(game=record)]))
    data = _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 10_000, 1000, False)
    r = pb.EvaluateResponse.FromString(data).dachu.results[0]
    return r.game if r.WhichOneof("result") == "game" else r.error


def _random_step(rng, rec, full) -> None:
    """Append to ``rec`` a random action the table offers in ``full``, its whole state:
    a deal declaration (mostly none), a legal call or an offered play."""
    if full.phase == dc.DACHU_PHASE_DEAL:
        pool = list(full.deal.legal_actions)
        rec.deal_actions.append(rng.choice(pool) if rng.random() < 0.3 else pool[0])
    elif full.phase == dc.DACHU_PHASE_CALLING:
        rec.calls.append(rng.choice(list(full.calling.legal_actions)))
    else:
        rec.plays.append(rng.choice([o.play for o in full.offers]))


def _record(hands, **kw):
    return dc.DachuGameRecord(hands=[common_pb2.Cards(cards=h.split()) for h in hands], **kw)


DEAL = dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_DEAL)
FINISH = dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_FINISH)


# ---- one error for a record with several bad entries ----


def test_the_first_error_the_replay_reaches_on_both_surfaces():
    """An illegal deal_actions[0] and a malformed plays[0]: both surfaces name the deal
    action (ILLEGAL_ACTION, index 0), where Python named the play before."""
    with pytest.raises(HandevalError) as ei:
        dachu.replay_game(DC_HANDS, [("finish",)], [], [("fly", 0)])
    e = ei.value
    assert (e.field, e.reason, e.action_index) == ("deal_actions[0]", "illegal_action", 0)
    rec = _record(DC_HANDS, deal_actions=[FINISH], plays=[common_pb2.PlayAction(seat=0)])
    err = evaluate_game(rec)
    assert isinstance(err, common_pb2.ItemError)
    assert (err.field, err.reason, err.action_index) == (
        "items[0].game.deal_actions[0]",
        common_pb2.ERROR_REASON_ILLEGAL_ACTION,
        0,
    )
    # A malformed entry after a legal start is named by both at that entry.
    with pytest.raises(HandevalError) as ei:
        dachu.replay_game(DC_HANDS, [("deal",), ("meng_xuan", 0, "Ah Ad")], [], [])
    e = ei.value
    rec = _record(
        DC_HANDS,
        deal_actions=[
            DEAL,
            dc.DachuDealAction(
                kind=dc.DACHU_DEAL_ACTION_KIND_MENG_XUAN, seat=0, cards=common_pb2.Cards(cards=["Ah", "Ad"])
            ),
        ],
    )
    err = evaluate_game(rec)
    assert (e.field, e.reason, e.action_index) == ("deal_actions[1].cards", "wrong_count", 1)
    assert (err.field, err.reason, err.action_index) == (
        "items[0].game.deal_actions[1].cards",
        common_pb2.ERROR_REASON_WRONG_COUNT,
        1,
    )


# ---- the deal as a seat sees it, offers, 托管 ----


def _random_hands(rng):
    deck = rng.sample(DECK, 52)
    return [" ".join(deck[13 * i : 13 * i + 13]) for i in range(4)]


@pytest.mark.parametrize("seed", range(6))
def test_deal_view_and_offers_agree_with_grpc(seed):
    """Python's Deal.view(seat) and Deal.offers(seat) are the gRPC seat view's deal and
    offers: the seat's own cards, its declarations only, the last card only after 平宣."""
    rng = random.Random(seed)
    hands = _random_hands(rng)
    d = dachu.Deal(hands)
    rec = _record(hands)
    while not d.finished:
        for seat in range(4):
            rec.viewer = seat
            st = evaluate_game(rec)
            v = d.view(seat)
            assert v["viewer"] == seat and v["held"][seat] == list(st.deal.held[seat].cards)
            assert all(v["held"][s] is None and not st.deal.held[s].cards for s in range(4) if s != seat)
            assert v["last_card"] == st.deal.last_card
            assert (v["first_leader"] if v["first_leader"] is not None else -1) == st.deal.first_leader
            offers = d.offers(seat)
            assert [list(o) for o in offers] == v["legal_actions"]
            assert len(offers) == len(st.offers) == len(st.deal.legal_actions)
            assert all(o.acting == common_pb2.ACTING_MAY_ACT and o.seat == seat for o in st.offers)
        pool = d.legal_actions
        a = rng.choice(pool) if rng.random() < 0.3 else pool[0]
        d = d.apply(a)
        rec.ClearField("viewer")
        full = evaluate_game(rec)
        msg = [x for x in full.deal.legal_actions if _same(x, a)]
        assert msg, (a, full.deal.legal_actions)
        rec.deal_actions.append(msg[0])
    rec.ClearField("viewer")
    full = evaluate_game(rec)
    for seat in range(4):
        rec.viewer = seat
        st = evaluate_game(rec)
        turned_up = full.deal.chu_source == dc.DACHU_CHU_SOURCE_PING_XUAN
        assert st.deal.last_card == (full.deal.last_card if turned_up else "")
        assert d.view(seat)["last_card"] == st.deal.last_card


def _same(msg, action):
    kinds = {"deal": 1, "meng_xuan": 2, "meng_chuai": 3, "cheng_chu": 4, "finish": 5}
    assert dc.DachuDealActionKind.Name(kinds["deal"]) == "DACHU_DEAL_ACTION_KIND_DEAL"
    if msg.kind != getattr(dc, "DACHU_DEAL_ACTION_KIND_" + action[0].upper()):
        return False
    if len(action) == 1:
        return True
    if msg.seat != action[1]:
        return False
    if action[0] == "cheng_chu":
        return dc.DachuColour.Name(msg.colour) == "DACHU_COLOUR_" + action[2].upper()
    cards = [action[2]] if isinstance(action[2], str) else list(action[2])
    return list(msg.cards.cards) == cards


def _dc_deal_actions(state):
    return list(state.deal.legal_actions)


@pytest.mark.parametrize("seed", range(8))
def test_every_decision_has_a_suggestion_among_the_offers(seed):
    """A record's `suggest` with a `viewer` answers that seat's decision in every phase,
    among its offers (a declaration or none in the deal, a call, a play or a pass), and
    agrees with Python's Deal.suggest / Calling.suggest; a viewer with no decision gets
    the state without a suggestion."""
    rng = random.Random(seed)
    hands = _random_hands(rng)
    rec = _record(hands, first_seat=rng.randrange(4))
    phases = set()
    while True:
        rec.ClearField("viewer")
        rec.ClearField("suggest")
        full = evaluate_game(rec)
        assert isinstance(full, dc.DachuGameState), full
        if full.phase == dc.DACHU_PHASE_OVER:
            break
        rec.suggest.CopyFrom(common_pb2.SuggestQuery(seed=seed))
        for seat in range(4):
            rec.viewer = seat
            st = evaluate_game(rec)
            decides = bool(st.offers)
            got = {
                "deal": st.deal.HasField("suggestion"),
                "calling": st.HasField("calling") and st.calling.HasField("suggestion"),
                "play": st.HasField("play") and st.play.HasField("suggestion"),
            }
            assert sum(got.values()) == int(decides), (seat, got, list(st.offers))
            if not decides:
                continue
            if full.phase == dc.DACHU_PHASE_DEAL:
                phases.add("deal")
                s = st.deal.suggestion
                if s.HasField("action"):
                    assert any(o.deal_action == s.action for o in st.offers)
                d = dachu.Deal(hands, first_seat=rec.first_seat)
                for a in rec.deal_actions:
                    d = d.apply(_py_deal_action(a))
                py = d.suggest(seat, seed=seed)
                assert (py is None) == (not s.HasField("action"))
                if py is not None:
                    assert _flat(py) == _flat(_py_deal_action(s.action))
            elif full.phase == dc.DACHU_PHASE_CALLING:
                phases.add("calling")
                s = st.calling.suggestion
                assert any(o.call == s.action for o in st.offers)
                assert s.action.seat == seat == full.calling.turn
            else:
                phases.add("play")
                s = st.play.suggestion
                assert any(o.play == s.action for o in st.offers)
        # The game goes on with the table's choice.
        _random_step(rng, rec, full)
    surrendered = full.calling.outcome == dc.DACHU_CALLING_OUTCOME_SURRENDER
    assert "calling" in phases and ("play" in phases or surrendered)


def _flat(action):
    return tuple(" ".join(x) if isinstance(x, list) else x for x in action)


def _py_deal_action(a):
    name = dc.DachuDealActionKind.Name(a.kind).removeprefix("DACHU_DEAL_ACTION_KIND_").lower()
    if name in ("deal", "finish"):
        return (name,)
    if name == "cheng_chu":
        return (name, a.seat, dc.DachuColour.Name(a.colour).removeprefix("DACHU_COLOUR_").lower())
    return (name, a.seat, " ".join(a.cards.cards))


def test_calling_suggestion_agrees_with_python():
    """The record's calling suggestion is Python's Calling.suggest for the seat to call."""
    rec = _record(DC_HANDS, deal_actions=[DEAL] * 9 + [FINISH], suggest=common_pb2.SuggestQuery(seed=1))
    st = evaluate_game(rec)
    d = dachu.Deal(DC_HANDS)
    for _ in range(9):
        d = d.apply(("deal",))
    c = d.apply(("finish",)).calling()
    turn = c.turn
    call, seat = c.suggest(DC_HANDS[turn], st.chu and dc.DachuColour.Name(st.chu).removeprefix("DACHU_COLOUR_").lower())
    assert seat == turn == st.calling.suggestion.action.seat
    assert dc.DachuCallKind.Name(st.calling.suggestion.action.call) == "DACHU_CALL_KIND_" + call.upper()


def test_cli_viewer_not_to_move_gets_no_suggestion():
    """`handeval dachu game --viewer S --suggest` with S not to move: the state, no
    suggestion, exit 0 (as gRPC answers)."""
    common = ["--hands", *DC_HANDS, "--actions", "deal*9; cheng_chu 1 red; finish", "--calls", "ping_da 1"]
    run = [sys.executable, "-m", "handeval", "dachu", "game", *common, "--plays", "play 0 3h", "--json", "--suggest"]
    turn = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout)["game"]["turn"]
    other = (turn + 1) % 4
    out = subprocess.run([*run, "--viewer", str(other)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert "suggest" not in got and got["game"]["viewer"] == other
    mine = json.loads(subprocess.run([*run, "--viewer", str(turn)], capture_output=True, text=True, check=True).stdout)
    assert mine["suggest"]["seat"] == turn


# ---- the same record, the same answer on both surfaces ----


def _py_play(a):
    if a.kind == common_pb2.ACTION_KIND_PLAY:
        return ("play", a.seat, " ".join(a.cards.cards))
    return ("pass" if a.kind == common_pb2.ACTION_KIND_PASS else "timeout", a.seat)


def _py_call(c):
    return (dc.DachuCallKind.Name(c.call).removeprefix("DACHU_CALL_KIND_").lower(), c.seat)


def _mutate(rng, rec):
    """One or two entries changed into something the record may not allow: another seat,
    a card the seat does not hold, an action of another phase, or an entry dropped."""
    lists = [name for name in ("deal_actions", "calls", "plays") if len(getattr(rec, name))]
    for _ in range(rng.choice((1, 2))):
        name = rng.choice(lists)
        entries = getattr(rec, name)
        k = rng.randrange(len(entries))
        e = entries[k]
        how = rng.randrange(4)
        if how == 0:
            del entries[k]
        elif how == 1 and name != "deal_actions":
            e.seat = (e.seat + rng.randrange(1, 4)) % 4
        elif how == 2 and name == "plays" and e.cards.cards:
            e.cards.cards[0] = rng.choice(DECK)
        elif how == 2 and name == "deal_actions":
            entries.insert(k, rng.choice((FINISH, DEAL)))
        else:
            entries.insert(k, entries[rng.randrange(len(entries))])
    return rec


@pytest.mark.parametrize("seed", range(40))
def test_python_and_grpc_give_the_same_answer_for_a_record(seed):
    """A random game, mutated: `dachu.replay_game`, the service and (every fourth seed) the
    command line answer alike: the same state when they replay it, the same (entry,
    reason, index) when it is refused.
    (Python's replay_game gives a Game, so a record that stops before the play is an
    error there and a state over gRPC: only the errors of the record itself compare.)"""
    rng = random.Random(seed)
    hands = _random_hands(rng)
    rec = _record(hands, first_seat=rng.randrange(4))
    while (full := evaluate_game(rec)).phase != dc.DACHU_PHASE_OVER:
        _random_step(rng, rec, full)
    _mutate(rng, rec)
    got = evaluate_game(rec)
    args = (
        hands,
        [_py_deal_action(a) for a in rec.deal_actions],
        [_py_call(c) for c in rec.calls],
        [_py_play(p) for p in rec.plays],
    )
    cli = _cli(hands, rec.first_seat, args) if seed % 4 == 0 else None
    try:
        g = dachu.replay_game(*args, first_seat=rec.first_seat)
    except HandevalError as e:
        if cli is not None:
            # The command line names the lists by its options (--actions, --calls, --plays).
            name = e.field.split("[", 1)[0]
            option = {"deal_actions": "actions"}.get(name, name)
            want = f"{option}[{e.action_index}]" if e.action_index is not None else e.field
            assert cli.returncode == 2 and cli.stderr.startswith(f"handeval: {want}"), (cli.stderr, e.field)
            assert cli.stderr.rstrip().endswith(f"[{e.reason}]"), (cli.stderr, e.reason)
        if isinstance(got, common_pb2.ItemError):
            assert got.field == "items[0].game." + e.field, (got.field, e.field)
            assert common_pb2.ErrorReason.Name(got.reason) == "ERROR_REASON_" + e.reason.upper()
            assert got.action_index == e.action_index
        else:  # stopped before the play: an error of the missing step in Python only
            assert got.phase in (dc.DACHU_PHASE_DEAL, dc.DACHU_PHASE_CALLING, dc.DACHU_PHASE_OVER)
            assert not rec.plays and e.field in ("deal", "calling", "plays")
        return
    assert isinstance(got, dc.DachuGameState), got
    assert g.places == list(got.play.places) and g.turn == (got.play.to_move if got.play.HasField("to_move") else None)
    if cli is not None:
        assert cli.returncode == 0, cli.stderr
        out = json.loads(cli.stdout)["game"]
        assert (out["places"], out["turn"]) == (g.places, g.turn)


def _cli(hands, first_seat, args):
    """`handeval dachu game` with the record's lists as JSON."""
    _, deal_actions, calls, plays = args
    cmd = [
        sys.executable,
        "-m",
        "handeval",
        "dachu",
        "game",
        "--hands",
        *hands,
        "--first-seat",
        str(first_seat),
        "--json",
    ]
    for option, entries in (("--actions", deal_actions), ("--calls", calls), ("--plays", plays)):
        cmd += [option, json.dumps([list(a) for a in entries])]
    return subprocess.run(cmd, capture_output=True, text=True)

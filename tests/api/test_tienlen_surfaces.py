"""The same 越式13张 record gives the same answer and the same error (field, reason, action
index) through Python (``tienlen.replay``), gRPC (the wire's ``TienlenGameRecord``,
answered in process) and the CLI (``handeval tienlen game --json``): fuzzed records —
random games with one action, or the hands, bent out of shape."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from hypothesis import HealthCheck, given, settings, strategies as st

from handeval import HandevalError, _core, tienlen
from handeval.v2 import common_pb2, handeval_pb2 as pb, tienlen_pb2 as tl
from harness.deck import DECK

WINDOWS = ["first_actor", "strict", "own_pass", "open"]
PREFIX = "items[0].game."


def fuzzed_record(seed: int):
    """(hands, actions, rules): a random game's prefix, then maybe one entry bent."""
    rng = random.Random(seed)
    deck = rng.sample(DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(rng.choice([2, 3, 4]))]
    window = rng.choice(WINDOWS)
    rules = tienlen.Rules(chop_window=window, turn_after_chop=rng.choice(["from_chopper", "resume"]))
    g, actions = tienlen.Game(hands, rules=rules), []
    for _ in range(rng.randrange(0, 80)):
        if g.over:
            break
        offers = [a for s in range(len(hands)) for a, _ in g.view(s)["offers"]]
        seat, cards = rng.choice(offers)
        actions.append([seat, cards if cards == "pass" else list(cards)])
        g = g.apply((seat, cards))
    bend = rng.randrange(8)
    if bend == 0 or not actions:  # one more action, anything
        actions.append([rng.randrange(-1, 6), rng.choice(["pass", rng.sample(DECK, rng.randrange(1, 6))])])
    elif bend == 1:  # an action's seat
        actions[rng.randrange(len(actions))][0] = rng.randrange(-2, 6)
    elif bend == 2:  # an action's cards: other cards, a bad token or one card twice
        k = rng.randrange(len(actions))
        cards = rng.sample(DECK, rng.randrange(1, 5))
        actions[k][1] = rng.choice([cards, [*cards[:-1], "Xx"], [cards[0], cards[0]], "pass"])
    elif bend == 3:  # the hands: a card short, a card in two hands, a fifth hand
        i = rng.randrange(len(hands))
        choice = rng.randrange(3)
        if choice == 0:
            hands[i] = hands[i][1:]
        elif choice == 1:
            hands[i] = [hands[(i + 1) % len(hands)][0], *hands[i][1:]]
        else:
            hands = [*hands, *hands][:5]
    return hands, actions, rules, window


def python_answer(hands, actions, rules):
    try:
        g = tienlen.replay(hands, [tuple(a) for a in actions], rules=rules)
    except HandevalError as e:
        return ("error", e.field, e.reason, e.action_index)
    offers = [
        (tuple(a), acting) for s in range(g.players) for (a, acting) in [(tuple(x), y) for x, y in g.view(s)["offers"]]
    ]
    return ("game", g.over, g.winner, g.turn, g.round, [len(h) for h in g.held], g.passed, sorted(offers, key=str))


def _action(seat, cards):
    if cards == "pass":
        return common_pb2.PlayAction(seat=seat, kind=common_pb2.ACTION_KIND_PASS)
    return common_pb2.PlayAction(seat=seat, kind=common_pb2.ACTION_KIND_PLAY, cards=common_pb2.Cards(cards=cards))


def grpc_answer(hands, actions, window, turn_after_chop):
    record = tl.TienlenGameRecord(
        hands=[common_pb2.Cards(cards=h) for h in hands], actions=[_action(s, c) for s, c in actions]
    )
    rules = tl.TienlenRules(
        chop_window=getattr(tl, f"TIENLEN_CHOP_WINDOW_{window.upper()}"),
        turn_after_chop=getattr(tl, f"TIENLEN_TURN_AFTER_CHOP_{turn_after_chop.upper()}"),
    )
    return grpc_state(record, rules)


def grpc_state(record, rules):
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(rules=rules, items=[tl.TienlenEvaluateItem(game=record)])
    )
    data = _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 10_000, 1000, False)
    r = pb.EvaluateResponse.FromString(data).tienlen.results[0]
    if r.WhichOneof("result") == "error":
        e = r.error
        assert e.field.startswith(PREFIX), e.field
        reason = common_pb2.ErrorReason.Name(e.reason).removeprefix("ERROR_REASON_").lower()
        return ("error", e.field.removeprefix(PREFIX), reason, e.action_index if e.HasField("action_index") else None)
    s = r.game
    offers = [
        (
            (a.seat, "pass" if a.kind == common_pb2.ACTION_KIND_PASS else tuple(a.cards.cards)),
            "turn" if o.acting == common_pb2.ACTING_TURN else "may_act",
        )
        for o in s.offers
        for a in o.actions
    ]
    return (
        "game",
        s.over,
        s.winner if s.HasField("winner") else None,
        s.to_move if s.HasField("to_move") else None,
        s.round,
        list(s.card_counts),
        list(s.passed),
        sorted(offers, key=str),
    )


def _normal(answer):
    """Python's offers hold card lists; the wire's tuples."""
    if answer[0] != "game":
        return answer
    offers = [((a[0], a[1] if a[1] == "pass" else tuple(a[1])), acting) for a, acting in answer[-1]]
    return (*answer[:-1], sorted(offers, key=str))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_python_and_grpc_agree_on_fuzzed_records(seed):
    hands, actions, rules, window = fuzzed_record(seed)
    want = _normal(python_answer(hands, actions, rules))
    got = grpc_answer(hands, actions, window, rules.turn_after_chop)
    assert got == want, (hands, actions, window)


def test_the_cli_agrees_on_fuzzed_records():
    """The CLI too (a process per record, so fewer records): the same state, or exit 2
    with the same field and reason."""
    checked = errors = 0
    for seed in range(40):
        hands, actions, rules, window = fuzzed_record(seed)
        if len(hands) > 4 or any(len(h) != 13 for h in hands):
            continue  # the CLI reads --hands itself (one quoted argument per seat)
        want = python_answer(hands, actions, rules)
        argv = [sys.executable, "-m", "handeval", "tienlen", "game", "--json"]
        argv += ["--rules", f"chop_window={window},turn_after_chop={rules.turn_after_chop}"]
        argv += ["--hands", *[" ".join(h) for h in hands]]
        argv += ["--actions", json.dumps(actions)]
        p = subprocess.run(argv, capture_output=True, text=True)
        if want[0] == "error":
            _, field, reason, _ = want
            assert p.returncode == 2, p.stdout
            line = p.stderr.strip()
            assert line.startswith(f"handeval: {field}") and line.endswith(f"[{reason}]"), (line, want)
            errors += 1
        else:
            assert p.returncode == 0, p.stderr
            got = json.loads(p.stdout)["game"]
            assert (got["over"], got["winner"], got["turn"], got["round"], got["passed"]) == (
                want[1],
                want[2],
                want[3],
                want[4],
                want[6],
            )
        checked += 1
    assert checked >= 20 and errors >= 5

"""越式13张 seat views on the wire (answered in process by the wire, which converts the
core's view): docs/grpc.md's audit rows for `TienlenGameState` checked against the
answers, every offer's `acting`, 托管 for a viewer that may chop out of turn, and the same
answer through the wire, Python and the CLI."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from handeval import _core, tienlen
from handeval.v2 import common_pb2, handeval_pb2 as pb, tienlen_pb2 as tl
from harness.deck import DECK

ROOT = Path(__file__).resolve().parents[2]
PLAY, PASS = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS
WINDOWS = {
    "first_actor": tl.TIENLEN_CHOP_WINDOW_FIRST_ACTOR,
    "strict": tl.TIENLEN_CHOP_WINDOW_STRICT,
    "own_pass": tl.TIENLEN_CHOP_WINDOW_OWN_PASS,
    "open": tl.TIENLEN_CHOP_WINDOW_OPEN,
}


def C(cards):
    return common_pb2.Cards(cards=list(cards))


def state(record: tl.TienlenGameRecord, rules=None):
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(rules=rules, items=[tl.TienlenEvaluateItem(game=record)])
    )
    data = _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 10_000, 1000, False)
    r = pb.EvaluateResponse.FromString(data).tienlen.results[0]
    return r.game if r.WhichOneof("result") == "game" else r.error


def _api_action(a: common_pb2.PlayAction):
    return (a.seat, "pass" if a.kind == PASS else list(a.cards.cards))


def random_records(seed: int, window: str = "first_actor"):
    """Every prefix of a random game played with the offered actions unchanged: (record, its
    table answer, the Python game)."""
    rng = random.Random(seed)
    deck = rng.sample(DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(rng.choice([2, 3, 4]))]
    rules = tl.TienlenRules(chop_window=WINDOWS[window])
    record = tl.TienlenGameRecord(hands=[C(h) for h in hands])
    g = tienlen.Game(hands, rules=tienlen.Rules(chop_window=window))
    while True:
        st = state(record, rules)
        yield tl.TienlenGameRecord.FromString(record.SerializeToString()), st, g, rules
        if st.over:
            return
        pool = [a for o in st.offers for a in o.actions]
        passes = [a for a in pool if a.kind == PASS]
        a = rng.choice(passes) if passes and rng.random() < 0.4 else rng.choice(pool)
        record.actions.append(a)
        g = g.apply(_api_action(a))


# ---- the audit table ----


def _audit_rows() -> list[tuple[list[str], str]]:
    """docs/grpc.md's rows for TienlenGameState: (fields, "with viewer" text)."""
    rows, inside = [], False
    for line in (ROOT / "docs" / "grpc.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4:
            continue
        if cells[0]:
            inside = cells[0] == "`TienlenGameState`"
        if inside:
            rows.append((re.findall(r"`([a-z_.]+)`", cells[1]), cells[3]))
    return rows


def _get(msg, path: str):
    for part in path.split("."):
        msg = getattr(msg, part)
    return msg


def _holds_or_played_lowest(g: tienlen.Game, viewer: int) -> bool:
    lead = tienlen.first_leader(g.hands)
    return lead.seat == viewer or lead.card not in g.held[lead.seat]


def _check_row(with_viewer: str, field: str, seen, table, g: tienlen.Game, v: int):
    got, whole = _get(seen, field), _get(table, field)
    if with_viewer == "as is":
        assert got == whole, field
    elif with_viewer == "the viewer's; the others empty":
        assert [list(h.cards) for h in got] == [list(h.cards) if s == v else [] for s, h in enumerate(whole)]
    elif with_viewer.startswith("the viewer's offer only"):
        assert list(got) == [o for o in whole if o.seat == v]
    elif with_viewer == '"" until it is played, unless the viewer holds it':
        assert got == (whole if _holds_or_played_lowest(g, v) else ""), field
    elif with_viewer == "the viewer":
        assert seen.HasField("viewer") and got == v and not table.HasField("viewer")
    elif with_viewer.startswith("for the viewer when it has a decision"):
        decides = any(o.seat == v for o in seen.offers)
        assert seen.HasField("suggestion") == decides
    else:
        raise AssertionError(f"docs/grpc.md: no check for {with_viewer!r} ({field})")


def test_the_audit_rows_name_every_field_once():
    named = [f for fields, _ in _audit_rows() for f in fields]
    want = []
    for f in tl.TienlenGameState.DESCRIPTOR.fields:
        if f.message_type is not None and f.message_type.name == "TienlenFirstLead":
            want += [f"{f.name}.{s.name}" for s in f.message_type.fields]
        else:
            want.append(f.name)
    assert sorted(named) == sorted(want)


@pytest.mark.parametrize("seed", range(8))
def test_the_audit_rows_hold(seed):
    rows = _audit_rows()
    for record, table, g, rules in random_records(seed, window=list(WINDOWS)[seed % 4]):
        for v in range(len(record.hands)):
            asked = tl.TienlenGameRecord.FromString(record.SerializeToString())
            asked.viewer = v
            asked.suggest.seed = 1
            seen = state(asked, rules)
            for fields, with_viewer in rows:
                for field in fields:
                    _check_row(with_viewer, field, seen, table, g, v)


# ---- offers, acting and 托管 ----


@pytest.mark.parametrize("seed", range(8))
def test_offers_say_who_may_act_and_match_the_python_view(seed):
    for record, table, g, _ in random_records(seed, window=list(WINDOWS)[(seed + 1) % 4]):
        for o in table.offers:
            turn = table.HasField("to_move") and o.seat == table.to_move
            assert o.acting == (common_pb2.ACTING_TURN if turn else common_pb2.ACTING_MAY_ACT)
        for v in range(len(record.hands)):
            view = g.view(v)
            wire = [
                (_api_action(a), "turn" if o.acting == common_pb2.ACTING_TURN else "may_act")
                for o in table.offers
                if o.seat == v
                for a in o.actions
            ]
            assert [(tuple(a), acting) for a, acting in wire] == [(tuple(a), acting) for a, acting in view["offers"]]


def test_a_viewer_that_may_chop_gets_a_suggestion_on_every_surface():
    """A seat that passed and may chop: gRPC answers its suggestion (an unset action: let
    the chance go), the same as Python's; the CLI prints it; a viewer with no decision
    gets the state without one, on gRPC and the CLI alike."""
    found = 0
    for seed in range(300):
        for record, table, g, rules in random_records(seed, window="open"):
            chop = [o for o in table.offers if o.acting == common_pb2.ACTING_MAY_ACT]
            if not chop:
                continue
            v = chop[0].seat
            asked = tl.TienlenGameRecord.FromString(record.SerializeToString())
            asked.viewer, asked.suggest.seed = v, 3
            st = state(asked, rules)
            want = g.suggest(v, seed=3)
            got = _api_action(st.suggestion.action) if st.suggestion.HasField("action") else None
            assert (None if got is None else (got[0], list(got[1]))) == (
                None if want is None else (want[0], list(want[1]))
            )
            assert len(st.suggestion.alternatives) == len(g.suggestions(v, seed=3))
            idle = next(s for s in range(len(record.hands)) if not g.view(s)["offers"])
            asked.viewer = idle
            assert not state(asked, rules).HasField("suggestion")
            if found == 0:
                _check_cli(record, v, want, idle)
            found += 1
            break
        if found >= 5:
            break
    assert found >= 5


def _check_cli(record, v, want, idle):
    hands = [" ".join(h.cards) for h in record.hands]
    actions = "; ".join(f"{a.seat} {'pass' if a.kind == PASS else ' '.join(a.cards.cards)}" for a in record.actions)
    base = [sys.executable, "-m", "handeval", "tienlen", "game", "--json", "--hands", *hands, "--actions", actions]
    out = subprocess.run([*base, "--viewer", str(v), "--suggest", "--seed", "3"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["suggest"]
    assert (None if got is None else (got["seat"], got["action"])) == (
        None if want is None else (want[0], list(want[1]))
    )
    out = subprocess.run([*base, "--viewer", str(idle), "--suggest"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "suggest" not in json.loads(out.stdout)

"""Game states a machine can act on (越式13张 and 打儲 `game` items, answered in process by
the wire): every offer carries the action to send back as it is, a record's TIMEOUT
says what it became and by default throws the weakest single, a `viewer` answer holds
no card of another seat (changing the other seats' hidden cards changes no byte of it),
the last card of a 打儲 deal is hidden from the seats until 平宣 turns it up, docs/grpc.md's
打儲 audit table says what the views do, and each 越式13张 trick carries its chop payment."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from handeval import _core, dachu
from handeval.v2 import common_pb2, dachu_pb2 as dc, handeval_pb2 as pb, tienlen_pb2 as tl
from harness.deck import DECK

from strategies import TL_HANDS

PLAY, PASS, TIMEOUT = common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_PASS, common_pb2.ACTION_KIND_TIMEOUT
SEEDS = range(24)


def C(cards):
    return common_pb2.Cards(cards=cards.split() if isinstance(cards, str) else list(cards))


def evaluate(req: pb.EvaluateRequest) -> pb.EvaluateResponse:
    data = _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 10_000, 1000, False)
    return pb.EvaluateResponse.FromString(data)


def tl_state(record: tl.TienlenGameRecord, rules=None):
    req = pb.EvaluateRequest(
        tienlen=tl.TienlenEvaluateRequest(rules=rules, items=[tl.TienlenEvaluateItem(game=record)])
    )
    r = evaluate(req).tienlen.results[0]
    return r.game if r.WhichOneof("result") == "game" else r.error


def dc_state(record: dc.DachuGameRecord, rules=None):
    req = pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(rules=rules, items=[dc.DachuEvaluateItem(game=record)]))
    r = evaluate(req).dachu.results[0]
    return r.game if r.WhichOneof("result") == "game" else r.error


def deal(rng, seats):
    deck = rng.sample(DECK, 52)
    return [deck[13 * i : 13 * i + 13] for i in range(seats)]


# ---- games played with the ready actions only ----


def play_tienlen(rng, players=4):
    """A random 越式13张 game: each step appends one of the offered actions unchanged."""
    record = tl.TienlenGameRecord(hands=[C(h) for h in deal(rng, players)])
    states = []
    while True:
        st = tl_state(record)
        assert isinstance(st, tl.TienlenGameState), st
        states.append((tl.TienlenGameRecord.FromString(record.SerializeToString()), st))
        if st.over:
            return record, states
        for o in st.offers:
            # One PLAY per legal play, same order, then the PASS when allowed.
            assert [(a.seat, a.kind, list(a.cards.cards)) for a in o.actions] == (
                [(o.seat, PLAY, list(p.cards.cards)) for p in o.plays] + ([(o.seat, PASS, [])] if o.may_pass else [])
            )
        pool = [a for o in st.offers for a in o.actions]
        record.actions.append(rng.choice(pool))
        assert len(record.actions) <= 52 * 4


def dc_pick(rng, st, timeouts=True):
    if st.phase == dc.DACHU_PHASE_DEAL:
        pool = list(st.deal.legal_actions)
        # Mostly deal on, so games reach the play.
        return "deal_actions", (rng.choice(pool) if rng.random() < 0.25 else pool[0])
    if st.phase == dc.DACHU_PHASE_CALLING:
        return "calls", rng.choice(list(st.calling.legal_actions))
    p = st.play
    assert [(a.seat, a.kind, list(a.cards.cards)) for a in p.actions] == (
        [(p.to_move, PLAY, list(x.cards.cards)) for x in p.legal_plays]
        + ([(p.to_move, PASS, [])] if p.may_pass else [])
    )
    if timeouts and rng.random() < 0.1:
        return "plays", common_pb2.PlayAction(seat=p.to_move, kind=TIMEOUT)
    return "plays", rng.choice(list(p.actions))


def play_dachu(rng, rules=None, stop=None, timeouts=True):
    record = dc.DachuGameRecord(hands=[C(h) for h in deal(rng, 4)], first_seat=rng.randrange(4))
    states = []
    while True:
        st = dc_state(record, rules)
        assert isinstance(st, dc.DachuGameState), st
        states.append((dc.DachuGameRecord.FromString(record.SerializeToString()), st))
        if st.phase == dc.DACHU_PHASE_OVER or (stop and stop(st)):
            return record, states
        where, action = dc_pick(rng, st, timeouts)
        getattr(record, where).append(action)
        assert len(record.plays) <= 52 * 4


@pytest.mark.parametrize("seed", SEEDS)
def test_tienlen_games_with_ready_actions(seed):
    rng = random.Random(seed)
    record, states = play_tienlen(rng, players=2 + seed % 3)
    st = states[-1][1]
    assert st.over
    # Each trick's chop payment, over all tricks, is the state's list of chop payments.
    per_trick = [(t.from_seat, t.to_seat, t.amount) for k in st.tricks for t in k.transfers]
    assert per_trick == [(t.from_seat, t.to_seat, t.amount) for t in st.transfers]
    assert list(st.card_counts) == [len(h.cards) for h in st.hands]


def test_tienlen_trick_transfers_are_filled():
    """A chop (seat 3's four aces on seat 0's 2) is the trick's transfer once it closes."""
    hands = TL_HANDS
    acts = [
        (0, "3s"),
        (1, "4h"),
        (2, "5d"),
        (3, "pass"),
        (0, "2d"),
        (3, "Ad As Ac Ah"),
        (0, "pass"),
        (1, "pass"),
        (2, "pass"),
    ]
    record = tl.TienlenGameRecord(hands=[C(h) for h in hands], base=10)
    for s, a in acts:
        record.actions.append(
            common_pb2.PlayAction(seat=s, kind=PASS)
            if a == "pass"
            else common_pb2.PlayAction(seat=s, kind=PLAY, cards=C(a))
        )
    st = tl_state(record)
    assert [(t.from_seat, t.to_seat, t.amount) for t in st.tricks[0].transfers] == [(0, 3, 30)]
    assert len(st.tricks) == 1 and st.tricks[0].over


@pytest.mark.parametrize("seed", SEEDS)
def test_dachu_games_with_ready_actions(seed):
    rng = random.Random(seed)
    record, states = play_dachu(rng)
    st = states[-1][1]
    assert st.phase == dc.DACHU_PHASE_OVER
    # Every TIMEOUT of the record is reported with what it became.
    timeouts = [k for k, a in enumerate(record.plays) if a.kind == TIMEOUT]
    if st.HasField("play"):
        assert [t.action for t in st.play.timeouts] == timeouts
        for t in st.play.timeouts:
            assert t.became.seat == record.plays[t.action].seat and t.became.kind in (PLAY, PASS)
            assert (t.became.kind == PLAY) == (len(t.became.cards.cards) > 0)
        # The record with each timeout replaced by what it became gives the same state.
        again = dc.DachuGameRecord.FromString(record.SerializeToString())
        for t in st.play.timeouts:
            again.plays[t.action].CopyFrom(t.became)
        st2 = dc_state(again)
        assert list(st2.play.places) == list(st.play.places)
        assert [list(h.cards) for h in st2.play.hands] == [list(h.cards) for h in st.play.hands]


# ---- the timeout inside a record ----


def _dachu_at_play(seed, rules=None):
    """A record at a lead after the first trick, with the seat to lead."""

    def at_lead(st):
        return st.phase == dc.DACHU_PHASE_PLAY and not st.play.HasField("table") and len(st.play.tricks) > 0

    for k in range(200):
        rng = random.Random(seed * 1000 + k)
        record, states = play_dachu(rng, rules, stop=at_lead, timeouts=False)
        if at_lead(states[-1][1]):
            return record, states[-1][1]
    raise AssertionError("no game reached a lead")


def _strength(card, chu):
    rank = "3456789TJQKA2".index(card[0])
    is_chu = card[0] == "A" and (card[1] in "hd") == (chu == dc.DACHU_COLOUR_RED)
    return 13 if is_chu else rank


@pytest.mark.parametrize("seed", range(8))
def test_record_timeout_throws_the_weakest_single_by_default(seed):
    record, st = _dachu_at_play(seed)
    seat = st.play.to_move
    hand = list(st.play.hands[seat].cards)
    # The columns of the shown 夢踹 triple's rank are skipped while it is whole in hand.
    triple = set(st.play.shown_triples[seat].cards)
    skipped = {c[0] for c in triple} if triple <= set(hand) else set()
    free = [c for c in hand if c[0] not in skipped]
    record.plays.append(common_pb2.PlayAction(seat=seat, kind=TIMEOUT))
    for rules, pick in ((None, min), (dc.DachuRules(timeout_display=dc.DACHU_TIMEOUT_DISPLAY_WEAKEST_LEFT), max)):
        after = dc_state(record, rules)
        assert [t.action for t in after.play.timeouts] == [len(record.plays) - 1]
        became = after.play.timeouts[0].became
        assert (became.seat, became.kind) == (seat, PLAY)
        if not free:  # only the shown triple (or its quad) is left: it goes whole
            assert set(became.cards.cards) >= triple
            continue
        (got,) = became.cards.cards
        assert _strength(got, st.chu) == pick(_strength(c, st.chu) for c in free), (hand, got, rules)


def test_record_timeout_with_columns_uses_them():
    record, st = _dachu_at_play(3)
    seat = st.play.to_move
    hand = list(st.play.hands[seat].cards)
    shown = set(st.play.shown_triples[seat].cards)
    # One column per card, in the hand's order shuffled: the last free column's card goes.
    rng = random.Random(5)
    order = rng.sample(hand, len(hand))
    columns = [C([c]) for c in order]
    record.plays.append(common_pb2.PlayAction(seat=seat, kind=TIMEOUT, columns=columns))
    became = dc_state(record).play.timeouts[-1].became
    want = [c for c in order if c not in shown][-1]
    assert list(became.cards.cards) == [want]
    # Columns that are not the hand are refused, naming the field.
    bad = dc.DachuGameRecord.FromString(record.SerializeToString())
    del bad.plays[-1].columns[0]
    err = dc_state(bad)
    assert isinstance(err, common_pb2.ItemError)
    assert (
        err.field == f"items[0].game.plays[{len(bad.plays) - 1}].columns"
        and err.reason == common_pb2.ERROR_REASON_WRONG_COUNT
    )
    # Columns on a PLAY or a PASS are refused.
    bad = dc.DachuGameRecord.FromString(record.SerializeToString())
    bad.plays[-1].kind = PASS
    assert dc_state(bad).field == f"items[0].game.plays[{len(bad.plays) - 1}].columns"


# ---- the last card ----


def test_last_card_is_hidden_until_dealt():
    hands = deal(random.Random(1), 4)
    record = dc.DachuGameRecord(hands=[C(h) for h in hands])
    seen = []
    while True:
        st = dc_state(record)
        seen.append((st.deal.dealt, st.deal.last_card))
        if st.deal.dealt == 13:
            break
        record.deal_actions.append(dc.DachuDealAction(kind=dc.DACHU_DEAL_ACTION_KIND_DEAL))
    assert all(card == "" for dealt, card in seen[:-1])
    assert seen[-1] == (13, hands[3][12])  # first_seat 0: seat 3 is dealt to last
    d = dachu.Deal([" ".join(h) for h in hands])
    assert d.last_card == ""
    while d.dealt < 13:
        d = d.apply(("deal",))
    assert d.last_card == hands[3][12]


# ---- seat views ----


def _strings(msg):
    """Every string in a message, recursively (the cards it shows)."""
    out = []
    for field, value in msg.ListFields():
        values = value if isinstance(value, Sequence) and not isinstance(value, str) else [value]
        for v in values:
            if field.type == field.TYPE_MESSAGE:
                out += _strings(v)
            elif field.type == field.TYPE_STRING:
                out.append(v)
    return out


def _reshuffle(rng, hands, viewer, fixed):
    """The other seats' cards that are not in `fixed`, redealt among their places."""
    places = [(s, i) for s, h in enumerate(hands) if s != viewer for i, c in enumerate(h) if c not in fixed]
    cards = [hands[s][i] for s, i in places]
    rng.shuffle(cards)
    out = [list(h) for h in hands]
    for (s, i), c in zip(places, cards):
        out[s][i] = c
    return out


@pytest.mark.parametrize("seed", range(12))
def test_tienlen_viewer_sees_only_its_own_cards(seed):
    """A viewer's answer holds none of the others' unplayed cards, and redealing those
    cards among the other seats (the viewer's hand, the plays, the lowest card kept)
    changes no byte of it."""
    rng = random.Random(seed)
    record, states = play_tienlen(rng, players=2 + seed % 3)
    while states[0][1].instant:  # an instant win at the deal: nothing is played; deal again
        record, states = play_tienlen(rng, players=2 + seed % 3)
    compared = 0
    for rec, _ in states[:: max(1, len(states) // 6)] + states[-1:]:
        players = len(rec.hands)
        for viewer in range(players):
            hands = [list(h.cards) for h in rec.hands]
            rec.viewer = viewer
            # With the suggestion asked: the viewer's own decision's (its move, or a chop
            # open to it) or none at all.
            rec.suggest.CopyFrom(common_pb2.SuggestQuery(seed=seed))
            view = tl_state(rec)
            assert isinstance(view, tl.TienlenGameState) and view.viewer == viewer
            mine = any(o.seat == viewer for o in view.offers)
            assert view.HasField("suggestion") == mine
            played = {c for a in rec.actions for c in a.cards.cards}
            hidden = {c for s, h in enumerate(hands) if s != viewer for c in h} - played
            assert not hidden & set(_strings(view)), hidden & set(_strings(view))
            assert all(o.seat == viewer for o in view.offers)
            # The lowest card decides the first leader: kept where it is.
            lowest = min((c for h in hands for c in h), key=lambda c: ("3456789TJQKA2".index(c[0]), "scdh".index(c[1])))
            for _ in range(3):
                other = _reshuffle(rng, hands, viewer, played | {lowest})
                changed = tl.TienlenGameRecord.FromString(rec.SerializeToString())
                for s, h in enumerate(other):
                    changed.hands[s].CopyFrom(C(h))
                got = tl_state(changed)
                if not isinstance(got, tl.TienlenGameState) or got.instant:
                    continue  # the new deal is an instant win
                assert got.SerializeToString() == view.SerializeToString()
                compared += 1
    assert compared > 0


def _dachu_public(rec, full):
    """The cards the rule book has made public in the record (RULES 3.5 [v5], 3.4): played,
    declared by 夢宣 / 夢踹, the two aces of a 撐儲, the 3h played out for a holder who sits
    out, and the last card dealt only when 平宣 turned it up at the end of the deal."""
    public = {c for a in rec.plays for c in a.cards.cards} | {c for a in rec.deal_actions for c in a.cards.cards}
    for a in rec.deal_actions:
        if a.kind == dc.DACHU_DEAL_ACTION_KIND_CHENG_CHU:
            public |= {"Ah", "Ad"} if a.colour == dc.DACHU_COLOUR_RED else {"As", "Ac"}
    if full.deal.finished and full.deal.chu_source == dc.DACHU_CHU_SOURCE_PING_XUAN:
        public.add(rec.hands[(rec.first_seat + 3) % 4].cards[12])
    if full.HasField("play") and full.play.HasField("auto_lead"):
        public.add("3h")
    return public


@pytest.mark.parametrize("seed", range(12))
def test_dachu_viewer_sees_only_its_own_cards(seed):
    """A viewer's answer holds none of the others' cards that are not public, and redealing
    every card of the others that is not public (the last card dealt included, unless 平宣
    turned it up; keeping what decides public facts: the aces fix the sides, the 3h the
    first leader) changes no byte of it. Every state with all cards dealt is checked, so
    the last card is moved before FINISH and after a 夢宣 or 撐儲."""
    rng = random.Random(seed)
    record, states = play_dachu(rng, timeouts=False)
    # Declarations make the last card a held card for good: games with one too.
    while not any(
        a.kind != dc.DACHU_DEAL_ACTION_KIND_DEAL and a.kind != dc.DACHU_DEAL_ACTION_KIND_FINISH
        for a in record.deal_actions
    ):
        record, states = play_dachu(rng, timeouts=False)
    sampled = states[:: max(1, len(states) // 8)] + states[-1:]
    sampled += [
        (rec, st)
        for rec, st in states
        if st.deal.dealt == 13 and st.phase in (dc.DACHU_PHASE_DEAL, dc.DACHU_PHASE_CALLING)
    ]
    compared = moved_last = could_move = 0
    for rec, full in sampled:
        hands = [list(h.cards) for h in rec.hands]
        public = _dachu_public(rec, full)
        fixed = public | {c for h in hands for c in h if c[0] == "A" or c == "3h"}
        last = hands[(rec.first_seat + 3) % 4][12]
        could_move += full.deal.dealt == 13 and last not in fixed
        for viewer in range(4):
            rec.viewer = viewer
            # With the suggestion asked: it is the viewer's own decision's or none at all.
            rec.suggest.CopyFrom(common_pb2.SuggestQuery(seed=seed))
            view = dc_state(rec)
            assert isinstance(view, dc.DachuGameState) and view.viewer == viewer
            if view.HasField("play"):
                mine = view.play.HasField("to_move") and view.play.to_move == viewer
                assert view.play.HasField("suggestion") == mine
            hidden = {c for s, h in enumerate(hands) if s != viewer for c in h} - public
            assert not hidden & set(_strings(view)), (full.deal.dealt, hidden & set(_strings(view)))
            if view.HasField("play"):
                assert not view.play.actions or view.play.to_move == viewer
            assert all(a.seat == viewer for a in view.deal.legal_actions)
            assert all(o.seat == viewer for o in view.offers)
            for _ in range(3):
                other = _reshuffle(rng, hands, viewer, fixed)
                changed = dc.DachuGameRecord.FromString(rec.SerializeToString())
                for s, h in enumerate(other):
                    changed.hands[s].CopyFrom(C(h))
                got = dc_state(changed)
                if not isinstance(got, dc.DachuGameState):
                    continue  # e.g. a first lead without the 3h that the 3h holder's threes allowed
                assert got.SerializeToString() == view.SerializeToString(), (viewer, full.deal.dealt)
                compared += 1
                moved_last += (
                    full.deal.dealt == 13 and last not in fixed and other[(rec.first_seat + 3) % 4][12] != last
                )
    # The last card dealt was moved wherever it is not public (nor an ace or the 3h).
    assert compared > 0 and (moved_last > 0 or not could_move)


def test_viewer_out_of_range_is_named():
    rng = random.Random(0)
    rec = tl.TienlenGameRecord(hands=[C(h) for h in deal(rng, 3)], viewer=3)
    err = tl_state(rec)
    assert err.field == "items[0].game.viewer" and err.reason == common_pb2.ERROR_REASON_OUT_OF_RANGE
    rec = dc.DachuGameRecord(hands=[C(h) for h in deal(rng, 4)], viewer=4)
    err = dc_state(rec)
    assert err.field == "items[0].game.viewer" and err.reason == common_pb2.ERROR_REASON_OUT_OF_RANGE


# ---- the audit table of docs/grpc.md, checked against the answers ----


def _dachu_audit_rows():
    """{message name: [(fields, with-viewer text)]} from docs/grpc.md's audit table."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "grpc.md").read_text()
    rows, state = {}, None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else None
        if not cells or len(cells) != 4:
            continue
        if cells[0]:
            state = cells[0].strip("`")
        if state and state.startswith("Dachu"):
            rows.setdefault(state, []).append((re.findall(r"`([a-z_]+)`", cells[1]), cells[3]))
    return rows


def test_dachu_audit_table_matches_the_views():
    """Every field of the 打儲 states is in the audit table once; a field whose seat view is
    "as is" never differs from the state without a viewer, every other field does in some
    state of random games."""
    rows = _dachu_audit_rows()
    messages = {
        "DachuGameState": dc.DachuGameState,
        "DachuDealState": dc.DachuDealState,
        "DachuCallingState": dc.DachuCallingState,
        "DachuPlayState": dc.DachuPlayState,
    }
    assert set(rows) == set(messages)
    claims = {}
    for name, cls in messages.items():
        fields = [f for fs, _ in rows[name] for f in fs]
        expected = {f.name for f in cls.DESCRIPTOR.fields} - {"suggestion", "deal", "calling", "play", "viewer"}
        assert sorted(fields) == sorted(expected), name
        for fs, with_viewer in rows[name]:
            for f in fs:
                claims[(name, f)] = with_viewer == "as is"
    differs = set()
    rng = random.Random(5)
    for _ in range(6):
        _, states = play_dachu(rng, timeouts=False)
        deal_end = [(rec, st) for rec, st in states if st.deal.dealt == 13 and st.phase == dc.DACHU_PHASE_DEAL]
        for rec, full in states[:: max(1, len(states) // 12)] + states[-1:] + deal_end:
            for viewer in range(4):
                rec.viewer = viewer
                view = dc_state(rec)
                parts = {"DachuGameState": (full, view)}
                for part, name in (
                    ("deal", "DachuDealState"),
                    ("calling", "DachuCallingState"),
                    ("play", "DachuPlayState"),
                ):
                    if full.HasField(part):
                        parts[name] = (getattr(full, part), getattr(view, part))
                for name, (a, b) in parts.items():
                    for field in (f for n, f in claims if n == name):
                        if getattr(a, field) != getattr(b, field):
                            assert not claims[(name, field)], f"{name}.{field} is 'as is' in docs/grpc.md but differs"
                            differs.add((name, field))
    hidden = {k for k, as_is in claims.items() if not as_is}
    assert hidden == differs, hidden - differs

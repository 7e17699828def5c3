"""Tables played as a game server plays them (the ``*.record`` and ``*.stream`` load
scenarios): one 越式13张 or 打儲 game per table, its record grown one action a step, each
action taken from the last answer.

At every step the table asks the state as the seat with the decision sees it (``viewer``)
and, for its one 托管 seat, the suggestion (``suggest``); it appends that seat's action:
the suggestion for the 托管 seat, an offered action (a ready ``PlayAction``,
``DachuDealAction`` or ``DachuCall`` of the answer) chosen by the table's seeded RNG for
the others; the dealer's own DEAL and FINISH in 打儲's deal. So a game is not a list of
requests built beforehand: it depends on the answers. When the game is over the table
settles its record. How a step travels (a unary Evaluate record, a message on a Tables
stream) is the transport's (``handeval.load.played``); this module sees messages only.

Against the floor server (answers that say nothing) a table plays blind: the same kind of
step, a seat's action appended, for a typical game's number of steps (``BLIND_STEPS``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, List, Optional

from handeval.load import seats
from handeval.load.scenarios import DECK, C

#: Steps of a blind game (against the floor): about a played game's mean, answers
#: included (``tests/load/test_played.py`` measures it against the service).
BLIND_STEPS = {"tienlen": 45, "dachu": 61}
BASE = 10


class Unplayable(Exception):
    """An answer the table cannot play on; ``code`` is the Locust failure's name."""

    def __init__(self, code: str, details: str = ""):
        super().__init__(f"{code}: {details}" if details else code)
        self.code, self.details = code, details


@dataclass
class Step:
    """What the table sends next: ``start`` (the record as it is), ``action`` (``action``
    appended to the record's list ``field``: ``play``, ``deal`` or ``call``, after ``at``
    actions), ``look`` (the same record, another seat's view) or ``settle``."""

    kind: str
    viewer: Optional[int] = None
    action: Any = None
    field: str = ""
    at: int = 0


def _pb():
    from handeval.v2 import common_pb2, dachu_pb2, tienlen_pb2

    return common_pb2, tienlen_pb2, dachu_pb2


class Table:
    """One game at a table: its record (``record``, the message the transport sends), its
    托管 seat and the RNG of its players' choices. Subclasses: the two trick games."""

    game = ""

    def __init__(self, rng: random.Random):
        self.rng = rng
        deck = rng.sample(DECK, 52)
        self.hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
        self.tuoguan = rng.randrange(4)  # the seat 托管 plays
        self.seed = rng.getrandbits(32)
        self.viewer = 0
        self.steps = 0
        self.looks = 0
        self.sent = 0  # requests a transport sent for this game (its own count)
        self.record = self._new_record()

    # -- what a step asks
    def suggest(self, viewer: Optional[int]):
        """The SuggestQuery a step with ``viewer`` sends (None: none): the 托管 seat's."""
        return _pb()[0].SuggestQuery(seed=self.seed) if viewer == self.tuoguan else None

    def start(self) -> Step:
        self.viewer = self._first_viewer()
        return Step("start", self.viewer)

    def next(self, state) -> Step:
        """The step after the answer ``state`` (the game's state message, as ``viewer``
        sees it); raises Unplayable for an answer no game server could play on."""
        self.steps += 1
        step = self._next(state)
        if step.kind == "look":
            self.looks += 1
        if step.viewer is not None:
            self.viewer = step.viewer
        return step

    def blind(self) -> Step:
        """The next step against the floor: a seat's single card, the viewer in turn."""
        self.steps += 1
        if self.steps > BLIND_STEPS[self.game]:
            return Step("settle")
        seat = self.steps % 4
        pb = _pb()[0]
        action = pb.PlayAction(seat=seat, kind=pb.ACTION_KIND_PLAY, cards=C(self.hands[seat][: 1 + self.steps % 3]))
        getattr(self.record, "actions" if self.game == "tienlen" else "plays").append(action)
        return Step("action", (seat + 1) % 4, action, "play", self.steps - 1)

    def _turn(self, seat: Optional[int]) -> Optional[Step]:
        """A look at ``seat`` when the answer was another seat's view (a wrong guess)."""
        if seat is None:
            raise Unplayable("NO_SEAT_TO_MOVE", "the state is not over and nobody is to move")
        return Step("look", seat) if seat != self.viewer else None

    def _suggested(self, suggestion, what: str):
        if not suggestion.HasField("action"):
            raise Unplayable("NO_SUGGESTION", f"{self.game} {what}: the 托管 seat's state has no suggestion")
        return suggestion.action

    def _choose_play(self, actions: List[Any], may_pass: bool):
        """A random offered PLAY (70 % when following), else the PASS; 打儲's TIMEOUT now
        and then."""
        pb = _pb()[0]
        if not actions:
            raise Unplayable("NO_OFFER", f"{self.game}: the seat to move has no offer in its view")
        timeouts = [a for a in actions if a.kind == pb.ACTION_KIND_TIMEOUT]
        if timeouts and self.rng.random() < 0.02:
            return timeouts[0]
        plays = [a for a in actions if a.kind == pb.ACTION_KIND_PLAY]
        passes = [a for a in actions if a.kind == pb.ACTION_KIND_PASS]
        if plays and (not (may_pass and passes) or self.rng.random() < 0.7):
            return self.rng.choice(plays)
        return passes[0] if passes else actions[0]

    def _new_record(self):
        raise NotImplementedError

    def _first_viewer(self) -> int:
        raise NotImplementedError

    def _next(self, state) -> Step:
        raise NotImplementedError


class TienlenTable(Table):
    game = "tienlen"

    def _new_record(self):
        _, tl, _ = _pb()
        return tl.TienlenGameRecord(hands=[C(h) for h in self.hands])

    def _first_viewer(self) -> int:
        return next((s for s in range(4) if "3s" in self.hands[s]), 0)  # 3♠ leads (a guess: the rules say)

    def _next(self, st) -> Step:
        common, _, _ = _pb()
        if st.over:
            return Step("settle")
        look = self._turn(st.to_move if st.HasField("to_move") else None)
        if look:
            return look
        seat = st.to_move
        offer = next((o for o in st.offers if o.seat == seat and o.acting == common.ACTING_TURN), None)
        if seat == self.tuoguan:
            action = self._suggested(st.suggestion, "play")
        else:
            action = self._choose_play(list(offer.actions) if offer else [], bool(offer and offer.may_pass))
        at = len(self.record.actions)
        self.record.actions.append(action)
        played = len(action.cards.cards) if action.kind == common.ACTION_KIND_PLAY else 0
        nxt = seats.tienlen_next(seat, played, st.passed, st.card_counts)
        return Step("action", seat if nxt is None else nxt, action, "play", at)


class DachuTable(Table):
    game = "dachu"

    def _new_record(self):
        _, _, dc = _pb()
        self.first_seat = self.rng.randrange(4)
        return dc.DachuGameRecord(hands=[C(h) for h in self.hands], first_seat=self.first_seat)

    def _first_viewer(self) -> int:
        return self.first_seat

    def at(self) -> int:
        r = self.record
        return len(r.deal_actions) + len(r.calls) + len(r.plays)

    def _next(self, st) -> Step:
        _, _, dc = _pb()
        if st.phase == dc.DACHU_PHASE_OVER:
            return Step("settle")
        if st.phase == dc.DACHU_PHASE_DEAL:
            return self._deal(st, dc)
        if st.phase == dc.DACHU_PHASE_CALLING:
            look = self._turn(st.calling.turn if st.calling.HasField("turn") else None)
            if look:
                return look
            seat = st.calling.turn
            if seat == self.tuoguan:
                call = self._suggested(st.calling.suggestion, "calling")
            else:
                offered = [o.call for o in st.offers if o.WhichOneof("action") == "call"]
                if not offered:
                    raise Unplayable("NO_OFFER", "dachu calling: the seat to call has no offer in its view")
                call = self.rng.choice(offered)
            at = self.at()
            self.record.calls.append(call)
            nxt = seats.dachu_call_next(seat, st.calling.chu_side, st.calling.surrendered)
            return Step("action", nxt, call, "call", at)
        if st.phase == dc.DACHU_PHASE_PLAY:
            return self._play(st)
        raise Unplayable("BAD_PHASE", f"dachu phase {st.phase}")

    def _deal(self, st, dc) -> Step:
        viewer, deal = self.viewer, st.deal
        mine = [o.deal_action for o in st.offers if o.WhichOneof("action") == "deal_action"]
        if viewer == self.tuoguan and deal.suggestion.HasField("action"):
            action = deal.suggestion.action
        elif mine and viewer != self.tuoguan and self.rng.random() < 0.25:
            action = self.rng.choice(mine)
        else:  # the dealer's: the next cards, or the end of the deal once all 13 are dealt
            kind = dc.DACHU_DEAL_ACTION_KIND_FINISH if deal.dealt >= 13 else dc.DACHU_DEAL_ACTION_KIND_DEAL
            action = dc.DachuDealAction(kind=kind)
        at = self.at()
        self.record.deal_actions.append(action)
        # The deal has no turn: each step shows the next seat round the table its chances.
        return Step("action", (viewer + 1) % 4, action, "deal", at)

    def _play(self, st) -> Step:
        common, _, _ = _pb()
        p = st.play
        look = self._turn(p.to_move if p.HasField("to_move") else None)
        if look:
            return look
        seat = p.to_move
        if seat == self.tuoguan:
            action = self._suggested(p.suggestion, "play")
        else:
            offered = [o.play for o in st.offers if o.WhichOneof("action") == "play"]
            action = self._choose_play(offered, p.may_pass)
        at = self.at()
        self.record.plays.append(action)
        played = len(action.cards.cards) if action.kind == common.ACTION_KIND_PLAY else 0
        if action.kind == common.ACTION_KIND_TIMEOUT:
            played = 0 if p.may_pass else 1  # a guess: the timeout's play is the service's
        table_seat = p.table_seat if p.HasField("table_seat") else seat
        nxt = seats.dachu_play_next(seat, played, p.passed, p.card_counts, st.calling.playing, table_seat)
        return Step("action", seat if nxt is None else nxt, action, "play", at)


TABLES = {"tienlen": TienlenTable, "dachu": DachuTable}

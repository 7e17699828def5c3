"""打儲 (dachu), a 4-player team shedding game with 儲 aces (RULES.md section 3).

Thin over ``handeval._core``: plays, the 儲 order and beating, legal plays, the deal's
declarations and the calling (叫牌) as immutable state machines, and settlement. Every
rule lives in Rust.

Seats are 0..3 and play goes in seat order. Actions of the state machines are tuples
``(name, seat, ...)``: ``Deal`` takes ``("deal",)``, ``("meng_xuan", seat, "Ah")``,
``("meng_chuai", seat, "5s 5h 5d")``, ``("cheng_chu", seat[, "red"|"black"])``,
``("finish",)``; ``Calling`` takes ``("ping_da"|"chuai"|"bao_chuai"|"jiao", seat)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

from handeval import _core
from handeval._result import Result
from handeval._rules import game_rules
from handeval.errors import fail

__all__ = [
    "Rules",
    "Play",
    "Line",
    "Settlement",
    "Deal",
    "Calling",
    "KINDS",
    "CALLS",
    "classify",
    "beats",
    "beats_many",
    "legal_plays",
    "timeout_play",
    "settle",
]

Cards = Union[str, Sequence[str]]

#: Play kinds, weakest tier first.
KINDS = ("single", "pair", "straight", "triple_bomb", "quad_bomb", "du_chu")
#: Calls of 叫牌: 平打, 踹 (also 跟踹), 包踹, 繳.
CALLS = ("ping_da", "chuai", "bao_chuai", "jiao")


@dataclass(frozen=True)
class Rules:
    """House-rule options of 打儲; the defaults are RULES.md's.

    * ``mixed_ace_pair`` — [decision] one 儲A + one plain A is an ordinary AA (default
      True); False: such a pair is not a play.
    * ``cheng_chu_alone`` — [decision] 撐儲 makes that colour the 儲, so its player (who
      holds both) plays alone, 1 vs 3 (default True); False: 撐儲 only doubles, the
      colour still comes from 夢宣 or 平宣.
    * ``escape_shared_by_all`` — [decision] an escape penalty is shared equally by the
      three others (default True); False: only by the escaping player's opponents.
    * ``unit_per`` — [decision] a won game moves one unit (base × multiplier) per member
      of the ``"larger_side"`` (default: 1 vs 3 → the lone player pays or receives three
      units; 2 vs 2 → each loser pays one) or per member of the ``"losing_side"``.
    * ``first_caller_2v2`` — who calls first in a 2 vs 2 without 夢宣/撐儲: ``"other"``
      (the 非儲方, default) or ``"chu"``. (The 儲方 always calls first after a
      declaration and in 1 vs 3.)
    * ``escape_units`` — the escape penalty in units of base × multiplier (the seed: 5).
    * ``jiao_round_up`` — [decision] a 繳 costs base × multiplier / 2 rounded up to a
      whole unit (default True: a surrender always costs something); False: toward zero.
    * ``declare_once_per`` — [decision] the deal's declarations are once per
      ``"player_and_kind"`` (default: several players may each 夢踹), once per
      ``"player"`` (one declaration of any kind each) or once per ``"game"`` per kind.
      夢宣 and 撐儲 fix the 儲 colour, so each happens once per game under every reading.
    """

    mixed_ace_pair: bool = True
    cheng_chu_alone: bool = True
    escape_shared_by_all: bool = True
    unit_per: str = "larger_side"
    first_caller_2v2: str = "other"
    escape_units: int = 5
    jiao_round_up: bool = True
    declare_once_per: str = "player_and_kind"


def _rules(rules):
    return game_rules(rules, "dachu", Rules)


@dataclass(frozen=True)
class Play(Result):
    """A classified play."""

    #: One of :data:`KINDS`.
    kind: str
    #: The kind's Chinese name, e.g. 獨儲.
    kind_zh: str
    #: The cards (for ``legal_plays``: in the game's order, weakest first).
    cards: List[str]
    #: Higher is stronger within a kind (and length, for straights): singles 1 (3) … 11
    #: (K), 12 plain A, 13 the 2, 14 儲A; pairs and bombs 1 (3) … 12 (A), 13 (2);
    #: straights the top card's place in A(1) 2 3 … K(13) A(14).
    strength: int

    def __len__(self):
        return len(self.cards)


def _play(t) -> Play:
    kind, zh, _n, strength, cards = t
    return Play(kind, zh, list(cards), strength)


def classify(cards: Cards, chu: str, rules=None) -> Play:
    """Classify cards as a play (RULES 3.2) with ``chu`` ``"red"`` or ``"black"`` the 儲
    colour; a set that is not a play is a HandevalError saying why."""
    return _play(_core.dc_classify(cards, chu, _rules(rules)))


def beats(play: Cards, table: Cards, chu: str, rules=None) -> bool:
    """Whether ``play`` beats ``table`` (RULES 3.3). The two must not share a card."""
    return _core.dc_beats(play, table, chu, _rules(rules))


def beats_many(pairs: Sequence[Tuple[Cards, Cards]], chu: str, rules=None) -> List[bool]:
    """:func:`beats` for many ``(play, table)`` pairs in one call (GIL released)."""
    return _core.dc_beats_many(pairs, chu, _rules(rules))


def legal_plays(
    hand: Cards,
    table: Optional[Cards],
    chu: str,
    *,
    first_lead: bool = False,
    surrendered: bool = False,
    shown_triple: Optional[Cards] = None,
    rules=None,
) -> List[Play]:
    """Every play ``hand`` may make now, weakest first (ordinary plays — singles, pairs,
    straights by length — then triple bombs, quad bombs, 獨儲; by strength within a kind).

    ``table``: the play to beat, or None to lead. ``first_lead``: the deal's first play
    (must contain 3♥ unless the 3♥ is in a triple/quad bomb of the hand). ``surrendered``
    with ``first_lead``: the 繳 holder's 3♥ goes out as a single. ``shown_triple``: the
    triple shown by 夢踹, which may only be played whole (or inside its quad).
    """
    plays = _core.dc_legal_plays(hand, table, chu, first_lead, surrendered, shown_triple, _rules(rules))
    return [_play(t) for t in plays]


def timeout_play(
    hand: Cards,
    table: Optional[Cards],
    chu: str,
    *,
    first_lead: bool = False,
    shown_triple: Optional[Cards] = None,
    rules=None,
) -> Optional[List[str]]:
    """The seed's play for a player out of time: when leading, the weakest legal single
    that is not part of the shown 夢踹 triple (else the weakest legal play); when
    following, None (a pass)."""
    return _core.dc_timeout_play(hand, table, chu, first_lead, shown_triple, _rules(rules))


class _State:
    """Immutable wrapper of a Rust state object."""

    __slots__ = ("_s",)

    def __init__(self, state):
        object.__setattr__(self, "_s", state)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable; apply() returns a new state")

    def __eq__(self, other):
        return type(other) is type(self) and other.history == self.history and other._key() == self._key()

    def __hash__(self):
        return hash(tuple(map(repr, self._key())))


class Deal(_State):
    """The deal and its declarations (RULES 3.5) as an immutable state machine.

    ``Deal(hands, first_seat=0, rules=None)``: ``hands[seat]`` are that seat's 13 cards in
    dealing order; dealing starts at ``first_seat`` (so the last card dealt, turned up by
    平宣, is the 13th card of the seat before it). ``("deal",)`` gives every player one
    more card (1 … 8, then 9–13 at once); 夢宣 is open while they hold 1–5 cards, 夢踹
    while 5–8, 撐儲 after 13; ``("finish",)`` ends the deal (平宣 if no colour is fixed).
    Anyone may declare, so :attr:`turn` is always None.
    """

    __slots__ = ()

    def __init__(self, hands, first_seat: int = 0, rules=None, *, _state=None):
        super().__init__(_state if _state is not None else _core.DachuDeal(hands, first_seat, _rules(rules)))

    def apply(self, action) -> "Deal":
        """The next state; an illegal action is a HandevalError saying why."""
        return Deal(None, _state=self._s.apply(action))

    def _key(self):
        return (self._s.hands, self._s.first_seat, self._s.dealt, self._s.finished)

    turn = property(lambda self: None, doc="Always None: declarations are open to every player.")
    legal_actions = property(lambda self: list(self._s.legal_actions), doc="Every action allowed now.")
    history = property(lambda self: list(self._s.history), doc="The actions applied so far.")
    dealt = property(lambda self: self._s.dealt, doc="Cards each player holds: 0 … 8, then 13.")
    multiplier = property(lambda self: self._s.multiplier, doc="×2 per 夢宣, 夢踹 and 撐儲.")
    finished = property(lambda self: self._s.finished)
    declared = property(lambda self: self._s.declared, doc="A 夢宣 or 撐儲 happened (the 儲方 calls first).")
    chu = property(lambda self: self._s.chu, doc='"red", "black", or None until fixed.')
    chu_source = property(lambda self: self._s.chu_source, doc='"meng_xuan", "cheng_chu", "ping_xuan" or None.')
    chu_side = property(lambda self: self._s.chu_side, doc="Seats holding a 儲A, once finished.")
    hands = property(lambda self: self._s.hands)
    held = property(lambda self: self._s.held, doc="Each seat's cards dealt so far.")
    last_card = property(lambda self: self._s.last_card, doc="The last card dealt (平宣 turns it up).")
    first_leader = property(lambda self: self._s.first_leader, doc="The seat holding 3♥.")
    first_seat = property(lambda self: self._s.first_seat)
    meng_xuan = property(lambda self: self._s.meng_xuan, doc="Per seat: the ace revealed by 夢宣, or None.")
    meng_chuai = property(lambda self: self._s.meng_chuai, doc="Per seat: the triple shown by 夢踹, or None.")
    cheng_chu = property(lambda self: self._s.cheng_chu, doc="Per seat: made 撐儲.")

    @property
    def teams(self) -> Optional[str]:
        """``"1v3"`` or ``"2v2"`` once finished."""
        side = self.chu_side
        return None if side is None else ("1v3" if len(side) == 1 else "2v2")

    def calling(self, start_seat: Optional[int] = None, first_side: Optional[str] = None) -> "Calling":
        """The calling that follows this finished deal, with its teams and multiplier.
        Each side is asked in seat order from ``start_seat`` (default: the seat dealt to
        first); ``first_side`` ``"chu"``/``"other"`` overrides who calls first."""
        return Calling(None, _state=self._s.calling(start_seat, first_side))

    def __repr__(self):
        return f"Deal(dealt={self.dealt}, chu={self.chu!r}, multiplier={self.multiplier}, finished={self.finished})"


class Calling(_State):
    """叫牌 (RULES 3.6, the seed's flows A–D and notes 1–4) as an immutable state machine.

    ``Calling(chu_side, declared=False, multiplier=1, start_seat=0, first_side=None,
    rules=None)``: ``chu_side`` the 儲 holders (1 seat: 1 vs 3; 2 seats: 2 vs 2),
    ``declared`` whether a 夢宣/撐儲 happened, ``multiplier`` from the deal. Or use
    :meth:`Deal.calling`. Actions: ``(call, seat)`` with ``call`` in :data:`CALLS`.

    How the seed reads (details in ``rust/handeval-core/src/dachu/calling.rs``): the 儲方
    calls first after a 夢宣/撐儲 and always in 1 vs 3; a lone caller chooses 平打/踹/繳
    once. A side of 2–3 is asked in seat order; all agreeing decides (all 平打 → play,
    all 繳 → surrender, 踹 + 跟踹 → 踹); a differing answer restarts the side's asking
    (flow D's second round: the last answer counts, a last 繳 defers to the previous
    answer and is a personal surrender). 包踹 (flow C): every other member answers
    包踹 (takes over; the previous 包踹 player is 被包打) or 繳, once each. A side's 平打
    starts play; a kick passes the call to the other side; if both kicked, each side
    answers once more 平打/踹 (note 3). Each side's final 踹/包踹 doubles the multiplier.
    """

    __slots__ = ()

    def __init__(self, chu_side, declared: bool = False, multiplier: int = 1, start_seat: int = 0,
                 first_side: Optional[str] = None, rules=None, *, _state=None):
        if _state is None:
            _state = _core.DachuCalling(chu_side, declared, multiplier, start_seat, first_side, _rules(rules))
        super().__init__(_state)

    def apply(self, action) -> "Calling":
        """The next state; an illegal action (out of turn, unknown seat, not offered now, a
        second 包踹 by the same player) is a HandevalError saying why."""
        return Calling(None, _state=self._s.apply(action))

    def _key(self):
        return (self._s.chu_side, self._s.multiplier, self._s.phase, self._s.waiting)

    turn = property(lambda self: self._s.turn, doc="The seat to call, or None when over.")
    legal_actions = property(lambda self: list(self._s.legal_actions), doc="``[(call, seat), ...]`` allowed now.")
    multiplier = property(lambda self: self._s.multiplier, doc="×2 for each side's final 踹 or 包踹.")
    over = property(lambda self: self._s.over)
    phase = property(lambda self: self._s.phase,
                     doc='"side_call", "side_call_round2" (flow D), "bao_chuai" (flow C), "second_round" (note 3) or "over".')
    calling_side = property(lambda self: self._s.calling_side, doc='"chu" (儲方), "other" (非儲方) or None.')
    first_side = property(lambda self: self._s.first_side)
    outcome = property(lambda self: self._s.outcome, doc='"play", "surrender" or None while calling.')
    surrendered_side = property(lambda self: self._s.surrendered_side)
    chu_side = property(lambda self: self._s.chu_side)
    surrendered = property(lambda self: self._s.surrendered, doc="Seats that chose 繳 (personally or as a side).")
    bei_bao_da = property(lambda self: self._s.bei_bao_da, doc="Seats 被包打: sit out, pay by their side's result.")
    bao_chuai = property(lambda self: self._s.bao_chuai, doc="The 包踹 player of (儲方, 非儲方), or None each.")
    playing = property(lambda self: self._s.playing, doc="Seats that play the cards.")
    finals = property(lambda self: self._s.finals, doc="Each side decision: (side, call).")
    history = property(lambda self: self._s.history, doc="Every call: (call, seat).")
    waiting = property(lambda self: self._s.waiting, doc="Seats still to answer in this step.")

    def settle(self, places=None, *, base: int = 1, escaped=(), carried=None, rules=None) -> "Settlement":
        """:func:`settle` with this finished calling."""
        return settle(self, places, base=base, escaped=escaped, carried=carried, rules=rules)

    def __repr__(self):
        return f"Calling(phase={self.phase!r}, turn={self.turn}, multiplier={self.multiplier}, outcome={self.outcome!r})"


@dataclass(frozen=True)
class Line(Result):
    """One item of a settlement: ``amount`` (signed) for ``seat``."""

    #: ``"jiao"`` 繳, ``"result"`` the game's result, ``"escape"`` 逃跑, ``"cap"`` the cap.
    item: str
    seat: int
    amount: int
    note: str


@dataclass(frozen=True)
class Settlement(Result):
    #: The 儲方's result (``"win"``, ``"draw"``, ``"loss"``), None when nobody played.
    verdict: Optional[str]
    #: 全殲: the result's multiplier was doubled.
    wipe_out: bool
    #: The multiplier of the result (×2 with 全殲).
    result_multiplier: int
    #: Itemised breakdown; each seat's lines add up to its delta.
    lines: List[Line]
    #: Before the cap.
    theoretical: List[int]
    #: Money per seat after the cap; adds up to 0.
    deltas: List[int]


def settle(chu_side, places=None, *, base: int = 1, multiplier: Optional[int] = None, surrendered=None,
           bei_bao_da=None, escaped=(), carried=None, rules=None) -> Settlement:
    """Settle a game (RULES 3.7, then the cap of RULES 4).

    ``chu_side``: the 儲方 seats (1 seat: 1 vs 3; 2 seats: 2 vs 2) — then pass
    ``multiplier`` (a power of two, default 1), ``surrendered`` (繳 seats) and
    ``bei_bao_da`` (被包打 seats) yourself — or a finished :class:`Calling`, which fixes
    all four. ``places``: the finishing order (first out first) of the seats that played
    (everyone but the 繳 and 被包打 seats); omitted when a whole side surrendered or
    someone escaped. ``escaped``: seats that ran away (逃跑) — the game is abandoned and
    each pays base × multiplier × 5. ``base``: 底分. ``carried``: per-seat carried-in
    amounts for the cap (None entries uncapped). All arguments but ``chu_side`` and
    ``places`` are keywords (the gRPC ``DachuDeal.args`` passes them by name).

    Outcome by the 儲方's places: 1 vs 3 — 1st win + 全殲, 2nd/3rd draw, 4th loss + 全殲;
    2 vs 2 — 1+2 win + 全殲, 1+3 win, 1+4 and 2+3 draw, 3+4 loss + 全殲 (a side playing
    with one player after 包踹/繳 counts like the lone player of 1 vs 3). 全殲 doubles
    the multiplier. A won game moves one unit (base × multiplier) per member of the
    larger side (``Rules.unit_per``), shared equally; 被包打 seats pay or win with their
    side. Each 繳 pays base × multiplier / 2 (rounded up, ``Rules.jiao_round_up``) to the other side.
    Shares that do not divide evenly follow RULES §0 (largest remainder, lower seat
    first); the result is exactly zero-sum.
    """
    if isinstance(chu_side, Calling):
        calling = chu_side
        if not calling.over:
            fail("chu_side", "the calling is not over yet")
        if multiplier is not None or surrendered is not None or bei_bao_da is not None:
            fail("chu_side", "a Calling already fixes multiplier, surrendered and bei_bao_da")
        chu_side, multiplier = calling.chu_side, calling.multiplier
        surrendered, bei_bao_da = calling.surrendered, calling.bei_bao_da
    elif isinstance(chu_side, Deal):
        fail("chu_side", "settle a finished Calling (deal.calling() …) or pass the 儲方 seats")
    r = _core.dc_settle(chu_side, places, base, multiplier, surrendered, bei_bao_da, escaped, carried, _rules(rules))
    verdict, wipe_out, result_multiplier, lines, theoretical, deltas = r
    return Settlement(
        verdict=verdict,
        wipe_out=wipe_out,
        result_multiplier=result_multiplier,
        lines=[Line(*t) for t in lines],
        theoretical=list(theoretical),
        deltas=list(deltas),
    )

"""越式13张 (tienlen), Vietnamese Thirteen / Tiến lên: play types, beating and 压牌 chops,
turn order, 直接获胜 instant wins and settlement (RULES.md section 2). Thin over
``handeval._core``: this module converts arguments and builds result objects; every rule
lives in Rust.

Order: rank ``3 < 4 < … < A < 2``, suit ♠ < ♣ < ♦ < ♥. Seats play counter-clockwise,
0 → 1 → 2 → 3 → 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from handeval import _core
from handeval._result import Result
from handeval._rules import game_rules
from handeval.errors import fail

__all__ = [
    "Rules",
    "Play",
    "InstantHand",
    "FirstLead",
    "RoundState",
    "Line",
    "Settlement",
    "KINDS",
    "SPECIAL_KINDS",
    "INSTANT_WINS",
    "classify",
    "classify_many",
    "beats",
    "beats_many",
    "why_not",
    "legal_plays",
    "instant_win",
    "instant_hand",
    "instant_winner",
    "first_leader",
    "round_state",
    "check_action",
    "may_play",
    "chop_transfers",
    "special_groups",
    "settle",
    "settle_instant",
]

Cards = Union[str, Sequence[str]]

#: Play kinds, in the order :func:`legal_plays` lists them.
KINDS = ("single", "pair", "triple", "straight", "three_pair_run", "bomb", "four_pair_run")
#: 特殊牌型 and their multipliers (RULES 2.6).
SPECIAL_KINDS = {"three_pair_run": 2, "bomb": 3, "four_pair_run": 4}
#: Instant wins, lowest first (RULES 2.5).
INSTANT_WINS = ("four_twos", "six_pairs", "four_triples", "five_pair_run", "six_pair_run", "dragon")


@dataclass(frozen=True)
class Rules:
    """House-rule options of 越式13张; the defaults are RULES.md's.

    * ``first_lead_must_contain_lowest`` — [decision] the game's first play must contain
      the lowest card dealt (normally 3♠); default False (the seed does not require it).
    * ``unplayed_loser_adds_multipliers`` — [decision] a loser who played no card and holds
      specials or 2s pays ``26 + Σ multipliers`` (default True); False: just 26.
    * ``turn_after_chop`` — [decision] who moves after a chop by a seat that had passed:
      ``"from_chopper"`` (default: the next seat after the chopper that has not passed)
      or ``"resume"`` (the seat whose turn the chop interrupted).
    * ``rake_percent`` — 抽水 of the winner's positive final amount, default 5 (the seed);
      losers are not raked.
    """

    first_lead_must_contain_lowest: bool = False
    unplayed_loser_adds_multipliers: bool = True
    turn_after_chop: str = "from_chopper"
    rake_percent: int = 5


def _rules(rules):
    return game_rules(rules, "tienlen", Rules)


@dataclass(frozen=True)
class Play(Result):
    """A classified play."""

    #: One of :data:`KINDS`.
    kind: str
    #: The Chinese name, e.g. 3连对.
    kind_zh: str
    #: The cards in the game's order, lowest first.
    cards: List[str]
    #: The highest card.
    top: str
    #: 0 (3♠) .. 51 (2♥): the top card's place in the game's order.
    strength: int

    @property
    def is_special(self) -> bool:
        return self.kind in SPECIAL_KINDS

    def __len__(self) -> int:
        return len(self.cards)


def _frozen(cls, names):
    """A fast constructor for a frozen dataclass whose values come straight from the
    core (already the right types): it fills ``__dict__`` directly instead of the
    generated ``__init__``'s one ``object.__setattr__`` per field, which dominated the
    cost of results with many items (settlement lines, legal plays)."""
    new = object.__new__

    def make(values):
        obj = new(cls)
        obj.__dict__.update(zip(names, values))
        return obj

    return make


_play = _frozen(Play, ("kind", "kind_zh", "cards", "top", "strength"))


def classify(cards: Cards) -> Play:
    """The play a set of cards makes (RULES 2.2); a set that is not a play raises a
    HandevalError that says why."""
    return _play(_core.tl_classify(cards))


def classify_many(sets: Sequence[Cards]) -> List[str]:
    """Kinds of many sets in one call (classification runs with the GIL released)."""
    return _core.tl_classify_many(sets)


def beats(play: Union[Cards, Play], table: Union[Cards, Play], rules=None) -> bool:
    """Whether ``play`` beats the table's ``table`` (RULES 2.3): the same type and size
    and higher, or a chop by a special."""
    _rules(rules)
    return _core.tl_beats(play, table)


def beats_many(pairs: Sequence[Tuple[Union[Cards, Play], Union[Cards, Play]]], rules=None) -> List[bool]:
    """:func:`beats` over many ``(play, table)`` pairs in one call (GIL released)."""
    _rules(rules)
    return _core.tl_beats_many(pairs)


def why_not(play: Union[Cards, Play], table: Union[Cards, Play]) -> Optional[str]:
    """Why ``play`` does not beat ``table``, or None when it does."""
    return _core.tl_why_not(play, table)


def legal_plays(hand: Cards, table: Union[None, Cards, Play] = None, passed: bool = False) -> List[Play]:
    """Every play ``hand`` may make now, weakest first: all leads when ``table`` is None;
    otherwise the plays that beat it, only specials if the seat has ``passed``."""
    if not isinstance(passed, bool):
        fail("passed", f"must be a bool, got {type(passed).__name__}")
    return [_play(p) for p in _core.tl_legal_plays(hand, table, passed)]


@dataclass(frozen=True)
class InstantHand(Result):
    #: One of :data:`INSTANT_WINS`.
    kind: str
    kind_zh: str
    #: The cards that form it, lowest first.
    cards: List[str]


def _instant(t) -> Optional[InstantHand]:
    return None if t is None else InstantHand(t[0], t[1], list(t[2]))


def instant_win(cards13: Cards) -> Optional[str]:
    """The highest instant win (直接获胜) of 13 dealt cards, or None (RULES 2.5)."""
    t = _core.tl_instant_win(cards13)
    return None if t is None else t[0]


def instant_hand(cards13: Cards) -> Optional[InstantHand]:
    """Like :func:`instant_win`, with the Chinese name and the forming cards."""
    return _instant(_core.tl_instant_win(cards13))


def instant_winner(hands13: Sequence[Cards]) -> Tuple[List[Optional[InstantHand]], Optional[int]]:
    """Each seat's instant win and the seat whose instant win is highest (None if
    nobody holds one). Same types compare by the forming cards' ranks from the top, then
    the suit of the highest card."""
    wins, best = _core.tl_instant_winner(hands13)
    return [_instant(w) for w in wins], best


@dataclass(frozen=True)
class FirstLead(Result):
    """Who leads the game: the holder of the lowest card dealt (RULES 2.4)."""

    seat: int
    card: str
    #: Whether the first play must contain ``card`` (rule option).
    must_contain: bool


def first_leader(hands: Sequence[Cards], rules=None) -> FirstLead:
    r = _rules(rules) or Rules()
    seat, card = _core.tl_first_leader(hands)
    return FirstLead(seat, card, r.first_lead_must_contain_lowest)


@dataclass(frozen=True)
class RoundState(Result):
    """A round after the actions given (RULES 2.4)."""

    #: ``[(seat, Play)]`` in order; the last one is on the table.
    plays: List[Tuple[int, Play]]
    #: Seats that have passed (they may still chop with a special).
    passed: List[int]
    #: Whose turn it is; None once the round is over.
    to_move: Optional[int]
    over: bool
    #: When over: the seat that leads the next round.
    next_leader: Optional[int]
    leader: int

    @property
    def table(self) -> Optional[Play]:
        return self.plays[-1][1] if self.plays else None


def _first(first_lead, leader):
    if first_lead is None:
        return leader, None
    if not isinstance(first_lead, FirstLead):
        fail("first_lead", f"expected a FirstLead from first_leader(), got {type(first_lead).__name__}")
    if leader is not None and leader != first_lead.seat:
        fail("leader", f"seat {leader} does not hold {first_lead.card}; seat {first_lead.seat} leads first")
    return first_lead.seat, (first_lead.card if first_lead.must_contain else None)


def round_state(round, players: int = 4, leader: Optional[int] = None, first_lead: Optional[FirstLead] = None,
                rules=None) -> RoundState:
    """Replay a round ``[[seat, cards | "pass"], ...]`` and return its state. An illegal
    action raises a HandevalError naming it (``round[i]``) and why. ``leader`` defaults to
    the first action's seat; pass ``first_lead`` (from :func:`first_leader`) for the
    game's first round."""
    leader, must = _first(first_lead, leader)
    plays, passed, to_move, over, next_leader, lead = _core.tl_round_state(round, players, leader, must, _rules(rules))
    return RoundState([(s, _play(p)) for s, p in plays], list(passed), to_move, over, next_leader, lead)


def check_action(round, seat: int, action, players: int = 4, leader: Optional[int] = None,
                 first_lead: Optional[FirstLead] = None, rules=None) -> Optional[str]:
    """None when ``seat`` may make ``action`` (cards or ``"pass"``) now, after ``round``;
    otherwise the reason it may not. Bad input (a set that is not a play, a seat not in
    the game, a card already played) raises a HandevalError."""
    leader, must = _first(first_lead, leader)
    return _core.tl_check_action(round, seat, action, players, leader, must, _rules(rules))


def may_play(round, seat: int, cards: Union[Cards, Play], players: int = 4, leader: Optional[int] = None,
             first_lead: Optional[FirstLead] = None, rules=None) -> bool:
    """Whether ``seat`` may play ``cards`` now: in turn and beating the table (or
    leading), or, after passing, only a special that chops the table."""
    return check_action(round, seat, cards, players, leader, first_lead, rules) is None


def chop_transfers(round, base: int, players: int = 4, leader: Optional[int] = None, rules=None) -> List[Dict[str, int]]:
    """The 压牌 chop payment of one round (RULES 2.6): ``[]`` or
    ``[{"from": seat, "to": seat, "amount": int}]`` — the seat beaten last pays ``base ×``
    the multipliers of the chain's specials to the seat of the last special. The round is
    validated first."""
    return [{"from": f, "to": t, "amount": a} for f, t, a in _core.tl_chop_transfers(round, base, players, leader, _rules(rules))]


def special_groups(cards: Cards) -> Tuple[List[Tuple[str, List[str]]], int]:
    """The disjoint 炸弹 / 3连对 / 4连对 groups of a hand with the largest total
    multiplier, and that total (2s are never grouped)."""
    groups, total = _core.tl_special_groups(cards)
    return [(k, list(c)) for k, c in groups], total


@dataclass(frozen=True)
class Line(Result):
    """One amount of a settlement. For each seat, its lines add up to its delta."""

    #: ``cards`` ``no_card`` ``instant_win`` ``red_two`` ``black_two`` ``bomb``
    #: ``three_pair_run`` ``four_pair_run`` ``win`` ``chop`` ``cap`` ``rake``.
    kind: str
    seat: int
    #: The seat on the other side of a payment, or None (cap, rake).
    other: Optional[int]
    #: The multiple of ``base`` (0 for win, chop, cap and rake lines).
    multiplier: int
    #: Signed change to ``seat``.
    amount: int
    cards: List[str]
    text: str


@dataclass(frozen=True)
class Settlement(Result):
    #: Final money per seat, after the cap and the rake; ``sum(deltas) + rake == 0``.
    deltas: List[int]
    rake: int
    lines: List[Line]
    winner: int
    #: What each loser pays the winner, before chops (0 for the winner).
    pays: List[int]
    #: Signed chop transfers per seat.
    chops: List[int]
    #: Before the cap.
    theoretical: List[int]
    #: After the cap, before the rake.
    capped: List[int]
    #: settle_instant: each seat's instant win (or None); settle: all None.
    instant: List[Optional[str]]


_line = _frozen(Line, ("kind", "seat", "other", "multiplier", "amount", "cards", "text"))


def _settlement(t) -> Settlement:
    deltas, rake, lines, pays, chops, theoretical, capped, winner, instant = t
    return Settlement(
        deltas=list(deltas),
        rake=rake,
        lines=list(map(_line, lines)),
        winner=winner,
        pays=list(pays),
        chops=list(chops),
        theoretical=list(theoretical),
        capped=list(capped),
        instant=list(instant),
    )


def settle(remaining: Sequence[Cards], winner: int, base: int, played_any: Optional[Sequence[bool]] = None,
           chops=(), carried: Optional[Sequence[Optional[int]]] = None, rules=None) -> Settlement:
    """Settle a finished game (RULES 2.6, then the cap of section 4 and the rake).

    ``remaining``: cards left per seat (the winner's empty); ``played_any``: whether each
    seat played a card (default: it holds fewer than 13); ``chops``: the game's chops,
    each entry either a round ``[[seat, cards | "pass"], ...]`` (its chop chain is settled
    with this ``base``, see :func:`chop_transfers`) or a transfer as :func:`chop_transfers`
    returns it (``{"from", "to", "amount"}`` or ``(from, to, amount)``); ``carried``:
    carried-in amounts (None entries are uncapped).
    """
    chops = list(chops) if isinstance(chops, (list, tuple)) else chops
    return _settlement(_core.tl_settle(remaining, winner, base, played_any, chops, carried, _rules(rules)))


def settle_instant(hands13: Sequence[Cards], base: int, carried: Optional[Sequence[Optional[int]]] = None,
                   rules=None) -> Settlement:
    """Settle an instant win (RULES 2.5/2.6) from every seat's 13 dealt cards: each
    loser pays ``base × 26``, plus its specials and 2s unless it also held an instant
    win. Nobody holding one is an error."""
    return _settlement(_core.tl_settle_instant(hands13, base, carried, _rules(rules)))

"""越式13张 (tienlen), Vietnamese Thirteen / Tiến lên: play types, beating and 压牌 chops,
turn order, 直接获胜 instant wins and settlement (docs/rules.md §2).

Every name here is the native ``handeval._core`` class or function itself (the rules and
the result types live in Rust): results are frozen, compare and hash by value, pickle,
and have ``to_dict()`` and ``replace(**changes)``.

Order: rank ``3 < 4 < … < A < 2``, suit ♠ < ♣ < ♦ < ♥. Seats play counter-clockwise,
0 → 1 → 2 → 3 → 0.
"""

from __future__ import annotations

from handeval import _core
from handeval._str_enum import StrEnum

__all__ = [
    "Rules",
    "Play",
    "InstantHand",
    "FirstLead",
    "RoundState",
    "Line",
    "LineKind",
    "Settlement",
    "Game",
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
    "replay",
]

#: Play kinds, in the order :func:`legal_plays` lists them: ``single``, ``pair``,
#: ``triple``, ``straight``, ``three_pair_run``, ``bomb``, ``four_pair_run`` (the core's list).
KINDS = _core.TL_KINDS
#: 特殊牌型 and their multipliers (RULES 2.6): 3连对 2, 炸弹 3, 4连对 4.
SPECIAL_KINDS = _core.TL_SPECIAL_KINDS
#: Instant wins, lowest first (RULES 2.5): ``four_twos``, ``six_pairs``, ``four_triples``,
#: ``five_pair_run``, ``six_pair_run``, ``dragon``.
INSTANT_WINS = _core.TL_INSTANT_WINS

#: House-rule options of 越式13张 (native, frozen, keyword-only): each option's description is
#: its attribute's ``__doc__`` (``help(Rules)``), written once in the core; docs/api.md lists them.
Rules = _core.TienlenRules

#: A classified play; ``is_special`` and ``len(play)`` besides its fields. Passed back in
#: (as ``table``, in a pair, in a round) it is used as is.
#: Its fields' descriptions are the binding's (``help(Play)``); docs/api.md lists them.
Play = _core.TienlenPlay
#: An instant win (直接获胜, RULES 2.5) and the cards that form it.
#: Its fields' descriptions are the binding's (``help(InstantHand)``); docs/api.md lists them.
InstantHand = _core.TienlenInstantHand
#: Who leads the game (RULES 2.4).
#: Its fields' descriptions are the binding's (``help(FirstLead)``); docs/api.md lists them.
FirstLead = _core.TienlenFirstLead
#: A replayed round; ``table`` (the last play or None) besides its fields.
#: Its fields' descriptions are the binding's (``help(RoundState)``); docs/api.md lists them.
RoundState = _core.TienlenRoundState
#: One amount of a settlement; each seat's lines add up to its delta.
#: Its fields' descriptions are the binding's (``help(Line)``); docs/api.md lists them.
Line = _core.TienlenLine


class LineKind(StrEnum):
    """What a settlement :class:`Line` is for (the proto's ``TienlenLineKind``).

    ``Line.kind`` is the plain string; each member equals (and hashes as) its value, so
    ``line.kind == LineKind.CHOP`` and ``LineKind(line.kind)`` both work.
    """

    # BEGIN generated: LineKind (scripts/gen_docs.py)
    #: base × cards left.
    CARDS = "cards"
    #: base × 26: a loser who played no card.
    NO_CARD = "no_card"
    #: base × 26: a loser against an instant win.
    INSTANT_WIN = "instant_win"
    #: base × 5 per red 2 left.
    RED_TWO = "red_two"
    #: base × 2 per black 2 left.
    BLACK_TWO = "black_two"
    #: base × the multiplier of a bomb left in hand.
    BOMB = "bomb"
    #: base × the multiplier of a 3连对 left in hand.
    THREE_PAIR_RUN = "three_pair_run"
    #: base × the multiplier of a 4连对 left in hand.
    FOUR_PAIR_RUN = "four_pair_run"
    #: The winner receives one loser's payment.
    WIN = "win"
    #: A 压牌 chop transfer (one line per side).
    CHOP = "chop"
    #: The change the cap (RULES 4) made to a seat's total.
    CAP = "cap"
    #: 抽水 taken from a seat's positive amount.
    RAKE = "rake"
    # END generated: LineKind


#: A settled game; ``sum(deltas) + rake == 0``.
#: Its fields' descriptions are the binding's (``help(Settlement)``); docs/api.md lists them.
Settlement = _core.TienlenSettlement

#: ``classify(cards) -> Play`` (RULES 2.2); a set that is not a play raises why.
classify = _core.tl_classify
#: ``classify_many(sets) -> list``: each set's kind, or in its place the HandevalError
#: (``.field`` = ``"sets[i]"``) it would raise.
classify_many = _core.tl_classify_many
#: ``beats(play, table, rules=None) -> bool`` (RULES 2.3). ``rules`` is validated; no
#: option of 越式13张 changes beating.
beats = _core.tl_beats
#: ``beats_many(pairs, rules=None) -> list``: per ``(play, table)`` pair a bool, or the
#: HandevalError (``.field`` = ``"pairs[i]…"``) it would raise; beating runs with the GIL
#: released.
beats_many = _core.tl_beats_many
#: ``why_not(play, table) -> str | None``: why ``play`` does not beat ``table``.
why_not = _core.tl_why_not
#: ``legal_plays(hand, table=None, passed=False) -> list[Play]``, weakest first: every
#: lead when ``table`` is None, else the plays that beat it (only specials if ``passed``).
legal_plays = _core.tl_legal_plays
#: ``instant_win(cards13) -> str | None``: the highest instant win (RULES 2.5).
instant_win = _core.tl_instant_win
#: ``instant_hand(cards13) -> InstantHand | None``.
instant_hand = _core.tl_instant_hand
#: ``instant_winner(hands13) -> (list[InstantHand | None], seat | None)``.
instant_winner = _core.tl_instant_winner
#: ``first_leader(hands, rules=None) -> FirstLead`` (RULES 2.4).
first_leader = _core.tl_first_leader
#: ``round_state(round, players=4, leader=None, first_lead=None, rules=None) -> RoundState``:
#: replay ``[[seat, cards | "pass"], ...]``; an illegal action raises naming ``round[i]``.
round_state = _core.tl_round_state
#: ``check_action(round, seat, action, players=4, leader=None, first_lead=None,
#: rules=None)``: None when ``seat`` may make ``action`` now, else the reason.
check_action = _core.tl_check_action
#: ``may_play(round, seat, cards, players=4, leader=None, first_lead=None, rules=None)
#: -> bool``.
may_play = _core.tl_may_play
#: ``chop_transfers(round, base=1, players=4, leader=None, rules=None)``: ``[]`` or
#: ``[{"from": seat, "to": seat, "amount": int}]`` (RULES 2.6).
chop_transfers = _core.tl_chop_transfers
#: ``special_groups(cards) -> ([(kind, cards)], total multiplier)``.
special_groups = _core.tl_special_groups
#: ``settle(remaining, winner, base=1, played_any=None, chops=(), carried=None, rules=None)
#: -> Settlement`` (RULES 2.6, the cap of section 4, the rake).
settle = _core.tl_settle
#: ``settle_instant(hands13, base=1, carried=None, rules=None) -> Settlement``.
settle_instant = _core.tl_settle_instant

#: A whole game as an immutable state machine (docs/rules.md §2.4–2.6):
#: ``Game(hands, rules=None)``, ``.apply((seat, cards | "pass"))`` → the next ``Game``,
#: ``.check(action)`` → the HandevalError ``apply`` would raise or None,
#: ``.settle(base=1, carried=None)`` from the record. Fields: ``players``, ``hands``,
#: ``held``, ``played_any``, ``history``, ``tricks`` (``[(leader, first_action,
#: last_action, over, won_by)]``), ``round``, ``leader``, ``turn``, ``table``,
#: ``table_seat``, ``passed``, ``must_contain``, ``legal_plays``, ``may_pass``,
#: ``chop_offers``, ``chops``, ``winner``, ``instant``, ``over``.
Game = _core.TienlenGame
#: ``replay(hands, actions, rules=None) -> Game``: the game after ``actions``
#: (``[(seat, cards | "pass")]``, at most 208); an error names ``actions[i]``.
replay = _core.tl_replay

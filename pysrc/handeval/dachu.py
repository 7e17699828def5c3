"""打儲 (dachu), a 4-player team shedding game with 儲 aces (docs/rules.md §3): plays,
the 儲 order and beating, legal plays, the deal's declarations and the calling (叫牌) as
immutable state machines, and settlement.

Every name here is the native ``handeval._core`` class or function itself (the rules,
the results and the state machines live in Rust): results and states are frozen, compare
and hash by value, pickle, and have ``to_dict()``.

Seats are 0..3 and play goes in seat order. Actions of the state machines are tuples
``(name, seat, ...)``: ``Deal`` takes ``("deal",)``, ``("meng_xuan", seat, "Ah")``,
``("meng_chuai", seat, "5s 5h 5d")``, ``("cheng_chu", seat[, "red"|"black"])``,
``("finish",)``; ``Calling`` takes ``("ping_da"|"chuai"|"bao_chuai"|"jiao", seat)``;
``Game`` takes ``("play", seat, cards)``, ``("pass", seat)``, ``("timeout", seat)``.
"""

from __future__ import annotations

from handeval import _core
from handeval._str_enum import StrEnum

__all__ = [
    "Rules",
    "Play",
    "Line",
    "LineKind",
    "Settlement",
    "Deal",
    "Calling",
    "Game",
    "KINDS",
    "CALLS",
    "classify",
    "beats",
    "beats_many",
    "legal_plays",
    "timeout_play",
    "settle",
    "replay_game",
]

#: Play kinds, weakest tier first: ``single``, ``pair``, ``straight``, ``triple_bomb``,
#: ``quad_bomb``, ``du_chu`` (the core's list).
KINDS = _core.DC_KINDS
#: Calls of 叫牌: ``ping_da`` 平打, ``chuai`` 踹 (also 跟踹), ``bao_chuai`` 包踹, ``jiao`` 繳.
CALLS = _core.DC_CALLS

#: House-rule options of 打儲 (native, frozen, keyword-only): each option's description is
#: its attribute's ``__doc__`` (``help(Rules)``), written once in the core; docs/api.md lists them.
Rules = _core.DachuRules

#: A classified play; ``len(play)`` besides its fields. Passed back in (as ``table`` or in
#: a pair) its cards are used as is.
#: Its fields' descriptions are the binding's (``help(Play)``); docs/api.md lists them.
Play = _core.DachuPlay
#: The deal and its declarations (RULES 3.5), an immutable state machine:
#: ``Deal(hands, first_seat=0, rules=None)``, ``.apply(action)``, ``.calling()``,
#: ``.view(seat)`` (the deal as that seat sees it), ``.offers(seat)`` (its declarations).
Deal = _core.DachuDeal
#: 叫牌 (RULES 3.6), an immutable state machine: ``Calling(chu_side, declared=False,
#: multiplier=1, start_seat=0, first_side=None, rules=None)``, ``.apply((call, seat))``,
#: ``.settle(places, …)``.
Calling = _core.DachuCalling
#: One line of a settlement; each seat's lines add up to its delta. ``item`` and ``note``,
#: the old names of ``kind`` and ``text``, still read (with a DeprecationWarning) for one
#: release.
#: Its fields' descriptions are the binding's (``help(Line)``); docs/api.md lists them.
Line = _core.DachuLine


class LineKind(StrEnum):
    """What a settlement :class:`Line` is for (the proto's ``DachuLineKind``).

    ``Line.kind`` is the plain string; each member equals (and hashes as) its value, so
    ``line.kind == LineKind.CAP`` and ``LineKind(line.kind)`` both work.
    """

    # BEGIN generated: LineKind (scripts/gen_docs.py)
    #: 繳: a surrendering seat pays the other side.
    JIAO = "jiao"
    #: The game's result (win or loss of the 儲方).
    RESULT = "result"
    #: 逃跑: a seat ran away.
    ESCAPE = "escape"
    #: The change the cap (RULES 4) made to a seat's total.
    CAP = "cap"
    # END generated: LineKind


#: A settled game (RULES 3.7, the cap of RULES 4).
#: Its fields' descriptions are the binding's (``help(Settlement)``); docs/api.md lists them.
Settlement = _core.DachuSettlement

#: ``classify(cards, chu, rules=None) -> Play`` (RULES 3.2), ``chu`` ``"red"``/``"black"``.
classify = _core.dc_classify
#: ``beats(play, table, chu, rules=None) -> bool`` (RULES 3.3).
beats = _core.dc_beats
#: ``beats_many(pairs, chu, rules=None) -> list``: per ``(play, table)`` pair a bool, or
#: the HandevalError (``.field`` = ``"pairs[i]…"``) it would raise; beating runs with the
#: GIL released.
beats_many = _core.dc_beats_many
#: ``legal_plays(hand, table, chu, *, first_lead=False, surrendered=False,
#: shown_triple=None, rules=None) -> list[Play]``, weakest first.
legal_plays = _core.dc_legal_plays
#: ``timeout_play(hand, table, chu, *, first_lead=False, surrendered=False,
#: shown_triple=None, rules=None)``: the cards played for a player out of time (RULES
#: 3.7), or None (a pass). ``hand`` as the client shows it: a list of columns (rightmost
#: last), or one row of cards whose runs of one rank are the columns.
timeout_play = _core.dc_timeout_play
#: ``settle(chu_side, places=None, *, base=1, multiplier=None, surrendered=None,
#: bei_bao_da=None, escaped=(), carried=None, rules=None) -> Settlement`` (RULES 3.7, the
#: cap of RULES 4); ``chu_side`` may be a finished :class:`Calling`.
settle = _core.dc_settle

#: The play (RULES 3.4, 3.4a) as an immutable state machine: ``Game(deal, calling)`` from
#: a finished Deal and its finished Calling; ``.apply(action)`` → the next ``Game``;
#: ``.settle(*, base=1, escaped=(), carried=None)`` from the record. Fields: ``chu``,
#: ``chu_side``, ``multiplier``, ``playing``, ``surrendered``, ``bei_bao_da``,
#: ``shown_triples``, ``hands``, ``held``, ``auto_lead``, ``turn``, ``leader``, ``table``,
#: ``table_seat``, ``passed``, ``legal_plays``, ``may_pass``, ``legal_actions``,
#: ``places``, ``over``, ``decided``, ``wipe_out``, ``history``, ``tricks`` (``[(leader,
#: first_action, last_action, over, won_by)]``).
Game = _core.DachuGame
#: ``replay_game(hands, deal_actions, calls, plays, *, first_seat=0, start_seat=None,
#: first_side=None, rules=None) -> Game``: deal, calling and play replayed in one call.
replay_game = _core.dc_replay_game

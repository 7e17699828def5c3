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

__all__ = [
    "Rules",
    "Play",
    "Line",
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

#: House-rule options (keyword-only, defaults are docs/rules.md's; a bad value raises
#: HandevalError at construction, ``.field`` = ``"rules.<option>"``):
#:
#: * ``mixed_ace_pair`` — [decision] one 儲A + one plain A is an ordinary AA (default
#:   True); False: such a pair is not a play.
#: * ``cheng_chu_alone`` — [decision] 撐儲 makes that colour the 儲, so its player (who
#:   holds both) plays alone, 1 vs 3 (default True); False: 撐儲 only doubles, the
#:   colour still comes from 夢宣 or 平宣.
#: * ``escape_shared_by_all`` — [decision] an escape penalty is shared equally by the
#:   three others (default True); False: only by the escaping player's opponents.
#: * ``unit_per`` — [decision] a won game moves one unit (base × multiplier) per member
#:   of the ``"larger_side"`` (default: 1 vs 3 → the lone player pays or receives three
#:   units; 2 vs 2 → each loser pays one) or per member of the ``"losing_side"``.
#: * ``first_caller_2v2`` — who calls first in a 2 vs 2 without 夢宣/撐儲: ``"other"``
#:   (the 非儲方, default) or ``"chu"``. (The 儲方 always calls first after a
#:   declaration and in 1 vs 3.)
#: * ``escape_units`` — the escape penalty in units of base × multiplier (the seed: 5;
#:   0..1000).
#: * ``jiao_round_up`` — [decision] a 繳 costs base × multiplier / 2 rounded up to a
#:   whole unit (default True: a surrender always costs something); False: toward zero.
#: * ``pass_is_final`` — [decision] a pass does not stop a player from playing later in
#:   the same trick (default False); True: a player who passed sits out the rest of the
#:   trick, as in 越式13张.
#: * ``declare_once_per`` — [decision] the deal's declarations are once per
#:   ``"player_and_kind"`` (default: several players may each 夢踹), once per
#:   ``"player"`` (one declaration of any kind each) or once per ``"game"`` per kind.
#:   夢宣 and 撐儲 fix the 儲 colour, so each happens once per game under every reading.
Rules = _core.DachuRules

#: A classified play: ``kind`` (one of :data:`KINDS`), ``kind_zh``, ``cards`` (from
#: ``legal_plays``: in the game's order, weakest first), ``strength`` (higher is stronger
#: within a kind: singles 1 (3) … 11 (K), 12 plain A, 13 the 2, 14 儲A; pairs and bombs
#: 1 (3) … 12 (A), 13 (2); straights the top card's place in A(1) 2 3 … K(13) A(14));
#: ``len(play)``. Passed back in (as ``table`` or in a pair) its cards are used as is.
Play = _core.DachuPlay
#: The deal and its declarations (RULES 3.5), an immutable state machine:
#: ``Deal(hands, first_seat=0, rules=None)``, ``.apply(action)``, ``.calling()``.
Deal = _core.DachuDeal
#: 叫牌 (RULES 3.6), an immutable state machine: ``Calling(chu_side, declared=False,
#: multiplier=1, start_seat=0, first_side=None, rules=None)``, ``.apply((call, seat))``,
#: ``.settle(places, …)``.
Calling = _core.DachuCalling
#: One item of a settlement: ``item`` (``"jiao"``, ``"result"``, ``"escape"``, ``"cap"``),
#: ``seat``, ``amount``, ``note``.
Line = _core.DachuLine
#: ``verdict``, ``wipe_out``, ``result_multiplier``, ``lines``, ``theoretical``, ``deltas``.
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
#: ``timeout_play(hand, table, chu, *, first_lead=False, shown_triple=None, rules=None)``:
#: the cards played for a player out of time, or None (a pass).
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
#: ``places``, ``over``, ``decided``, ``wipe_out``, ``history``.
Game = _core.DachuGame
#: ``replay_game(hands, deal_actions, calls, plays, *, first_seat=0, start_seat=None,
#: first_side=None, rules=None) -> Game``: deal, calling and play replayed in one call.
replay_game = _core.dc_replay_game

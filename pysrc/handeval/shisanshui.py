"""十三水 (shisanshui), Chinese poker: rows, comparison, 倒水 fouls, 特殊牌型 specials and
settlement (docs/rules.md §1). Thin over ``handeval._core``: the result and rule
classes are native (frozen, compared and hashed by their fields, picklable, with
``to_dict()`` and ``replace(**changes)``) and every ``rules=`` argument (None, this
module's :class:`Rules` or :class:`handeval.Rules`) is read in Rust; every rule lives in
Rust.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

from handeval import _core
from handeval.errors import HandevalError

__all__ = [
    "Rules",
    "Row",
    "SpecialHand",
    "PairResult",
    "Settlement",
    "CATEGORIES",
    "SPECIALS",
    "classify",
    "classify_many",
    "categories_from_ids",
    "compare",
    "is_foul",
    "special",
    "special_hand",
    "makes_special",
    "settle",
    "order_keys",
]

Cards = Union[str, Sequence[str]]

#: Row categories, lowest first: ``high_card``, ``pair``, ``two_pair``,
#: ``three_of_a_kind``, ``straight``, ``flush``, ``full_house``, ``four_of_a_kind``,
#: ``straight_flush`` (the core's list; the index is the byte of :func:`categories_from_ids`).
CATEGORIES = _core.SSW_CATEGORIES

#: Special hands, highest first: ``(id, Chinese name, waters)``.
SPECIALS = tuple(_core.ssw_special_table())


#: House-rule options of 十三水 (native, frozen, keyword-only): each option's description is
#: its attribute's ``__doc__`` (``help(Rules)``), written once in the core; docs/api.md lists them.
Rules = _core.ShisanshuiRules

#: A classified 3- or 5-card row.
#: Its fields' descriptions are the binding's (``help(Row)``); docs/api.md lists them.
Row = _core.ShisanshuiRow


#: A special hand (特殊牌型, RULES 1.7) found in 13 cards.
#: Its fields' descriptions are the binding's (``help(SpecialHand)``); docs/api.md lists them.
SpecialHand = _core.ShisanshuiSpecialHand

#: How seats ``a < b`` were scored, from ``a``'s point of view.
#: Its fields' descriptions are the binding's (``help(PairResult)``); docs/api.md lists them.
PairResult = _core.ShisanshuiPairResult

#: A settled deal (RULES 1.6 scoring, RULES 4 money).
#: Its fields' descriptions are the binding's (``help(Settlement)``); docs/api.md lists them.
Settlement = _core.ShisanshuiSettlement

#: ``classify(cards, rules=None) -> Row``: classify a 3-card front or a 5-card row.
classify = _core.ssw_classify

#: ``classify_many(rows, rules=None) -> list``: the category of each row, or in its place
#: the HandevalError (not raised) that ``classify(row)`` raises, same ``.field`` and
#: ``.description``; evaluation runs with the GIL released.
classify_many = _core.ssw_classify_many


def categories_from_ids(data: bytes, row_size: int = 5, rules=None) -> bytes:
    """The bulk path: rows packed as card ids (one byte per card, ``rank * 4 + suit`` with
    rank 0 = ``2`` … 12 = ``A`` and suit 0..3 = ``s h d c``; ``row_size`` bytes per row)
    -> one byte per row, the index of its category in :data:`CATEGORIES`.

    All or nothing: a bad row (a card id above 51, a repeated card) raises HandevalError
    with ``.field`` = ``"data[i]"`` (row ``i``, bytes ``i * row_size`` onwards)."""
    return _core.ssw_categories_from_ids(data, row_size, rules)


#: ``compare(a, b, rules=None) -> int``: -1, 0 or 1, the full order of RULES 1.3 between
#: two rows of the same size (rows sharing a card are refused).
compare = _core.ssw_compare


def is_foul(front: Cards, middle: Cards, back: Cards, rules=None) -> bool:
    """倒水: whether front ≤ middle ≤ back fails (ranks only, RULES 1.4)."""
    return _core.ssw_is_foul(front, middle, back, rules)


def special(cards13: Cards) -> Optional[str]:
    """The id of the highest special hand the 13 cards make, or None."""
    s = _core.ssw_special(cards13)
    return None if s is None else s.id


def makes_special(cards13: Cards, special_id: str) -> bool:
    """Whether the 13 cards satisfy the condition of ``special_id`` (RULES 1.7's table),
    whether or not it is their highest. Only the highest special (:func:`special`) can be
    declared: a 五对三条 hand satisfies 六对半 but is a 五对三条."""
    return _core.ssw_makes_special(cards13, special_id)


def special_hand(cards13: Cards) -> Optional[SpecialHand]:
    """Like :func:`special`, with the Chinese name, waters and split."""
    return _core.ssw_special(cards13)


def settle(players, base: int = 1, carried=None, rules=None) -> Settlement:
    """Score a deal (RULES 1.6) and settle money (RULES 4).

    ``players``: per seat ``{"front", "middle", "back"}`` or ``{"special": id, "cards": 13 cards}``.
    ``carried``: per-seat carried-in amounts (None entries are uncapped), or None.
    """
    return _core.ssw_settle(players, base, carried, rules)


# ---------------------------------------------------------------------------------------
# Arrangement (最优摆牌, RULES 1.8)

__all__ += ["Arrangement", "MAX_SAMPLES", "MAX_TOP_K", "arrange", "arrange_many", "best_response"]

#: An arrangement of 13 cards with its score (:func:`arrange`, :func:`best_response`).
#: Its fields' descriptions are the binding's (``help(Arrangement)``); docs/api.md lists them.
Arrangement = _core.ShisanshuiArrangement

#: The largest ``samples`` of :func:`arrange` / :func:`arrange_many` (each sample costs
#: about 70 µs of one core for one hand on the reference machine).
MAX_SAMPLES: int = _core.SSW_MAX_SAMPLES
#: The largest ``top_k``.
MAX_TOP_K: int = _core.SSW_MAX_TOP_K


def arrange(
    cards13: Cards, opponents: int = 3, top_k: int = 1, seed: int = 0, rules=None, samples: int = 0
) -> Arrangement:
    """The foul-free arrangement with the highest expected waters (RULES 1.8) against
    ``opponents`` (1..3) random opponents who arrange with this solver.

    The expectation comes from per-row win-probability tables shipped with the engine
    (docs/arrange.md). ``samples`` (0..:data:`MAX_SAMPLES`) > 0 re-ranks the best
    candidates by the mean exact waters over that many opponent deals drawn with ``seed``
    (slower, deterministic; Ctrl-C interrupts it).
    """
    return _core.ssw_arrange(cards13, opponents, top_k, seed, samples, rules)


def arrange_many(
    hands: Sequence[Cards], opponents: int = 3, top_k: int = 1, seed: int = 0, rules=None, samples: int = 0
) -> List[Union[Arrangement, HandevalError]]:
    """:func:`arrange` for many hands: the GIL is released and every core is used. One
    item per hand: its Arrangement, or in its place the HandevalError (not raised) that
    ``arrange(hand)`` raises, same ``.field`` and ``.description``. A bad option raises.
    Ctrl-C interrupts it between chunks."""
    return _core.ssw_arrange_many(hands, opponents, top_k, seed, samples, rules)


def best_response(cards13: Cards, opponents, rules=None, top_k: int = 1) -> Arrangement:
    """The arrangement with the highest exact score (RULES 1.6, scoops and home runs
    included) against the opponents' actual plays: a list of ``{"front", "middle",
    "back"}`` (or ``{"special", "cards"}``) dicts. ``expected`` is that exact score."""
    return _core.ssw_best_response(cards13, opponents, top_k, rules)


def order_keys(rows: Sequence[Cards], rules=None) -> List[int]:
    """One integer per row that orders rows of one size as :func:`compare` does (category,
    ranks, then suits with ``suit_tiebreak``): the stronger row has the larger key, equal
    keys tie. The rows need not come from one deck (unlike ``compare``), so independent
    rows can be ranked by sorting their keys. A bad row, or a row whose size is not the
    first row's, raises with ``.field`` ``rows[i]``."""
    return _core.ssw_order_keys(rows, rules)

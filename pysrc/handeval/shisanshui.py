"""十三水 (shisanshui), Chinese poker: rows, comparison, 倒水 fouls, 特殊牌型 specials and
settlement (RULES.md section 1). Thin over ``handeval._core``: this module converts
arguments and builds result objects; every rule lives in Rust.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Union

from handeval import _core
from handeval._result import Result
from handeval.errors import fail

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
]

Cards = Union[str, Sequence[str]]

#: Row categories, lowest first.
CATEGORIES = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
)

#: Special hands, highest first: ``(id, Chinese name, waters)``.
SPECIALS = tuple(_core.ssw_special_table())


#: House-rule options of 十三水 (native, frozen; keyword-only; defaults are RULES.md's):
#:
#: * ``suit_tiebreak`` — equal ranks are decided by suits (the seed: no ties); off: an
#:   exact rank tie scores 0.
#: * ``suit_order`` — [decision] suits strongest first, default ``"shcd"`` (♠ > ♥ > ♣ > ♦).
#: * ``a2345`` — ``"lowest"`` (default) or ``"second_highest"`` (just below TJQKA).
#: * ``foul_scoring`` — [decision] a fouled hand loses every row and counts as scooped;
#:   off: fouled hands are rejected as bad input.
#: * ``home_run_min_opponents`` — [decision] 全垒打 needs this many opponents (default 3).
#: * ``rake_percent`` — 抽水 of each positive result (0..100), default 0.
#:
#: A bad value raises HandevalError at construction, ``.field`` = ``"rules.<option>"``.
Rules = _core.ShisanshuiRules

#: A classified 3- or 5-card row: ``category``, ``category_zh``, ``strength``, ``cards``.
Row = _core.ShisanshuiRow


def _rules(rules):
    # The core reads rules= itself (None, shisanshui.Rules or handeval.Rules).
    return rules


@dataclass(frozen=True)
class SpecialHand(Result):
    id: str
    name_zh: str
    waters: int
    #: ``[front, middle, back]`` for 三同花顺 / 三顺子 / 三同花, else None.
    split: Optional[List[List[str]]]


@dataclass(frozen=True)
class PairResult(Result):
    """How seats ``a < b`` were scored, from ``a``'s point of view."""

    a: int
    b: int
    #: ``"rows"``, ``"foul"`` or ``"special"``.
    kind: str
    #: Signed waters of front, middle, back (before doubling) when rows were compared.
    rows: List[int]
    #: Seat that scooped (打枪) the other, or None.
    scooper: Optional[int]
    #: The scooper's 全垒打 doubled this pair again.
    home_run: bool
    #: Waters ``a`` wins from ``b``; negative when ``a`` pays.
    waters: int


@dataclass(frozen=True)
class Settlement(Result):
    #: Total waters per seat.
    waters: List[int]
    #: Money per seat after the cap and the rake.
    deltas: List[int]
    #: ``pairwise[i][j]``: waters seat i wins from seat j.
    pairwise: List[List[int]]
    fouls: List[bool]
    #: Declared special id per seat, or None.
    specials: List[Optional[str]]
    home_runs: List[bool]
    #: base × waters, before the cap.
    theoretical: List[int]
    rake: int
    pairs: List[PairResult]


def _special(t) -> Optional[SpecialHand]:
    if t is None:
        return None
    sid, zh, waters, split = t
    return SpecialHand(sid, zh, waters, None if split is None else [list(r) for r in split])


#: ``classify(cards, rules=None) -> Row``: classify a 3-card front or a 5-card row.
classify = _core.ssw_classify

#: ``classify_many(rows, rules=None) -> list``: the category of each row, or in its place
#: the HandevalError (``.field`` = ``"rows[i]"``) that row would raise; evaluation runs
#: with the GIL released.
classify_many = _core.ssw_classify_many


def categories_from_ids(data: bytes, row_size: int = 5, rules=None) -> bytes:
    """The bulk path: rows packed as card ids (one byte per card, ``rank * 4 + suit`` with
    rank 0 = ``2`` … 12 = ``A`` and suit 0..3 = ``s h d c``; ``row_size`` bytes per row)
    -> one byte per row, the index of its category in :data:`CATEGORIES`."""
    return _core.ssw_categories_from_ids(data, row_size, _rules(rules))


def compare(a: Cards, b: Cards, rules=None) -> int:
    """-1, 0 or 1: the full order of RULES 1.3 between two rows of the same size."""
    return _core.ssw_compare(a, b, _rules(rules))


def is_foul(front: Cards, middle: Cards, back: Cards, rules=None) -> bool:
    """倒水: whether front ≤ middle ≤ back fails (ranks only, RULES 1.4)."""
    return _core.ssw_is_foul(front, middle, back, _rules(rules))


def special(cards13: Cards) -> Optional[str]:
    """The id of the highest special hand the 13 cards make, or None."""
    s = _core.ssw_special(cards13)
    return None if s is None else s[0]


def makes_special(cards13: Cards, special_id: str) -> bool:
    """Whether the 13 cards make ``special_id`` (a player may declare any special they
    make, not only the highest)."""
    return _core.ssw_makes_special(cards13, special_id)


def special_hand(cards13: Cards) -> Optional[SpecialHand]:
    """Like :func:`special`, with the Chinese name, waters and split."""
    return _special(_core.ssw_special(cards13))


def settle(players, base: int = 1, carried=None, rules=None) -> Settlement:
    """Score a deal (RULES 1.6) and settle money (RULES 4).

    ``players``: per seat ``{"front", "middle", "back"}`` or ``{"special": id, "cards": 13 cards}``.
    ``carried``: per-seat carried-in amounts (None entries are uncapped), or None.
    """
    r = _core.ssw_settle(players, base, carried, _rules(rules))
    waters, pairwise, fouls, specials, home_runs, theoretical, deltas, rake, pairs = r
    return Settlement(
        waters=list(waters),
        deltas=list(deltas),
        pairwise=[list(row) for row in pairwise],
        fouls=list(fouls),
        specials=[None if s is None else s[0] for s in specials],
        home_runs=list(home_runs),
        theoretical=list(theoretical),
        rake=rake,
        pairs=[
            PairResult(a, b, kind, list(rows), {1: a, -1: b}.get(scoop), home_run, w)
            for a, b, kind, rows, scoop, home_run, w in pairs
        ],
    )


# ---------------------------------------------------------------------------------------
# Arrangement (最优摆牌, RULES 1.8)

__all__ += ["Arrangement", "arrange", "arrange_many", "best_response"]


@dataclass(frozen=True)
class Arrangement(Result):
    """An arrangement of 13 cards with its score (see :func:`arrange`)."""

    front: List[str]
    middle: List[str]
    back: List[str]
    #: Expected waters against the opponents (:func:`arrange`), or the exact waters
    #: against the given opponents (:func:`best_response`).
    expected: float
    #: The special hand (RULES 1.7) the 13 cards make, or None.
    special: Optional[str] = None
    #: Declaring that special scores more than this arrangement.
    declare_special: bool = False
    #: Expected (or exact) waters of declaring the special, or None.
    special_expected: Optional[float] = None
    #: The ``top_k`` best arrangements, best first (``alternatives[0]`` is this one);
    #: each has the same fields and no alternatives of its own.
    alternatives: List["Arrangement"] = field(default_factory=list)


def _arrangement(t) -> Arrangement:
    alts, sid, _zh, sp_expected, declare = t
    items = [
        Arrangement(list(f), list(m), list(b), e, sid, declare, sp_expected)
        for f, m, b, e in alts
    ]
    return dataclasses.replace(items[0], alternatives=items)


def arrange(cards13: Cards, opponents: int = 3, top_k: int = 1, seed: int = 0, rules=None,
            samples: int = 0) -> Arrangement:
    """The foul-free arrangement with the highest expected waters (RULES 1.8) against
    ``opponents`` (1..3) random opponents who arrange with this solver.

    The expectation comes from per-row win-probability tables shipped with the engine
    (docs/arrange.md). ``samples > 0`` re-ranks the best candidates by the mean exact
    waters over that many opponent deals drawn with ``seed`` (slower, deterministic).
    """
    return _arrangement(_core.ssw_arrange(cards13, opponents, top_k, seed, samples, _rules(rules)))


def arrange_many(hands: Sequence[Cards], opponents: int = 3, top_k: int = 1, seed: int = 0,
                 rules=None, samples: int = 0) -> List[Arrangement]:
    """:func:`arrange` for many hands: the GIL is released and every core is used."""
    rs = _core.ssw_arrange_many(hands, opponents, top_k, seed, samples, _rules(rules))
    return [_arrangement(t) for t in rs]


def best_response(cards13: Cards, opponents, rules=None, top_k: int = 1) -> Arrangement:
    """The arrangement with the highest exact score (RULES 1.6, scoops and home runs
    included) against the opponents' actual plays: a list of ``{"front", "middle",
    "back"}`` (or ``{"special", "cards"}``) dicts. ``expected`` is that exact score."""
    return _arrangement(_core.ssw_best_response(cards13, opponents, top_k, _rules(rules)))

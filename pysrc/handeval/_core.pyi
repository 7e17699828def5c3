# Type stubs of the compiled extension handeval._core (rust/handeval-py), checked against
# the built module by scripts/check_types.sh (python -m mypy.stubtest handeval._core).
#
# Generated parts (scripts/gen_docs.py writes them from the built module; `--check`, run by
# tests/docs, fails on any drift): each game's Rules class, and in each result class the
# part between "# BEGIN generated: <Class> fields" and "# END generated": __match_args__
# and the field properties with their descriptions (the binding's doc comments). A
# field's type is written once, in that class's __new__ (hand-written, its parameters the
# fields in order), and read back as list where __new__ takes a Sequence. Everything else
# here is hand-written.
# The public API is the Python modules beside this file, which re-export these classes
# and functions.
#
# Layout: errors; the shared parts (the stub-only base _Native, handeval.Rules, cards and
# money); then one section per game (its Rules, its result classes, its functions).
# Every result and Rules class is @final and has the shared methods of
# rust/handeval-py/src/result.rs: those of _Native (to_dict, ==, hash, pickling) plus
# replace(**changes) -> its own type and __match_args__ (its fields, in order). Classes
# are declared under their _core names (ShisanshuiRow); the docstring names the public one.
# A `*_many` function returns one item per input: the result, or the HandevalError (not
# raised) that the single call on that input raises, with the same field and description.
import builtins
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final

_Cards = Union[str, Sequence[str]]

__version__: str

class HandevalError(ValueError):
    field: Optional[str]
    description: Optional[str]
    reason: str
    action_index: Optional[int]

ERROR_REASONS: List[str]

class _Native:
    """Stub-only: the methods every native result and Rules class has (result.rs)."""
    def to_dict(self) -> Dict[str, Any]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

@final
class Rules(_Native):
    """handeval.Rules"""
    __match_args__ = ("shisanshui", "tienlen", "dachu")
    def __new__(
        cls, *, shisanshui: Optional[ShisanshuiRules] = None, tienlen: Optional[TienlenRules] = None, dachu: Optional[DachuRules] = None
    ) -> Rules: ...
    @property
    def shisanshui(self) -> ShisanshuiRules: ...
    @property
    def tienlen(self) -> TienlenRules: ...
    @property
    def dachu(self) -> DachuRules: ...
    def replace(self, **changes: Any) -> Rules: ...

# cards and money
def parse_cards(cards: _Cards) -> List[str]: ...
def card_ids(cards: _Cards) -> List[int]: ...
def cap(theoretical: Sequence[int], carried: Sequence[Optional[int]]) -> List[int]: ...

# shisanshui
SSW_CATEGORIES: Tuple[str, ...]
# BEGIN generated: shisanshui.Rules (scripts/gen_docs.py)
@final
class ShisanshuiRules(_Native):
    """handeval.shisanshui.Rules"""
    __match_args__ = ("suit_tiebreak", "suit_order", "a2345", "foul_scoring", "home_run_min_opponents", "rake_percent")
    def __new__(
        cls,
        *,
        suit_tiebreak: Optional[bool] = None,
        suit_order: Optional[str] = None,
        a2345: Optional[str] = None,
        foul_scoring: Optional[bool] = None,
        home_run_min_opponents: Optional[int] = None,
        rake_percent: Optional[int] = None,
    ) -> ShisanshuiRules: ...
    @property
    def suit_tiebreak(self) -> bool:
        """Equal ranks are decided by suits (the sheet: no ties); False: an exact rank tie scores 0. (§1.1, variant)"""
    @property
    def suit_order(self) -> str:
        """The suits strongest first for tie-breaks, the four letters s h d c once each: "shcd" is ♠ > ♥ > ♣ > ♦. (§1.1, house rule)"""
    @property
    def a2345(self) -> str:
        """Where A2345 ranks among straights: "lowest", or "second_highest" (just below TJQKA). (§1.1, variant)"""
    @property
    def foul_scoring(self) -> bool:
        """A fouled hand (倒水) loses every row and counts as scooped; False: a fouled hand is rejected as bad input. (§1.4, house rule)"""
    @property
    def home_run_min_opponents(self) -> int:
        """全垒打 needs at least this many opponents (1 or more). (§1.6, house rule)"""
    @property
    def rake_percent(self) -> int:
        """抽水: percent of each positive result, 0–100 (0: no rake). (§1.6, variant)"""
    def replace(self, **changes: Any) -> ShisanshuiRules: ...
# END generated: shisanshui.Rules

@final
class ShisanshuiRow(_Native):
    """handeval.shisanshui.Row"""
    def __new__(cls, category: str, category_zh: str, strength: int, cards: _Cards) -> ShisanshuiRow: ...
    # BEGIN generated: ShisanshuiRow fields (scripts/gen_docs.py)
    __match_args__ = ("category", "category_zh", "strength", "cards")
    @property
    def category(self) -> str:
        """One of `CATEGORIES`, e.g. `"straight_flush"` (a front is only high card, pair or trips)."""
    @property
    def category_zh(self) -> str:
        """Its Chinese name, e.g. `同花顺`."""
    @property
    def strength(self) -> int:
        """Orders rows by category and ranks, without suits; comparable across 3 and 5 cards (the foul check uses it)."""
    @property
    def cards(self) -> List[str]:
        """The cards in order of significance (biggest group first; the A last in `A2345`)."""
    # END generated: ShisanshuiRow fields
    def replace(self, **changes: Any) -> ShisanshuiRow: ...

@final
class ShisanshuiSpecialHand(_Native):
    """handeval.shisanshui.SpecialHand"""
    def __new__(cls, id: str, name_zh: str, waters: int, split: Optional[Sequence[_Cards]]) -> ShisanshuiSpecialHand: ...
    # BEGIN generated: ShisanshuiSpecialHand fields (scripts/gen_docs.py)
    __match_args__ = ("id", "name_zh", "waters", "split")
    @property
    def id(self) -> str:
        """The special's id, e.g. `"san_shunzi"`."""
    @property
    def name_zh(self) -> str:
        """Its Chinese name, e.g. `三顺子`."""
    @property
    def waters(self) -> int:
        """Waters it scores from each opponent."""
    @property
    def split(self) -> Optional[List[List[str]]]:
        """`[front, middle, back]` card lists for 三同花顺 / 三顺子 / 三同花, else `None`."""
    # END generated: ShisanshuiSpecialHand fields
    def replace(self, **changes: Any) -> ShisanshuiSpecialHand: ...

@final
class ShisanshuiPairResult(_Native):
    """handeval.shisanshui.PairResult"""
    def __new__(cls, a: int, b: int, kind: str, rows: Sequence[int], scooper: Optional[int], home_run: bool, waters: int) -> ShisanshuiPairResult: ...
    # BEGIN generated: ShisanshuiPairResult fields (scripts/gen_docs.py)
    __match_args__ = ("a", "b", "kind", "rows", "scooper", "home_run", "waters")
    @property
    def a(self) -> int:
        """The lower seat; the pair is scored from its point of view."""
    @property
    def b(self) -> int:
        """The higher seat."""
    @property
    def kind(self) -> str:
        """`"rows"`, `"foul"` or `"special"`: how the pair was scored."""
    @property
    def rows(self) -> List[int]:
        """Signed waters of front, middle, back before doubling (`[0, 0, 0]` unless rows were compared)."""
    @property
    def scooper(self) -> Optional[int]:
        """The seat that scooped (打枪) the other, or `None`."""
    @property
    def home_run(self) -> bool:
        """The scooper's 全垒打 doubled this pair again."""
    @property
    def waters(self) -> int:
        """What `a` wins from `b`, in waters; negative when `a` pays."""
    # END generated: ShisanshuiPairResult fields
    def replace(self, **changes: Any) -> ShisanshuiPairResult: ...

@final
class ShisanshuiSettlement(_Native):
    """handeval.shisanshui.Settlement"""
    def __new__(cls, waters: Sequence[int], deltas: Sequence[int], pairwise: Sequence[Sequence[int]], fouls: Sequence[bool], specials: Sequence[Optional[str]], home_runs: Sequence[bool], theoretical: Sequence[int], rake: int, pairs: Sequence[ShisanshuiPairResult]) -> ShisanshuiSettlement: ...
    # BEGIN generated: ShisanshuiSettlement fields (scripts/gen_docs.py)
    __match_args__ = ("waters", "deltas", "pairwise", "fouls", "specials", "home_runs", "theoretical", "rake", "pairs")
    @property
    def waters(self) -> List[int]:
        """Total waters per seat."""
    @property
    def deltas(self) -> List[int]:
        """Money per seat after the cap and the rake."""
    @property
    def pairwise(self) -> List[List[int]]:
        """`pairwise[i][j]`: the waters seat i wins from seat j."""
    @property
    def fouls(self) -> List[bool]:
        """Whether each seat fouled (倒水)."""
    @property
    def specials(self) -> List[Optional[str]]:
        """The declared special id per seat, or `None`."""
    @property
    def home_runs(self) -> List[bool]:
        """Whether each seat scored a 全垒打."""
    @property
    def theoretical(self) -> List[int]:
        """`base × waters`, before the cap."""
    @property
    def rake(self) -> int:
        """The total rake; `sum(deltas) + rake == 0`."""
    @property
    def pairs(self) -> List[ShisanshuiPairResult]:
        """One per pair of seats `a < b`."""
    # END generated: ShisanshuiSettlement fields
    def replace(self, **changes: Any) -> ShisanshuiSettlement: ...

@final
class ShisanshuiArrangement(_Native):
    """handeval.shisanshui.Arrangement"""
    def __new__(cls, front: _Cards, middle: _Cards, back: _Cards, expected: float, special: Optional[str], declare_special: bool, special_expected: Optional[float], alternatives: Sequence[ShisanshuiArrangement]) -> ShisanshuiArrangement: ...
    # BEGIN generated: ShisanshuiArrangement fields (scripts/gen_docs.py)
    __match_args__ = ("front", "middle", "back", "expected", "special", "declare_special", "special_expected", "alternatives")
    @property
    def front(self) -> List[str]:
        """The front row (3 cards)."""
    @property
    def middle(self) -> List[str]:
        """The middle row (5 cards)."""
    @property
    def back(self) -> List[str]:
        """The back row (5 cards)."""
    @property
    def expected(self) -> float:
        """Expected waters against the opponents (`arrange`), or the exact waters against the given opponents (`best_response`)."""
    @property
    def special(self) -> Optional[str]:
        """The special hand (§1.7) the 13 cards make, or `None`."""
    @property
    def declare_special(self) -> bool:
        """Declaring that special scores more than this arrangement."""
    @property
    def special_expected(self) -> Optional[float]:
        """Expected (or exact) waters of declaring that special, or `None`."""
    @property
    def alternatives(self) -> List[ShisanshuiArrangement]:
        """The `top_k` best arrangements, best first (`alternatives[0]` is this one without its alternatives); each has the same fields and no alternatives of its own."""
    # END generated: ShisanshuiArrangement fields
    def replace(self, **changes: Any) -> ShisanshuiArrangement: ...

def ssw_classify(cards: _Cards, rules: object = None) -> ShisanshuiRow: ...
# benches/single_call.py: the floor of a call with classify's signature (no work).
def _call_floor(cards: object, rules: object = None) -> str: ...
def ssw_classify_many(rows: Sequence[_Cards], rules: object = None) -> List[Union[str, HandevalError]]: ...
def ssw_categories_from_ids(data: bytes, row_size: Optional[int] = None, rules: object = None) -> bytes: ...
def ssw_compare(a: _Cards, b: _Cards, rules: object = None) -> int: ...
def ssw_order_keys(rows: Sequence[_Cards], rules: object = None) -> List[int]: ...
def ssw_is_foul(front: _Cards, middle: _Cards, back: _Cards, rules: object = None) -> bool: ...
def ssw_special(cards: _Cards) -> Optional[ShisanshuiSpecialHand]: ...
def ssw_makes_special(cards: _Cards, special: str) -> bool: ...
def ssw_special_table() -> List[Tuple[str, str, int]]: ...
def ssw_settle(
    players: Sequence[Dict[str, Any]], base: Optional[int] = None, carried: Optional[Sequence[Optional[int]]] = None,
    rules: object = None,
) -> ShisanshuiSettlement: ...

# shisanshui arrangement (rust/handeval-py/src/shisanshui/arrange.rs)
SSW_MAX_SAMPLES: int
SSW_MAX_TOP_K: int
def ssw_arrange(cards: _Cards, opponents: int, top_k: int, seed: int, samples: int, rules: object = None) -> ShisanshuiArrangement: ...
def ssw_arrange_many(
    hands: Sequence[_Cards], opponents: int, top_k: int, seed: int, samples: int, rules: object = None
) -> List[Union[ShisanshuiArrangement, HandevalError]]: ...
def ssw_best_response(cards: _Cards, opponents: Sequence[Dict[str, Any]], top_k: int, rules: object = None) -> ShisanshuiArrangement: ...
def ssw_arrange_greedy(cards: _Cards, rules: object = None) -> List[List[str]]: ...

# dachu
DC_KINDS: Tuple[str, ...]
DC_CALLS: Tuple[str, ...]
DC_LINE_KINDS: Dict[str, str]
# BEGIN generated: dachu.Rules (scripts/gen_docs.py)
@final
class DachuRules(_Native):
    """handeval.dachu.Rules"""
    __match_args__ = ("mixed_ace_pair", "cheng_chu_alone", "escape_shared_by_all", "unit_per", "first_caller_2v2", "escape_units", "jiao_round_up", "declare_once_per", "pass_is_final", "timeout_display")
    def __new__(
        cls,
        *,
        mixed_ace_pair: Optional[bool] = None,
        cheng_chu_alone: Optional[bool] = None,
        escape_shared_by_all: Optional[bool] = None,
        unit_per: Optional[str] = None,
        first_caller_2v2: Optional[str] = None,
        escape_units: Optional[int] = None,
        jiao_round_up: Optional[bool] = None,
        declare_once_per: Optional[str] = None,
        pass_is_final: Optional[bool] = None,
        timeout_display: Optional[str] = None,
    ) -> DachuRules: ...
    @property
    def mixed_ace_pair(self) -> bool:
        """A pair of one 儲A and one plain A is an ordinary AA; False: it is not a play. (§3.3, house rule)"""
    @property
    def cheng_chu_alone(self) -> bool:
        """撐儲 makes that colour the 儲, so its player (who holds both) plays alone, 1 vs 3; False: 撐儲 only doubles the multiplier and the colour still comes from 夢宣 or 平宣. (§3.5, house rule)"""
    @property
    def escape_shared_by_all(self) -> bool:
        """An escape penalty is shared equally by the three others; False: only by the escaping player's opponents (the other side). (§3.7, house rule)"""
    @property
    def unit_per(self) -> str:
        """A won game moves one unit (base × multiplier) per member of the "larger_side" (1 vs 3: the lone player pays or receives three units; 2 vs 2: each loser pays one) or per member of the "losing_side". (§3.7, house rule)"""
    @property
    def first_caller_2v2(self) -> str:
        """Who calls first in a 2 vs 2 without 夢宣/撐儲: "other" (the 非儲方) or "chu" (the 儲方, which always calls first after a declaration and in 1 vs 3). (§3.6, house rule)"""
    @property
    def escape_units(self) -> int:
        """The escape penalty in units of base × multiplier, 0–1000. (§3.7, variant)"""
    @property
    def jiao_round_up(self) -> bool:
        """A 繳 costs base × multiplier / 2 rounded up to a whole unit (a surrender always costs something); False: rounded toward zero. (§3.7, house rule)"""
    @property
    def declare_once_per(self) -> str:
        """How often the deal's declarations may be made: once per "player_and_kind" (several players may each 夢踹), once per "player" (one declaration of any kind each) or once per "game" per kind. 夢宣 and 撐儲 fix the 儲 colour, so each happens once per game under every reading. (§3.5, house rule)"""
    @property
    def pass_is_final(self) -> bool:
        """A pass is final for the rest of the trick: a player who passed sits out until the trick ends, as in 越式13张; False: a player who passed may play again when the turn comes back in the same trick. (§3.4a, house rule)"""
    @property
    def timeout_display(self) -> str:
        """How a game record's timeout (出牌超時) without the client's columns reads the hand: "strongest_left" (the rightmost column is the weakest rank, so the weakest single goes) or "weakest_left" (the strongest single goes). A timeout that carries the client's columns uses them. (§3.7, house rule)"""
    def replace(self, **changes: Any) -> DachuRules: ...
# END generated: dachu.Rules

@final
class DachuPlay(_Native):
    """handeval.dachu.Play"""
    def __new__(cls, kind: str, kind_zh: str, cards: _Cards, strength: int) -> DachuPlay: ...
    # BEGIN generated: DachuPlay fields (scripts/gen_docs.py)
    __match_args__ = ("kind", "kind_zh", "cards", "strength")
    @property
    def kind(self) -> str:
        """One of `KINDS`."""
    @property
    def kind_zh(self) -> str:
        """Its Chinese name, e.g. `獨儲`."""
    @property
    def cards(self) -> List[str]:
        """The cards (from ``legal_plays``: in the game's order, weakest first)."""
    @property
    def strength(self) -> int:
        """Higher is stronger within a kind and length: singles 1 = 3 … 11 = K, 12 plain A, 13 the 2, 14 儲A; pairs and bombs 1 = 3 … 12 = A, 13 = 2; straights the top card's place in A(1) 2 3 … K(13) A(14)."""
    # END generated: DachuPlay fields
    def __len__(self) -> int: ...
    def replace(self, **changes: Any) -> DachuPlay: ...

@final
class DachuLine(_Native):
    """handeval.dachu.Line"""
    def __new__(cls, kind: str, seat: int, amount: int, text: str) -> DachuLine: ...
    # BEGIN generated: DachuLine fields (scripts/gen_docs.py)
    __match_args__ = ("kind", "seat", "amount", "text")
    @property
    def kind(self) -> str:
        """What the line is for: a `LineKind` value (`"jiao"` 繳, `"result"` the game's result, `"escape"` 逃跑, `"cap"` the cap)."""
    @property
    def seat(self) -> int:
        """The seat whose money the line changes."""
    @property
    def amount(self) -> int:
        """The signed change to `seat`."""
    @property
    def text(self) -> str:
        """A sentence saying how the amount came about, ending with `= ` and the line's amount without its sign, e.g. `"儲方 win with 全殲 (×2): 3 × base × 2 = 60, shared by 3: 60 / 3 = 20"` on a −20 line."""
    # END generated: DachuLine fields
    # Deprecated old names of kind and text (a DeprecationWarning when read).
    @property
    def item(self) -> str: ...
    @property
    def note(self) -> str: ...
    def replace(self, **changes: Any) -> DachuLine: ...

@final
class DachuSettlement(_Native):
    """handeval.dachu.Settlement"""
    def __new__(
        cls, verdict: Optional[str], wipe_out: bool, result_multiplier: int, lines: Sequence[DachuLine],
        theoretical: Sequence[int], deltas: Sequence[int],
    ) -> DachuSettlement: ...
    # BEGIN generated: DachuSettlement fields (scripts/gen_docs.py)
    __match_args__ = ("verdict", "wipe_out", "result_multiplier", "lines", "theoretical", "deltas")
    @property
    def verdict(self) -> Optional[str]:
        """The 儲方's result, `"win"`, `"draw"` or `"loss"`; `None` when places were not scored."""
    @property
    def wipe_out(self) -> bool:
        """全殲 doubled the result."""
    @property
    def result_multiplier(self) -> int:
        """The multiplier of the result (×2 with 全殲)."""
    @property
    def lines(self) -> List[DachuLine]:
        """The itemised breakdown; each seat's lines add up to its delta."""
    @property
    def theoretical(self) -> List[int]:
        """Before the cap."""
    @property
    def deltas(self) -> List[int]:
        """Money per seat after the cap; adds up to 0."""
    # END generated: DachuSettlement fields
    def replace(self, **changes: Any) -> DachuSettlement: ...

# The state machines: frozen, == by state, hashable, pickled by replaying their history
# (dc_deal_replay / dc_calling_replay), to_dict(); no replace() (apply() makes new states).
@final
class DachuDeal(_Native):
    """handeval.dachu.Deal"""
    def __new__(cls, hands: Sequence[_Cards], first_seat: Optional[int] = None, rules: object = None) -> DachuDeal: ...
    def apply(self, action: object) -> DachuDeal: ...
    def suggest(self, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None) -> Optional[Tuple[Any, ...]]: ...
    def view(self, seat: int) -> Dict[str, Any]: ...
    def offers(self, seat: int) -> List[Tuple[Any, ...]]: ...
    def calling(self, start_seat: Optional[int] = None, first_side: Optional[str] = None) -> DachuCalling: ...
    @property
    def turn(self) -> None: ...
    @property
    def legal_actions(self) -> List[Tuple[Any, ...]]: ...
    @property
    def history(self) -> List[Tuple[Any, ...]]: ...
    @property
    def dealt(self) -> int: ...
    @property
    def first_seat(self) -> int: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def declared(self) -> bool: ...
    @property
    def chu(self) -> Optional[str]: ...
    @property
    def chu_source(self) -> Optional[str]: ...
    @property
    def chu_side(self) -> Optional[List[int]]: ...
    @property
    def teams(self) -> Optional[str]: ...
    @property
    def hands(self) -> List[List[str]]: ...
    @property
    def held(self) -> List[List[str]]: ...
    @property
    def last_card(self) -> str: ...
    @property
    def first_leader(self) -> int: ...
    @property
    def meng_xuan(self) -> List[Optional[str]]: ...
    @property
    def meng_chuai(self) -> List[Optional[List[str]]]: ...
    @property
    def cheng_chu(self) -> List[bool]: ...

@final
class DachuCalling(_Native):
    """handeval.dachu.Calling"""
    def __new__(
        cls, chu_side: Sequence[int], declared: Optional[bool] = None, multiplier: Optional[int] = None,
        start_seat: Optional[int] = None, first_side: Optional[str] = None, rules: object = None,
    ) -> DachuCalling: ...
    def apply(self, action: object) -> DachuCalling: ...
    def suggest(
        self, hand: _Cards, chu: str, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None,
    ) -> Tuple[str, int]: ...
    def settle(
        self, places: Optional[Sequence[int]] = None, *, base: Optional[int] = None, escaped: Optional[Sequence[int]] = None,
        carried: Optional[Sequence[Optional[int]]] = None, rules: object = None,
    ) -> DachuSettlement: ...
    @property
    def turn(self) -> Optional[int]: ...
    @property
    def legal_actions(self) -> List[Tuple[str, int]]: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    @property
    def calling_side(self) -> Optional[str]: ...
    @property
    def first_side(self) -> str: ...
    @property
    def outcome(self) -> Optional[str]: ...
    @property
    def surrendered_side(self) -> Optional[str]: ...
    @property
    def chu_side(self) -> List[int]: ...
    @property
    def surrendered(self) -> List[int]: ...
    @property
    def bei_bao_da(self) -> List[int]: ...
    @property
    def bao_chuai(self) -> Tuple[Optional[int], Optional[int]]: ...
    @property
    def playing(self) -> List[int]: ...
    @property
    def finals(self) -> List[Tuple[str, str]]: ...
    @property
    def history(self) -> List[Tuple[str, int]]: ...
    @property
    def waiting(self) -> List[int]: ...

@final
class DachuGame(_Native):
    """handeval.dachu.Game"""
    def __new__(cls, deal: DachuDeal, calling: DachuCalling) -> DachuGame: ...
    def apply(self, action: object) -> DachuGame: ...
    def check(self, action: object) -> Optional[HandevalError]: ...
    def suggest(self, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None) -> Tuple[Any, ...]: ...
    def suggestions(
        self, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None,
    ) -> List[Tuple[Tuple[Any, ...], float]]: ...
    def settle(
        self, *, base: Optional[int] = None, escaped: Optional[Sequence[int]] = None,
        carried: Optional[Sequence[Optional[int]]] = None,
    ) -> DachuSettlement: ...
    @property
    def chu(self) -> str: ...
    @property
    def chu_side(self) -> List[int]: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def playing(self) -> List[int]: ...
    @property
    def surrendered(self) -> List[int]: ...
    @property
    def bei_bao_da(self) -> List[int]: ...
    @property
    def shown_triples(self) -> List[Optional[List[str]]]: ...
    @property
    def hands(self) -> List[List[str]]: ...
    @property
    def held(self) -> List[List[str]]: ...
    @property
    def auto_lead(self) -> Optional[int]: ...
    @property
    def turn(self) -> Optional[int]: ...
    @property
    def leader(self) -> Optional[int]: ...
    @property
    def table(self) -> Optional[DachuPlay]: ...
    @property
    def table_seat(self) -> Optional[int]: ...
    @property
    def passed(self) -> List[int]: ...
    @property
    def legal_plays(self) -> List[DachuPlay]: ...
    @property
    def may_pass(self) -> bool: ...
    @property
    def legal_actions(self) -> List[Tuple[Any, ...]]: ...
    @property
    def places(self) -> List[int]: ...
    @property
    def over(self) -> bool: ...
    @property
    def decided(self) -> Optional[str]: ...
    @property
    def wipe_out(self) -> Optional[bool]: ...
    @property
    def history(self) -> List[Tuple[Any, ...]]: ...
    def view(self, seat: int) -> Dict[str, Any]: ...
    def offers(self, seat: int) -> List[Tuple[Any, ...]]: ...
    @property
    def timeouts(self) -> List[Tuple[int, Tuple[Any, ...]]]: ...
    @property
    def tricks(self) -> List[Tuple[int, int, int, bool, Optional[int]]]: ...

_DcPair = Sequence[Union[_Cards, DachuPlay]]
def dc_classify(cards: Union[_Cards, DachuPlay], chu: str, rules: object = None) -> DachuPlay: ...
def dc_beats(play: Union[_Cards, DachuPlay], table: Union[_Cards, DachuPlay], chu: str, rules: object = None) -> bool: ...
def dc_beats_many(pairs: Sequence[_DcPair], chu: str, rules: object = None) -> List[Union[bool, HandevalError]]: ...
def dc_legal_plays(
    hand: _Cards, table: Union[None, _Cards, DachuPlay], chu: str, *, first_lead: Optional[bool] = None,
    surrendered: Optional[bool] = None, shown_triple: Optional[_Cards] = None, rules: object = None,
) -> List[DachuPlay]: ...
def dc_timeout_play(
    hand: Union[_Cards, Sequence[_Cards]], table: Union[None, _Cards, DachuPlay], chu: str, *,
    first_lead: Optional[bool] = None, surrendered: Optional[bool] = None,
    shown_triple: Optional[_Cards] = None, rules: object = None,
) -> Optional[List[str]]: ...
def dc_settle(
    chu_side: Union[Sequence[int], DachuCalling], places: Optional[Sequence[int]] = None, *, base: Optional[int] = None,
    multiplier: Optional[int] = None, surrendered: Optional[Sequence[int]] = None,
    bei_bao_da: Optional[Sequence[int]] = None, escaped: Optional[Sequence[int]] = None,
    carried: Optional[Sequence[Optional[int]]] = None, rules: object = None,
) -> DachuSettlement: ...
def dc_deal_replay(hands: Sequence[_Cards], first_seat: int, rules: DachuRules, history: Sequence[object]) -> DachuDeal: ...
def dc_calling_replay(
    chu_side: Sequence[int], declared: bool, multiplier: int, start_seat: int, first_side: Optional[str], rules: DachuRules,
    history: Sequence[object],
) -> DachuCalling: ...
def dc_replay_game(
    hands: Sequence[_Cards], deal_actions: Sequence[object], calls: Sequence[object], plays: Sequence[object], *,
    first_seat: Optional[int] = None, start_seat: Optional[int] = None, first_side: Optional[str] = None, rules: object = None,
) -> DachuGame: ...
def dc_game_replay(
    hands: Sequence[_Cards], first_seat: int, rules: DachuRules, deal_actions: Sequence[object], start_seat: int,
    first_side: Optional[str], calls: Sequence[object], plays: Sequence[object],
) -> DachuGame: ...

# tienlen
TL_KINDS: Tuple[str, ...]
TL_SPECIAL_KINDS: Dict[str, int]
TL_INSTANT_WINS: Tuple[str, ...]
TL_LINE_KINDS: Dict[str, str]
# BEGIN generated: tienlen.Rules (scripts/gen_docs.py)
@final
class TienlenRules(_Native):
    """handeval.tienlen.Rules"""
    __match_args__ = ("first_lead_must_contain_lowest", "unplayed_loser_adds_multipliers", "turn_after_chop", "chop_window", "rake_percent")
    def __new__(
        cls,
        *,
        first_lead_must_contain_lowest: Optional[bool] = None,
        unplayed_loser_adds_multipliers: Optional[bool] = None,
        turn_after_chop: Optional[str] = None,
        chop_window: Optional[str] = None,
        rake_percent: Optional[int] = None,
    ) -> TienlenRules: ...
    @property
    def first_lead_must_contain_lowest(self) -> bool:
        """The first play of the game must contain the lowest card dealt (normally 3♠); False: the sheet only says who leads. (§2.4, house rule)"""
    @property
    def unplayed_loser_adds_multipliers(self) -> bool:
        """A loser who played no card and still holds specials or 2s pays 26 + Σ multipliers; False: just 26. (§2.6, house rule)"""
    @property
    def turn_after_chop(self) -> str:
        """Who moves after a chop by a seat that had passed: "from_chopper" (the next seat after the chopper that has not passed) or "resume" (the seat whose turn the chop interrupted). (§2.4, house rule)"""
    @property
    def chop_window(self) -> str:
        """When a seat that has passed may chop the play on the table: "first_actor" (while no other player has acted since that play: right after it, or right after its own pass on it as the next in turn), "strict" (only right after the play), "own_pass" (as first_actor, and also right after its own pass on that play, even when other seats acted since) or "open" (as long as it is the play on the table). (§2.4, house rule)"""
    @property
    def rake_percent(self) -> int:
        """抽水: percent of the winner's positive final amount, 0–100; losers are never raked, even when chop transfers leave them positive. (§2.6, variant)"""
    def replace(self, **changes: Any) -> TienlenRules: ...
# END generated: tienlen.Rules

@final
class TienlenPlay(_Native):
    """handeval.tienlen.Play"""
    def __new__(cls, kind: str, kind_zh: str, cards: _Cards, top: str, strength: int) -> TienlenPlay: ...
    # BEGIN generated: TienlenPlay fields (scripts/gen_docs.py)
    __match_args__ = ("kind", "kind_zh", "cards", "top", "strength")
    @property
    def kind(self) -> str:
        """One of `KINDS`."""
    @property
    def kind_zh(self) -> str:
        """Its Chinese name, e.g. `3连对`."""
    @property
    def cards(self) -> List[str]:
        """The cards in the game's order, lowest first."""
    @property
    def top(self) -> str:
        """The highest card."""
    @property
    def strength(self) -> int:
        """0 = 3♠ … 51 = 2♥: the top card's place in the game's order."""
    # END generated: TienlenPlay fields
    @property
    def is_special(self) -> bool: ...
    def __len__(self) -> int: ...
    def replace(self, **changes: Any) -> TienlenPlay: ...

@final
class TienlenInstantHand(_Native):
    """handeval.tienlen.InstantHand"""
    def __new__(cls, kind: str, kind_zh: str, cards: _Cards) -> TienlenInstantHand: ...
    # BEGIN generated: TienlenInstantHand fields (scripts/gen_docs.py)
    __match_args__ = ("kind", "kind_zh", "cards")
    @property
    def kind(self) -> str:
        """One of `INSTANT_WINS`."""
    @property
    def kind_zh(self) -> str:
        """Its Chinese name, e.g. `六对`."""
    @property
    def cards(self) -> List[str]:
        """The cards that form it, lowest first."""
    # END generated: TienlenInstantHand fields
    def replace(self, **changes: Any) -> TienlenInstantHand: ...

@final
class TienlenFirstLead(_Native):
    """handeval.tienlen.FirstLead"""
    def __new__(cls, seat: int, card: str, must_contain: bool) -> TienlenFirstLead: ...
    # BEGIN generated: TienlenFirstLead fields (scripts/gen_docs.py)
    __match_args__ = ("seat", "card", "must_contain")
    @property
    def seat(self) -> int:
        """The seat that leads the first round."""
    @property
    def card(self) -> str:
        """The lowest card dealt."""
    @property
    def must_contain(self) -> bool:
        """Whether the first play must contain `card` (the rule option `first_lead_must_contain_lowest`)."""
    # END generated: TienlenFirstLead fields
    def replace(self, **changes: Any) -> TienlenFirstLead: ...

@final
class TienlenRoundState(_Native):
    """handeval.tienlen.RoundState"""
    def __new__(
        cls, plays: Sequence[Tuple[int, TienlenPlay]], passed: Sequence[int], to_move: Optional[int], over: bool,
        next_leader: Optional[int], leader: int,
    ) -> TienlenRoundState: ...
    # BEGIN generated: TienlenRoundState fields (scripts/gen_docs.py)
    __match_args__ = ("plays", "passed", "to_move", "over", "next_leader", "leader")
    @property
    def plays(self) -> List[Tuple[int, TienlenPlay]]:
        """`[(seat, Play)]` in order; the last one is on the table."""
    @property
    def passed(self) -> List[int]:
        """The seats that have passed (they may still chop with a special)."""
    @property
    def to_move(self) -> Optional[int]:
        """Whose turn it is; `None` once the round is over."""
    @property
    def over(self) -> bool:
        """Whether everyone else passed on the last play."""
    @property
    def next_leader(self) -> Optional[int]:
        """When over: the seat that leads the next round."""
    @property
    def leader(self) -> int:
        """The seat that led the round."""
    # END generated: TienlenRoundState fields
    @property
    def table(self) -> Optional[TienlenPlay]: ...
    def replace(self, **changes: Any) -> TienlenRoundState: ...

@final
class TienlenLine(_Native):
    """handeval.tienlen.Line"""
    def __new__(
        cls, kind: str, seat: int, other: Optional[int], multiplier: int, amount: int, cards: _Cards, text: str
    ) -> TienlenLine: ...
    # BEGIN generated: TienlenLine fields (scripts/gen_docs.py)
    __match_args__ = ("kind", "seat", "other", "multiplier", "amount", "cards", "text")
    @property
    def kind(self) -> str:
        """What the line is for: a `LineKind` value (`"cards"`, `"no_card"`, `"instant_win"`, `"red_two"`, `"black_two"`, `"bomb"`, `"three_pair_run"`, `"four_pair_run"`, `"win"`, `"chop"`, `"cap"`, `"rake"`)."""
    @property
    def seat(self) -> int:
        """The seat whose money the line changes."""
    @property
    def other(self) -> Optional[int]:
        """The seat on the other side of a payment, or `None` (cap, rake)."""
    @property
    def multiplier(self) -> int:
        """The multiple of `base` (0 for win, chop, cap and rake lines)."""
    @property
    def amount(self) -> int:
        """The signed change to `seat`."""
    @property
    def cards(self) -> List[str]:
        """The cards the amount is for (none for win, chop, cap and rake lines)."""
    @property
    def text(self) -> str:
        """A sentence, e.g. `"seat 1 pays 10 × 5 = 50 to seat 0 for the red 2 2h"`."""
    # END generated: TienlenLine fields
    def replace(self, **changes: Any) -> TienlenLine: ...

@final
class TienlenSettlement(_Native):
    """handeval.tienlen.Settlement"""
    def __new__(
        cls, deltas: Sequence[int], rake: int, lines: Sequence[TienlenLine], winner: int, pays: Sequence[int],
        chops: Sequence[int], theoretical: Sequence[int], capped: Sequence[int], instant: Sequence[Optional[str]],
    ) -> TienlenSettlement: ...
    # BEGIN generated: TienlenSettlement fields (scripts/gen_docs.py)
    __match_args__ = ("deltas", "rake", "lines", "winner", "pays", "chops", "theoretical", "capped", "instant")
    @property
    def deltas(self) -> List[int]:
        """Final money per seat, after the cap and the rake; `sum(deltas) + rake == 0`."""
    @property
    def rake(self) -> int:
        """Taken from the winner's positive amount."""
    @property
    def lines(self) -> List[TienlenLine]:
        """The itemised breakdown; each seat's lines add up to its delta."""
    @property
    def winner(self) -> int:
        """The winning seat."""
    @property
    def pays(self) -> List[int]:
        """What each loser pays the winner before chops (0 for the winner)."""
    @property
    def chops(self) -> List[int]:
        """The signed sum of chop transfers per seat."""
    @property
    def theoretical(self) -> List[int]:
        """Before the cap."""
    @property
    def capped(self) -> List[int]:
        """After the cap, before the rake."""
    @property
    def instant(self) -> List[Optional[str]]:
        """`settle_instant`: each seat's instant win (or `None`); `settle`: all `None`."""
    # END generated: TienlenSettlement fields
    def replace(self, **changes: Any) -> TienlenSettlement: ...

# The whole-game record: frozen, == by state, hashable, pickled by replaying its history
# (tl_replay), to_dict(); no replace() (apply() makes new states).
@final
class TienlenGame(_Native):
    """handeval.tienlen.Game"""
    def __new__(cls, hands: Sequence[_Cards], rules: object = None) -> TienlenGame: ...
    def apply(self, action: Sequence[object]) -> TienlenGame: ...
    def check(self, action: Sequence[object]) -> Optional[HandevalError]: ...
    def suggest(
        self, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None,
    ) -> Optional[Tuple[int, Union[str, List[str]]]]: ...
    def suggestions(
        self, seat: Optional[int] = None, *, seed: Optional[int] = None, effort: Optional[int] = None,
    ) -> List[Tuple[Optional[Tuple[int, Union[str, List[str]]]], float]]: ...
    def settle(self, base: Optional[int] = None, carried: Optional[Sequence[Optional[int]]] = None) -> TienlenSettlement: ...
    def view(self, seat: int) -> Dict[str, Any]: ...
    @property
    def players(self) -> int: ...
    @property
    def hands(self) -> List[List[str]]: ...
    @property
    def held(self) -> List[List[str]]: ...
    @property
    def played_any(self) -> List[bool]: ...
    @property
    def history(self) -> List[Tuple[int, Union[List[str], str]]]: ...
    @property
    def tricks(self) -> List[Tuple[int, int, int, bool, Optional[int]]]: ...
    @property
    def round(self) -> int: ...
    @property
    def leader(self) -> Optional[int]: ...
    @property
    def turn(self) -> Optional[int]: ...
    @property
    def table(self) -> Optional[TienlenPlay]: ...
    @property
    def table_seat(self) -> Optional[int]: ...
    @property
    def passed(self) -> List[int]: ...
    @property
    def must_contain(self) -> Optional[str]: ...
    @property
    def legal_plays(self) -> List[TienlenPlay]: ...
    @property
    def may_pass(self) -> bool: ...
    @property
    def chop_offers(self) -> List[Tuple[int, List[TienlenPlay]]]: ...
    @property
    def chops(self) -> List[Tuple[int, int, int]]: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def instant(self) -> Optional[str]: ...
    @property
    def over(self) -> bool: ...

_TlSet = Union[_Cards, TienlenPlay]
_Round = Sequence[Sequence[object]]
def tl_classify(cards: _TlSet) -> TienlenPlay: ...
def tl_classify_many(sets: Sequence[_TlSet]) -> List[Union[str, HandevalError]]: ...
def tl_beats(play: _TlSet, table: _TlSet, rules: object = None) -> bool: ...
def tl_why_not(play: _TlSet, table: _TlSet) -> Optional[str]: ...
def tl_beats_many(pairs: Sequence[Sequence[_TlSet]], rules: object = None) -> List[Union[bool, HandevalError]]: ...
def tl_legal_plays(hand: _Cards, table: Optional[_TlSet] = None, passed: Optional[bool] = None) -> List[TienlenPlay]: ...
def tl_instant_win(cards13: _Cards) -> Optional[str]: ...
def tl_instant_hand(cards13: _Cards) -> Optional[TienlenInstantHand]: ...
def tl_instant_winner(hands13: Sequence[_Cards]) -> Tuple[List[Optional[TienlenInstantHand]], Optional[int]]: ...
def tl_first_leader(hands: Sequence[_Cards], rules: object = None) -> TienlenFirstLead: ...
def tl_round_state(
    round: _Round, players: Optional[int] = None, leader: Optional[int] = None, first_lead: Optional[TienlenFirstLead] = None,
    rules: object = None,
) -> TienlenRoundState: ...
def tl_check_action(
    round: _Round, seat: int, action: _TlSet, players: Optional[int] = None, leader: Optional[int] = None,
    first_lead: Optional[TienlenFirstLead] = None, rules: object = None,
) -> Optional[str]: ...
def tl_may_play(
    round: _Round, seat: int, cards: _TlSet, players: Optional[int] = None, leader: Optional[int] = None,
    first_lead: Optional[TienlenFirstLead] = None, rules: object = None,
) -> bool: ...
def tl_chop_transfers(
    round: _Round, base: Optional[int] = None, players: Optional[int] = None, leader: Optional[int] = None, rules: object = None
) -> List[Dict[str, int]]: ...
def tl_special_groups(cards: _Cards) -> Tuple[List[Tuple[str, List[str]]], int]: ...
def tl_settle(
    remaining: Sequence[_TlSet], winner: int, base: Optional[int] = None, played_any: Optional[Sequence[bool]] = None,
    chops: Optional[Sequence[object]] = None, carried: Optional[Sequence[Optional[int]]] = None, rules: object = None,
) -> TienlenSettlement: ...
def tl_settle_instant(
    hands13: Sequence[_Cards], base: Optional[int] = None, carried: Optional[Sequence[Optional[int]]] = None, rules: object = None
) -> TienlenSettlement: ...
def tl_replay(hands: Sequence[_Cards], actions: Sequence[Sequence[object]], rules: object = None) -> TienlenGame: ...

# ---- the gRPC wire (rust/handeval-py/src/wire.rs): the server's request path ----

class WireError(Exception):
    code: str
    field: str
    description: str
    reason: str

@final
class WireCall:
    def __new__(cls, time_remaining: Optional[float] = None) -> WireCall: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> Optional[str]: ...
    @property
    def game(self) -> str: ...
    @property
    def items(self) -> int: ...
    @property
    def item_errors(self) -> int: ...

@final
class WireTurns:
    def __new__(cls, slots: int, quantum_s: float) -> WireTurns: ...
    @property
    def waiting(self) -> int: ...
    @property
    def free(self) -> int: ...

def wire_answer(rpc: str, data: bytes, call: WireCall, max_batch: int, max_samples: int, detach: bool,
                max_work: int = 0, turns: Optional[WireTurns] = None) -> bytes: ...
def wire_inline(rpc: str, data: bytes, budget: float) -> bool: ...

@final
class WireTables:
    def __new__(cls, max_tables: int, max_open_tables: int, max_batch: int, max_samples: int,
                max_work: int = 0) -> WireTables: ...
    def step(self, data: builtins.bytes, call: WireCall, detach: bool, turns: Optional[WireTurns] = None) -> builtins.bytes: ...
    def inline(self, data: builtins.bytes) -> bool: ...
    def expire(self, idle_seconds: float) -> list[builtins.bytes]: ...
    @property
    def tables(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    def clear(self) -> None: ...

def wire_open_tables() -> int: ...

WIRE_INLINE_BYTES: int
WIRE_MESSAGE_BYTES: int
WIRE_TABLE_NAME_BYTES: int

# Type stubs of the compiled extension handeval._core (rust/handeval-py). The public API
# is the Python modules beside this file; these functions are their private backend.
from typing import List, Optional, Sequence, Tuple, Union

Cards = Union[str, Sequence[str]]

__version__: str

class HandevalError(ValueError):
    field: Optional[str]

# cards and money
def parse_cards(cards: Cards) -> List[str]: ...
def card_ids(cards: Cards) -> List[int]: ...
def cap(theoretical: Sequence[int], carried: Sequence[Optional[int]]) -> List[int]: ...

# shisanshui
_SpecialTuple = Tuple[str, str, int, Optional[List[List[str]]]]
def ssw_classify(cards: Cards, rules: object = None) -> Tuple[str, str, int, List[str]]: ...
def ssw_classify_many(rows: Sequence[Cards], rules: object = None) -> List[str]: ...
def ssw_categories_from_ids(data: bytes, row_size: int = 5, rules: object = None) -> bytes: ...
def ssw_compare(a: Cards, b: Cards, rules: object = None) -> int: ...
def ssw_is_foul(front: Cards, middle: Cards, back: Cards, rules: object = None) -> bool: ...
def ssw_special(cards: Cards) -> Optional[_SpecialTuple]: ...
def ssw_makes_special(cards: Cards, special: str) -> bool: ...
def ssw_special_table() -> List[Tuple[str, str, int]]: ...
def ssw_settle(
    players: Sequence[dict], base: Optional[int] = None, carried: Optional[Sequence[Optional[int]]] = None, rules: object = None
) -> tuple: ...

# dachu
_DcPlayTuple = Tuple[str, str, int, int, List[str]]
def dc_classify(cards: Cards, chu: str, rules: object = None) -> _DcPlayTuple: ...
def dc_beats(play: Cards, table: Cards, chu: str, rules: object = None) -> bool: ...
def dc_beats_many(pairs: Sequence[Tuple[Cards, Cards]], chu: str, rules: object = None) -> List[bool]: ...
def dc_legal_plays(
    hand: Cards, table: Optional[Cards], chu: str, first_lead: bool = False, surrendered: bool = False,
    shown_triple: Optional[Cards] = None, rules: object = None
) -> List[_DcPlayTuple]: ...
def dc_timeout_play(
    hand: Cards, table: Optional[Cards], chu: str, first_lead: bool = False, shown_triple: Optional[Cards] = None,
    rules: object = None
) -> Optional[List[str]]: ...
def dc_settle(
    chu_side: Sequence[int], places: Optional[Sequence[int]] = None, base: Optional[int] = None,
    multiplier: Optional[int] = None, surrendered: Optional[Sequence[int]] = None,
    bei_bao_da: Optional[Sequence[int]] = None, escaped: Optional[Sequence[int]] = None,
    carried: Optional[Sequence[Optional[int]]] = None, rules: object = None
) -> Tuple[Optional[str], bool, int, List[Tuple[str, int, int, str]], List[int], List[int]]: ...

class DachuDeal:
    def __init__(self, hands: Sequence[Cards], first_seat: Optional[int] = None, rules: object = None) -> None: ...
    def apply(self, action: object) -> "DachuDeal": ...
    def calling(self, start_seat: Optional[int] = None, first_side: Optional[str] = None) -> "DachuCalling": ...
    legal_actions: List[tuple]
    history: List[tuple]
    dealt: int
    first_seat: int
    multiplier: int
    finished: bool
    declared: bool
    chu: Optional[str]
    chu_source: Optional[str]
    chu_side: Optional[List[int]]
    hands: List[List[str]]
    held: List[List[str]]
    last_card: str
    first_leader: int
    meng_xuan: List[Optional[str]]
    meng_chuai: List[Optional[List[str]]]
    cheng_chu: List[bool]

class DachuCalling:
    def __init__(
        self, chu_side: Sequence[int], declared: bool = False, multiplier: Optional[int] = None,
        start_seat: Optional[int] = None, first_side: Optional[str] = None, rules: object = None
    ) -> None: ...
    def apply(self, action: object) -> "DachuCalling": ...
    turn: Optional[int]
    legal_actions: List[Tuple[str, int]]
    multiplier: int
    over: bool
    phase: str
    calling_side: Optional[str]
    first_side: str
    outcome: Optional[str]
    surrendered_side: Optional[str]
    chu_side: List[int]
    surrendered: List[int]
    bei_bao_da: List[int]
    bao_chuai: Tuple[Optional[int], Optional[int]]
    playing: List[int]
    finals: List[Tuple[str, str]]
    history: List[Tuple[str, int]]
    waiting: List[int]

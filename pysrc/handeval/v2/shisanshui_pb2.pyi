from handeval.v2 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ShisanshuiA2345(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHISANSHUI_A2345_UNSPECIFIED: _ClassVar[ShisanshuiA2345]
    SHISANSHUI_A2345_LOWEST: _ClassVar[ShisanshuiA2345]
    SHISANSHUI_A2345_SECOND_HIGHEST: _ClassVar[ShisanshuiA2345]

class ShisanshuiCategory(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHISANSHUI_CATEGORY_UNSPECIFIED: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_HIGH_CARD: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_PAIR: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_TWO_PAIR: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_THREE_OF_A_KIND: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_STRAIGHT: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_FLUSH: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_FULL_HOUSE: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_FOUR_OF_A_KIND: _ClassVar[ShisanshuiCategory]
    SHISANSHUI_CATEGORY_STRAIGHT_FLUSH: _ClassVar[ShisanshuiCategory]

class ShisanshuiSpecialKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHISANSHUI_SPECIAL_KIND_UNSPECIFIED: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_ZHIZUN_QINGLONG: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_YITIAOLONG: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SHIER_HUANGZU: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SAN_TONGHUASHUN: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SAN_FEN_TIANXIA: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_QUAN_DA: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_QUAN_XIAO: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_COU_YI_SE: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SI_TAO_SANTIAO: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_WU_DUI_SANTIAO: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_LIU_DUI_BAN: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SAN_SHUNZI: _ClassVar[ShisanshuiSpecialKind]
    SHISANSHUI_SPECIAL_KIND_SAN_TONGHUA: _ClassVar[ShisanshuiSpecialKind]

class ShisanshuiPairKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHISANSHUI_PAIR_KIND_UNSPECIFIED: _ClassVar[ShisanshuiPairKind]
    SHISANSHUI_PAIR_KIND_ROWS: _ClassVar[ShisanshuiPairKind]
    SHISANSHUI_PAIR_KIND_FOUL: _ClassVar[ShisanshuiPairKind]
    SHISANSHUI_PAIR_KIND_SPECIAL: _ClassVar[ShisanshuiPairKind]
SHISANSHUI_A2345_UNSPECIFIED: ShisanshuiA2345
SHISANSHUI_A2345_LOWEST: ShisanshuiA2345
SHISANSHUI_A2345_SECOND_HIGHEST: ShisanshuiA2345
SHISANSHUI_CATEGORY_UNSPECIFIED: ShisanshuiCategory
SHISANSHUI_CATEGORY_HIGH_CARD: ShisanshuiCategory
SHISANSHUI_CATEGORY_PAIR: ShisanshuiCategory
SHISANSHUI_CATEGORY_TWO_PAIR: ShisanshuiCategory
SHISANSHUI_CATEGORY_THREE_OF_A_KIND: ShisanshuiCategory
SHISANSHUI_CATEGORY_STRAIGHT: ShisanshuiCategory
SHISANSHUI_CATEGORY_FLUSH: ShisanshuiCategory
SHISANSHUI_CATEGORY_FULL_HOUSE: ShisanshuiCategory
SHISANSHUI_CATEGORY_FOUR_OF_A_KIND: ShisanshuiCategory
SHISANSHUI_CATEGORY_STRAIGHT_FLUSH: ShisanshuiCategory
SHISANSHUI_SPECIAL_KIND_UNSPECIFIED: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_ZHIZUN_QINGLONG: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_YITIAOLONG: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SHIER_HUANGZU: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SAN_TONGHUASHUN: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SAN_FEN_TIANXIA: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_QUAN_DA: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_QUAN_XIAO: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_COU_YI_SE: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SI_TAO_SANTIAO: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_WU_DUI_SANTIAO: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_LIU_DUI_BAN: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SAN_SHUNZI: ShisanshuiSpecialKind
SHISANSHUI_SPECIAL_KIND_SAN_TONGHUA: ShisanshuiSpecialKind
SHISANSHUI_PAIR_KIND_UNSPECIFIED: ShisanshuiPairKind
SHISANSHUI_PAIR_KIND_ROWS: ShisanshuiPairKind
SHISANSHUI_PAIR_KIND_FOUL: ShisanshuiPairKind
SHISANSHUI_PAIR_KIND_SPECIAL: ShisanshuiPairKind

class ShisanshuiRules(_message.Message):
    __slots__ = ("suit_tiebreak", "suit_order", "a2345", "foul_scoring", "home_run_min_opponents", "rake_percent")
    SUIT_TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    SUIT_ORDER_FIELD_NUMBER: _ClassVar[int]
    A2345_FIELD_NUMBER: _ClassVar[int]
    FOUL_SCORING_FIELD_NUMBER: _ClassVar[int]
    HOME_RUN_MIN_OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    RAKE_PERCENT_FIELD_NUMBER: _ClassVar[int]
    suit_tiebreak: bool
    suit_order: str
    a2345: ShisanshuiA2345
    foul_scoring: bool
    home_run_min_opponents: int
    rake_percent: int
    def __init__(self, suit_tiebreak: _Optional[bool] = ..., suit_order: _Optional[str] = ..., a2345: _Optional[_Union[ShisanshuiA2345, str]] = ..., foul_scoring: _Optional[bool] = ..., home_run_min_opponents: _Optional[int] = ..., rake_percent: _Optional[int] = ...) -> None: ...

class ShisanshuiArrangement(_message.Message):
    __slots__ = ("front", "middle", "back")
    FRONT_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    BACK_FIELD_NUMBER: _ClassVar[int]
    front: _common_pb2.Cards
    middle: _common_pb2.Cards
    back: _common_pb2.Cards
    def __init__(self, front: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., middle: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., back: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class ShisanshuiRow(_message.Message):
    __slots__ = ("category", "category_zh", "strength", "cards")
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_ZH_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    category: ShisanshuiCategory
    category_zh: str
    strength: int
    cards: _common_pb2.Cards
    def __init__(self, category: _Optional[_Union[ShisanshuiCategory, str]] = ..., category_zh: _Optional[str] = ..., strength: _Optional[int] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class ShisanshuiSpecial(_message.Message):
    __slots__ = ("kind", "name_zh", "waters", "split")
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_ZH_FIELD_NUMBER: _ClassVar[int]
    WATERS_FIELD_NUMBER: _ClassVar[int]
    SPLIT_FIELD_NUMBER: _ClassVar[int]
    kind: ShisanshuiSpecialKind
    name_zh: str
    waters: int
    split: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    def __init__(self, kind: _Optional[_Union[ShisanshuiSpecialKind, str]] = ..., name_zh: _Optional[str] = ..., waters: _Optional[int] = ..., split: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ...) -> None: ...

class ShisanshuiEvaluateItem(_message.Message):
    __slots__ = ("row", "hand", "arrangement")
    ROW_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    row: _common_pb2.Cards
    hand: _common_pb2.Cards
    arrangement: ShisanshuiArrangement
    def __init__(self, row: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., arrangement: _Optional[_Union[ShisanshuiArrangement, _Mapping]] = ...) -> None: ...

class ShisanshuiEvaluateRequest(_message.Message):
    __slots__ = ("rules", "items", "packed_rows", "row_size")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    PACKED_ROWS_FIELD_NUMBER: _ClassVar[int]
    ROW_SIZE_FIELD_NUMBER: _ClassVar[int]
    rules: ShisanshuiRules
    items: _containers.RepeatedCompositeFieldContainer[ShisanshuiEvaluateItem]
    packed_rows: bytes
    row_size: int
    def __init__(self, rules: _Optional[_Union[ShisanshuiRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[ShisanshuiEvaluateItem, _Mapping]]] = ..., packed_rows: _Optional[bytes] = ..., row_size: _Optional[int] = ...) -> None: ...

class ShisanshuiHandResult(_message.Message):
    __slots__ = ("special",)
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    special: ShisanshuiSpecial
    def __init__(self, special: _Optional[_Union[ShisanshuiSpecial, _Mapping]] = ...) -> None: ...

class ShisanshuiArrangementResult(_message.Message):
    __slots__ = ("foul", "front", "middle", "back")
    FOUL_FIELD_NUMBER: _ClassVar[int]
    FRONT_FIELD_NUMBER: _ClassVar[int]
    MIDDLE_FIELD_NUMBER: _ClassVar[int]
    BACK_FIELD_NUMBER: _ClassVar[int]
    foul: bool
    front: ShisanshuiRow
    middle: ShisanshuiRow
    back: ShisanshuiRow
    def __init__(self, foul: _Optional[bool] = ..., front: _Optional[_Union[ShisanshuiRow, _Mapping]] = ..., middle: _Optional[_Union[ShisanshuiRow, _Mapping]] = ..., back: _Optional[_Union[ShisanshuiRow, _Mapping]] = ...) -> None: ...

class ShisanshuiEvaluateResult(_message.Message):
    __slots__ = ("error", "row", "hand", "arrangement")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    row: ShisanshuiRow
    hand: ShisanshuiHandResult
    arrangement: ShisanshuiArrangementResult
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., row: _Optional[_Union[ShisanshuiRow, _Mapping]] = ..., hand: _Optional[_Union[ShisanshuiHandResult, _Mapping]] = ..., arrangement: _Optional[_Union[ShisanshuiArrangementResult, _Mapping]] = ...) -> None: ...

class ShisanshuiEvaluateResponse(_message.Message):
    __slots__ = ("results", "packed_categories")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    PACKED_CATEGORIES_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShisanshuiEvaluateResult]
    packed_categories: bytes
    def __init__(self, results: _Optional[_Iterable[_Union[ShisanshuiEvaluateResult, _Mapping]]] = ..., packed_categories: _Optional[bytes] = ...) -> None: ...

class ShisanshuiRowPair(_message.Message):
    __slots__ = ("a", "b")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    a: _common_pb2.Cards
    b: _common_pb2.Cards
    def __init__(self, a: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., b: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class ShisanshuiRowList(_message.Message):
    __slots__ = ("rows",)
    ROWS_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    def __init__(self, rows: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ...) -> None: ...

class ShisanshuiCompareItem(_message.Message):
    __slots__ = ("pair", "order")
    PAIR_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    pair: ShisanshuiRowPair
    order: ShisanshuiRowList
    def __init__(self, pair: _Optional[_Union[ShisanshuiRowPair, _Mapping]] = ..., order: _Optional[_Union[ShisanshuiRowList, _Mapping]] = ...) -> None: ...

class ShisanshuiCompareRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: ShisanshuiRules
    items: _containers.RepeatedCompositeFieldContainer[ShisanshuiCompareItem]
    def __init__(self, rules: _Optional[_Union[ShisanshuiRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[ShisanshuiCompareItem, _Mapping]]] = ...) -> None: ...

class ShisanshuiOrder(_message.Message):
    __slots__ = ("indices",)
    INDICES_FIELD_NUMBER: _ClassVar[int]
    indices: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, indices: _Optional[_Iterable[int]] = ...) -> None: ...

class ShisanshuiCompareResult(_message.Message):
    __slots__ = ("error", "comparison", "order")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    COMPARISON_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    comparison: int
    order: ShisanshuiOrder
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., comparison: _Optional[int] = ..., order: _Optional[_Union[ShisanshuiOrder, _Mapping]] = ...) -> None: ...

class ShisanshuiCompareResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShisanshuiCompareResult]
    def __init__(self, results: _Optional[_Iterable[_Union[ShisanshuiCompareResult, _Mapping]]] = ...) -> None: ...

class ShisanshuiDeclaredSpecial(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: ShisanshuiSpecialKind
    cards: _common_pb2.Cards
    def __init__(self, kind: _Optional[_Union[ShisanshuiSpecialKind, str]] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class ShisanshuiPlayer(_message.Message):
    __slots__ = ("arrangement", "special")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    arrangement: ShisanshuiArrangement
    special: ShisanshuiDeclaredSpecial
    def __init__(self, arrangement: _Optional[_Union[ShisanshuiArrangement, _Mapping]] = ..., special: _Optional[_Union[ShisanshuiDeclaredSpecial, _Mapping]] = ...) -> None: ...

class ShisanshuiDeal(_message.Message):
    __slots__ = ("players", "base", "carried")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[ShisanshuiPlayer]
    base: int
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    def __init__(self, players: _Optional[_Iterable[_Union[ShisanshuiPlayer, _Mapping]]] = ..., base: _Optional[int] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ...) -> None: ...

class ShisanshuiSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: ShisanshuiRules
    deals: _containers.RepeatedCompositeFieldContainer[ShisanshuiDeal]
    def __init__(self, rules: _Optional[_Union[ShisanshuiRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[ShisanshuiDeal, _Mapping]]] = ...) -> None: ...

class ShisanshuiPair(_message.Message):
    __slots__ = ("a", "b", "kind", "rows", "scooper", "home_run", "waters")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    SCOOPER_FIELD_NUMBER: _ClassVar[int]
    HOME_RUN_FIELD_NUMBER: _ClassVar[int]
    WATERS_FIELD_NUMBER: _ClassVar[int]
    a: int
    b: int
    kind: ShisanshuiPairKind
    rows: _containers.RepeatedScalarFieldContainer[int]
    scooper: int
    home_run: bool
    waters: int
    def __init__(self, a: _Optional[int] = ..., b: _Optional[int] = ..., kind: _Optional[_Union[ShisanshuiPairKind, str]] = ..., rows: _Optional[_Iterable[int]] = ..., scooper: _Optional[int] = ..., home_run: _Optional[bool] = ..., waters: _Optional[int] = ...) -> None: ...

class ShisanshuiSettlement(_message.Message):
    __slots__ = ("waters", "deltas", "pairwise", "fouls", "specials", "home_runs", "theoretical", "rake", "pairs")
    WATERS_FIELD_NUMBER: _ClassVar[int]
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    PAIRWISE_FIELD_NUMBER: _ClassVar[int]
    FOULS_FIELD_NUMBER: _ClassVar[int]
    SPECIALS_FIELD_NUMBER: _ClassVar[int]
    HOME_RUNS_FIELD_NUMBER: _ClassVar[int]
    THEORETICAL_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    PAIRS_FIELD_NUMBER: _ClassVar[int]
    waters: _containers.RepeatedScalarFieldContainer[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    pairwise: _containers.RepeatedCompositeFieldContainer[_common_pb2.IntRow]
    fouls: _containers.RepeatedScalarFieldContainer[bool]
    specials: _containers.RepeatedScalarFieldContainer[ShisanshuiSpecialKind]
    home_runs: _containers.RepeatedScalarFieldContainer[bool]
    theoretical: _containers.RepeatedScalarFieldContainer[int]
    rake: int
    pairs: _containers.RepeatedCompositeFieldContainer[ShisanshuiPair]
    def __init__(self, waters: _Optional[_Iterable[int]] = ..., deltas: _Optional[_Iterable[int]] = ..., pairwise: _Optional[_Iterable[_Union[_common_pb2.IntRow, _Mapping]]] = ..., fouls: _Optional[_Iterable[bool]] = ..., specials: _Optional[_Iterable[_Union[ShisanshuiSpecialKind, str]]] = ..., home_runs: _Optional[_Iterable[bool]] = ..., theoretical: _Optional[_Iterable[int]] = ..., rake: _Optional[int] = ..., pairs: _Optional[_Iterable[_Union[ShisanshuiPair, _Mapping]]] = ...) -> None: ...

class ShisanshuiSettleResult(_message.Message):
    __slots__ = ("error", "settlement")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    settlement: ShisanshuiSettlement
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., settlement: _Optional[_Union[ShisanshuiSettlement, _Mapping]] = ...) -> None: ...

class ShisanshuiSettleResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShisanshuiSettleResult]
    def __init__(self, results: _Optional[_Iterable[_Union[ShisanshuiSettleResult, _Mapping]]] = ...) -> None: ...

class ShisanshuiBestResponseItem(_message.Message):
    __slots__ = ("cards", "opponents")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    cards: _common_pb2.Cards
    opponents: _containers.RepeatedCompositeFieldContainer[ShisanshuiArrangement]
    def __init__(self, cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., opponents: _Optional[_Iterable[_Union[ShisanshuiArrangement, _Mapping]]] = ...) -> None: ...

class ShisanshuiArrangeItem(_message.Message):
    __slots__ = ("hand", "best_response")
    HAND_FIELD_NUMBER: _ClassVar[int]
    BEST_RESPONSE_FIELD_NUMBER: _ClassVar[int]
    hand: _common_pb2.Cards
    best_response: ShisanshuiBestResponseItem
    def __init__(self, hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., best_response: _Optional[_Union[ShisanshuiBestResponseItem, _Mapping]] = ...) -> None: ...

class ShisanshuiArrangeRequest(_message.Message):
    __slots__ = ("rules", "items", "opponents", "top_k", "seed", "samples")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    rules: ShisanshuiRules
    items: _containers.RepeatedCompositeFieldContainer[ShisanshuiArrangeItem]
    opponents: int
    top_k: int
    seed: int
    samples: int
    def __init__(self, rules: _Optional[_Union[ShisanshuiRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[ShisanshuiArrangeItem, _Mapping]]] = ..., opponents: _Optional[int] = ..., top_k: _Optional[int] = ..., seed: _Optional[int] = ..., samples: _Optional[int] = ...) -> None: ...

class ShisanshuiArrangeChoice(_message.Message):
    __slots__ = ("arrangement", "expected")
    ARRANGEMENT_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    arrangement: ShisanshuiArrangement
    expected: float
    def __init__(self, arrangement: _Optional[_Union[ShisanshuiArrangement, _Mapping]] = ..., expected: _Optional[float] = ...) -> None: ...

class ShisanshuiArrangeAnswer(_message.Message):
    __slots__ = ("best", "special", "declare_special", "alternatives")
    BEST_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    DECLARE_SPECIAL_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    best: ShisanshuiArrangeChoice
    special: ShisanshuiSpecialKind
    declare_special: bool
    alternatives: _containers.RepeatedCompositeFieldContainer[ShisanshuiArrangeChoice]
    def __init__(self, best: _Optional[_Union[ShisanshuiArrangeChoice, _Mapping]] = ..., special: _Optional[_Union[ShisanshuiSpecialKind, str]] = ..., declare_special: _Optional[bool] = ..., alternatives: _Optional[_Iterable[_Union[ShisanshuiArrangeChoice, _Mapping]]] = ...) -> None: ...

class ShisanshuiArrangeResult(_message.Message):
    __slots__ = ("error", "answer")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    answer: ShisanshuiArrangeAnswer
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., answer: _Optional[_Union[ShisanshuiArrangeAnswer, _Mapping]] = ...) -> None: ...

class ShisanshuiArrangeResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[ShisanshuiArrangeResult]
    def __init__(self, results: _Optional[_Iterable[_Union[ShisanshuiArrangeResult, _Mapping]]] = ...) -> None: ...

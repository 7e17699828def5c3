from handeval.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DachuRules(_message.Message):
    __slots__ = ("cheng_chu_alone", "escape_shared_by_all", "mixed_ace_pair", "unit_per", "first_caller_2v2", "escape_units", "jiao_round_up", "declare_once_per", "pass_is_final")
    CHENG_CHU_ALONE_FIELD_NUMBER: _ClassVar[int]
    ESCAPE_SHARED_BY_ALL_FIELD_NUMBER: _ClassVar[int]
    MIXED_ACE_PAIR_FIELD_NUMBER: _ClassVar[int]
    UNIT_PER_FIELD_NUMBER: _ClassVar[int]
    FIRST_CALLER_2V2_FIELD_NUMBER: _ClassVar[int]
    ESCAPE_UNITS_FIELD_NUMBER: _ClassVar[int]
    JIAO_ROUND_UP_FIELD_NUMBER: _ClassVar[int]
    DECLARE_ONCE_PER_FIELD_NUMBER: _ClassVar[int]
    PASS_IS_FINAL_FIELD_NUMBER: _ClassVar[int]
    cheng_chu_alone: bool
    escape_shared_by_all: bool
    mixed_ace_pair: bool
    unit_per: str
    first_caller_2v2: str
    escape_units: int
    jiao_round_up: bool
    declare_once_per: str
    pass_is_final: bool
    def __init__(self, cheng_chu_alone: _Optional[bool] = ..., escape_shared_by_all: _Optional[bool] = ..., mixed_ace_pair: _Optional[bool] = ..., unit_per: _Optional[str] = ..., first_caller_2v2: _Optional[str] = ..., escape_units: _Optional[int] = ..., jiao_round_up: _Optional[bool] = ..., declare_once_per: _Optional[str] = ..., pass_is_final: _Optional[bool] = ...) -> None: ...

class DachuPlay(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class DachuLegalPlaysQuery(_message.Message):
    __slots__ = ("hand", "table", "first_lead", "surrendered", "shown_triple")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    SHOWN_TRIPLE_FIELD_NUMBER: _ClassVar[int]
    hand: str
    table: str
    first_lead: bool
    surrendered: bool
    shown_triple: str
    def __init__(self, hand: _Optional[str] = ..., table: _Optional[str] = ..., first_lead: _Optional[bool] = ..., surrendered: _Optional[bool] = ..., shown_triple: _Optional[str] = ...) -> None: ...

class DachuTimeoutPlayQuery(_message.Message):
    __slots__ = ("hand", "table", "first_lead", "shown_triple")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    SHOWN_TRIPLE_FIELD_NUMBER: _ClassVar[int]
    hand: str
    table: str
    first_lead: bool
    shown_triple: str
    def __init__(self, hand: _Optional[str] = ..., table: _Optional[str] = ..., first_lead: _Optional[bool] = ..., shown_triple: _Optional[str] = ...) -> None: ...

class DachuDealAction(_message.Message):
    __slots__ = ("kind", "seat", "cards", "colour")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    cards: str
    colour: str
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., cards: _Optional[str] = ..., colour: _Optional[str] = ...) -> None: ...

class DachuDealQuery(_message.Message):
    __slots__ = ("hands", "first_seat", "actions")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedScalarFieldContainer[str]
    first_seat: int
    actions: _containers.RepeatedCompositeFieldContainer[DachuDealAction]
    def __init__(self, hands: _Optional[_Iterable[str]] = ..., first_seat: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[DachuDealAction, _Mapping]]] = ...) -> None: ...

class DachuDealState(_message.Message):
    __slots__ = ("dealt", "finished", "chu", "chu_source", "chu_side", "teams", "multiplier", "declared", "legal_actions", "first_leader", "last_card", "held", "meng_xuan", "meng_chuai", "cheng_chu")
    DEALT_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    CHU_SOURCE_FIELD_NUMBER: _ClassVar[int]
    CHU_SIDE_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEADER_FIELD_NUMBER: _ClassVar[int]
    LAST_CARD_FIELD_NUMBER: _ClassVar[int]
    HELD_FIELD_NUMBER: _ClassVar[int]
    MENG_XUAN_FIELD_NUMBER: _ClassVar[int]
    MENG_CHUAI_FIELD_NUMBER: _ClassVar[int]
    CHENG_CHU_FIELD_NUMBER: _ClassVar[int]
    dealt: int
    finished: bool
    chu: str
    chu_source: str
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    teams: str
    multiplier: int
    declared: bool
    legal_actions: _containers.RepeatedCompositeFieldContainer[DachuDealAction]
    first_leader: int
    last_card: str
    held: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    meng_xuan: _containers.RepeatedScalarFieldContainer[str]
    meng_chuai: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    cheng_chu: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, dealt: _Optional[int] = ..., finished: _Optional[bool] = ..., chu: _Optional[str] = ..., chu_source: _Optional[str] = ..., chu_side: _Optional[_Iterable[int]] = ..., teams: _Optional[str] = ..., multiplier: _Optional[int] = ..., declared: _Optional[bool] = ..., legal_actions: _Optional[_Iterable[_Union[DachuDealAction, _Mapping]]] = ..., first_leader: _Optional[int] = ..., last_card: _Optional[str] = ..., held: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., meng_xuan: _Optional[_Iterable[str]] = ..., meng_chuai: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., cheng_chu: _Optional[_Iterable[bool]] = ...) -> None: ...

class DachuCall(_message.Message):
    __slots__ = ("call", "seat")
    CALL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    call: str
    seat: int
    def __init__(self, call: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class DachuCallingStart(_message.Message):
    __slots__ = ("chu_side", "declared", "multiplier")
    CHU_SIDE_FIELD_NUMBER: _ClassVar[int]
    DECLARED_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    declared: bool
    multiplier: int
    def __init__(self, chu_side: _Optional[_Iterable[int]] = ..., declared: _Optional[bool] = ..., multiplier: _Optional[int] = ...) -> None: ...

class DachuCallingQuery(_message.Message):
    __slots__ = ("deal", "start", "start_seat", "first_side", "calls")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_SIDE_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    deal: DachuDealQuery
    start: DachuCallingStart
    start_seat: int
    first_side: str
    calls: _containers.RepeatedCompositeFieldContainer[DachuCall]
    def __init__(self, deal: _Optional[_Union[DachuDealQuery, _Mapping]] = ..., start: _Optional[_Union[DachuCallingStart, _Mapping]] = ..., start_seat: _Optional[int] = ..., first_side: _Optional[str] = ..., calls: _Optional[_Iterable[_Union[DachuCall, _Mapping]]] = ...) -> None: ...

class DachuCallingState(_message.Message):
    __slots__ = ("turn", "legal_actions", "multiplier", "over", "phase", "calling_side", "outcome", "chu_side", "surrendered", "bei_bao_da", "playing", "surrendered_side")
    TURN_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CALLING_SIDE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    CHU_SIDE_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    BEI_BAO_DA_FIELD_NUMBER: _ClassVar[int]
    PLAYING_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_SIDE_FIELD_NUMBER: _ClassVar[int]
    turn: int
    legal_actions: _containers.RepeatedCompositeFieldContainer[DachuCall]
    multiplier: int
    over: bool
    phase: str
    calling_side: str
    outcome: str
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    surrendered: _containers.RepeatedScalarFieldContainer[int]
    bei_bao_da: _containers.RepeatedScalarFieldContainer[int]
    playing: _containers.RepeatedScalarFieldContainer[int]
    surrendered_side: str
    def __init__(self, turn: _Optional[int] = ..., legal_actions: _Optional[_Iterable[_Union[DachuCall, _Mapping]]] = ..., multiplier: _Optional[int] = ..., over: _Optional[bool] = ..., phase: _Optional[str] = ..., calling_side: _Optional[str] = ..., outcome: _Optional[str] = ..., chu_side: _Optional[_Iterable[int]] = ..., surrendered: _Optional[_Iterable[int]] = ..., bei_bao_da: _Optional[_Iterable[int]] = ..., playing: _Optional[_Iterable[int]] = ..., surrendered_side: _Optional[str] = ...) -> None: ...

class DachuEvaluateItem(_message.Message):
    __slots__ = ("play", "legal_plays", "timeout_play", "deal", "calling")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_PLAY_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALLING_FIELD_NUMBER: _ClassVar[int]
    play: str
    legal_plays: DachuLegalPlaysQuery
    timeout_play: DachuTimeoutPlayQuery
    deal: DachuDealQuery
    calling: DachuCallingQuery
    def __init__(self, play: _Optional[str] = ..., legal_plays: _Optional[_Union[DachuLegalPlaysQuery, _Mapping]] = ..., timeout_play: _Optional[_Union[DachuTimeoutPlayQuery, _Mapping]] = ..., deal: _Optional[_Union[DachuDealQuery, _Mapping]] = ..., calling: _Optional[_Union[DachuCallingQuery, _Mapping]] = ...) -> None: ...

class DachuEvaluateRequest(_message.Message):
    __slots__ = ("rules", "chu", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    chu: str
    items: _containers.RepeatedCompositeFieldContainer[DachuEvaluateItem]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., chu: _Optional[str] = ..., items: _Optional[_Iterable[_Union[DachuEvaluateItem, _Mapping]]] = ...) -> None: ...

class DachuPlays(_message.Message):
    __slots__ = ("plays",)
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[DachuPlay]
    def __init__(self, plays: _Optional[_Iterable[_Union[DachuPlay, _Mapping]]] = ...) -> None: ...

class DachuTimeoutPlay(_message.Message):
    __slots__ = ("passes", "cards")
    PASSES_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    passes: bool
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, passes: _Optional[bool] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class DachuEvaluateResult(_message.Message):
    __slots__ = ("error", "play", "legal_plays", "timeout_play", "deal", "calling")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_PLAY_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALLING_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    play: DachuPlay
    legal_plays: DachuPlays
    timeout_play: DachuTimeoutPlay
    deal: DachuDealState
    calling: DachuCallingState
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., play: _Optional[_Union[DachuPlay, _Mapping]] = ..., legal_plays: _Optional[_Union[DachuPlays, _Mapping]] = ..., timeout_play: _Optional[_Union[DachuTimeoutPlay, _Mapping]] = ..., deal: _Optional[_Union[DachuDealState, _Mapping]] = ..., calling: _Optional[_Union[DachuCallingState, _Mapping]] = ...) -> None: ...

class DachuEvaluateResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[DachuEvaluateResult]
    def __init__(self, results: _Optional[_Iterable[_Union[DachuEvaluateResult, _Mapping]]] = ...) -> None: ...

class DachuCompareItem(_message.Message):
    __slots__ = ("play", "table")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    play: str
    table: str
    def __init__(self, play: _Optional[str] = ..., table: _Optional[str] = ...) -> None: ...

class DachuCompareRequest(_message.Message):
    __slots__ = ("rules", "chu", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    chu: str
    items: _containers.RepeatedCompositeFieldContainer[DachuCompareItem]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., chu: _Optional[str] = ..., items: _Optional[_Iterable[_Union[DachuCompareItem, _Mapping]]] = ...) -> None: ...

class DachuCompareResult(_message.Message):
    __slots__ = ("error", "beats")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    BEATS_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    beats: bool
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., beats: _Optional[bool] = ...) -> None: ...

class DachuCompareResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[DachuCompareResult]
    def __init__(self, results: _Optional[_Iterable[_Union[DachuCompareResult, _Mapping]]] = ...) -> None: ...

class DachuDeal(_message.Message):
    __slots__ = ("calling", "chu_side", "multiplier", "surrendered", "bei_bao_da", "places", "base", "escaped", "carried")
    CALLING_FIELD_NUMBER: _ClassVar[int]
    CHU_SIDE_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    BEI_BAO_DA_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    ESCAPED_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    calling: DachuCallingQuery
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    multiplier: int
    surrendered: _containers.RepeatedScalarFieldContainer[int]
    bei_bao_da: _containers.RepeatedScalarFieldContainer[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    base: int
    escaped: _containers.RepeatedScalarFieldContainer[int]
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    def __init__(self, calling: _Optional[_Union[DachuCallingQuery, _Mapping]] = ..., chu_side: _Optional[_Iterable[int]] = ..., multiplier: _Optional[int] = ..., surrendered: _Optional[_Iterable[int]] = ..., bei_bao_da: _Optional[_Iterable[int]] = ..., places: _Optional[_Iterable[int]] = ..., base: _Optional[int] = ..., escaped: _Optional[_Iterable[int]] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ...) -> None: ...

class DachuSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    deals: _containers.RepeatedCompositeFieldContainer[DachuDeal]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[DachuDeal, _Mapping]]] = ...) -> None: ...

class DachuLine(_message.Message):
    __slots__ = ("item", "seat", "amount", "note")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    item: str
    seat: int
    amount: int
    note: str
    def __init__(self, item: _Optional[str] = ..., seat: _Optional[int] = ..., amount: _Optional[int] = ..., note: _Optional[str] = ...) -> None: ...

class DachuSettlement(_message.Message):
    __slots__ = ("deltas", "lines", "verdict", "wipe_out", "result_multiplier", "theoretical")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    WIPE_OUT_FIELD_NUMBER: _ClassVar[int]
    RESULT_MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    THEORETICAL_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    lines: _containers.RepeatedCompositeFieldContainer[DachuLine]
    verdict: str
    wipe_out: bool
    result_multiplier: int
    theoretical: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., lines: _Optional[_Iterable[_Union[DachuLine, _Mapping]]] = ..., verdict: _Optional[str] = ..., wipe_out: _Optional[bool] = ..., result_multiplier: _Optional[int] = ..., theoretical: _Optional[_Iterable[int]] = ...) -> None: ...

class DachuSettleResult(_message.Message):
    __slots__ = ("error", "settlement")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    settlement: DachuSettlement
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., settlement: _Optional[_Union[DachuSettlement, _Mapping]] = ...) -> None: ...

class DachuSettleResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[DachuSettleResult]
    def __init__(self, results: _Optional[_Iterable[_Union[DachuSettleResult, _Mapping]]] = ...) -> None: ...

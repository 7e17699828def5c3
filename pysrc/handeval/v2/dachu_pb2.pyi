from handeval.v2 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DachuColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_COLOUR_UNSPECIFIED: _ClassVar[DachuColour]
    DACHU_COLOUR_RED: _ClassVar[DachuColour]
    DACHU_COLOUR_BLACK: _ClassVar[DachuColour]

class DachuSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_SIDE_UNSPECIFIED: _ClassVar[DachuSide]
    DACHU_SIDE_CHU: _ClassVar[DachuSide]
    DACHU_SIDE_OTHER: _ClassVar[DachuSide]

class DachuUnitPer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_UNIT_PER_UNSPECIFIED: _ClassVar[DachuUnitPer]
    DACHU_UNIT_PER_LARGER_SIDE: _ClassVar[DachuUnitPer]
    DACHU_UNIT_PER_LOSING_SIDE: _ClassVar[DachuUnitPer]

class DachuDeclareOncePer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_DECLARE_ONCE_PER_UNSPECIFIED: _ClassVar[DachuDeclareOncePer]
    DACHU_DECLARE_ONCE_PER_PLAYER_AND_KIND: _ClassVar[DachuDeclareOncePer]
    DACHU_DECLARE_ONCE_PER_PLAYER: _ClassVar[DachuDeclareOncePer]
    DACHU_DECLARE_ONCE_PER_GAME: _ClassVar[DachuDeclareOncePer]

class DachuTimeoutDisplay(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_TIMEOUT_DISPLAY_UNSPECIFIED: _ClassVar[DachuTimeoutDisplay]
    DACHU_TIMEOUT_DISPLAY_STRONGEST_LEFT: _ClassVar[DachuTimeoutDisplay]
    DACHU_TIMEOUT_DISPLAY_WEAKEST_LEFT: _ClassVar[DachuTimeoutDisplay]

class DachuPlayKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_PLAY_KIND_UNSPECIFIED: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_SINGLE: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_PAIR: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_STRAIGHT: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_TRIPLE_BOMB: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_QUAD_BOMB: _ClassVar[DachuPlayKind]
    DACHU_PLAY_KIND_DU_CHU: _ClassVar[DachuPlayKind]

class DachuDealActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_DEAL_ACTION_KIND_UNSPECIFIED: _ClassVar[DachuDealActionKind]
    DACHU_DEAL_ACTION_KIND_DEAL: _ClassVar[DachuDealActionKind]
    DACHU_DEAL_ACTION_KIND_MENG_XUAN: _ClassVar[DachuDealActionKind]
    DACHU_DEAL_ACTION_KIND_MENG_CHUAI: _ClassVar[DachuDealActionKind]
    DACHU_DEAL_ACTION_KIND_CHENG_CHU: _ClassVar[DachuDealActionKind]
    DACHU_DEAL_ACTION_KIND_FINISH: _ClassVar[DachuDealActionKind]

class DachuChuSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_CHU_SOURCE_UNSPECIFIED: _ClassVar[DachuChuSource]
    DACHU_CHU_SOURCE_MENG_XUAN: _ClassVar[DachuChuSource]
    DACHU_CHU_SOURCE_CHENG_CHU: _ClassVar[DachuChuSource]
    DACHU_CHU_SOURCE_PING_XUAN: _ClassVar[DachuChuSource]

class DachuTeams(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_TEAMS_UNSPECIFIED: _ClassVar[DachuTeams]
    DACHU_TEAMS_ONE_VS_THREE: _ClassVar[DachuTeams]
    DACHU_TEAMS_TWO_VS_TWO: _ClassVar[DachuTeams]

class DachuCallKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_CALL_KIND_UNSPECIFIED: _ClassVar[DachuCallKind]
    DACHU_CALL_KIND_PING_DA: _ClassVar[DachuCallKind]
    DACHU_CALL_KIND_CHUAI: _ClassVar[DachuCallKind]
    DACHU_CALL_KIND_BAO_CHUAI: _ClassVar[DachuCallKind]
    DACHU_CALL_KIND_JIAO: _ClassVar[DachuCallKind]

class DachuCallingPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_CALLING_PHASE_UNSPECIFIED: _ClassVar[DachuCallingPhase]
    DACHU_CALLING_PHASE_SIDE_CALL: _ClassVar[DachuCallingPhase]
    DACHU_CALLING_PHASE_SIDE_CALL_ROUND2: _ClassVar[DachuCallingPhase]
    DACHU_CALLING_PHASE_BAO_CHUAI: _ClassVar[DachuCallingPhase]
    DACHU_CALLING_PHASE_SECOND_ROUND: _ClassVar[DachuCallingPhase]
    DACHU_CALLING_PHASE_OVER: _ClassVar[DachuCallingPhase]

class DachuCallingOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_CALLING_OUTCOME_UNSPECIFIED: _ClassVar[DachuCallingOutcome]
    DACHU_CALLING_OUTCOME_PLAY: _ClassVar[DachuCallingOutcome]
    DACHU_CALLING_OUTCOME_SURRENDER: _ClassVar[DachuCallingOutcome]

class DachuPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_PHASE_UNSPECIFIED: _ClassVar[DachuPhase]
    DACHU_PHASE_DEAL: _ClassVar[DachuPhase]
    DACHU_PHASE_CALLING: _ClassVar[DachuPhase]
    DACHU_PHASE_PLAY: _ClassVar[DachuPhase]
    DACHU_PHASE_OVER: _ClassVar[DachuPhase]

class DachuVerdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_VERDICT_UNSPECIFIED: _ClassVar[DachuVerdict]
    DACHU_VERDICT_WIN: _ClassVar[DachuVerdict]
    DACHU_VERDICT_DRAW: _ClassVar[DachuVerdict]
    DACHU_VERDICT_LOSS: _ClassVar[DachuVerdict]

class DachuLineKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DACHU_LINE_KIND_UNSPECIFIED: _ClassVar[DachuLineKind]
    DACHU_LINE_KIND_JIAO: _ClassVar[DachuLineKind]
    DACHU_LINE_KIND_RESULT: _ClassVar[DachuLineKind]
    DACHU_LINE_KIND_ESCAPE: _ClassVar[DachuLineKind]
    DACHU_LINE_KIND_CAP: _ClassVar[DachuLineKind]
DACHU_COLOUR_UNSPECIFIED: DachuColour
DACHU_COLOUR_RED: DachuColour
DACHU_COLOUR_BLACK: DachuColour
DACHU_SIDE_UNSPECIFIED: DachuSide
DACHU_SIDE_CHU: DachuSide
DACHU_SIDE_OTHER: DachuSide
DACHU_UNIT_PER_UNSPECIFIED: DachuUnitPer
DACHU_UNIT_PER_LARGER_SIDE: DachuUnitPer
DACHU_UNIT_PER_LOSING_SIDE: DachuUnitPer
DACHU_DECLARE_ONCE_PER_UNSPECIFIED: DachuDeclareOncePer
DACHU_DECLARE_ONCE_PER_PLAYER_AND_KIND: DachuDeclareOncePer
DACHU_DECLARE_ONCE_PER_PLAYER: DachuDeclareOncePer
DACHU_DECLARE_ONCE_PER_GAME: DachuDeclareOncePer
DACHU_TIMEOUT_DISPLAY_UNSPECIFIED: DachuTimeoutDisplay
DACHU_TIMEOUT_DISPLAY_STRONGEST_LEFT: DachuTimeoutDisplay
DACHU_TIMEOUT_DISPLAY_WEAKEST_LEFT: DachuTimeoutDisplay
DACHU_PLAY_KIND_UNSPECIFIED: DachuPlayKind
DACHU_PLAY_KIND_SINGLE: DachuPlayKind
DACHU_PLAY_KIND_PAIR: DachuPlayKind
DACHU_PLAY_KIND_STRAIGHT: DachuPlayKind
DACHU_PLAY_KIND_TRIPLE_BOMB: DachuPlayKind
DACHU_PLAY_KIND_QUAD_BOMB: DachuPlayKind
DACHU_PLAY_KIND_DU_CHU: DachuPlayKind
DACHU_DEAL_ACTION_KIND_UNSPECIFIED: DachuDealActionKind
DACHU_DEAL_ACTION_KIND_DEAL: DachuDealActionKind
DACHU_DEAL_ACTION_KIND_MENG_XUAN: DachuDealActionKind
DACHU_DEAL_ACTION_KIND_MENG_CHUAI: DachuDealActionKind
DACHU_DEAL_ACTION_KIND_CHENG_CHU: DachuDealActionKind
DACHU_DEAL_ACTION_KIND_FINISH: DachuDealActionKind
DACHU_CHU_SOURCE_UNSPECIFIED: DachuChuSource
DACHU_CHU_SOURCE_MENG_XUAN: DachuChuSource
DACHU_CHU_SOURCE_CHENG_CHU: DachuChuSource
DACHU_CHU_SOURCE_PING_XUAN: DachuChuSource
DACHU_TEAMS_UNSPECIFIED: DachuTeams
DACHU_TEAMS_ONE_VS_THREE: DachuTeams
DACHU_TEAMS_TWO_VS_TWO: DachuTeams
DACHU_CALL_KIND_UNSPECIFIED: DachuCallKind
DACHU_CALL_KIND_PING_DA: DachuCallKind
DACHU_CALL_KIND_CHUAI: DachuCallKind
DACHU_CALL_KIND_BAO_CHUAI: DachuCallKind
DACHU_CALL_KIND_JIAO: DachuCallKind
DACHU_CALLING_PHASE_UNSPECIFIED: DachuCallingPhase
DACHU_CALLING_PHASE_SIDE_CALL: DachuCallingPhase
DACHU_CALLING_PHASE_SIDE_CALL_ROUND2: DachuCallingPhase
DACHU_CALLING_PHASE_BAO_CHUAI: DachuCallingPhase
DACHU_CALLING_PHASE_SECOND_ROUND: DachuCallingPhase
DACHU_CALLING_PHASE_OVER: DachuCallingPhase
DACHU_CALLING_OUTCOME_UNSPECIFIED: DachuCallingOutcome
DACHU_CALLING_OUTCOME_PLAY: DachuCallingOutcome
DACHU_CALLING_OUTCOME_SURRENDER: DachuCallingOutcome
DACHU_PHASE_UNSPECIFIED: DachuPhase
DACHU_PHASE_DEAL: DachuPhase
DACHU_PHASE_CALLING: DachuPhase
DACHU_PHASE_PLAY: DachuPhase
DACHU_PHASE_OVER: DachuPhase
DACHU_VERDICT_UNSPECIFIED: DachuVerdict
DACHU_VERDICT_WIN: DachuVerdict
DACHU_VERDICT_DRAW: DachuVerdict
DACHU_VERDICT_LOSS: DachuVerdict
DACHU_LINE_KIND_UNSPECIFIED: DachuLineKind
DACHU_LINE_KIND_JIAO: DachuLineKind
DACHU_LINE_KIND_RESULT: DachuLineKind
DACHU_LINE_KIND_ESCAPE: DachuLineKind
DACHU_LINE_KIND_CAP: DachuLineKind

class DachuRules(_message.Message):
    __slots__ = ("cheng_chu_alone", "escape_shared_by_all", "mixed_ace_pair", "unit_per", "first_caller_2v2", "escape_units", "jiao_round_up", "declare_once_per", "pass_is_final", "timeout_display")
    CHENG_CHU_ALONE_FIELD_NUMBER: _ClassVar[int]
    ESCAPE_SHARED_BY_ALL_FIELD_NUMBER: _ClassVar[int]
    MIXED_ACE_PAIR_FIELD_NUMBER: _ClassVar[int]
    UNIT_PER_FIELD_NUMBER: _ClassVar[int]
    FIRST_CALLER_2V2_FIELD_NUMBER: _ClassVar[int]
    ESCAPE_UNITS_FIELD_NUMBER: _ClassVar[int]
    JIAO_ROUND_UP_FIELD_NUMBER: _ClassVar[int]
    DECLARE_ONCE_PER_FIELD_NUMBER: _ClassVar[int]
    PASS_IS_FINAL_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_DISPLAY_FIELD_NUMBER: _ClassVar[int]
    cheng_chu_alone: bool
    escape_shared_by_all: bool
    mixed_ace_pair: bool
    unit_per: DachuUnitPer
    first_caller_2v2: DachuSide
    escape_units: int
    jiao_round_up: bool
    declare_once_per: DachuDeclareOncePer
    pass_is_final: bool
    timeout_display: DachuTimeoutDisplay
    def __init__(self, cheng_chu_alone: _Optional[bool] = ..., escape_shared_by_all: _Optional[bool] = ..., mixed_ace_pair: _Optional[bool] = ..., unit_per: _Optional[_Union[DachuUnitPer, str]] = ..., first_caller_2v2: _Optional[_Union[DachuSide, str]] = ..., escape_units: _Optional[int] = ..., jiao_round_up: _Optional[bool] = ..., declare_once_per: _Optional[_Union[DachuDeclareOncePer, str]] = ..., pass_is_final: _Optional[bool] = ..., timeout_display: _Optional[_Union[DachuTimeoutDisplay, str]] = ...) -> None: ...

class DachuPlay(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: DachuPlayKind
    cards: _common_pb2.Cards
    def __init__(self, kind: _Optional[_Union[DachuPlayKind, str]] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class DachuClassifyQuery(_message.Message):
    __slots__ = ("cards", "chu")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    cards: _common_pb2.Cards
    chu: DachuColour
    def __init__(self, cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., chu: _Optional[_Union[DachuColour, str]] = ...) -> None: ...

class DachuLegalPlaysQuery(_message.Message):
    __slots__ = ("hand", "table", "chu", "first_lead", "surrendered", "shown_triple")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    SHOWN_TRIPLE_FIELD_NUMBER: _ClassVar[int]
    hand: _common_pb2.Cards
    table: _common_pb2.Cards
    chu: DachuColour
    first_lead: bool
    surrendered: bool
    shown_triple: _common_pb2.Cards
    def __init__(self, hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., table: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., chu: _Optional[_Union[DachuColour, str]] = ..., first_lead: _Optional[bool] = ..., surrendered: _Optional[bool] = ..., shown_triple: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class DachuTimeoutPlayQuery(_message.Message):
    __slots__ = ("hand", "table", "chu", "first_lead", "shown_triple", "surrendered", "columns")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    SHOWN_TRIPLE_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    hand: _common_pb2.Cards
    table: _common_pb2.Cards
    chu: DachuColour
    first_lead: bool
    shown_triple: _common_pb2.Cards
    surrendered: bool
    columns: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    def __init__(self, hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., table: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., chu: _Optional[_Union[DachuColour, str]] = ..., first_lead: _Optional[bool] = ..., shown_triple: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., surrendered: _Optional[bool] = ..., columns: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ...) -> None: ...

class DachuDealAction(_message.Message):
    __slots__ = ("kind", "seat", "cards", "colour")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    kind: DachuDealActionKind
    seat: int
    cards: _common_pb2.Cards
    colour: DachuColour
    def __init__(self, kind: _Optional[_Union[DachuDealActionKind, str]] = ..., seat: _Optional[int] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., colour: _Optional[_Union[DachuColour, str]] = ...) -> None: ...

class DachuDealQuery(_message.Message):
    __slots__ = ("hands", "first_seat", "actions")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    first_seat: int
    actions: _containers.RepeatedCompositeFieldContainer[DachuDealAction]
    def __init__(self, hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., first_seat: _Optional[int] = ..., actions: _Optional[_Iterable[_Union[DachuDealAction, _Mapping]]] = ...) -> None: ...

class DachuDealState(_message.Message):
    __slots__ = ("dealt", "finished", "chu", "chu_source", "chu_side", "teams", "multiplier", "declared", "legal_actions", "first_leader", "last_card", "held", "meng_xuan", "meng_chuai", "cheng_chu", "suggestion")
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
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    dealt: int
    finished: bool
    chu: DachuColour
    chu_source: DachuChuSource
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    teams: DachuTeams
    multiplier: int
    declared: bool
    legal_actions: _containers.RepeatedCompositeFieldContainer[DachuDealAction]
    first_leader: int
    last_card: str
    held: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    meng_xuan: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    meng_chuai: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    cheng_chu: _containers.RepeatedScalarFieldContainer[bool]
    suggestion: DachuDealSuggestion
    def __init__(self, dealt: _Optional[int] = ..., finished: _Optional[bool] = ..., chu: _Optional[_Union[DachuColour, str]] = ..., chu_source: _Optional[_Union[DachuChuSource, str]] = ..., chu_side: _Optional[_Iterable[int]] = ..., teams: _Optional[_Union[DachuTeams, str]] = ..., multiplier: _Optional[int] = ..., declared: _Optional[bool] = ..., legal_actions: _Optional[_Iterable[_Union[DachuDealAction, _Mapping]]] = ..., first_leader: _Optional[int] = ..., last_card: _Optional[str] = ..., held: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., meng_xuan: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., meng_chuai: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., cheng_chu: _Optional[_Iterable[bool]] = ..., suggestion: _Optional[_Union[DachuDealSuggestion, _Mapping]] = ...) -> None: ...

class DachuDealSuggestion(_message.Message):
    __slots__ = ("action", "alternatives")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    action: DachuDealAction
    alternatives: _containers.RepeatedCompositeFieldContainer[DachuDealSuggestionAlternative]
    def __init__(self, action: _Optional[_Union[DachuDealAction, _Mapping]] = ..., alternatives: _Optional[_Iterable[_Union[DachuDealSuggestionAlternative, _Mapping]]] = ...) -> None: ...

class DachuDealSuggestionAlternative(_message.Message):
    __slots__ = ("action", "score")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    action: DachuDealAction
    score: float
    def __init__(self, action: _Optional[_Union[DachuDealAction, _Mapping]] = ..., score: _Optional[float] = ...) -> None: ...

class DachuCall(_message.Message):
    __slots__ = ("call", "seat")
    CALL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    call: DachuCallKind
    seat: int
    def __init__(self, call: _Optional[_Union[DachuCallKind, str]] = ..., seat: _Optional[int] = ...) -> None: ...

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
    first_side: DachuSide
    calls: _containers.RepeatedCompositeFieldContainer[DachuCall]
    def __init__(self, deal: _Optional[_Union[DachuDealQuery, _Mapping]] = ..., start: _Optional[_Union[DachuCallingStart, _Mapping]] = ..., start_seat: _Optional[int] = ..., first_side: _Optional[_Union[DachuSide, str]] = ..., calls: _Optional[_Iterable[_Union[DachuCall, _Mapping]]] = ...) -> None: ...

class DachuCallingState(_message.Message):
    __slots__ = ("turn", "legal_actions", "multiplier", "over", "phase", "calling_side", "outcome", "chu_side", "surrendered", "bei_bao_da", "playing", "surrendered_side", "suggestion")
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
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    turn: int
    legal_actions: _containers.RepeatedCompositeFieldContainer[DachuCall]
    multiplier: int
    over: bool
    phase: DachuCallingPhase
    calling_side: DachuSide
    outcome: DachuCallingOutcome
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    surrendered: _containers.RepeatedScalarFieldContainer[int]
    bei_bao_da: _containers.RepeatedScalarFieldContainer[int]
    playing: _containers.RepeatedScalarFieldContainer[int]
    surrendered_side: DachuSide
    suggestion: DachuCallSuggestion
    def __init__(self, turn: _Optional[int] = ..., legal_actions: _Optional[_Iterable[_Union[DachuCall, _Mapping]]] = ..., multiplier: _Optional[int] = ..., over: _Optional[bool] = ..., phase: _Optional[_Union[DachuCallingPhase, str]] = ..., calling_side: _Optional[_Union[DachuSide, str]] = ..., outcome: _Optional[_Union[DachuCallingOutcome, str]] = ..., chu_side: _Optional[_Iterable[int]] = ..., surrendered: _Optional[_Iterable[int]] = ..., bei_bao_da: _Optional[_Iterable[int]] = ..., playing: _Optional[_Iterable[int]] = ..., surrendered_side: _Optional[_Union[DachuSide, str]] = ..., suggestion: _Optional[_Union[DachuCallSuggestion, _Mapping]] = ...) -> None: ...

class DachuCallSuggestion(_message.Message):
    __slots__ = ("action", "alternatives")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    action: DachuCall
    alternatives: _containers.RepeatedCompositeFieldContainer[DachuCallSuggestionAlternative]
    def __init__(self, action: _Optional[_Union[DachuCall, _Mapping]] = ..., alternatives: _Optional[_Iterable[_Union[DachuCallSuggestionAlternative, _Mapping]]] = ...) -> None: ...

class DachuCallSuggestionAlternative(_message.Message):
    __slots__ = ("action", "score")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    action: DachuCall
    score: float
    def __init__(self, action: _Optional[_Union[DachuCall, _Mapping]] = ..., score: _Optional[float] = ...) -> None: ...

class DachuGameRecord(_message.Message):
    __slots__ = ("hands", "first_seat", "deal_actions", "start_seat", "first_side", "calls", "plays", "viewer", "suggest")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    DEAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    START_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_SIDE_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    SUGGEST_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    first_seat: int
    deal_actions: _containers.RepeatedCompositeFieldContainer[DachuDealAction]
    start_seat: int
    first_side: DachuSide
    calls: _containers.RepeatedCompositeFieldContainer[DachuCall]
    plays: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    viewer: int
    suggest: _common_pb2.SuggestQuery
    def __init__(self, hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., first_seat: _Optional[int] = ..., deal_actions: _Optional[_Iterable[_Union[DachuDealAction, _Mapping]]] = ..., start_seat: _Optional[int] = ..., first_side: _Optional[_Union[DachuSide, str]] = ..., calls: _Optional[_Iterable[_Union[DachuCall, _Mapping]]] = ..., plays: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ..., viewer: _Optional[int] = ..., suggest: _Optional[_Union[_common_pb2.SuggestQuery, _Mapping]] = ...) -> None: ...

class DachuTrick(_message.Message):
    __slots__ = ("leader", "first_action", "last_action", "over", "won_by")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    FIRST_ACTION_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTION_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    WON_BY_FIELD_NUMBER: _ClassVar[int]
    leader: int
    first_action: int
    last_action: int
    over: bool
    won_by: int
    def __init__(self, leader: _Optional[int] = ..., first_action: _Optional[int] = ..., last_action: _Optional[int] = ..., over: _Optional[bool] = ..., won_by: _Optional[int] = ...) -> None: ...

class DachuPlayState(_message.Message):
    __slots__ = ("to_move", "may_pass", "legal_plays", "table", "leader", "passed", "hands", "places", "tricks", "over", "decided", "verdict", "wipe_out", "table_seat", "auto_lead", "shown_triples", "actions", "timeouts", "card_counts", "suggestion")
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    MAY_PASS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    DECIDED_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    WIPE_OUT_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEAT_FIELD_NUMBER: _ClassVar[int]
    AUTO_LEAD_FIELD_NUMBER: _ClassVar[int]
    SHOWN_TRIPLES_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNTS_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    to_move: int
    may_pass: bool
    legal_plays: _containers.RepeatedCompositeFieldContainer[DachuPlay]
    table: DachuPlay
    leader: int
    passed: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    places: _containers.RepeatedScalarFieldContainer[int]
    tricks: _containers.RepeatedCompositeFieldContainer[DachuTrick]
    over: bool
    decided: bool
    verdict: DachuVerdict
    wipe_out: bool
    table_seat: int
    auto_lead: int
    shown_triples: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    timeouts: _containers.RepeatedCompositeFieldContainer[DachuTimeoutResult]
    card_counts: _containers.RepeatedScalarFieldContainer[int]
    suggestion: _common_pb2.Suggestion
    def __init__(self, to_move: _Optional[int] = ..., may_pass: _Optional[bool] = ..., legal_plays: _Optional[_Iterable[_Union[DachuPlay, _Mapping]]] = ..., table: _Optional[_Union[DachuPlay, _Mapping]] = ..., leader: _Optional[int] = ..., passed: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., places: _Optional[_Iterable[int]] = ..., tricks: _Optional[_Iterable[_Union[DachuTrick, _Mapping]]] = ..., over: _Optional[bool] = ..., decided: _Optional[bool] = ..., verdict: _Optional[_Union[DachuVerdict, str]] = ..., wipe_out: _Optional[bool] = ..., table_seat: _Optional[int] = ..., auto_lead: _Optional[int] = ..., shown_triples: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ..., timeouts: _Optional[_Iterable[_Union[DachuTimeoutResult, _Mapping]]] = ..., card_counts: _Optional[_Iterable[int]] = ..., suggestion: _Optional[_Union[_common_pb2.Suggestion, _Mapping]] = ...) -> None: ...

class DachuTimeoutResult(_message.Message):
    __slots__ = ("action", "became")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    BECAME_FIELD_NUMBER: _ClassVar[int]
    action: int
    became: _common_pb2.PlayAction
    def __init__(self, action: _Optional[int] = ..., became: _Optional[_Union[_common_pb2.PlayAction, _Mapping]] = ...) -> None: ...

class DachuGameState(_message.Message):
    __slots__ = ("phase", "deal", "calling", "play", "chu", "multiplier", "viewer", "offers")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALLING_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    OFFERS_FIELD_NUMBER: _ClassVar[int]
    phase: DachuPhase
    deal: DachuDealState
    calling: DachuCallingState
    play: DachuPlayState
    chu: DachuColour
    multiplier: int
    viewer: int
    offers: _containers.RepeatedCompositeFieldContainer[DachuOffer]
    def __init__(self, phase: _Optional[_Union[DachuPhase, str]] = ..., deal: _Optional[_Union[DachuDealState, _Mapping]] = ..., calling: _Optional[_Union[DachuCallingState, _Mapping]] = ..., play: _Optional[_Union[DachuPlayState, _Mapping]] = ..., chu: _Optional[_Union[DachuColour, str]] = ..., multiplier: _Optional[int] = ..., viewer: _Optional[int] = ..., offers: _Optional[_Iterable[_Union[DachuOffer, _Mapping]]] = ...) -> None: ...

class DachuOffer(_message.Message):
    __slots__ = ("seat", "acting", "deal_action", "call", "play")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTING_FIELD_NUMBER: _ClassVar[int]
    DEAL_ACTION_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    acting: _common_pb2.Acting
    deal_action: DachuDealAction
    call: DachuCall
    play: _common_pb2.PlayAction
    def __init__(self, seat: _Optional[int] = ..., acting: _Optional[_Union[_common_pb2.Acting, str]] = ..., deal_action: _Optional[_Union[DachuDealAction, _Mapping]] = ..., call: _Optional[_Union[DachuCall, _Mapping]] = ..., play: _Optional[_Union[_common_pb2.PlayAction, _Mapping]] = ...) -> None: ...

class DachuEvaluateItem(_message.Message):
    __slots__ = ("play", "legal_plays", "timeout_play", "deal", "calling", "game")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_PLAY_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALLING_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    play: DachuClassifyQuery
    legal_plays: DachuLegalPlaysQuery
    timeout_play: DachuTimeoutPlayQuery
    deal: DachuDealQuery
    calling: DachuCallingQuery
    game: DachuGameRecord
    def __init__(self, play: _Optional[_Union[DachuClassifyQuery, _Mapping]] = ..., legal_plays: _Optional[_Union[DachuLegalPlaysQuery, _Mapping]] = ..., timeout_play: _Optional[_Union[DachuTimeoutPlayQuery, _Mapping]] = ..., deal: _Optional[_Union[DachuDealQuery, _Mapping]] = ..., calling: _Optional[_Union[DachuCallingQuery, _Mapping]] = ..., game: _Optional[_Union[DachuGameRecord, _Mapping]] = ...) -> None: ...

class DachuEvaluateRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    items: _containers.RepeatedCompositeFieldContainer[DachuEvaluateItem]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[DachuEvaluateItem, _Mapping]]] = ...) -> None: ...

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
    cards: _common_pb2.Cards
    def __init__(self, passes: _Optional[bool] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class DachuEvaluateResult(_message.Message):
    __slots__ = ("error", "play", "legal_plays", "timeout_play", "deal", "calling", "game")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_PLAY_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALLING_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    play: DachuPlay
    legal_plays: DachuPlays
    timeout_play: DachuTimeoutPlay
    deal: DachuDealState
    calling: DachuCallingState
    game: DachuGameState
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., play: _Optional[_Union[DachuPlay, _Mapping]] = ..., legal_plays: _Optional[_Union[DachuPlays, _Mapping]] = ..., timeout_play: _Optional[_Union[DachuTimeoutPlay, _Mapping]] = ..., deal: _Optional[_Union[DachuDealState, _Mapping]] = ..., calling: _Optional[_Union[DachuCallingState, _Mapping]] = ..., game: _Optional[_Union[DachuGameState, _Mapping]] = ...) -> None: ...

class DachuEvaluateResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[DachuEvaluateResult]
    def __init__(self, results: _Optional[_Iterable[_Union[DachuEvaluateResult, _Mapping]]] = ...) -> None: ...

class DachuCompareItem(_message.Message):
    __slots__ = ("play", "table", "chu")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    CHU_FIELD_NUMBER: _ClassVar[int]
    play: _common_pb2.Cards
    table: _common_pb2.Cards
    chu: DachuColour
    def __init__(self, play: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., table: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., chu: _Optional[_Union[DachuColour, str]] = ...) -> None: ...

class DachuCompareRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    items: _containers.RepeatedCompositeFieldContainer[DachuCompareItem]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[DachuCompareItem, _Mapping]]] = ...) -> None: ...

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

class DachuOutcome(_message.Message):
    __slots__ = ("calling", "chu_side", "multiplier", "surrendered", "bei_bao_da", "places")
    CALLING_FIELD_NUMBER: _ClassVar[int]
    CHU_SIDE_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    SURRENDERED_FIELD_NUMBER: _ClassVar[int]
    BEI_BAO_DA_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    calling: DachuCallingQuery
    chu_side: _containers.RepeatedScalarFieldContainer[int]
    multiplier: int
    surrendered: _containers.RepeatedScalarFieldContainer[int]
    bei_bao_da: _containers.RepeatedScalarFieldContainer[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, calling: _Optional[_Union[DachuCallingQuery, _Mapping]] = ..., chu_side: _Optional[_Iterable[int]] = ..., multiplier: _Optional[int] = ..., surrendered: _Optional[_Iterable[int]] = ..., bei_bao_da: _Optional[_Iterable[int]] = ..., places: _Optional[_Iterable[int]] = ...) -> None: ...

class DachuDeal(_message.Message):
    __slots__ = ("outcome", "record", "base", "carried", "escaped")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    ESCAPED_FIELD_NUMBER: _ClassVar[int]
    outcome: DachuOutcome
    record: DachuGameRecord
    base: int
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    escaped: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, outcome: _Optional[_Union[DachuOutcome, _Mapping]] = ..., record: _Optional[_Union[DachuGameRecord, _Mapping]] = ..., base: _Optional[int] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ..., escaped: _Optional[_Iterable[int]] = ...) -> None: ...

class DachuSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    deals: _containers.RepeatedCompositeFieldContainer[DachuDeal]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[DachuDeal, _Mapping]]] = ...) -> None: ...

class DachuLine(_message.Message):
    __slots__ = ("kind", "seat", "other", "amount", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: DachuLineKind
    seat: int
    other: int
    amount: int
    text: str
    def __init__(self, kind: _Optional[_Union[DachuLineKind, str]] = ..., seat: _Optional[int] = ..., other: _Optional[int] = ..., amount: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

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
    verdict: DachuVerdict
    wipe_out: bool
    result_multiplier: int
    theoretical: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., lines: _Optional[_Iterable[_Union[DachuLine, _Mapping]]] = ..., verdict: _Optional[_Union[DachuVerdict, str]] = ..., wipe_out: _Optional[bool] = ..., result_multiplier: _Optional[int] = ..., theoretical: _Optional[_Iterable[int]] = ...) -> None: ...

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

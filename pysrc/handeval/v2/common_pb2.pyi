from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_CARD: _ClassVar[ErrorReason]
    ERROR_REASON_DUPLICATE_CARD: _ClassVar[ErrorReason]
    ERROR_REASON_WRONG_COUNT: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_A_PLAY: _ClassVar[ErrorReason]
    ERROR_REASON_DOES_NOT_BEAT: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_YOUR_TURN: _ClassVar[ErrorReason]
    ERROR_REASON_CARD_NOT_IN_HAND: _ClassVar[ErrorReason]
    ERROR_REASON_ILLEGAL_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_OVER: _ClassVar[ErrorReason]
    ERROR_REASON_BAD_RULE: _ClassVar[ErrorReason]
    ERROR_REASON_OUT_OF_RANGE: _ClassVar[ErrorReason]
    ERROR_REASON_FOUL: _ClassVar[ErrorReason]
    ERROR_REASON_TOO_LARGE: _ClassVar[ErrorReason]
    ERROR_REASON_INCONSISTENT: _ClassVar[ErrorReason]

class Acting(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTING_UNSPECIFIED: _ClassVar[Acting]
    ACTING_TURN: _ClassVar[Acting]
    ACTING_MAY_ACT: _ClassVar[Acting]

class ActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_KIND_UNSPECIFIED: _ClassVar[ActionKind]
    ACTION_KIND_PLAY: _ClassVar[ActionKind]
    ACTION_KIND_PASS: _ClassVar[ActionKind]
    ACTION_KIND_TIMEOUT: _ClassVar[ActionKind]
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_INVALID: ErrorReason
ERROR_REASON_BAD_CARD: ErrorReason
ERROR_REASON_DUPLICATE_CARD: ErrorReason
ERROR_REASON_WRONG_COUNT: ErrorReason
ERROR_REASON_NOT_A_PLAY: ErrorReason
ERROR_REASON_DOES_NOT_BEAT: ErrorReason
ERROR_REASON_NOT_YOUR_TURN: ErrorReason
ERROR_REASON_CARD_NOT_IN_HAND: ErrorReason
ERROR_REASON_ILLEGAL_ACTION: ErrorReason
ERROR_REASON_GAME_OVER: ErrorReason
ERROR_REASON_BAD_RULE: ErrorReason
ERROR_REASON_OUT_OF_RANGE: ErrorReason
ERROR_REASON_FOUL: ErrorReason
ERROR_REASON_TOO_LARGE: ErrorReason
ERROR_REASON_INCONSISTENT: ErrorReason
ACTING_UNSPECIFIED: Acting
ACTING_TURN: Acting
ACTING_MAY_ACT: Acting
ACTION_KIND_UNSPECIFIED: ActionKind
ACTION_KIND_PLAY: ActionKind
ACTION_KIND_PASS: ActionKind
ACTION_KIND_TIMEOUT: ActionKind

class ItemError(_message.Message):
    __slots__ = ("field", "reason", "message", "action_index")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    field: str
    reason: ErrorReason
    message: str
    action_index: int
    def __init__(self, field: _Optional[str] = ..., reason: _Optional[_Union[ErrorReason, str]] = ..., message: _Optional[str] = ..., action_index: _Optional[int] = ...) -> None: ...

class Cards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Carried(_message.Message):
    __slots__ = ("amount",)
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    amount: int
    def __init__(self, amount: _Optional[int] = ...) -> None: ...

class IntRow(_message.Message):
    __slots__ = ("values",)
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, values: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayAction(_message.Message):
    __slots__ = ("seat", "kind", "cards", "columns")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: ActionKind
    cards: Cards
    columns: _containers.RepeatedCompositeFieldContainer[Cards]
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[ActionKind, str]] = ..., cards: _Optional[_Union[Cards, _Mapping]] = ..., columns: _Optional[_Iterable[_Union[Cards, _Mapping]]] = ...) -> None: ...

class Transfer(_message.Message):
    __slots__ = ("from_seat", "to_seat", "amount")
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    to_seat: int
    amount: int
    def __init__(self, from_seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class SuggestQuery(_message.Message):
    __slots__ = ("seed", "effort")
    SEED_FIELD_NUMBER: _ClassVar[int]
    EFFORT_FIELD_NUMBER: _ClassVar[int]
    seed: int
    effort: int
    def __init__(self, seed: _Optional[int] = ..., effort: _Optional[int] = ...) -> None: ...

class Suggestion(_message.Message):
    __slots__ = ("action", "alternatives")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ALTERNATIVES_FIELD_NUMBER: _ClassVar[int]
    action: PlayAction
    alternatives: _containers.RepeatedCompositeFieldContainer[SuggestionAlternative]
    def __init__(self, action: _Optional[_Union[PlayAction, _Mapping]] = ..., alternatives: _Optional[_Iterable[_Union[SuggestionAlternative, _Mapping]]] = ...) -> None: ...

class SuggestionAlternative(_message.Message):
    __slots__ = ("action", "score")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    action: PlayAction
    score: float
    def __init__(self, action: _Optional[_Union[PlayAction, _Mapping]] = ..., score: _Optional[float] = ...) -> None: ...

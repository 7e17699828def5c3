from google.protobuf import struct_pb2 as _struct_pb2
from handeval.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DachuRules(_message.Message):
    __slots__ = ("cheng_chu_alone", "escape_shared_by_all")
    CHENG_CHU_ALONE_FIELD_NUMBER: _ClassVar[int]
    ESCAPE_SHARED_BY_ALL_FIELD_NUMBER: _ClassVar[int]
    cheng_chu_alone: bool
    escape_shared_by_all: bool
    def __init__(self, cheng_chu_alone: _Optional[bool] = ..., escape_shared_by_all: _Optional[bool] = ...) -> None: ...

class DachuPlay(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class DachuLegalPlaysQuery(_message.Message):
    __slots__ = ("hand", "table")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    hand: str
    table: str
    def __init__(self, hand: _Optional[str] = ..., table: _Optional[str] = ...) -> None: ...

class DachuEvaluateItem(_message.Message):
    __slots__ = ("play", "legal_plays")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    play: str
    legal_plays: DachuLegalPlaysQuery
    def __init__(self, play: _Optional[str] = ..., legal_plays: _Optional[_Union[DachuLegalPlaysQuery, _Mapping]] = ...) -> None: ...

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

class DachuEvaluateResult(_message.Message):
    __slots__ = ("error", "play", "legal_plays")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    play: DachuPlay
    legal_plays: DachuPlays
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., play: _Optional[_Union[DachuPlay, _Mapping]] = ..., legal_plays: _Optional[_Union[DachuPlays, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("args",)
    ARGS_FIELD_NUMBER: _ClassVar[int]
    args: _struct_pb2.Struct
    def __init__(self, args: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class DachuSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: DachuRules
    deals: _containers.RepeatedCompositeFieldContainer[DachuDeal]
    def __init__(self, rules: _Optional[_Union[DachuRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[DachuDeal, _Mapping]]] = ...) -> None: ...

class DachuSettlement(_message.Message):
    __slots__ = ("deltas", "rake", "lines", "detail")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    rake: int
    lines: _containers.RepeatedCompositeFieldContainer[_struct_pb2.Struct]
    detail: _struct_pb2.Struct
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., rake: _Optional[int] = ..., lines: _Optional[_Iterable[_Union[_struct_pb2.Struct, _Mapping]]] = ..., detail: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

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

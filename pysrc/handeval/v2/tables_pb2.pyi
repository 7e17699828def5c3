from handeval.v2 import common_pb2 as _common_pb2
from handeval.v2 import dachu_pb2 as _dachu_pb2
from handeval.v2 import tienlen_pb2 as _tienlen_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TableClosedReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TABLE_CLOSED_REASON_UNSPECIFIED: _ClassVar[TableClosedReason]
    TABLE_CLOSED_REASON_CLOSED: _ClassVar[TableClosedReason]
    TABLE_CLOSED_REASON_IDLE: _ClassVar[TableClosedReason]
    TABLE_CLOSED_REASON_NOT_OPEN: _ClassVar[TableClosedReason]
TABLE_CLOSED_REASON_UNSPECIFIED: TableClosedReason
TABLE_CLOSED_REASON_CLOSED: TableClosedReason
TABLE_CLOSED_REASON_IDLE: TableClosedReason
TABLE_CLOSED_REASON_NOT_OPEN: TableClosedReason

class TablesRequest(_message.Message):
    __slots__ = ("table", "start", "action", "look", "settle", "close", "viewer", "suggest")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    LOOK_FIELD_NUMBER: _ClassVar[int]
    SETTLE_FIELD_NUMBER: _ClassVar[int]
    CLOSE_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    SUGGEST_FIELD_NUMBER: _ClassVar[int]
    table: str
    start: TableStart
    action: TableAction
    look: TableLook
    settle: TableSettle
    close: TableClose
    viewer: int
    suggest: _common_pb2.SuggestQuery
    def __init__(self, table: _Optional[str] = ..., start: _Optional[_Union[TableStart, _Mapping]] = ..., action: _Optional[_Union[TableAction, _Mapping]] = ..., look: _Optional[_Union[TableLook, _Mapping]] = ..., settle: _Optional[_Union[TableSettle, _Mapping]] = ..., close: _Optional[_Union[TableClose, _Mapping]] = ..., viewer: _Optional[int] = ..., suggest: _Optional[_Union[_common_pb2.SuggestQuery, _Mapping]] = ...) -> None: ...

class TableStart(_message.Message):
    __slots__ = ("tienlen", "dachu")
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    tienlen: TienlenTable
    dachu: DachuTable
    def __init__(self, tienlen: _Optional[_Union[TienlenTable, _Mapping]] = ..., dachu: _Optional[_Union[DachuTable, _Mapping]] = ...) -> None: ...

class TienlenTable(_message.Message):
    __slots__ = ("rules", "record")
    RULES_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    rules: _tienlen_pb2.TienlenRules
    record: _tienlen_pb2.TienlenGameRecord
    def __init__(self, rules: _Optional[_Union[_tienlen_pb2.TienlenRules, _Mapping]] = ..., record: _Optional[_Union[_tienlen_pb2.TienlenGameRecord, _Mapping]] = ...) -> None: ...

class DachuTable(_message.Message):
    __slots__ = ("rules", "record")
    RULES_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    rules: _dachu_pb2.DachuRules
    record: _dachu_pb2.DachuGameRecord
    def __init__(self, rules: _Optional[_Union[_dachu_pb2.DachuRules, _Mapping]] = ..., record: _Optional[_Union[_dachu_pb2.DachuGameRecord, _Mapping]] = ...) -> None: ...

class TableAction(_message.Message):
    __slots__ = ("at", "play", "deal", "call")
    AT_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    at: int
    play: _common_pb2.PlayAction
    deal: _dachu_pb2.DachuDealAction
    call: _dachu_pb2.DachuCall
    def __init__(self, at: _Optional[int] = ..., play: _Optional[_Union[_common_pb2.PlayAction, _Mapping]] = ..., deal: _Optional[_Union[_dachu_pb2.DachuDealAction, _Mapping]] = ..., call: _Optional[_Union[_dachu_pb2.DachuCall, _Mapping]] = ...) -> None: ...

class TableLook(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TableSettle(_message.Message):
    __slots__ = ("base", "carried", "escaped")
    BASE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    ESCAPED_FIELD_NUMBER: _ClassVar[int]
    base: int
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    escaped: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, base: _Optional[int] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ..., escaped: _Optional[_Iterable[int]] = ...) -> None: ...

class TableClose(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TablesResponse(_message.Message):
    __slots__ = ("table", "actions", "tienlen", "dachu", "tienlen_settlement", "dachu_settlement", "error", "closed")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    DACHU_SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    table: str
    actions: int
    tienlen: _tienlen_pb2.TienlenGameState
    dachu: _dachu_pb2.DachuGameState
    tienlen_settlement: _tienlen_pb2.TienlenSettlement
    dachu_settlement: _dachu_pb2.DachuSettlement
    error: _common_pb2.ItemError
    closed: TableClosed
    def __init__(self, table: _Optional[str] = ..., actions: _Optional[int] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenGameState, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuGameState, _Mapping]] = ..., tienlen_settlement: _Optional[_Union[_tienlen_pb2.TienlenSettlement, _Mapping]] = ..., dachu_settlement: _Optional[_Union[_dachu_pb2.DachuSettlement, _Mapping]] = ..., error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., closed: _Optional[_Union[TableClosed, _Mapping]] = ...) -> None: ...

class TableClosed(_message.Message):
    __slots__ = ("reason", "message")
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    reason: TableClosedReason
    message: str
    def __init__(self, reason: _Optional[_Union[TableClosedReason, str]] = ..., message: _Optional[str] = ...) -> None: ...

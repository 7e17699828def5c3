from handeval.v2 import shisanshui_pb2 as _shisanshui_pb2
from handeval.v2 import tienlen_pb2 as _tienlen_pb2
from handeval.v2 import dachu_pb2 as _dachu_pb2
from handeval.v2 import tables_pb2 as _tables_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EvaluateRequest(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiEvaluateRequest
    tienlen: _tienlen_pb2.TienlenEvaluateRequest
    dachu: _dachu_pb2.DachuEvaluateRequest
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiEvaluateRequest, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenEvaluateRequest, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuEvaluateRequest, _Mapping]] = ...) -> None: ...

class EvaluateResponse(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiEvaluateResponse
    tienlen: _tienlen_pb2.TienlenEvaluateResponse
    dachu: _dachu_pb2.DachuEvaluateResponse
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiEvaluateResponse, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenEvaluateResponse, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuEvaluateResponse, _Mapping]] = ...) -> None: ...

class CompareRequest(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiCompareRequest
    tienlen: _tienlen_pb2.TienlenCompareRequest
    dachu: _dachu_pb2.DachuCompareRequest
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiCompareRequest, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenCompareRequest, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuCompareRequest, _Mapping]] = ...) -> None: ...

class CompareResponse(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiCompareResponse
    tienlen: _tienlen_pb2.TienlenCompareResponse
    dachu: _dachu_pb2.DachuCompareResponse
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiCompareResponse, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenCompareResponse, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuCompareResponse, _Mapping]] = ...) -> None: ...

class SettleRequest(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiSettleRequest
    tienlen: _tienlen_pb2.TienlenSettleRequest
    dachu: _dachu_pb2.DachuSettleRequest
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiSettleRequest, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenSettleRequest, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuSettleRequest, _Mapping]] = ...) -> None: ...

class SettleResponse(_message.Message):
    __slots__ = ("shisanshui", "tienlen", "dachu")
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    TIENLEN_FIELD_NUMBER: _ClassVar[int]
    DACHU_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiSettleResponse
    tienlen: _tienlen_pb2.TienlenSettleResponse
    dachu: _dachu_pb2.DachuSettleResponse
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiSettleResponse, _Mapping]] = ..., tienlen: _Optional[_Union[_tienlen_pb2.TienlenSettleResponse, _Mapping]] = ..., dachu: _Optional[_Union[_dachu_pb2.DachuSettleResponse, _Mapping]] = ...) -> None: ...

class ArrangeRequest(_message.Message):
    __slots__ = ("shisanshui",)
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiArrangeRequest
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiArrangeRequest, _Mapping]] = ...) -> None: ...

class ArrangeResponse(_message.Message):
    __slots__ = ("shisanshui",)
    SHISANSHUI_FIELD_NUMBER: _ClassVar[int]
    shisanshui: _shisanshui_pb2.ShisanshuiArrangeResponse
    def __init__(self, shisanshui: _Optional[_Union[_shisanshui_pb2.ShisanshuiArrangeResponse, _Mapping]] = ...) -> None: ...

from handeval.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TienlenRules(_message.Message):
    __slots__ = ("first_lead_must_contain_lowest", "rake_percent", "unplayed_loser_adds_multipliers")
    FIRST_LEAD_MUST_CONTAIN_LOWEST_FIELD_NUMBER: _ClassVar[int]
    RAKE_PERCENT_FIELD_NUMBER: _ClassVar[int]
    UNPLAYED_LOSER_ADDS_MULTIPLIERS_FIELD_NUMBER: _ClassVar[int]
    first_lead_must_contain_lowest: bool
    rake_percent: int
    unplayed_loser_adds_multipliers: bool
    def __init__(self, first_lead_must_contain_lowest: _Optional[bool] = ..., rake_percent: _Optional[int] = ..., unplayed_loser_adds_multipliers: _Optional[bool] = ...) -> None: ...

class TienlenPlay(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TienlenLegalPlaysQuery(_message.Message):
    __slots__ = ("hand", "table", "passed")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    hand: str
    table: str
    passed: bool
    def __init__(self, hand: _Optional[str] = ..., table: _Optional[str] = ..., passed: _Optional[bool] = ...) -> None: ...

class TienlenFirstLeaderQuery(_message.Message):
    __slots__ = ("hands",)
    HANDS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hands: _Optional[_Iterable[str]] = ...) -> None: ...

class TienlenRoundQuery(_message.Message):
    __slots__ = ("turns", "players", "leader", "hands", "check", "base")
    TURNS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[TienlenTurn]
    players: int
    leader: int
    hands: _containers.RepeatedScalarFieldContainer[str]
    check: TienlenTurn
    base: int
    def __init__(self, turns: _Optional[_Iterable[_Union[TienlenTurn, _Mapping]]] = ..., players: _Optional[int] = ..., leader: _Optional[int] = ..., hands: _Optional[_Iterable[str]] = ..., check: _Optional[_Union[TienlenTurn, _Mapping]] = ..., base: _Optional[int] = ...) -> None: ...

class TienlenEvaluateItem(_message.Message):
    __slots__ = ("play", "hand", "legal_plays", "first_leader", "round_state")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEADER_FIELD_NUMBER: _ClassVar[int]
    ROUND_STATE_FIELD_NUMBER: _ClassVar[int]
    play: str
    hand: str
    legal_plays: TienlenLegalPlaysQuery
    first_leader: TienlenFirstLeaderQuery
    round_state: TienlenRoundQuery
    def __init__(self, play: _Optional[str] = ..., hand: _Optional[str] = ..., legal_plays: _Optional[_Union[TienlenLegalPlaysQuery, _Mapping]] = ..., first_leader: _Optional[_Union[TienlenFirstLeaderQuery, _Mapping]] = ..., round_state: _Optional[_Union[TienlenRoundQuery, _Mapping]] = ...) -> None: ...

class TienlenEvaluateRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: TienlenRules
    items: _containers.RepeatedCompositeFieldContainer[TienlenEvaluateItem]
    def __init__(self, rules: _Optional[_Union[TienlenRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[TienlenEvaluateItem, _Mapping]]] = ...) -> None: ...

class TienlenInstantWin(_message.Message):
    __slots__ = ("instant_win",)
    INSTANT_WIN_FIELD_NUMBER: _ClassVar[int]
    instant_win: str
    def __init__(self, instant_win: _Optional[str] = ...) -> None: ...

class TienlenPlays(_message.Message):
    __slots__ = ("plays",)
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[TienlenPlay]
    def __init__(self, plays: _Optional[_Iterable[_Union[TienlenPlay, _Mapping]]] = ...) -> None: ...

class TienlenFirstLead(_message.Message):
    __slots__ = ("seat", "card", "must_contain")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    MUST_CONTAIN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    must_contain: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., must_contain: _Optional[bool] = ...) -> None: ...

class TienlenSeatPlay(_message.Message):
    __slots__ = ("seat", "play")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    play: TienlenPlay
    def __init__(self, seat: _Optional[int] = ..., play: _Optional[_Union[TienlenPlay, _Mapping]] = ...) -> None: ...

class TienlenCheck(_message.Message):
    __slots__ = ("allowed", "reason")
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    allowed: bool
    reason: str
    def __init__(self, allowed: _Optional[bool] = ..., reason: _Optional[str] = ...) -> None: ...

class TienlenRoundState(_message.Message):
    __slots__ = ("plays", "passed", "to_move", "over", "next_leader", "leader", "transfers", "check")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEADER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[TienlenSeatPlay]
    passed: _containers.RepeatedScalarFieldContainer[int]
    to_move: int
    over: bool
    next_leader: int
    leader: int
    transfers: _containers.RepeatedCompositeFieldContainer[TienlenTransfer]
    check: TienlenCheck
    def __init__(self, plays: _Optional[_Iterable[_Union[TienlenSeatPlay, _Mapping]]] = ..., passed: _Optional[_Iterable[int]] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., next_leader: _Optional[int] = ..., leader: _Optional[int] = ..., transfers: _Optional[_Iterable[_Union[TienlenTransfer, _Mapping]]] = ..., check: _Optional[_Union[TienlenCheck, _Mapping]] = ...) -> None: ...

class TienlenEvaluateResult(_message.Message):
    __slots__ = ("error", "play", "hand", "legal_plays", "first_leader", "round_state")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEADER_FIELD_NUMBER: _ClassVar[int]
    ROUND_STATE_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    play: TienlenPlay
    hand: TienlenInstantWin
    legal_plays: TienlenPlays
    first_leader: TienlenFirstLead
    round_state: TienlenRoundState
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., play: _Optional[_Union[TienlenPlay, _Mapping]] = ..., hand: _Optional[_Union[TienlenInstantWin, _Mapping]] = ..., legal_plays: _Optional[_Union[TienlenPlays, _Mapping]] = ..., first_leader: _Optional[_Union[TienlenFirstLead, _Mapping]] = ..., round_state: _Optional[_Union[TienlenRoundState, _Mapping]] = ...) -> None: ...

class TienlenEvaluateResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TienlenEvaluateResult]
    def __init__(self, results: _Optional[_Iterable[_Union[TienlenEvaluateResult, _Mapping]]] = ...) -> None: ...

class TienlenCompareItem(_message.Message):
    __slots__ = ("play", "table")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    play: str
    table: str
    def __init__(self, play: _Optional[str] = ..., table: _Optional[str] = ...) -> None: ...

class TienlenCompareRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: TienlenRules
    items: _containers.RepeatedCompositeFieldContainer[TienlenCompareItem]
    def __init__(self, rules: _Optional[_Union[TienlenRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[TienlenCompareItem, _Mapping]]] = ...) -> None: ...

class TienlenCompareResult(_message.Message):
    __slots__ = ("error", "beats")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    BEATS_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    beats: bool
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., beats: _Optional[bool] = ...) -> None: ...

class TienlenCompareResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TienlenCompareResult]
    def __init__(self, results: _Optional[_Iterable[_Union[TienlenCompareResult, _Mapping]]] = ...) -> None: ...

class TienlenTurn(_message.Message):
    __slots__ = ("seat", "play")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    play: str
    def __init__(self, seat: _Optional[int] = ..., play: _Optional[str] = ...) -> None: ...

class TienlenRound(_message.Message):
    __slots__ = ("turns",)
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[TienlenTurn]
    def __init__(self, turns: _Optional[_Iterable[_Union[TienlenTurn, _Mapping]]] = ...) -> None: ...

class TienlenGame(_message.Message):
    __slots__ = ("remaining", "winner", "played_any", "chops")
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PLAYED_ANY_FIELD_NUMBER: _ClassVar[int]
    CHOPS_FIELD_NUMBER: _ClassVar[int]
    remaining: _containers.RepeatedScalarFieldContainer[str]
    winner: int
    played_any: _containers.RepeatedScalarFieldContainer[bool]
    chops: _containers.RepeatedCompositeFieldContainer[TienlenRound]
    def __init__(self, remaining: _Optional[_Iterable[str]] = ..., winner: _Optional[int] = ..., played_any: _Optional[_Iterable[bool]] = ..., chops: _Optional[_Iterable[_Union[TienlenRound, _Mapping]]] = ...) -> None: ...

class TienlenInstantDeal(_message.Message):
    __slots__ = ("hands",)
    HANDS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, hands: _Optional[_Iterable[str]] = ...) -> None: ...

class TienlenDeal(_message.Message):
    __slots__ = ("game", "instant", "chop_round", "base", "carried")
    GAME_FIELD_NUMBER: _ClassVar[int]
    INSTANT_FIELD_NUMBER: _ClassVar[int]
    CHOP_ROUND_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    game: TienlenGame
    instant: TienlenInstantDeal
    chop_round: TienlenRound
    base: int
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    def __init__(self, game: _Optional[_Union[TienlenGame, _Mapping]] = ..., instant: _Optional[_Union[TienlenInstantDeal, _Mapping]] = ..., chop_round: _Optional[_Union[TienlenRound, _Mapping]] = ..., base: _Optional[int] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ...) -> None: ...

class TienlenSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: TienlenRules
    deals: _containers.RepeatedCompositeFieldContainer[TienlenDeal]
    def __init__(self, rules: _Optional[_Union[TienlenRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[TienlenDeal, _Mapping]]] = ...) -> None: ...

class TienlenTransfer(_message.Message):
    __slots__ = ("from_seat", "to_seat", "amount")
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    to_seat: int
    amount: int
    def __init__(self, from_seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class TienlenLine(_message.Message):
    __slots__ = ("kind", "seat", "other", "multiplier", "amount", "cards", "text")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    other: int
    multiplier: int
    amount: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    text: str
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., other: _Optional[int] = ..., multiplier: _Optional[int] = ..., amount: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., text: _Optional[str] = ...) -> None: ...

class TienlenSettlement(_message.Message):
    __slots__ = ("deltas", "rake", "transfers", "lines", "winner", "pays", "chops", "theoretical", "capped", "instant")
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    RAKE_FIELD_NUMBER: _ClassVar[int]
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PAYS_FIELD_NUMBER: _ClassVar[int]
    CHOPS_FIELD_NUMBER: _ClassVar[int]
    THEORETICAL_FIELD_NUMBER: _ClassVar[int]
    CAPPED_FIELD_NUMBER: _ClassVar[int]
    INSTANT_FIELD_NUMBER: _ClassVar[int]
    deltas: _containers.RepeatedScalarFieldContainer[int]
    rake: int
    transfers: _containers.RepeatedCompositeFieldContainer[TienlenTransfer]
    lines: _containers.RepeatedCompositeFieldContainer[TienlenLine]
    winner: int
    pays: _containers.RepeatedScalarFieldContainer[int]
    chops: _containers.RepeatedScalarFieldContainer[int]
    theoretical: _containers.RepeatedScalarFieldContainer[int]
    capped: _containers.RepeatedScalarFieldContainer[int]
    instant: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., rake: _Optional[int] = ..., transfers: _Optional[_Iterable[_Union[TienlenTransfer, _Mapping]]] = ..., lines: _Optional[_Iterable[_Union[TienlenLine, _Mapping]]] = ..., winner: _Optional[int] = ..., pays: _Optional[_Iterable[int]] = ..., chops: _Optional[_Iterable[int]] = ..., theoretical: _Optional[_Iterable[int]] = ..., capped: _Optional[_Iterable[int]] = ..., instant: _Optional[_Iterable[str]] = ...) -> None: ...

class TienlenSettleResult(_message.Message):
    __slots__ = ("error", "settlement")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    settlement: TienlenSettlement
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., settlement: _Optional[_Union[TienlenSettlement, _Mapping]] = ...) -> None: ...

class TienlenSettleResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TienlenSettleResult]
    def __init__(self, results: _Optional[_Iterable[_Union[TienlenSettleResult, _Mapping]]] = ...) -> None: ...

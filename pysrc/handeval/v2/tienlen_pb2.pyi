from handeval.v2 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TienlenTurnAfterChop(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIENLEN_TURN_AFTER_CHOP_UNSPECIFIED: _ClassVar[TienlenTurnAfterChop]
    TIENLEN_TURN_AFTER_CHOP_FROM_CHOPPER: _ClassVar[TienlenTurnAfterChop]
    TIENLEN_TURN_AFTER_CHOP_RESUME: _ClassVar[TienlenTurnAfterChop]

class TienlenChopWindow(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIENLEN_CHOP_WINDOW_UNSPECIFIED: _ClassVar[TienlenChopWindow]
    TIENLEN_CHOP_WINDOW_FIRST_ACTOR: _ClassVar[TienlenChopWindow]
    TIENLEN_CHOP_WINDOW_STRICT: _ClassVar[TienlenChopWindow]
    TIENLEN_CHOP_WINDOW_OWN_PASS: _ClassVar[TienlenChopWindow]
    TIENLEN_CHOP_WINDOW_OPEN: _ClassVar[TienlenChopWindow]

class TienlenPlayKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIENLEN_PLAY_KIND_UNSPECIFIED: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_SINGLE: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_PAIR: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_TRIPLE: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_STRAIGHT: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_THREE_PAIR_RUN: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_BOMB: _ClassVar[TienlenPlayKind]
    TIENLEN_PLAY_KIND_FOUR_PAIR_RUN: _ClassVar[TienlenPlayKind]

class TienlenInstantWinKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIENLEN_INSTANT_WIN_KIND_UNSPECIFIED: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_FOUR_TWOS: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_SIX_PAIRS: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_FOUR_TRIPLES: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_FIVE_PAIR_RUN: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_SIX_PAIR_RUN: _ClassVar[TienlenInstantWinKind]
    TIENLEN_INSTANT_WIN_KIND_DRAGON: _ClassVar[TienlenInstantWinKind]

class TienlenLineKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIENLEN_LINE_KIND_UNSPECIFIED: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_CARDS: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_NO_CARD: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_INSTANT_WIN: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_RED_TWO: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_BLACK_TWO: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_BOMB: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_THREE_PAIR_RUN: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_FOUR_PAIR_RUN: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_WIN: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_CHOP: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_CAP: _ClassVar[TienlenLineKind]
    TIENLEN_LINE_KIND_RAKE: _ClassVar[TienlenLineKind]
TIENLEN_TURN_AFTER_CHOP_UNSPECIFIED: TienlenTurnAfterChop
TIENLEN_TURN_AFTER_CHOP_FROM_CHOPPER: TienlenTurnAfterChop
TIENLEN_TURN_AFTER_CHOP_RESUME: TienlenTurnAfterChop
TIENLEN_CHOP_WINDOW_UNSPECIFIED: TienlenChopWindow
TIENLEN_CHOP_WINDOW_FIRST_ACTOR: TienlenChopWindow
TIENLEN_CHOP_WINDOW_STRICT: TienlenChopWindow
TIENLEN_CHOP_WINDOW_OWN_PASS: TienlenChopWindow
TIENLEN_CHOP_WINDOW_OPEN: TienlenChopWindow
TIENLEN_PLAY_KIND_UNSPECIFIED: TienlenPlayKind
TIENLEN_PLAY_KIND_SINGLE: TienlenPlayKind
TIENLEN_PLAY_KIND_PAIR: TienlenPlayKind
TIENLEN_PLAY_KIND_TRIPLE: TienlenPlayKind
TIENLEN_PLAY_KIND_STRAIGHT: TienlenPlayKind
TIENLEN_PLAY_KIND_THREE_PAIR_RUN: TienlenPlayKind
TIENLEN_PLAY_KIND_BOMB: TienlenPlayKind
TIENLEN_PLAY_KIND_FOUR_PAIR_RUN: TienlenPlayKind
TIENLEN_INSTANT_WIN_KIND_UNSPECIFIED: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_FOUR_TWOS: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_SIX_PAIRS: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_FOUR_TRIPLES: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_FIVE_PAIR_RUN: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_SIX_PAIR_RUN: TienlenInstantWinKind
TIENLEN_INSTANT_WIN_KIND_DRAGON: TienlenInstantWinKind
TIENLEN_LINE_KIND_UNSPECIFIED: TienlenLineKind
TIENLEN_LINE_KIND_CARDS: TienlenLineKind
TIENLEN_LINE_KIND_NO_CARD: TienlenLineKind
TIENLEN_LINE_KIND_INSTANT_WIN: TienlenLineKind
TIENLEN_LINE_KIND_RED_TWO: TienlenLineKind
TIENLEN_LINE_KIND_BLACK_TWO: TienlenLineKind
TIENLEN_LINE_KIND_BOMB: TienlenLineKind
TIENLEN_LINE_KIND_THREE_PAIR_RUN: TienlenLineKind
TIENLEN_LINE_KIND_FOUR_PAIR_RUN: TienlenLineKind
TIENLEN_LINE_KIND_WIN: TienlenLineKind
TIENLEN_LINE_KIND_CHOP: TienlenLineKind
TIENLEN_LINE_KIND_CAP: TienlenLineKind
TIENLEN_LINE_KIND_RAKE: TienlenLineKind

class TienlenRules(_message.Message):
    __slots__ = ("first_lead_must_contain_lowest", "rake_percent", "unplayed_loser_adds_multipliers", "turn_after_chop", "chop_window")
    FIRST_LEAD_MUST_CONTAIN_LOWEST_FIELD_NUMBER: _ClassVar[int]
    RAKE_PERCENT_FIELD_NUMBER: _ClassVar[int]
    UNPLAYED_LOSER_ADDS_MULTIPLIERS_FIELD_NUMBER: _ClassVar[int]
    TURN_AFTER_CHOP_FIELD_NUMBER: _ClassVar[int]
    CHOP_WINDOW_FIELD_NUMBER: _ClassVar[int]
    first_lead_must_contain_lowest: bool
    rake_percent: int
    unplayed_loser_adds_multipliers: bool
    turn_after_chop: TienlenTurnAfterChop
    chop_window: TienlenChopWindow
    def __init__(self, first_lead_must_contain_lowest: _Optional[bool] = ..., rake_percent: _Optional[int] = ..., unplayed_loser_adds_multipliers: _Optional[bool] = ..., turn_after_chop: _Optional[_Union[TienlenTurnAfterChop, str]] = ..., chop_window: _Optional[_Union[TienlenChopWindow, str]] = ...) -> None: ...

class TienlenPlay(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: TienlenPlayKind
    cards: _common_pb2.Cards
    def __init__(self, kind: _Optional[_Union[TienlenPlayKind, str]] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

class TienlenLegalPlaysQuery(_message.Message):
    __slots__ = ("hand", "table", "passed")
    HAND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    hand: _common_pb2.Cards
    table: _common_pb2.Cards
    passed: bool
    def __init__(self, hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., table: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., passed: _Optional[bool] = ...) -> None: ...

class TienlenFirstLeaderQuery(_message.Message):
    __slots__ = ("hands",)
    HANDS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    def __init__(self, hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ...) -> None: ...

class TienlenRoundQuery(_message.Message):
    __slots__ = ("actions", "players", "leader", "hands", "check", "base")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    players: int
    leader: int
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    check: _common_pb2.PlayAction
    base: int
    def __init__(self, actions: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ..., players: _Optional[int] = ..., leader: _Optional[int] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., check: _Optional[_Union[_common_pb2.PlayAction, _Mapping]] = ..., base: _Optional[int] = ...) -> None: ...

class TienlenGameRecord(_message.Message):
    __slots__ = ("hands", "actions", "base", "viewer", "suggest")
    HANDS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    SUGGEST_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    base: int
    viewer: int
    suggest: _common_pb2.SuggestQuery
    def __init__(self, hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ..., base: _Optional[int] = ..., viewer: _Optional[int] = ..., suggest: _Optional[_Union[_common_pb2.SuggestQuery, _Mapping]] = ...) -> None: ...

class TienlenEvaluateItem(_message.Message):
    __slots__ = ("play", "hand", "legal_plays", "first_leader", "round_state", "game")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEADER_FIELD_NUMBER: _ClassVar[int]
    ROUND_STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    play: _common_pb2.Cards
    hand: _common_pb2.Cards
    legal_plays: TienlenLegalPlaysQuery
    first_leader: TienlenFirstLeaderQuery
    round_state: TienlenRoundQuery
    game: TienlenGameRecord
    def __init__(self, play: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., hand: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., legal_plays: _Optional[_Union[TienlenLegalPlaysQuery, _Mapping]] = ..., first_leader: _Optional[_Union[TienlenFirstLeaderQuery, _Mapping]] = ..., round_state: _Optional[_Union[TienlenRoundQuery, _Mapping]] = ..., game: _Optional[_Union[TienlenGameRecord, _Mapping]] = ...) -> None: ...

class TienlenEvaluateRequest(_message.Message):
    __slots__ = ("rules", "items")
    RULES_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    rules: TienlenRules
    items: _containers.RepeatedCompositeFieldContainer[TienlenEvaluateItem]
    def __init__(self, rules: _Optional[_Union[TienlenRules, _Mapping]] = ..., items: _Optional[_Iterable[_Union[TienlenEvaluateItem, _Mapping]]] = ...) -> None: ...

class TienlenInstantWin(_message.Message):
    __slots__ = ("kind", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: TienlenInstantWinKind
    cards: _common_pb2.Cards
    def __init__(self, kind: _Optional[_Union[TienlenInstantWinKind, str]] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("allowed", "reason", "message")
    ALLOWED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    allowed: bool
    reason: _common_pb2.ErrorReason
    message: str
    def __init__(self, allowed: _Optional[bool] = ..., reason: _Optional[_Union[_common_pb2.ErrorReason, str]] = ..., message: _Optional[str] = ...) -> None: ...

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
    transfers: _containers.RepeatedCompositeFieldContainer[_common_pb2.Transfer]
    check: TienlenCheck
    def __init__(self, plays: _Optional[_Iterable[_Union[TienlenSeatPlay, _Mapping]]] = ..., passed: _Optional[_Iterable[int]] = ..., to_move: _Optional[int] = ..., over: _Optional[bool] = ..., next_leader: _Optional[int] = ..., leader: _Optional[int] = ..., transfers: _Optional[_Iterable[_Union[_common_pb2.Transfer, _Mapping]]] = ..., check: _Optional[_Union[TienlenCheck, _Mapping]] = ...) -> None: ...

class TienlenOffer(_message.Message):
    __slots__ = ("seat", "may_pass", "plays", "actions", "acting")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MAY_PASS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ACTING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    may_pass: bool
    plays: _containers.RepeatedCompositeFieldContainer[TienlenPlay]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    acting: _common_pb2.Acting
    def __init__(self, seat: _Optional[int] = ..., may_pass: _Optional[bool] = ..., plays: _Optional[_Iterable[_Union[TienlenPlay, _Mapping]]] = ..., actions: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ..., acting: _Optional[_Union[_common_pb2.Acting, str]] = ...) -> None: ...

class TienlenTrick(_message.Message):
    __slots__ = ("leader", "first_action", "last_action", "over", "won_by", "transfers")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    FIRST_ACTION_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTION_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    WON_BY_FIELD_NUMBER: _ClassVar[int]
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    leader: int
    first_action: int
    last_action: int
    over: bool
    won_by: int
    transfers: _containers.RepeatedCompositeFieldContainer[_common_pb2.Transfer]
    def __init__(self, leader: _Optional[int] = ..., first_action: _Optional[int] = ..., last_action: _Optional[int] = ..., over: _Optional[bool] = ..., won_by: _Optional[int] = ..., transfers: _Optional[_Iterable[_Union[_common_pb2.Transfer, _Mapping]]] = ...) -> None: ...

class TienlenGameState(_message.Message):
    __slots__ = ("over", "winner", "to_move", "offers", "table", "leader", "passed", "hands", "played_any", "tricks", "transfers", "first_lead", "instant", "table_seat", "round", "must_contain", "card_counts", "viewer", "suggestion")
    OVER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    OFFERS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_ANY_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRANSFERS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    INSTANT_FIELD_NUMBER: _ClassVar[int]
    TABLE_SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    MUST_CONTAIN_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNTS_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    over: bool
    winner: int
    to_move: int
    offers: _containers.RepeatedCompositeFieldContainer[TienlenOffer]
    table: TienlenPlay
    leader: int
    passed: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    played_any: _containers.RepeatedScalarFieldContainer[bool]
    tricks: _containers.RepeatedCompositeFieldContainer[TienlenTrick]
    transfers: _containers.RepeatedCompositeFieldContainer[_common_pb2.Transfer]
    first_lead: TienlenFirstLead
    instant: TienlenInstantWinKind
    table_seat: int
    round: int
    must_contain: str
    card_counts: _containers.RepeatedScalarFieldContainer[int]
    viewer: int
    suggestion: _common_pb2.Suggestion
    def __init__(self, over: _Optional[bool] = ..., winner: _Optional[int] = ..., to_move: _Optional[int] = ..., offers: _Optional[_Iterable[_Union[TienlenOffer, _Mapping]]] = ..., table: _Optional[_Union[TienlenPlay, _Mapping]] = ..., leader: _Optional[int] = ..., passed: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., played_any: _Optional[_Iterable[bool]] = ..., tricks: _Optional[_Iterable[_Union[TienlenTrick, _Mapping]]] = ..., transfers: _Optional[_Iterable[_Union[_common_pb2.Transfer, _Mapping]]] = ..., first_lead: _Optional[_Union[TienlenFirstLead, _Mapping]] = ..., instant: _Optional[_Union[TienlenInstantWinKind, str]] = ..., table_seat: _Optional[int] = ..., round: _Optional[int] = ..., must_contain: _Optional[str] = ..., card_counts: _Optional[_Iterable[int]] = ..., viewer: _Optional[int] = ..., suggestion: _Optional[_Union[_common_pb2.Suggestion, _Mapping]] = ...) -> None: ...

class TienlenEvaluateResult(_message.Message):
    __slots__ = ("error", "play", "hand", "legal_plays", "first_leader", "round_state", "game")
    ERROR_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_PLAYS_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEADER_FIELD_NUMBER: _ClassVar[int]
    ROUND_STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    error: _common_pb2.ItemError
    play: TienlenPlay
    hand: TienlenInstantWin
    legal_plays: TienlenPlays
    first_leader: TienlenFirstLead
    round_state: TienlenRoundState
    game: TienlenGameState
    def __init__(self, error: _Optional[_Union[_common_pb2.ItemError, _Mapping]] = ..., play: _Optional[_Union[TienlenPlay, _Mapping]] = ..., hand: _Optional[_Union[TienlenInstantWin, _Mapping]] = ..., legal_plays: _Optional[_Union[TienlenPlays, _Mapping]] = ..., first_leader: _Optional[_Union[TienlenFirstLead, _Mapping]] = ..., round_state: _Optional[_Union[TienlenRoundState, _Mapping]] = ..., game: _Optional[_Union[TienlenGameState, _Mapping]] = ...) -> None: ...

class TienlenEvaluateResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[TienlenEvaluateResult]
    def __init__(self, results: _Optional[_Iterable[_Union[TienlenEvaluateResult, _Mapping]]] = ...) -> None: ...

class TienlenCompareItem(_message.Message):
    __slots__ = ("play", "table")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    play: _common_pb2.Cards
    table: _common_pb2.Cards
    def __init__(self, play: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ..., table: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

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

class TienlenRound(_message.Message):
    __slots__ = ("actions",)
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedCompositeFieldContainer[_common_pb2.PlayAction]
    def __init__(self, actions: _Optional[_Iterable[_Union[_common_pb2.PlayAction, _Mapping]]] = ...) -> None: ...

class TienlenOutcome(_message.Message):
    __slots__ = ("remaining", "winner", "played_any", "chops")
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PLAYED_ANY_FIELD_NUMBER: _ClassVar[int]
    CHOPS_FIELD_NUMBER: _ClassVar[int]
    remaining: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    winner: int
    played_any: _containers.RepeatedScalarFieldContainer[bool]
    chops: _containers.RepeatedCompositeFieldContainer[TienlenRound]
    def __init__(self, remaining: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ..., winner: _Optional[int] = ..., played_any: _Optional[_Iterable[bool]] = ..., chops: _Optional[_Iterable[_Union[TienlenRound, _Mapping]]] = ...) -> None: ...

class TienlenInstantDeal(_message.Message):
    __slots__ = ("hands",)
    HANDS_FIELD_NUMBER: _ClassVar[int]
    hands: _containers.RepeatedCompositeFieldContainer[_common_pb2.Cards]
    def __init__(self, hands: _Optional[_Iterable[_Union[_common_pb2.Cards, _Mapping]]] = ...) -> None: ...

class TienlenDeal(_message.Message):
    __slots__ = ("outcome", "instant", "chop_round", "record", "base", "carried")
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    INSTANT_FIELD_NUMBER: _ClassVar[int]
    CHOP_ROUND_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    BASE_FIELD_NUMBER: _ClassVar[int]
    CARRIED_FIELD_NUMBER: _ClassVar[int]
    outcome: TienlenOutcome
    instant: TienlenInstantDeal
    chop_round: TienlenRound
    record: TienlenGameRecord
    base: int
    carried: _containers.RepeatedCompositeFieldContainer[_common_pb2.Carried]
    def __init__(self, outcome: _Optional[_Union[TienlenOutcome, _Mapping]] = ..., instant: _Optional[_Union[TienlenInstantDeal, _Mapping]] = ..., chop_round: _Optional[_Union[TienlenRound, _Mapping]] = ..., record: _Optional[_Union[TienlenGameRecord, _Mapping]] = ..., base: _Optional[int] = ..., carried: _Optional[_Iterable[_Union[_common_pb2.Carried, _Mapping]]] = ...) -> None: ...

class TienlenSettleRequest(_message.Message):
    __slots__ = ("rules", "deals")
    RULES_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    rules: TienlenRules
    deals: _containers.RepeatedCompositeFieldContainer[TienlenDeal]
    def __init__(self, rules: _Optional[_Union[TienlenRules, _Mapping]] = ..., deals: _Optional[_Iterable[_Union[TienlenDeal, _Mapping]]] = ...) -> None: ...

class TienlenLine(_message.Message):
    __slots__ = ("kind", "seat", "other", "amount", "text", "multiplier", "cards")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: TienlenLineKind
    seat: int
    other: int
    amount: int
    text: str
    multiplier: int
    cards: _common_pb2.Cards
    def __init__(self, kind: _Optional[_Union[TienlenLineKind, str]] = ..., seat: _Optional[int] = ..., other: _Optional[int] = ..., amount: _Optional[int] = ..., text: _Optional[str] = ..., multiplier: _Optional[int] = ..., cards: _Optional[_Union[_common_pb2.Cards, _Mapping]] = ...) -> None: ...

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
    transfers: _containers.RepeatedCompositeFieldContainer[_common_pb2.Transfer]
    lines: _containers.RepeatedCompositeFieldContainer[TienlenLine]
    winner: int
    pays: _containers.RepeatedScalarFieldContainer[int]
    chops: _containers.RepeatedScalarFieldContainer[int]
    theoretical: _containers.RepeatedScalarFieldContainer[int]
    capped: _containers.RepeatedScalarFieldContainer[int]
    instant: _containers.RepeatedScalarFieldContainer[TienlenInstantWinKind]
    def __init__(self, deltas: _Optional[_Iterable[int]] = ..., rake: _Optional[int] = ..., transfers: _Optional[_Iterable[_Union[_common_pb2.Transfer, _Mapping]]] = ..., lines: _Optional[_Iterable[_Union[TienlenLine, _Mapping]]] = ..., winner: _Optional[int] = ..., pays: _Optional[_Iterable[int]] = ..., chops: _Optional[_Iterable[int]] = ..., theoretical: _Optional[_Iterable[int]] = ..., capped: _Optional[_Iterable[int]] = ..., instant: _Optional[_Iterable[_Union[TienlenInstantWinKind, str]]] = ...) -> None: ...

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

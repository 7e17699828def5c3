"""One case per documented error reason per game: the same mistake through the Python API,
the CLI and gRPC, each of which must report `reason` (and, for an action, its index).

tests/api/test_reasons.py checks every case on each interface; docs/grpc.md prints the
table (``python scripts/gen_docs.py`` writes it from CASES, ``--check`` keeps it current).
A case names what it does in words; `py` raises through the Python API, `cli` is the
argv of ``handeval`` (None: the CLI has no way to say it), `grpc` builds
``(rpc, request)`` (None: likewise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

# Four hands of a whole deck, one suit a seat: seat 0 ♠, 1 ♣, 2 ♦, 3 ♥ (in 越式13张 each
# is a dragon, an instant win: seat 3's, the highest, ends the game at the deal).
_RANKS = "3456789TJQKA2"
HANDS = [" ".join(r + s for r in _RANKS) for s in "scdh"]
# A 越式13张 deal without an instant win: seat 0 leads (3♠), seat 1 holds 4♣, seat 2 3♦,
# seat 3 5♥.
TL_HANDS = [
    "3s 3c 4s 4h 6s Ts Jc Jh Qs Qd Kc Ac 2c",
    "4c 5d 6c 6d 6h 7c 8s Tc Jd Qh Kd As 2h",
    "3d 3h 4d 5s 5c 7d 8h 9h Ks Kh Ad Ah 2d",
    "5h 7s 7h 8c 8d 9s 9c 9d Td Th Js Qc 2s",
]
# The 打儲 deal of HANDS dealt out: its calling starts with seat 0 (the 儲方 is 2 and 3).
DEAL9 = [("deal",)] * 9 + [("finish",)]
# 十三水 rows and a hand.
FRONT, MIDDLE, BACK = "2s 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac"
OTHER = ("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h")
FOULED = ("Qs Qh Qd", "Js Jh Jd 3c 4d", "Ks Kh Kd 4s 4h")
THIRTEEN = "As Ks Qs Js Ts 9h 8h 7h 6h 5d 4d 3d 2c"
APART = ("2h 2d 3h", "4h 4c 5h 5s 6s", "7s 7d 8s 8d 9s")  # no card of THIRTEEN


@dataclass(frozen=True)
class Case:
    game: str  # "shisanshui", "tienlen" or "dachu"
    reason: str  # a name of handeval.errors.ERROR_REASONS
    what: str  # the mistake, in words (the docs print it)
    py: Callable[[], object]
    cli: Optional[list]
    grpc: Optional[Callable[[], tuple]]
    field: Optional[str] = None  # the gRPC ItemError's field, when checked
    action_index: Optional[int] = None  # the failing action's index (Python and gRPC)


def _pb():
    from handeval.v2 import common_pb2, dachu_pb2, handeval_pb2, shisanshui_pb2, tienlen_pb2

    return common_pb2, shisanshui_pb2, tienlen_pb2, dachu_pb2, handeval_pb2


def C(cards):
    from handeval.v2 import common_pb2

    return common_pb2.Cards(cards=cards.split() if isinstance(cards, str) else list(cards))


def arrangement(rows):
    _, s, *_ = _pb()
    return s.ShisanshuiArrangement(front=C(rows[0]), middle=C(rows[1]), back=C(rows[2]))


def ssw_evaluate(**item):
    _, s, _, _, h = _pb()
    return "Evaluate", h.EvaluateRequest(
        shisanshui=s.ShisanshuiEvaluateRequest(items=[s.ShisanshuiEvaluateItem(**item)])
    )


def ssw_settle(players, base=None, rules=None):
    _, s, _, _, h = _pb()
    deal = s.ShisanshuiDeal(players=players, base=base)
    return "Settle", h.SettleRequest(shisanshui=s.ShisanshuiSettleRequest(rules=rules, deals=[deal]))


def ssw_player(rows=None, special=None, cards=None):
    _, s, *_ = _pb()
    if special:
        kind = s.ShisanshuiSpecialKind.Value("SHISANSHUI_SPECIAL_KIND_" + special.upper())
        return s.ShisanshuiPlayer(special=s.ShisanshuiDeclaredSpecial(kind=kind, cards=C(cards)))
    return s.ShisanshuiPlayer(arrangement=arrangement(rows))


def tl_evaluate(**item):
    _, _, t, _, h = _pb()
    return "Evaluate", h.EvaluateRequest(tienlen=t.TienlenEvaluateRequest(items=[t.TienlenEvaluateItem(**item)]))


def tl_record(actions, hands=TL_HANDS):
    c, _, t, _, _ = _pb()
    acts = [
        c.PlayAction(seat=s, kind=c.ACTION_KIND_PASS)
        if a == "pass"
        else c.PlayAction(seat=s, kind=c.ACTION_KIND_PLAY, cards=C(a))
        for s, a in actions
    ]
    return t.TienlenGameRecord(hands=[C(h) for h in hands], actions=acts)


def tl_settle(**deal):
    _, _, t, _, h = _pb()
    return "Settle", h.SettleRequest(tienlen=t.TienlenSettleRequest(deals=[t.TienlenDeal(**deal)]))


def tl_outcome(remaining, winner, played_any=()):
    _, _, t, _, _ = _pb()
    return t.TienlenOutcome(remaining=[C(r) for r in remaining], winner=winner, played_any=list(played_any))


def dc_evaluate(**item):
    _, _, _, d, h = _pb()
    return "Evaluate", h.EvaluateRequest(dachu=d.DachuEvaluateRequest(items=[d.DachuEvaluateItem(**item)]))


def dc_play(cards):
    _, _, _, d, _ = _pb()
    return d.DachuClassifyQuery(cards=C(cards), chu=d.DACHU_COLOUR_RED)


def dc_settle(rules=None, **outcome):
    _, _, _, d, h = _pb()
    deal = d.DachuDeal(outcome=d.DachuOutcome(**outcome))
    return "Settle", h.SettleRequest(dachu=d.DachuSettleRequest(rules=rules, deals=[deal]))


def dc_deal(actions, hands=HANDS):
    _, _, _, d, _ = _pb()
    kinds = {
        "deal": d.DACHU_DEAL_ACTION_KIND_DEAL,
        "finish": d.DACHU_DEAL_ACTION_KIND_FINISH,
        "meng_xuan": d.DACHU_DEAL_ACTION_KIND_MENG_XUAN,
    }
    actions = [tuple(a) for a in actions]
    acts = [
        d.DachuDealAction(kind=kinds[a[0]], seat=a[1] if len(a) > 1 else 0, cards=C(a[2]) if len(a) > 2 else None)
        for a in actions
    ]
    return d.DachuDealQuery(hands=[C(h) for h in hands], actions=acts)


def dc_record(deal_actions, calls, plays=()):
    c, _, _, d, _ = _pb()
    q = dc_deal(deal_actions)
    plays = [c.PlayAction(seat=s, kind=c.ACTION_KIND_PLAY, cards=C(cards)) for _, s, cards in plays]
    return d.DachuGameRecord(hands=q.hands, deal_actions=q.actions, calls=dc_calling([0], calls).calls, plays=plays)


def dc_calling(chu_side, calls):
    _, _, _, d, _ = _pb()
    kinds = {
        name: d.DachuCallKind.Value("DACHU_CALL_KIND_" + name.upper())
        for name in ("ping_da", "chuai", "bao_chuai", "jiao")
    }
    return d.DachuCallingQuery(
        start=d.DachuCallingStart(chu_side=chu_side), calls=[d.DachuCall(call=kinds[c], seat=s) for c, s in calls]
    )


def _ssw():
    from handeval import shisanshui

    return shisanshui


def _tl():
    from handeval import tienlen

    return tienlen


def _dc():
    from handeval import dachu

    return dachu


def _rows(rows):
    return {"front": rows[0], "middle": rows[1], "back": rows[2]}


def _seat_arg(rows):
    return " / ".join(rows)


# A 越式13张 record: seat 0 leads 3♠, seat 1 plays 4♣, then actions[2] is the mistake.
def _tl_game(third):
    return [(0, "3s"), (1, "4c"), third]


CASES = [
    # ---- 十三水 ----
    Case(
        "shisanshui",
        "bad_card",
        "a row with a token that is no card",
        lambda: _ssw().classify("As Zz Qs"),
        ["classify", "As", "Zz", "Qs"],
        lambda: ssw_evaluate(row=C("As Zz Qs")),
    ),
    Case(
        "shisanshui",
        "duplicate_card",
        "a row holding a card twice",
        lambda: _ssw().classify("As As Qs"),
        ["classify", "As", "As", "Qs"],
        lambda: ssw_evaluate(row=C("As As Qs")),
    ),
    Case(
        "shisanshui",
        "wrong_count",
        "a 4-card row",
        lambda: _ssw().classify("As Ks Qs Js"),
        ["classify", "As", "Ks", "Qs", "Js"],
        lambda: ssw_evaluate(row=C("As Ks Qs Js")),
    ),
    Case(
        "shisanshui",
        "wrong_count",
        "a 2-card front",
        lambda: _ssw().settle([{"front": "2s 3d", "middle": MIDDLE, "back": BACK}, _rows(OTHER)]),
        ["settle", "2s 3d / " + MIDDLE + " / " + BACK, _seat_arg(OTHER)],
        lambda: ssw_settle([ssw_player(("2s 3d", MIDDLE, BACK)), ssw_player(OTHER)]),
        field="deals[0].players[0].arrangement.front",
    ),
    Case(
        "shisanshui",
        "wrong_count",
        "a deal of 1 player",
        lambda: _ssw().settle([_rows(OTHER)]),
        ["settle", _seat_arg(OTHER)],
        lambda: ssw_settle([ssw_player(OTHER)]),
        field="deals[0].players",
    ),
    Case(
        "shisanshui",
        "wrong_count",
        "a 12-card hand to arrange",
        lambda: _ssw().arrange(THIRTEEN.rsplit(" ", 1)[0]),
        ["arrange", THIRTEEN.rsplit(" ", 1)[0]],
        lambda: (
            "Arrange",
            _pb()[4].ArrangeRequest(
                shisanshui=_pb()[1].ShisanshuiArrangeRequest(
                    items=[_pb()[1].ShisanshuiArrangeItem(hand=C(THIRTEEN.rsplit(" ", 1)[0]))]
                )
            ),
        ),
    ),
    Case(
        "shisanshui",
        "foul",
        "a fouled hand with foul_scoring = false",
        lambda: _ssw().settle([_rows(FOULED), _rows((FRONT, MIDDLE, BACK))], rules=_ssw().Rules(foul_scoring=False)),
        None,
        lambda: ssw_settle(
            [ssw_player(FOULED), ssw_player((FRONT, MIDDLE, BACK))], rules=_pb()[1].ShisanshuiRules(foul_scoring=False)
        ),
        field="deals[0].players[0]",
    ),
    Case(
        "shisanshui",
        "inconsistent",
        "a declared special the cards do not make",
        lambda: _ssw().settle([{"special": "liu_dui_ban", "cards": THIRTEEN}, _rows(APART)]),
        ["settle", "liu_dui_ban: " + THIRTEEN, _seat_arg(APART)],
        lambda: ssw_settle([ssw_player(special="liu_dui_ban", cards=THIRTEEN), ssw_player(APART)]),
        field="deals[0].players[0]",
    ),
    Case(
        "shisanshui",
        "out_of_range",
        "money that overflows 64 bits (base 2^62)",
        lambda: _ssw().settle([_rows(OTHER), _rows((FRONT, MIDDLE, BACK))], base=2**62),
        ["settle", "--base", str(2**62), _seat_arg(OTHER), _seat_arg((FRONT, MIDDLE, BACK))],
        lambda: ssw_settle([ssw_player(OTHER), ssw_player((FRONT, MIDDLE, BACK))], base=2**62),
    ),
    Case(
        "shisanshui",
        "out_of_range",
        "a base of 0",
        lambda: _ssw().settle([_rows(OTHER), _rows((FRONT, MIDDLE, BACK))], base=0),
        ["settle", "--base", "0", _seat_arg(OTHER), _seat_arg((FRONT, MIDDLE, BACK))],
        lambda: ssw_settle([ssw_player(OTHER), ssw_player((FRONT, MIDDLE, BACK))], base=0),
        field="deals[0].base",
    ),
    Case(
        "shisanshui",
        "bad_rule",
        "a rule option with a value it does not take",
        lambda: _ssw().Rules(suit_order="shc"),
        None,
        lambda: ssw_settle(
            [ssw_player(OTHER), ssw_player((FRONT, MIDDLE, BACK))], rules=_pb()[1].ShisanshuiRules(suit_order="shc")
        ),
    ),
    # ---- 越式13张 ----
    Case(
        "tienlen",
        "bad_card",
        "a play with a token that is no card",
        lambda: _tl().classify("3s Zz"),
        ["tienlen", "classify", "3s", "Zz"],
        lambda: tl_evaluate(play=C("3s Zz")),
    ),
    Case(
        "tienlen",
        "duplicate_card",
        "a play holding a card twice",
        lambda: _tl().classify("3s 3s"),
        ["tienlen", "classify", "3s", "3s"],
        lambda: tl_evaluate(play=C("3s 3s")),
    ),
    Case(
        "tienlen",
        "not_a_play",
        "cards that make no play",
        lambda: _tl().classify("3s 9h"),
        ["tienlen", "classify", "3s", "9h"],
        lambda: tl_evaluate(play=C("3s 9h")),
    ),
    Case(
        "tienlen",
        "wrong_count",
        "a 2-card hand for the instant win",
        lambda: _tl().instant_win("3s 4s"),
        ["tienlen", "instant", "3s", "4s"],
        lambda: tl_evaluate(hand=C("3s 4s")),
    ),
    Case(
        "tienlen",
        "wrong_count",
        "first_leader of 1 hand",
        lambda: _tl().first_leader([HANDS[0]]),
        None,
        lambda: tl_evaluate(first_leader=_pb()[2].TienlenFirstLeaderQuery(hands=[C(HANDS[0])])),
        field="items[0].first_leader.hands",
    ),
    Case(
        "tienlen",
        "wrong_count",
        "a game record of 1 hand",
        lambda: _tl().replay([TL_HANDS[0]], []),
        ["tienlen", "game", "--hands", TL_HANDS[0]],
        lambda: tl_evaluate(game=tl_record([], hands=TL_HANDS[:1])),
    ),
    Case(
        "tienlen",
        "does_not_beat",
        "a play that does not beat the table",
        lambda: _tl().replay(TL_HANDS, _tl_game((2, "3d"))),
        ["tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s; 1 4c; 2 3d"],
        lambda: tl_evaluate(game=tl_record(_tl_game((2, "3d")))),
        field="items[0].game.actions[2].cards",
        action_index=2,
    ),
    Case(
        "tienlen",
        "not_your_turn",
        "an action by a seat whose turn it is not",
        lambda: _tl().replay(TL_HANDS, _tl_game((3, "5h"))),
        ["tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s; 1 4c; 3 5h"],
        lambda: tl_evaluate(game=tl_record(_tl_game((3, "5h")))),
        field="items[0].game.actions[2].seat",
        action_index=2,
    ),
    Case(
        "tienlen",
        "card_not_in_hand",
        "a card the seat does not hold",
        lambda: _tl().replay(TL_HANDS, _tl_game((2, "5h"))),
        ["tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s; 1 4c; 2 5h"],
        lambda: tl_evaluate(game=tl_record(_tl_game((2, "5h")))),
        field="items[0].game.actions[2].cards",
        action_index=2,
    ),
    Case(
        "tienlen",
        "illegal_action",
        "the first leader passes",
        lambda: _tl().replay(TL_HANDS, [(0, "pass")]),
        ["tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 pass"],
        lambda: tl_evaluate(game=tl_record([(0, "pass")])),
        action_index=0,
    ),
    Case(
        "tienlen",
        "game_over",
        "an action after an instant win ended the game",
        lambda: _tl().replay(HANDS, [(0, "3s")]),
        ["tienlen", "game", "--hands", *HANDS, "--actions", "0 3s"],
        lambda: tl_evaluate(game=tl_record([(0, "3s")], hands=HANDS)),
        action_index=0,
    ),
    Case(
        "tienlen",
        "out_of_range",
        "a winner seat not in the game",
        lambda: _tl().settle(["3s", "4s", "5s", "6s"], winner=5),
        None,
        lambda: tl_settle(outcome=tl_outcome(["3s", "4s", "5s", "6s"], 5)),
        field="deals[0].outcome.winner",
    ),
    Case(
        "tienlen",
        "inconsistent",
        "an outcome whose winner has cards left",
        lambda: _tl().settle(["3s", "4s", "5s", "6s"], winner=0),
        ["tienlen", "settle", "--winner", "0", "3s", "4s", "5s", "6s"],
        lambda: tl_settle(outcome=tl_outcome(["3s", "4s", "5s", "6s"], 0)),
        field="deals[0].outcome.remaining[0]",
    ),
    Case(
        "tienlen",
        "inconsistent",
        "played_any that contradicts remaining",
        lambda: _tl().settle(["", "4s", "5s", "6s"], winner=0, played_any=[True, False, True, True]),
        None,
        lambda: tl_settle(outcome=tl_outcome(["", "4s", "5s", "6s"], 0, [True, False, True, True])),
        field="deals[0].outcome.played_any[1]",
    ),
    Case(
        "tienlen",
        "out_of_range",
        "a base of 0",
        lambda: _tl().settle(["", "4s", "5s", "6s"], winner=0, base=0),
        ["tienlen", "settle", "--winner", "0", "--base", "0", "-", "4s", "5s", "6s"],
        lambda: tl_settle(outcome=tl_outcome(["", "4s", "5s", "6s"], 0), base=0),
        field="deals[0].base",
    ),
    Case(
        "tienlen",
        "bad_rule",
        "a rule option with a value it does not take",
        lambda: _tl().Rules(turn_after_chop="later"),
        None,
        lambda: (
            "Evaluate",
            _pb()[4].EvaluateRequest(
                tienlen=_pb()[2].TienlenEvaluateRequest(
                    rules=_pb()[2].TienlenRules(rake_percent=101), items=[_pb()[2].TienlenEvaluateItem(play=C("3s"))]
                )
            ),
        ),
    ),
    # ---- 打儲 ----
    Case(
        "dachu",
        "bad_card",
        "a play with a token that is no card",
        lambda: _dc().classify("3s Zz", chu="red"),
        ["dachu", "classify", "3s", "Zz", "--chu", "red"],
        lambda: dc_evaluate(play=dc_play("3s Zz")),
    ),
    Case(
        "dachu",
        "duplicate_card",
        "a play holding a card twice",
        lambda: _dc().classify("3s 3s", chu="red"),
        ["dachu", "classify", "3s", "3s", "--chu", "red"],
        lambda: dc_evaluate(play=dc_play("3s 3s")),
    ),
    Case(
        "dachu",
        "not_a_play",
        "cards that make no play",
        lambda: _dc().classify("3s 9h", chu="red"),
        ["dachu", "classify", "3s", "9h", "--chu", "red"],
        lambda: dc_evaluate(play=dc_play("3s 9h")),
    ),
    Case(
        "dachu",
        "wrong_count",
        "a deal of 3 hands",
        lambda: _dc().Deal(HANDS[:3]),
        ["dachu", "deal", "--hands", *HANDS[:3]],
        lambda: dc_evaluate(deal=dc_deal([], hands=HANDS[:3])),
    ),
    Case(
        "dachu",
        "wrong_count",
        "a 儲方 of three seats",
        lambda: _dc().settle([0, 1, 2], [3]),
        ["dachu", "settle", "--chu-side", "0", "1", "2", "--places", "3"],
        lambda: dc_settle(chu_side=[0, 1, 2], places=[3]),
        field="deals[0].outcome.chu_side",
    ),
    Case(
        "dachu",
        "out_of_range",
        "seat 4",
        lambda: _dc().settle([4], [0, 1, 2, 3]),
        ["dachu", "settle", "--chu-side", "4", "--places", "0", "1", "2", "3"],
        lambda: dc_settle(chu_side=[4], places=[0, 1, 2, 3]),
        field="deals[0].outcome.chu_side[0]",
    ),
    Case(
        "dachu",
        "out_of_range",
        "a multiplier that is no power of two",
        lambda: _dc().settle([0], [0, 1, 2, 3], multiplier=3),
        ["dachu", "settle", "--chu-side", "0", "--places", "0", "1", "2", "3", "--multiplier", "3"],
        lambda: dc_settle(chu_side=[0], places=[0, 1, 2, 3], multiplier=3),
        field="deals[0].outcome.multiplier",
    ),
    Case(
        "dachu",
        "inconsistent",
        "a seat both surrendered and 被包打",
        lambda: _dc().settle([0, 1], [0, 1, 3], surrendered=[2], bei_bao_da=[2]),
        [
            "dachu",
            "settle",
            "--chu-side",
            "0",
            "1",
            "--places",
            "0",
            "1",
            "3",
            "--surrendered",
            "2",
            "--bei-bao-da",
            "2",
        ],
        lambda: dc_settle(chu_side=[0, 1], places=[0, 1, 3], surrendered=[2], bei_bao_da=[2]),
        field="deals[0].outcome.bei_bao_da",
    ),
    Case(
        "dachu",
        "inconsistent",
        "places that are not the playing seats",
        lambda: _dc().settle([0], [0, 1, 2, 2]),
        ["dachu", "settle", "--chu-side", "0", "--places", "0", "1", "2", "2"],
        lambda: dc_settle(chu_side=[0], places=[0, 1, 2, 2]),
        field="deals[0].outcome.places[3]",
    ),
    Case(
        "dachu",
        "card_not_in_hand",
        "夢宣 of an ace not dealt yet",
        lambda: _dc().replay_game(HANDS, [("deal",), ("meng_xuan", 0, "As")], [], []),
        ["dachu", "deal", "--hands", *HANDS, "--actions", "deal; meng_xuan 0 As"],
        lambda: dc_evaluate(deal=dc_deal([("deal",), ("meng_xuan", 0, "As")])),
        field="items[0].deal.actions[1].cards",
        action_index=1,
    ),
    Case(
        "dachu",
        "illegal_action",
        "finish before the 13th card",
        lambda: _dc().replay_game(HANDS, [("deal",), ("finish",)], [], []),
        ["dachu", "deal", "--hands", *HANDS, "--actions", "deal; finish"],
        lambda: dc_evaluate(deal=dc_deal([("deal",), ("finish",)])),
        field="items[0].deal.actions[1]",
        action_index=1,
    ),
    Case(
        "dachu",
        "not_your_turn",
        "a call out of turn",
        lambda: _dc().replay_game(HANDS, DEAL9, [("ping_da", 2)], []),
        ["dachu", "calling", "--chu-side", "0", "--calls", "ping_da 2"],
        lambda: dc_evaluate(calling=dc_calling([0], [("ping_da", 2)])),
        field="items[0].calling.calls[0].seat",
        action_index=0,
    ),
    Case(
        "dachu",
        "game_over",
        "a call after the calling is over",
        lambda: _dc().replay_game(HANDS, DEAL9, [("ping_da", 0), ("ping_da", 1), ("ping_da", 0)], []),
        [
            "dachu",
            "deal",
            "--hands",
            *HANDS,
            "--actions",
            "deal*9; finish",
            "--calls",
            "ping_da 0; ping_da 1; ping_da 0",
        ],
        lambda: dc_evaluate(game=dc_record(DEAL9, [("ping_da", 0), ("ping_da", 1), ("ping_da", 0)])),
        field="items[0].game.calls[2]",
        action_index=2,
    ),
    Case(
        "dachu",
        "does_not_beat",
        "a play that does not beat the table",
        lambda: _dc().replay_game(
            HANDS, DEAL9, [("ping_da", 0), ("ping_da", 1)], [("play", 3, "3h"), ("play", 0, "3s")]
        ),
        [
            "dachu",
            "game",
            "--hands",
            *HANDS,
            "--actions",
            "deal*9; finish",
            "--calls",
            "ping_da 0; ping_da 1",
            "--plays",
            "play 3 3h; play 0 3s",
        ],
        lambda: dc_evaluate(
            game=dc_record(DEAL9, [("ping_da", 0), ("ping_da", 1)], [("play", 3, "3h"), ("play", 0, "3s")])
        ),
        field="items[0].game.plays[1].cards",
        action_index=1,
    ),
    Case(
        "dachu",
        "bad_rule",
        "a rule option with a value it does not take",
        lambda: _dc().Rules(escape_units=5000),
        None,
        lambda: dc_settle(chu_side=[0], places=[0, 1, 2, 3], rules=_pb()[3].DachuRules(escape_units=5000)),
    ),
]

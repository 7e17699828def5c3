"""The rule book's revisions, one test per rule, each with its example; the
rules themselves are written up in docs/rules.md (section numbers as there)."""

import pytest

from handeval import HandevalError, dachu, shisanshui, tienlen as tl

from strategies import DC_DECLARING_HANDS as DECLARING_HANDS
from test_dachu import _deal_to

# --- §0: a base is at least 1 in every game; one deck ------------------------------------

THIRTEEN_A = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2d"
THIRTEEN_B = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c"
SSW_HANDS = [
    {"front": "Qs Qh Qd", "middle": "2h 5h 7h 9h Jh", "back": "Ks Kh Kd 4s 4h"},
    {"front": "2s 3d 5c", "middle": "6c 7c 8d 9s Td", "back": "2c 4c Jc Kc Ac"},
]
CHOP_ROUND = [[0, "2h"], [1, "3s 3h 4s 4h 5s 5h 6s 6h"], [2, "pass"], [3, "pass"], [0, "pass"]]


@pytest.mark.parametrize("base", [0, -1])
@pytest.mark.parametrize(
    "call",
    [
        lambda b: tl.settle(["", "3s"], 0, b),
        lambda b: tl.settle_instant([THIRTEEN_A, THIRTEEN_B], b),
        lambda b: tl.chop_transfers(CHOP_ROUND, b),
        lambda b: shisanshui.settle(SSW_HANDS, base=b),
        lambda b: dachu.settle([0], [0, 1, 2, 3], base=b),
    ],
    ids=["tienlen.settle", "tienlen.settle_instant", "tienlen.chop_transfers", "shisanshui.settle", "dachu.settle"],
)
def test_base_is_at_least_one(call, base):
    with pytest.raises(HandevalError) as e:
        call(base)
    assert e.value.field == "base"
    assert "at least 1" in e.value.description or "positive" in e.value.description


def test_base_one_is_fine_everywhere():
    assert tl.settle(["", "3s"], 0, 1, rules=tl.Rules(rake_percent=0)).deltas == [1, -1]
    assert tl.chop_transfers(CHOP_ROUND, 1) == [{"from": 0, "to": 1, "amount": 4}]
    assert shisanshui.settle(SSW_HANDS, base=1).deltas == [10, -10]
    assert dachu.settle([0], [0, 1, 2, 3], base=1).deltas == [6, -2, -2, -2]


def test_the_same_card_in_both_rows_of_compare_is_an_error():
    with pytest.raises(HandevalError) as e:
        shisanshui.compare("As Ks Qs Js Ts", "As Kd Qd Jd Td")
    assert e.value.field == "b" and "As" in e.value.description
    with pytest.raises(HandevalError, match="2c"):
        shisanshui.compare("Qs Qh 2c", "Qd Qc 2c")
    # Rows that share no card compare as before.
    assert shisanshui.compare("As Ks Qs Js Ts", "Ah Kh Qh Jh Th") == 1


# --- 越式13张 ----------------------------------------------------------------------------


def test_rake_comes_from_the_winner_only():
    """2.6: 抽水 is 5% of the winner's positive final amount (赢家所赢金额的5%). Seat 2
    ends +180 through a chop transfer and is not raked."""
    s = tl.settle(["", "3s 4s", "5s", "6s"], winner=0, base=10, chops=[{"from": 3, "to": 2, "amount": 190}])
    assert s.capped == [40, -20, 180, -200]
    assert s.rake == 2 and s.deltas == [38, -20, 180, -200]
    assert [(line.seat, line.amount) for line in s.lines if line.kind == "rake"] == [(0, -2)]
    assert sum(s.deltas) + s.rake == 0


def test_rake_with_a_chop_round():
    # Seat 3 leads a 2♥, seats 0 and 1 pass, seat 2 chops with a 4连对: seat 3 pays 10 × 4.
    chop = [[3, "2h"], [0, "pass"], [1, "pass"], [2, "8s 8h 9s 9h Ts Th Js Jh"], [3, "pass"]]
    s = tl.settle(["", "3s 4s", "5s", "6s"], 0, 10, chops=[chop])
    assert s.chops == [0, 0, 40, -40]
    assert s.capped == [40, -20, 30, -50] and s.deltas == [38, -20, 30, -50] and s.rake == 2


def test_a_winner_left_negative_by_chops_pays_no_rake():
    s = tl.settle(["", "3s 4s", "5s", "6s"], 0, 10, chops=[(0, 2, 190)])
    assert s.deltas == [-150, -20, 180, -10] and s.rake == 0


# Seat 0 leads 9♠, seat 1 passes, seat 2 plays a 2; it is seat 3's turn when seat 1
# (which passed) chops the 2 with a bomb.
CHOP_OUT_OF_TURN = [[0, "9s"], [1, "pass"], [2, "2s"], [1, "7s 7h 7d 7c"]]


def test_turn_after_a_chop_goes_on_from_the_chopper_by_default():
    """2.4 [decision] turn_after_chop="from_chopper": the next seat after the chopper."""
    assert tl.Rules().turn_after_chop == "from_chopper"
    st = tl.round_state(CHOP_OUT_OF_TURN)
    assert st.to_move == 2 and st.table.kind == "bomb"
    assert tl.check_action(CHOP_OUT_OF_TURN, 3, "pass") == "it is seat 2's turn, not seat 3's"
    assert tl.may_play(CHOP_OUT_OF_TURN, 2, "8s 8h 8d 8c")


def test_turn_after_a_chop_can_resume_with_the_interrupted_seat():
    resume = tl.Rules(turn_after_chop="resume")
    assert tl.round_state(CHOP_OUT_OF_TURN, rules=resume).to_move == 3
    assert tl.check_action(CHOP_OUT_OF_TURN, 2, "pass", rules=resume) == "it is seat 3's turn, not seat 2's"
    # The whole round under each rule: the chop chain (2 + bomb) is worth 3 either way.
    default_order = CHOP_OUT_OF_TURN + [[2, "pass"], [3, "pass"], [0, "pass"]]
    resume_order = CHOP_OUT_OF_TURN + [[3, "pass"], [0, "pass"], [2, "pass"]]
    assert tl.chop_transfers(default_order, 10) == [{"from": 2, "to": 1, "amount": 30}]
    assert tl.chop_transfers(resume_order, 10, rules=resume) == [{"from": 2, "to": 1, "amount": 30}]
    with pytest.raises(HandevalError, match="seat 2's turn"):
        tl.chop_transfers(resume_order, 10)
    # settle replays chop rounds under its own rules.
    remaining = ["", "3d 4d", "5d", "6d"]
    assert tl.settle(remaining, 0, 10, chops=[resume_order], rules=resume).chops == [0, 30, -30, 0]
    with pytest.raises(HandevalError, match="chops\\[0\\]"):
        tl.settle(remaining, 0, 10, chops=[resume_order])


def test_turn_after_chop_rejects_an_unknown_value():
    with pytest.raises(HandevalError, match="turn_after_chop") as e:
        tl.round_state(CHOP_OUT_OF_TURN, rules=tl.Rules(turn_after_chop="next"))
    assert e.value.field.startswith("rules")


def test_five_consecutive_pairs_are_not_a_play_because_of_the_instant_wins():
    """2.2: five or more consecutive pairs would be a 5连/6连 instant win of the deal."""
    for cards in ("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h", "3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h"):
        with pytest.raises(HandevalError, match="instant win") as e:
            tl.classify(cards)
        assert "consecutive pairs cannot arise in play" in e.value.description


# --- 打儲 --------------------------------------------------------------------------------


def test_jiao_costs_half_a_unit_rounded_up():
    """3.7 [decision] jiao_round_up: base 1 × multiplier 1 surrenders for 1 (not 0)."""
    s = dachu.settle([0, 2], None, base=1, multiplier=1, surrendered=[1, 3])
    assert s.deltas == [1, -1, 1, -1] and {line.kind for line in s.lines} == {"jiao"}
    assert dachu.settle([0, 2], None, base=5, surrendered=[1, 3]).deltas == [3, -3, 3, -3]
    assert dachu.settle([0, 2], None, base=5, multiplier=2, surrendered=[1, 3]).deltas == [5, -5, 5, -5]
    down = dachu.Rules(jiao_round_up=False)
    assert dachu.settle([0, 2], None, base=1, surrendered=[1, 3], rules=down).deltas == [0, 0, 0, 0]
    assert dachu.settle([0, 2], None, base=5, surrendered=[1, 3], rules=down).deltas == [2, -2, 2, -2]


def test_unit_per_after_a_partners_jiao():
    """3.7 unit_per="larger_side": 2 vs 2 after one 繳, the partner playing on alone pays
    or receives one unit per opponent. Seat 2 繳 (⌈10 / 2⌉ = 5, shared 3 / 2)."""
    win = dachu.settle([0, 2], [0, 1, 3], base=10, surrendered=[2])
    assert (win.verdict, win.wipe_out, win.result_multiplier) == ("win", True, 2)
    assert win.deltas == [40, 3 - 20, -5, 2 - 20]
    loss = dachu.settle([0, 2], [1, 3, 0], base=10, surrendered=[2])
    assert loss.deltas == [-40, 3 + 20, -5, 2 + 20]
    losing = dachu.Rules(unit_per="losing_side")
    assert dachu.settle([0, 2], [1, 3, 0], base=10, surrendered=[2], rules=losing).deltas == [-20, 13, -5, 12]


def test_declarations_are_once_per_player_per_kind():
    """3.5 [decision]: several players may each 夢踹; nobody twice; 夢宣 and 撐儲 fix the
    colour, so each happens once per game."""
    d = _deal_to(dachu.Deal(DECLARING_HANDS), 5)
    d = d.apply(("meng_chuai", 0, "5s 5h 5d")).apply(("meng_chuai", 1, "6h 6d 6c"))
    assert d.multiplier == 4
    with pytest.raises(HandevalError, match="once per player"):
        d.apply(("meng_chuai", 0, "5s 5h 5d"))
    x = d.apply(("meng_xuan", 1, "Ad"))
    assert (x.chu, x.multiplier) == ("red", 8)
    with pytest.raises(HandevalError, match="already red"):
        x.apply(("meng_xuan", 0, "Ah"))
    y = _deal_to(d, 13).apply(("cheng_chu", 2, "black"))
    assert (y.chu, y.multiplier) == ("black", 8)
    assert not [a for a in y.legal_actions if a[0] == "cheng_chu"]
    with pytest.raises(HandevalError, match="once per player"):
        y.apply(("cheng_chu", 2, "black"))
    done = y.apply(("finish",))
    assert (done.chu_source, done.chu_side, done.teams) == ("cheng_chu", [2], "1v3")


def test_declare_once_per_other_readings():
    d = _deal_to(dachu.Deal(DECLARING_HANDS, rules=dachu.Rules(declare_once_per="game")), 5)
    d = d.apply(("meng_chuai", 0, "5s 5h 5d"))
    with pytest.raises(HandevalError, match="once per game") as e:
        d.apply(("meng_chuai", 1, "6h 6d 6c"))
    assert e.value.field == "action" and e.value.reason == "illegal_action"
    d = _deal_to(dachu.Deal(DECLARING_HANDS, rules=dachu.Rules(declare_once_per="player")), 5)
    d = d.apply(("meng_xuan", 1, "Ad"))
    with pytest.raises(HandevalError, match="one declaration per player"):
        d.apply(("meng_chuai", 1, "6h 6d 6c"))
    assert d.apply(("meng_chuai", 0, "5s 5h 5d")).multiplier == 4
    with pytest.raises(HandevalError, match="declare_once_per"):
        dachu.Deal(DECLARING_HANDS, rules=dachu.Rules(declare_once_per="never"))


def test_new_options_have_the_rule_book_defaults():
    assert (tl.Rules().turn_after_chop, tl.Rules().rake_percent) == ("from_chopper", 5)
    r = dachu.Rules()
    assert (r.jiao_round_up, r.declare_once_per, r.unit_per) == (True, "player_and_kind", "larger_side")
    # rules=None (the core's defaults) and the dataclass defaults agree.
    assert tl.round_state(CHOP_OUT_OF_TURN).to_move == tl.round_state(CHOP_OUT_OF_TURN, rules=tl.Rules()).to_move
    half = dict(base=1, surrendered=[1, 3])
    assert dachu.settle([0, 2], **half).deltas == dachu.settle([0, 2], rules=dachu.Rules(), **half).deltas


def test_timeout_play_takes_the_hand_as_the_client_shows_it():
    """3.7 出牌超時: the first card of the rightmost column of the hand as shown (the order
    given, not a sorted hand), skipping the column of the triple shown for 夢踹 (and the
    quad it grew into); leading it goes out as a single (the 3♥ on the first lead),
    following only when it beats the table."""
    # Regression: the display order was ignored (4s, as for the sorted hand).
    assert dachu.timeout_play("Kh 9c 4d 4h 4s", None, "red") == ["4d"]
    assert dachu.timeout_play([["Kh"], ["9c"], ["4d", "4h", "4s"]], None, "red") == ["4d"]
    assert dachu.timeout_play([["5s"], ["Kd"]], None, "red") == ["Kd"]  # columns were refused
    assert dachu.timeout_play((("Kd",), ("5s",)), None, "red") == ["5s"]
    # Following: played when it beats the table (it always passed), else a pass.
    assert dachu.timeout_play(["4h"], ["3h"], "red") == ["4h"]
    assert dachu.timeout_play("Kh 4h", "5s", "red") is None
    assert dachu.timeout_play("4h Kh", "5s 5d", "red") is None  # not a pair
    # The shown 夢踹 triple and the quad it grew into are skipped (the 4th card was played).
    assert dachu.timeout_play("9c Kh 4s 4h 4d", None, "red", shown_triple="4s 4h 4d") == ["Kh"]
    assert dachu.timeout_play("9c Kh 4s 4h 4d 4c", None, "red", shown_triple="4s 4h 4d") == ["Kh"]
    assert dachu.timeout_play("4c 9c 4s 4h 4d", None, "red", shown_triple="4s 4h 4d") == ["9c"]
    assert dachu.timeout_play("4s 4h 4d 4c", None, "red", shown_triple="4s 4h 4d") == ["4s", "4h", "4d", "4c"]
    # The first lead: the 3♥ (RULES 3.4); `surrendered` as in legal_plays.
    assert dachu.timeout_play("3h 5c 5d", None, "red", first_lead=True) == ["3h"]
    assert dachu.timeout_play("Kd 3h", None, "red", first_lead=True, surrendered=True) == ["3h"]
    with pytest.raises(HandevalError) as e:
        dachu.timeout_play("Kd 3h", None, "red", surrendered=True)
    assert e.value.field == "surrendered"
    with pytest.raises(HandevalError) as e:
        dachu.timeout_play([["5s"], []], None, "red")
    assert e.value.field == "hand[1]"
    with pytest.raises(HandevalError) as e:
        dachu.timeout_play([["5s"], ["5x"]], None, "red")
    assert e.value.field.startswith("hand[1]")


def _seat_order_cases():
    from hypothesis import strategies as st

    amount = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1)
    carried = st.one_of(st.none(), st.integers(0, 1000), st.integers(0, 2**63 - 1))
    return st.lists(st.tuples(amount, carried, carried), min_size=1, max_size=2)


# --- §4: the cap clamps first, whatever the seat order -------------------------------------


def test_cap_clamps_before_adding_up():
    """§4 step 1: clamp each result before anything is added up (a regression: the seat-order
    sum overflowed for one order and settled for another)."""
    import handeval

    e, c = 6 * 10**18, [10**18] * 4
    assert handeval.cap([e, e, -e, -e], c) == [10**18, 10**18, -(10**18), -(10**18)]
    assert handeval.cap([e, -e, e, -e], c) == [10**18, -(10**18), 10**18, -(10**18)]
    # A real 十三水 deal: waters [-8, -1, 8, 1] at base 1069397621856973821.
    base = 1069397621856973821
    carried = [7, None, 251816, 375733]
    theoretical = [base * w for w in [-8, -1, 8, 1]]
    assert handeval.cap(theoretical, carried) == [0, -627549, 251816, 375733]
    assert handeval.cap(theoretical[::-1], carried[::-1]) == [375733, 251816, -627549, 0]


def test_cap_settles_in_any_seat_order():
    """§4: a game whose clamped amounts fit always settles, in every seat order, to the same
    amounts (up to which of two equal remainders gets a rounding unit)."""
    import itertools

    from hypothesis import given, settings

    import handeval

    @settings(max_examples=200, deadline=None)
    @given(_seat_order_cases())
    def check(pairs):
        # Each amount with its opposite, so the results add up to 0 and each fits.
        r = [a for a, _, _ in pairs] + [-a for a, _, _ in pairs]
        c = [x for _, x, _ in pairs] + [y for _, _, y in pairs]
        base = handeval.cap(r, c)
        assert sum(base) == 0
        for p in itertools.permutations(range(len(r))):
            out = handeval.cap([r[i] for i in p], [c[i] for i in p])
            assert sum(out) == 0
            assert all(abs(out[k] - base[i]) <= 1 for k, i in enumerate(p)), (out, base, p)

    check()


# --- 1.7: only the highest special can be declared -----------------------------------------


def test_only_the_highest_special_can_be_declared():
    """1.7: a 五对三条 hand is a 五对三条, never a 六对半 (a regression: declared as 六对半
    against a real 六对半 it tied [0, 0] instead of [5, -5])."""
    wu = "2h 2s 2d 5c 5d 7h 7s 9c 9d Jc Jd Ks Kc"
    liu = {"special": "liu_dui_ban", "cards": "3s 3h 4c 4d 6s 6h 8c 8d Ts Th Qs Qh Ah"}
    assert shisanshui.special(wu) == "wu_dui_santiao" and shisanshui.makes_special(wu, "liu_dui_ban")
    with pytest.raises(HandevalError) as e:
        shisanshui.settle([{"special": "liu_dui_ban", "cards": wu}, liu])
    assert e.value.field == "players[0]" and "wu_dui_santiao" in e.value.description
    assert shisanshui.settle([{"special": "wu_dui_santiao", "cards": wu}, liu]).waters == [5, -5]
    # Post-game analysis checks the opponents' declarations the same way.
    with pytest.raises(HandevalError, match="wu_dui_santiao"):
        shisanshui.best_response(liu["cards"], [{"special": "liu_dui_ban", "cards": wu}])


# --- §0: base=None is 1 in every game -------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda b: tl.settle(["", "3s"], 0, b).deltas,
        lambda b: tl.settle_instant([THIRTEEN_A, THIRTEEN_B], b).deltas,
        lambda b: tl.chop_transfers(CHOP_ROUND, b),
        lambda b: shisanshui.settle(SSW_HANDS, base=b).deltas,
        lambda b: dachu.settle([0], [0, 1, 2, 3], base=b).deltas,
    ],
    ids=["tienlen.settle", "tienlen.settle_instant", "tienlen.chop_transfers", "shisanshui.settle", "dachu.settle"],
)
def test_base_none_is_one_in_every_game(call):
    assert call(None) == call(1)


def test_base_may_be_left_out_in_every_game():
    assert tl.settle(["", "3s"], 0).deltas == tl.settle(["", "3s"], 0, 1).deltas
    assert tl.settle_instant([THIRTEEN_A, THIRTEEN_B]).deltas == tl.settle_instant([THIRTEEN_A, THIRTEEN_B], 1).deltas
    assert tl.chop_transfers(CHOP_ROUND) == tl.chop_transfers(CHOP_ROUND, 1)
    assert shisanshui.settle(SSW_HANDS).deltas == shisanshui.settle(SSW_HANDS, base=1).deltas
    assert dachu.settle([0], [0, 1, 2, 3]).deltas == dachu.settle([0], [0, 1, 2, 3], base=1).deltas


# --- 3.7: 打儲 settlement -------------------------------------------------------------------


def test_dachu_payments_to_the_same_receivers_are_shared_once():
    """3.7: several payments to the same receivers are added up and shared once (a regression:
    two escapes gave [6, 4, −5, −5]); 繳 of one side likewise."""
    assert dachu.settle([1], None, base=1, escaped=[2, 3]).deltas == [5, 5, -5, -5]
    assert dachu.settle([1], None, base=1, escaped=[3, 2]).deltas == [5, 5, -5, -5]
    # Two 繳 of one side (⌈1 / 2⌉ = 1 each): 2 shared by the other side, 1 + 1.
    assert dachu.settle([0, 2], base=1, surrendered=[1, 3]).deltas == [1, -1, 1, -1]
    # An escape ends the game: no places.
    with pytest.raises(HandevalError) as e:
        dachu.settle([1], [0, 1, 2, 3], escaped=[2])
    assert e.value.field == "places"


def test_dachu_a_side_left_with_one_player_is_scored_like_a_lone_player():
    """3.7 [decision]: after 包踹 (or a partner's 繳) a side with one playing player is
    scored like the lone player of 1 vs 3 among the seats that play."""
    # Seat 1 包踹 for seat 3 (被包打): three playing seats, the lone player is seat 1.
    lone3 = dict(base=10, bei_bao_da=[3])
    s = dachu.settle([0, 2], [1, 0, 2], **lone3)  # 1st → the 非儲方 win, 全殲
    assert (s.verdict, s.wipe_out, s.deltas) == ("loss", True, [-20, 20, -20, 20])
    s = dachu.settle([0, 2], [0, 1, 2], **lone3)  # 2nd → draw
    assert (s.verdict, s.deltas) == ("draw", [0, 0, 0, 0])
    s = dachu.settle([0, 2], [0, 2, 1], **lone3)  # 3rd → loss, wiped out
    assert (s.verdict, s.wipe_out, s.deltas) == ("win", True, [20, -20, 20, -20])
    # Two playing seats (seat 2 繳, seat 3 被包打): 1st → win and 全殲, 2nd → loss, wiped out.
    lone2 = dict(base=10, surrendered=[2], bei_bao_da=[3])
    s = dachu.settle([0, 2], [0, 1], **lone2)
    assert (s.verdict, s.wipe_out) == ("win", True) and s.deltas[0] > 0
    s = dachu.settle([0, 2], [1, 0], **lone2)
    assert (s.verdict, s.wipe_out) == ("loss", True) and s.deltas[0] < 0
    # 繳 is paid at the calling's multiplier (全殲 does not double it): ⌈10 / 2⌉ = 5.
    assert [x.amount for x in s.lines if x.kind == "jiao" and x.seat == 2] == [-5]


def test_dachu_settles_when_each_seat_fits():
    """§0: computed wider inside; only a seat's result that does not fit is refused
    (a regression: 5e18 × 2 "overflowed" though each seat's 5e18 fits)."""
    e = 5 * 10**18
    assert dachu.settle([0, 1], [0, 2, 1, 3], base=e).deltas == [e, e, -e, -e]
    # 1 vs 3, the lone winner's three units of 5e18 do not fit: refused.
    with pytest.raises(HandevalError, match="seat 0"):
        dachu.settle([0], [0, 1, 2, 3], base=e)


def test_dachu_lines_state_their_amounts_and_add_up():
    """3.7 (a regression: seat 0's −20 line said "3 × base × 2" = 60): every line's note ends
    with the amount it carries, and a seat's lines add up to its delta."""
    from hypothesis import given, settings, strategies as st

    s = dachu.settle([2], [2, 0, 1, 3], base=10)
    assert s.deltas == [-20, -20, 60, -20]
    assert [(x.seat, x.amount) for x in s.lines] == [(0, -20), (1, -20), (3, -20), (2, 60)]
    assert s.lines[0].text.endswith("60 / 3 = 20") and s.lines[3].text.endswith("= 60")

    seats = st.lists(st.integers(0, 3), unique=True, max_size=3)

    @settings(max_examples=400, deadline=None)
    @given(
        st.permutations([0, 1, 2, 3]),
        st.booleans(),
        st.integers(0, 5),
        st.one_of(st.integers(1, 1000), st.integers(1, 2**63 - 1)),
        seats,
        seats,
        seats,
        st.lists(st.one_of(st.none(), st.integers(0, 5000)), min_size=4, max_size=4),
        st.sampled_from(["larger_side", "losing_side"]),
        st.booleans(),
        st.booleans(),
    )
    def check(perm, two, m, base, jiao, bbd, esc, carried, unit_per, round_up, by_all):
        chu = [perm[0], perm[3]] if two else [perm[1]]
        bbd = [s for s in bbd if s not in jiao][:1]
        places = None if esc else [s for s in perm if s not in jiao and s not in bbd]
        rules = dachu.Rules(unit_per=unit_per, jiao_round_up=round_up, escape_shared_by_all=by_all)
        try:
            s = dachu.settle(
                chu,
                places,
                base=base,
                multiplier=2**m,
                surrendered=jiao,
                bei_bao_da=bbd,
                escaped=esc,
                carried=carried,
                rules=rules,
            )
        except HandevalError:
            return
        assert sum(s.deltas) == 0
        for seat in range(4):
            assert sum(x.amount for x in s.lines if x.seat == seat) == s.deltas[seat]
        for x in s.lines:
            assert x.text.endswith(f"= {abs(x.amount)}"), x

    check()

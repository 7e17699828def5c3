"""打儲 (dachu): docs/rules.md §3 through the public Python API."""

import itertools
import json
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st

import handeval
from handeval import HandevalError, dachu
from harness.deck import DECK

from strategies import DC_HANDS_SEAT0_AH as HANDS

VECTORS = json.loads((pathlib.Path(__file__).parents[1] / "vectors" / "seed_examples.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- seed vectors


def _dachu_vectors():
    for key, items in VECTORS.items():
        if key.startswith("dachu_"):
            for i, v in enumerate(items):
                yield pytest.param(key, v, id=f"{key}[{i}]")


@pytest.mark.parametrize("key,v", list(_dachu_vectors()))
def test_seed_vectors(key, v):
    if key == "dachu_beats":
        assert dachu.beats(v["play"], v["table"], v["chu"]) is v["expected"], v["source"]
    else:  # a new kind of dachu vector must get a checker here
        pytest.fail(f"no checker for seed vector group {key!r}")


def test_seed_vectors_exist():
    assert len(list(_dachu_vectors())) >= 7


# ---------------------------------------------------------------- plays


@pytest.mark.parametrize(
    "cards,chu,kind",
    [
        ("7d", "red", "single"),
        ("Ah Ad", "red", "du_chu"),
        ("Ah Ad", "black", "pair"),
        ("Ah As", "red", "pair"),  # [decision] 儲A + plain A is an ordinary AA
        ("As Ac", "black", "du_chu"),
        ("As 2s 3s", "red", "straight"),
        ("Qh Kh Ac", "red", "straight"),
        ("5s 5h 5d", "red", "triple_bomb"),
        ("Ks Kh Kd Kc", "red", "quad_bomb"),
        ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", "red", "straight"),
    ],
)
def test_classify_kinds(cards, chu, kind):
    assert dachu.classify(cards, chu).kind == kind


@pytest.mark.parametrize(
    "cards,why",
    [("Ks As 2s", "KA2"), ("3s 4s", "pair"), ("3s 3h 4s", "not a play"), ("3s 5s 6s", "consecutive"), ("", "empty")],
)
def test_classify_rejects_non_plays(cards, why):
    with pytest.raises(HandevalError, match=why):
        dachu.classify(cards, "red")


def test_thirteen_ranks_take_the_higher_reading():
    all13 = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"
    assert dachu.classify(all13, "red").strength == 14  # read 2…A, top A


def test_single_order_exhaustive():
    # 儲A > 2 > plain A > K > … > 3; equal ranks never beat each other.
    for chu in ("red", "black"):
        chu_aces = {"red": "hd", "black": "sc"}[chu]

        def value(c, chu_aces=chu_aces):
            r = c[0]
            if r == "A":
                return 14 if c[1] in chu_aces else 12
            return 13 if r == "2" else "3456789TJQK".index(r) + 1

        for a, b in itertools.permutations(DECK, 2):
            assert dachu.beats(a, b, chu) is (value(a) > value(b)), (a, b, chu)


def test_pairs_straights_bombs():
    assert dachu.beats("2s 2h", "As Ah", "red")
    assert dachu.beats("As Ah", "Ks Kh", "red")
    assert not dachu.beats("As Ah", "Ac Ad", "black")
    assert not dachu.beats("3s 4s 5s 6s", "3h 4h 5h", "red")
    assert dachu.beats("2s 3h 4d", "Ad 2h 3c", "red")
    assert dachu.beats("3s 3h 3d", "2s 2h", "red")
    assert dachu.beats("3s 3h 3d 3c", "2s 2h 2d", "red")
    assert not dachu.beats("3s 3h 3d", "4s 4h 4d 4c", "red")
    assert dachu.beats("Ah Ad", "2s 2h 2d 2c", "red")
    assert not dachu.beats("2s 2h 2d 2c", "Ah Ad", "red")
    assert not dachu.beats("Ks", "Kh Kd", "red")


def test_mixed_ace_pair_option():
    strict = dachu.Rules(mixed_ace_pair=False)
    with pytest.raises(HandevalError, match="mixed_ace_pair"):
        dachu.classify("Ah As", "red", rules=strict)
    assert dachu.classify("Ah As", "red", rules=handeval.Rules()).kind == "pair"
    with pytest.raises(HandevalError, match="mixed_ace_pair"):
        dachu.classify("Ah As", "red", rules=handeval.Rules(dachu=strict))


def test_beats_many_matches_beats():
    pairs = [("As", "2h"), ("2d", "Ah"), ("5s 5h 5d", "9s Tc Jd"), ("3s", "3h")]
    assert dachu.beats_many(pairs, "black") == [dachu.beats(p, t, "black") for p, t in pairs]


def test_beats_many_gives_each_item_its_result_or_error():
    out = dachu.beats_many(
        [("As", "2h"), ("Ks", "Ks"), ("3s 4d", "5s"), ("Xx", "5s"), ("5s",), (dachu.classify("2s", "red"), "Kh")], "red"
    )
    assert out[0] is False and out[5] is True
    for x, field, text in [
        (out[1], "pairs[1].table", "also in play"),
        (out[2], "pairs[2].play", "not a play"),
        (out[3], "pairs[3][0]", "bad card"),
        (out[4], "pairs[4]", "(play, table) pair"),
    ]:
        assert isinstance(x, HandevalError) and x.field == field and text in x.description, (x.field, x.description)
        assert str(x) == f"{x.field}: {x.description}"
    # Errors about the whole call still raise.
    with pytest.raises(HandevalError, match="pairs"):
        dachu.beats_many("As 2h", "red")
    with pytest.raises(HandevalError, match="chu"):
        dachu.beats_many([("As", "2h")], "green")


# ---------------------------------------------------------------- properties

_cards = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)


@settings(max_examples=400, deadline=None)
@given(a=_cards, b=_cards, chu=st.sampled_from(["red", "black"]))
def test_beats_asymmetric(a, b, chu):
    if set(a) & set(b):
        return
    try:
        ab, ba = dachu.beats(a, b, chu), dachu.beats(b, a, chu)
    except HandevalError:
        return
    assert not (ab and ba)


@settings(max_examples=300, deadline=None)
@given(a=_cards, perm=st.permutations("shdc"), chu=st.sampled_from(["red", "black"]))
def test_beats_irreflexive_on_equal_plays(a, perm, chu):
    # The same ranks in other suits make an equal play (儲 aces excepted): never beats.
    b = [c[0] + perm["shdc".index(c[1])] for c in a]
    try:
        pa, pb = dachu.classify(a, chu), dachu.classify(b, chu)
    except HandevalError:
        return
    if (pa.kind, pa.strength, len(pa)) != (pb.kind, pb.strength, len(pb)):
        return  # a 儲A moved
    if not set(a) & set(b):
        assert not dachu.beats(a, b, chu) and not dachu.beats(b, a, chu)


def test_beats_irreflexive_per_kind():
    # Every play value against an equal one of other cards: no kind beats itself.
    for kind_cards in (["5s", "5h"], ["5s 5h", "5d 5c"], ["3s 4s 5s", "3h 4h 5h"], ["As Kh Qd", "Ac Ks Qh"]):
        a, b = kind_cards
        assert not dachu.beats(a, b, "red") and not dachu.beats(b, a, "red")


# ---------------------------------------------------------------- legal plays


def _cards_of(plays):
    return [" ".join(p.cards) for p in plays]


def test_legal_plays_follow():
    assert _cards_of(dachu.legal_plays("3s 9h Kd 2c As", "Ks", "red")) == ["As", "2c"]
    assert _cards_of(dachu.legal_plays("3s 3h 9h 9d", "8s 8h", "red")) == ["9h 9d"]
    plays = dachu.legal_plays("4s 5h 6d 7c 7s 7h Ah Ad", "9s Tc Jd", "red")
    assert [p.kind for p in plays] == ["triple_bomb", "du_chu"]


def test_legal_plays_lead_weakest_first_and_all_beat():
    hand = "3s 4s 5s 5h 5d 9c Ah Ad 2c"
    plays = dachu.legal_plays(hand, None, "red")
    assert plays[0].cards == ["3s"] and plays[-1].kind == "du_chu"
    tiers = {"single": 0, "pair": 0, "straight": 0, "triple_bomb": 1, "quad_bomb": 2, "du_chu": 3}
    assert [tiers[p.kind] for p in plays] == sorted(tiers[p.kind] for p in plays)
    assert len({tuple(sorted(p.cards)) for p in plays}) == len(plays)
    for p in plays:
        for q in dachu.legal_plays(" ".join(c for c in hand.split() if c not in p.cards), p.cards, "red"):
            assert dachu.beats(q.cards, p.cards, "red")


def test_first_lead_rule():
    plays = dachu.legal_plays("3h 4s 5s 9d", None, "red", first_lead=True)
    assert plays and all("3h" in p.cards for p in plays)
    # 3♥ inside a triple bomb: any play.
    assert ["9d"] in [p.cards for p in dachu.legal_plays("3h 3s 3d 9d", None, "red", first_lead=True)]
    with pytest.raises(HandevalError, match="3h"):
        dachu.legal_plays("4s 5s", None, "red", first_lead=True)
    with pytest.raises(HandevalError, match="table"):
        dachu.legal_plays("3h 5s", "4s", "red", first_lead=True)
    # Surrendered holder: the 3♥ is played out as a single.
    assert _cards_of(dachu.legal_plays("3h 3s 9d", None, "red", first_lead=True, surrendered=True)) == ["3h"]


def test_meng_chuai_triple_is_not_split():
    shown = "7s 7h 7d"
    assert _cards_of(dachu.legal_plays("7s 7h 7d 7c 9s", None, "red", shown_triple=shown)) == [
        "7c",
        "9s",
        "7s 7h 7d",
        "7s 7h 7d 7c",
    ]
    assert _cards_of(dachu.legal_plays("7s 7h 7d 9s", "5s", "red", shown_triple=shown)) == ["9s", "7s 7h 7d"]
    with pytest.raises(HandevalError, match="never split"):
        dachu.legal_plays("7s 7h 9s", None, "red", shown_triple=shown)


def test_timeout_play():
    # The rightmost column as shown: Kd; the shown triple is skipped wherever it stands.
    assert dachu.timeout_play("3s 3h 3d 9c Kd", None, "red", shown_triple="3s 3h 3d") == ["Kd"]
    assert dachu.timeout_play("9c 3s 3h 3d", None, "red", shown_triple="3s 3h 3d") == ["9c"]
    assert dachu.timeout_play("3s 3h 3d", None, "red", shown_triple="3s 3h 3d") == ["3s", "3h", "3d"]
    assert dachu.timeout_play("3s 3h 9c", None, "red", first_lead=True) == ["3h"]
    # Following: the card when it beats the table, else a pass.
    assert dachu.timeout_play("3s 9c", "5d", "red") == ["9c"]
    assert dachu.timeout_play("9c 3s", "5d", "red") is None


# ---------------------------------------------------------------- the deal


def _deal_to(d, n):
    while d.dealt < n:
        d = d.apply(("deal",))
    return d


def test_ping_xuan():
    d = _deal_to(dachu.Deal(HANDS), 13).apply(("finish",))
    assert (d.chu, d.chu_source, d.multiplier, d.chu_side, d.teams, d.declared) == (
        "black",
        "ping_xuan",
        1,
        [2],
        "1v3",
        False,
    )
    assert d.last_card == "Ks" and d.first_leader == 1


def test_deal_declarations_double():
    d = dachu.Deal(HANDS)
    assert d.legal_actions == [("deal",)] and d.turn is None
    d = _deal_to(d, 1)
    assert ("meng_xuan", 0, "Ah") in d.legal_actions
    d = d.apply(("meng_xuan", 0, "Ah"))
    assert (d.chu, d.multiplier) == ("red", 2)
    with pytest.raises(HandevalError, match="once per player"):
        d.apply(("meng_xuan", 0, "Ah"))
    d = _deal_to(d, 5)
    assert ("meng_chuai", 0, ["5s", "5h", "5d"]) in d.legal_actions
    d = d.apply(("meng_chuai", 0, "5s 5h 5d"))
    assert d.multiplier == 4
    d = _deal_to(d, 9)
    assert d.dealt == 13
    d = d.apply(("finish",))
    assert (d.chu_side, d.teams, d.meng_chuai[0]) == ([0, 1], "2v2", ["5s", "5h", "5d"])
    c = d.calling()
    assert (c.multiplier, c.calling_side, c.turn) == (4, "chu", 0)


def test_cheng_chu():
    d = _deal_to(dachu.Deal(HANDS), 13)
    assert ("cheng_chu", 2, "black") in d.legal_actions
    e = d.apply(("cheng_chu", 2)).apply(("finish",))
    assert (e.chu, e.chu_source, e.multiplier, e.chu_side, e.declared) == ("black", "cheng_chu", 2, [2], True)
    with pytest.raises(HandevalError, match="both red aces"):
        d.apply(("cheng_chu", 1, "red"))
    # Option: 撐儲 only doubles; the colour still comes from 夢宣.
    opt = dachu.Rules(cheng_chu_alone=False)
    x = _deal_to(dachu.Deal(HANDS, rules=opt), 1).apply(("meng_xuan", 0, "Ah"))
    x = _deal_to(x, 13).apply(("cheng_chu", 2, "black")).apply(("finish",))
    assert (x.chu, x.multiplier, x.chu_side) == ("red", 4, [0, 1])


def test_deal_bad_input():
    with pytest.raises(HandevalError, match="unknown seat 4"):
        _deal_to(dachu.Deal(HANDS), 2).apply(("meng_xuan", 4, "Ah"))
    with pytest.raises(HandevalError, match="三張A"):
        _deal_to(
            dachu.Deal(
                [
                    "Ah As Ac 2s 3s 4s 6s 7s 8s 9s Ts Js 5s",
                    "Ad 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Qs",
                    "5h 5d 2d 3d 4d 6d 7d 8d 9d Td Jd Qd Kd",
                    HANDS[3],
                ]
            ),
            5,
        ).apply(("meng_chuai", 0, "Ah As Ac"))
    with pytest.raises(HandevalError, match="Ah"):
        dachu.Deal([HANDS[0], HANDS[1].replace("Ad", "Ah"), HANDS[2], HANDS[3]])
    with pytest.raises(HandevalError, match="unknown deal action"):
        dachu.Deal(HANDS).apply(("shuffle",))
    with pytest.raises(HandevalError, match="not finished"):
        dachu.Deal(HANDS).calling()
    with pytest.raises(AttributeError):
        dachu.Deal(HANDS).dealt = 5


def test_random_deals_multiplier_only_doubles():
    rng = random.Random(7)
    for _ in range(200):
        deck = DECK[:]
        rng.shuffle(deck)
        d = dachu.Deal([deck[i * 13 : (i + 1) * 13] for i in range(4)], rng.randrange(4))
        while not d.finished:
            a = rng.choice(d.legal_actions)
            n = d.apply(a)
            assert n.multiplier == d.multiplier * (1 if a[0] in ("deal", "finish") else 2)
            d = n
        assert d.teams in ("1v3", "2v2") and d.chu in ("red", "black")
        assert d.multiplier == 2 ** sum(1 for a in d.history if a[0] not in ("deal", "finish"))
        back = pickle_round_trip(d)  # a replay of the history gives the same state
        assert back == d and hash(back) == hash(d) and back.to_dict() == d.to_dict()


# ---------------------------------------------------------------- calling: every path of the seed's flow


def walk(c, *steps):
    for call, seat in steps:
        assert (call, seat) in c.legal_actions, (call, seat, c.legal_actions)
        c = c.apply((call, seat))
    return c


def one_v_three(declared=False):
    return dachu.Calling([0], declared)


def two_v_two(declared=False):
    return dachu.Calling([0, 2], declared)


def test_flow1_lone_chu_buttons():
    c = one_v_three()
    assert (c.turn, c.calling_side) == (0, "chu")
    assert [a for a, _ in c.legal_actions] == ["ping_da", "chuai", "jiao"]


def test_flow1_a_ping_da_starts_play():
    c = walk(one_v_three(), ("ping_da", 0))
    assert (c.over, c.outcome, c.multiplier, c.playing) == (True, "play", 1, [0, 1, 2, 3])


def test_flow1_b_chuai_hands_over_to_the_other_side():
    c = walk(one_v_three(), ("chuai", 0))
    assert (c.multiplier, c.calling_side, c.turn) == (2, "other", 1)
    assert [a for a, _ in c.legal_actions] == ["ping_da", "chuai", "bao_chuai", "jiao"]


def test_flow1_c_jiao_surrenders():
    c = walk(one_v_three(), ("jiao", 0))
    assert (c.outcome, c.surrendered_side, c.surrendered) == ("surrender", "chu", [0])
    s = c.settle(base=10)
    assert s.deltas == [-5, 2, 2, 1] and s.verdict is None


def test_flow2_a_both_ping_da():
    c = two_v_two()
    assert c.calling_side == "other"
    c = walk(c, ("ping_da", 1), ("ping_da", 3))
    assert (c.outcome, c.multiplier) == ("play", 1)


def test_flow2_b_both_jiao():
    c = walk(two_v_two(), ("jiao", 1), ("jiao", 3))
    assert (c.outcome, c.surrendered_side, c.surrendered) == ("surrender", "other", [1, 3])
    assert c.settle(base=10).deltas == [5, -5, 5, -5]


def test_flow2_c_bao_chuai_then_bao_chuai():
    c = walk(two_v_two(), ("bao_chuai", 1))
    assert (c.phase, c.legal_actions) == ("bao_chuai", [("bao_chuai", 3), ("jiao", 3)])
    c = walk(c, ("bao_chuai", 3))
    assert (c.bei_bao_da, c.bao_chuai, c.multiplier, c.calling_side) == ([1], (None, 3), 2, "chu")


def test_flow2_c_bao_chuai_then_jiao():
    c = walk(two_v_two(), ("bao_chuai", 1), ("jiao", 3), ("ping_da", 0), ("ping_da", 2))
    assert (c.outcome, c.surrendered, c.bao_chuai, c.playing, c.multiplier) == ("play", [3], (None, 1), [0, 1, 2], 2)


def test_flow2_c_chain_of_three():
    c = walk(one_v_three(), ("chuai", 0), ("bao_chuai", 1), ("bao_chuai", 2), ("jiao", 3))
    assert (c.bei_bao_da, c.surrendered, c.bao_chuai, c.multiplier, c.phase) == ([1], [3], (None, 2), 4, "second_round")


def test_flow2_d_chuai_then_gen_chuai():
    c = walk(two_v_two(), ("chuai", 1))
    assert [a for a, _ in c.legal_actions] == ["ping_da", "chuai", "bao_chuai", "jiao"]  # 平打 跟踹 包踹 繳
    c = c.apply(("gen_chuai", 3))
    assert (c.multiplier, c.calling_side, c.finals) == (2, "chu", [("other", "chuai")])


def test_flow2_d_disagreement_goes_to_a_second_round():
    c = walk(two_v_two(), ("chuai", 1), ("ping_da", 3))
    assert (c.phase, c.turn) == ("side_call_round2", 1)
    c = walk(c, ("chuai", 1), ("ping_da", 3))
    assert (c.outcome, c.multiplier) == ("play", 1)  # the last answer counts


def test_flow2_d_last_jiao_takes_the_previous_answer():
    c = walk(two_v_two(), ("chuai", 1), ("jiao", 3), ("chuai", 1), ("jiao", 3))
    assert (c.surrendered, c.multiplier, c.calling_side, c.finals) == ([3], 2, "chu", [("other", "chuai")])


def test_flow2_d_second_round_bao_chuai_enters_flow_c():
    c = walk(two_v_two(), ("chuai", 1), ("ping_da", 3), ("bao_chuai", 1))
    assert (c.phase, c.legal_actions) == ("bao_chuai", [("bao_chuai", 3), ("jiao", 3)])


def test_note1_bao_chuai_once_per_player_and_doubles():
    c = walk(two_v_two(True), ("chuai", 0), ("chuai", 2), ("bao_chuai", 1), ("jiao", 3))
    assert c.multiplier == 4 and c.phase == "second_round"
    c = walk(c, ("ping_da", 0), ("ping_da", 2))
    assert c.turn == 1
    with pytest.raises(HandevalError, match="already chosen 包踹") as e:
        c.apply(("bao_chuai", 1))
    assert e.value.field == "action"


def test_note2_bei_bao_da_pays_with_the_side():
    c = walk(two_v_two(), ("bao_chuai", 1), ("bao_chuai", 3), ("ping_da", 0), ("ping_da", 2))
    assert c.playing == [0, 2, 3]
    s = c.settle([3, 0, 2], base=10)  # the 包踹 player goes out first: 非儲方 wins, 全殲
    assert (s.verdict, s.wipe_out, s.deltas) == ("loss", True, [-40, 40, -40, 40])


def test_note3_second_round_between_sides():
    c = walk(two_v_two(True), ("chuai", 0), ("chuai", 2), ("chuai", 1), ("chuai", 3))
    assert (c.phase, c.turn, c.multiplier) == ("second_round", 0, 4)
    assert [a for a, _ in c.legal_actions] == ["ping_da", "chuai"]
    c = walk(c, ("ping_da", 0), ("chuai", 2))
    assert c.calling_side == "other"
    c = walk(c, ("chuai", 1), ("ping_da", 3))
    assert (c.outcome, c.multiplier) == ("play", 8)


def test_note4_each_final_chuai_doubles():
    c = walk(one_v_three(True), ("chuai", 0))
    assert c.multiplier == 2
    c = walk(c, ("chuai", 1), ("chuai", 2), ("chuai", 3))
    assert c.multiplier == 4
    c = walk(c, ("chuai", 0), ("chuai", 1), ("chuai", 2), ("chuai", 3))
    assert (c.multiplier, c.outcome) == (16, "play")


def test_second_side_ping_da_starts_play():
    c = walk(one_v_three(), ("chuai", 0), ("ping_da", 1), ("ping_da", 2), ("ping_da", 3))
    assert (c.outcome, c.multiplier) == ("play", 2)


def test_second_side_all_jiao_surrenders():
    c = walk(one_v_three(), ("chuai", 0), ("jiao", 1), ("jiao", 2), ("jiao", 3))
    assert (c.outcome, c.surrendered_side, c.multiplier) == ("surrender", "other", 2)
    s = c.settle(base=10)  # each pays 10 × 2 / 2 to the lone 儲
    assert s.deltas == [30, -10, -10, -10]


def test_flow2_d_three_players_disagree_at_once():
    # 1 vs 3: as soon as the second answer differs, the first player is asked again.
    c = walk(one_v_three(), ("chuai", 0), ("chuai", 1), ("ping_da", 2))
    assert (c.phase, c.turn, c.waiting) == ("side_call_round2", 1, [1, 2, 3])
    c = walk(c, ("chuai", 1), ("chuai", 2), ("jiao", 3))
    assert (c.surrendered, c.finals[-1], c.multiplier, c.phase) == ([3], ("other", "chuai"), 4, "second_round")


def test_deal_to_calling_to_settlement():
    d = _deal_to(dachu.Deal(HANDS), 1).apply(("meng_xuan", 1, "Ad"))
    d = _deal_to(d, 13).apply(("finish",))
    assert (d.chu_side, d.multiplier) == ([0, 1], 2)
    c = walk(d.calling(), ("chuai", 0), ("chuai", 1), ("ping_da", 2), ("ping_da", 3))
    assert (c.outcome, c.multiplier) == ("play", 4)
    s = c.settle([1, 0, 3, 2], base=5)  # 儲方 1st + 2nd: win, 全殲 → unit 5 × 8
    assert (s.verdict, s.wipe_out, s.result_multiplier, s.deltas) == ("win", True, 8, [40, 40, -40, -40])
    assert s.to_dict()["lines"][0]["kind"] == "result"


def test_first_caller_rules():
    assert dachu.Calling([0, 2]).calling_side == "other"
    assert dachu.Calling([0, 2], declared=True).calling_side == "chu"
    assert dachu.Calling([1]).calling_side == "chu"
    assert dachu.Calling([0, 2], rules=dachu.Rules(first_caller_2v2="chu")).calling_side == "chu"
    c = dachu.Calling([0], first_side="other")
    c = walk(c, ("chuai", 1), ("chuai", 2), ("chuai", 3))
    assert [a for a, _ in c.legal_actions] == ["ping_da", "chuai", "jiao"]  # the lone 儲: no 包踹


@pytest.mark.parametrize(
    "action,match",
    [
        (("ping_da", 0), "out of turn"),
        (("ping_da", 7), "unknown seat 7"),
        (("pass", 1), "unknown call"),
        (("ping_da",), "argument"),
        ("ping_da", "argument"),
    ],
)
def test_calling_bad_input(action, match):
    with pytest.raises(HandevalError, match=match):
        two_v_two().apply(action)


def test_calling_bad_construction():
    with pytest.raises(HandevalError, match="unknown seat 5"):
        dachu.Calling([5])
    with pytest.raises(HandevalError, match="power of two"):
        dachu.Calling([0], multiplier=3)
    with pytest.raises(HandevalError, match="chu_side"):
        dachu.Calling([0, 0])
    with pytest.raises(HandevalError, match="over"):
        walk(one_v_three(), ("ping_da", 0)).apply(("ping_da", 0))
    with pytest.raises(HandevalError, match="not allowed"):
        one_v_three().apply(("bao_chuai", 0))


@settings(max_examples=300, deadline=None)
@given(
    chu=st.sampled_from([[0], [3], [0, 2], [1, 2]]),
    declared=st.booleans(),
    start=st.integers(0, 3),
    picks=st.lists(st.integers(0, 3), max_size=20),
    base=st.integers(1, 1000),
    seed=st.integers(0, 2**32),
)
def test_calling_walks_double_only_and_settle_zero_sum(chu, declared, start, picks, base, seed):
    c = dachu.Calling(chu, declared, start_seat=start)
    kicks = 0
    for k in picks:
        if c.over:
            break
        n = c.apply(c.legal_actions[k % len(c.legal_actions)])
        assert n.multiplier in (c.multiplier, 2 * c.multiplier)
        kicks += n.multiplier != c.multiplier
        c = n
    assert c.multiplier == 2**kicks == 2 ** sum(x in ("chuai", "bao_chuai") for _, x in c.finals)
    back = pickle_round_trip(c)
    assert back == c and hash(back) == hash(c) and back.legal_actions == c.legal_actions
    if c.over:
        places = None
        if c.outcome == "play":
            places = c.playing
            random.Random(seed).shuffle(places)
        s = c.settle(places, base=base)
        assert sum(s.deltas) == 0
        for seat in range(4):
            assert sum(line.amount for line in s.lines if line.seat == seat) == s.deltas[seat]


# ---------------------------------------------------------------- settlement (RULES 3.7)

# One row per line of RULES 3.7 (base 10, multiplier 1): 儲方 seats, finishing order,
# verdict, 全殲, deltas.
OUTCOME_TABLE = [
    ("1v3: 儲方 1st → win, 全殲", [0], [0, 1, 2, 3], "win", True, [60, -20, -20, -20]),
    ("1v3: 儲方 2nd → draw", [0], [1, 0, 2, 3], "draw", False, [0, 0, 0, 0]),
    ("1v3: 儲方 3rd → draw", [0], [1, 2, 0, 3], "draw", False, [0, 0, 0, 0]),
    ("1v3: 儲方 4th → loss, wiped out", [0], [1, 2, 3, 0], "loss", True, [-60, 20, 20, 20]),
    ("2v2: 1+2 → win, 全殲", [0, 2], [2, 0, 3, 1], "win", True, [20, -20, 20, -20]),
    ("2v2: 1+3 → win", [0, 2], [0, 1, 2, 3], "win", False, [10, -10, 10, -10]),
    ("2v2: 1+4 → draw", [0, 2], [0, 1, 3, 2], "draw", False, [0, 0, 0, 0]),
    ("2v2: 2+3 → draw", [0, 2], [1, 0, 2, 3], "draw", False, [0, 0, 0, 0]),
    ("2v2: 3+4 → loss, wiped out", [0, 2], [1, 3, 2, 0], "loss", True, [-20, 20, -20, 20]),
]


@pytest.mark.parametrize("name,chu,places,verdict,wipe,deltas", OUTCOME_TABLE, ids=[r[0] for r in OUTCOME_TABLE])
def test_outcome_table(name, chu, places, verdict, wipe, deltas):
    s = dachu.settle(chu, places, base=10)
    assert (s.verdict, s.wipe_out, s.deltas) == (verdict, wipe, deltas)
    assert s.result_multiplier == (2 if wipe else 1)


def test_settle_units_and_options():
    # 2+4 for the 儲方 is 1+3 for the other side: a loss without 全殲.
    assert dachu.settle([0, 2], [1, 0, 3, 2], base=10).deltas == [-10, 10, -10, 10]
    ls = dachu.Rules(unit_per="losing_side")
    assert dachu.settle([0], [1, 2, 3, 0], base=10, rules=ls).deltas == [-20, 7, 7, 6]
    assert dachu.settle([0], [0, 1, 2, 3], base=10, multiplier=4).deltas == [240, -80, -80, -80]


def test_jiao_escape_cap():
    # 繳 pays base × multiplier / 2 to the other side, equally.
    s = dachu.settle([0, 2], None, base=10, multiplier=2, surrendered=[1, 3])
    assert s.deltas == [10, -10, 10, -10] and {line.kind for line in s.lines} == {"jiao"}
    # Escape: base × multiplier × 5, by default shared by the three others.
    s = dachu.settle([0, 2], base=10, escaped=[1])
    assert s.deltas == [17, -50, 17, 16]
    s = dachu.settle([0, 2], base=10, escaped=[1], rules=dachu.Rules(escape_shared_by_all=False))
    assert s.deltas == [25, -50, 25, 0]
    s = dachu.settle([0, 2], base=10, escaped=[1], rules=dachu.Rules(escape_units=3))
    assert s.deltas[1] == -30
    # RULES 3.7 v5: a penalty whose receivers all escaped too is not paid: seat 0's
    # opponents 1 and 3 escaped, so seat 0 pays nothing; with every seat escaping, all 0.
    opponents_only = dachu.Rules(escape_shared_by_all=False)
    s = dachu.settle([0, 2], base=1, escaped=[0, 1, 3], rules=opponents_only)
    assert s.deltas == [0, -5, 10, -5]
    for rules in (opponents_only, dachu.Rules()):
        assert dachu.settle([0, 2], base=1, escaped=[0, 1, 2, 3], rules=rules).deltas == [0, 0, 0, 0]
    # The cap (money::cap) with an itemised adjustment.
    s = dachu.settle([0], [0, 1, 2, 3], base=10, carried=[30, None, None, None])
    assert s.theoretical == [60, -20, -20, -20] and s.deltas == [30, -10, -10, -10]
    assert any(line.kind == "cap" for line in s.lines)


@settings(max_examples=300, deadline=None)
@given(
    perm=st.permutations([0, 1, 2, 3]),
    lone=st.booleans(),
    m=st.integers(0, 8),
    base=st.integers(1, 10**6),
    carried=st.lists(st.one_of(st.none(), st.integers(0, 10**7)), min_size=4, max_size=4),
    esc=st.one_of(st.none(), st.integers(0, 3)),
    rules=st.builds(
        dachu.Rules, escape_shared_by_all=st.booleans(), unit_per=st.sampled_from(["larger_side", "losing_side"])
    ),
)
def test_settlements_zero_sum(perm, lone, m, base, carried, esc, rules):
    chu = [perm[1]] if lone else [perm[0], perm[3]]
    places = None if esc is not None else perm
    s = dachu.settle(
        chu, places, base=base, multiplier=2**m, escaped=[] if esc is None else [esc], carried=carried, rules=rules
    )
    assert sum(s.deltas) == 0 and sum(s.theoretical) == 0
    for seat, c in enumerate(carried):
        if c is not None:
            assert abs(s.deltas[seat]) <= c
    # Every line's kind is one of LineKind; each seat's lines add up to its delta.
    kinds = {x.value for x in dachu.LineKind}
    for x in s.lines:
        assert x.kind in kinds and dachu.LineKind(x.kind) == x.kind, x
    for seat in range(4):
        assert sum(x.amount for x in s.lines if x.seat == seat) == s.deltas[seat]


def test_line_fields_are_kind_and_text_like_tienlen():
    s = dachu.settle([2], [2, 0, 1, 3], base=10)
    line = s.lines[0]
    assert dachu.Line.__match_args__ == ("kind", "seat", "amount", "text")
    assert list(line.to_dict()) == ["kind", "seat", "amount", "text"]
    assert line.kind == dachu.LineKind.RESULT and line.amount == (60 if line.seat == 2 else -20)
    assert line.text.endswith(f"= {abs(line.amount)}")
    assert dachu.Line("cap", 1, -5, "t") == dachu.Line(kind="cap", seat=1, amount=-5, text="t")
    assert line.replace(text="x").text == "x"
    # The old names still read, with a DeprecationWarning naming the new one.
    with pytest.warns(DeprecationWarning, match="use Line.kind"):
        assert line.item == line.kind
    with pytest.warns(DeprecationWarning, match="use Line.text"):
        assert line.note == line.text
    # The CLI's text lines read the new fields and keep their shape.
    assert f"{line.kind}: {line.text}".startswith("result: ")


def test_line_kind_enum_matches_the_proto_and_the_strings():
    pb = pytest.importorskip("handeval.v2.dachu_pb2")
    names = [n for n in pb.DachuLineKind.keys() if n != "DACHU_LINE_KIND_UNSPECIFIED"]
    assert [k.name for k in dachu.LineKind] == [n.removeprefix("DACHU_LINE_KIND_") for n in names]
    for k in dachu.LineKind:
        assert k == k.value and hash(k) == hash(k.value) and str(k) == f"{k}" == k.value
    assert {dachu.LineKind.JIAO} == {"jiao"} and dachu.LineKind("cap") is dachu.LineKind.CAP


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(chu_side=[0], places=[0, 1, 2]), "places"),
        (dict(chu_side=[7], places=[0, 1, 2, 3]), "unknown seat 7"),
        (dict(chu_side=[0], places=[0, 1, 2, 9]), "unknown seat 9"),
        (dict(chu_side=[0], places=None), "finishing order"),
        (dict(chu_side=[0], places=[0, 1, 2, 3], multiplier=6), "power of two"),
        (dict(chu_side=[0], places=[0, 1, 2, 3], base=0), "base"),
        (dict(chu_side=[0], places=[0, 1, 2, 3], escaped=[1]), "abandoned"),
    ],
)
def test_settle_bad_input(kwargs, match):
    with pytest.raises(HandevalError, match=match):
        dachu.settle(**kwargs)  # all by keyword, as the gRPC DachuDeal.args are passed


def test_settle_needs_a_finished_calling():
    with pytest.raises(HandevalError, match="not over"):
        dachu.settle(two_v_two(), [0, 1, 2, 3])


# ---------------------------------------------------------------- bad input everywhere


@pytest.mark.parametrize(
    "call",
    [
        lambda: dachu.classify("As", "green"),
        lambda: dachu.beats("As", "Ks", "blue"),
        lambda: dachu.legal_plays("As Ks", None, "RED"),
        lambda: dachu.timeout_play("As Ks", None, ""),
        lambda: dachu.beats_many([("As", "Ks")], "purple"),
    ],
)
def test_chu_must_be_red_or_black(call):
    with pytest.raises(HandevalError, match="儲 colour|red") as e:
        call()
    assert e.value.field == "chu"


def test_cards_errors_name_the_field():
    with pytest.raises(HandevalError, match="table") as e:
        dachu.beats("As", "Xx", "red")
    assert e.value.field == "table"
    with pytest.raises(HandevalError, match="also in"):
        dachu.beats("As", "As", "red")
    with pytest.raises(HandevalError, match="13"):
        dachu.legal_plays(DECK[:14], None, "red")


def test_rules_defaults_are_named_options():
    r = dachu.Rules()
    assert (r.mixed_ace_pair, r.cheng_chu_alone, r.escape_shared_by_all, r.unit_per) == (
        True,
        True,
        True,
        "larger_side",
    )
    assert handeval.Rules().dachu == r
    with pytest.raises(HandevalError, match="rules"):
        dachu.classify("As", "red", rules=object())


# ---------------------------------------------------------------- the native classes


def _states():
    d = _deal_to(dachu.Deal(HANDS), 1).apply(("meng_xuan", 1, "Ad"))
    d = _deal_to(d, 13).apply(("finish",))
    c = walk(d.calling(), ("chuai", 0), ("chuai", 1), ("ping_da", 2))
    return [
        (dachu.Deal(HANDS), dachu.Deal(HANDS, first_seat=2)),
        (d, _deal_to(dachu.Deal(HANDS), 2)),
        (c, c.apply(("ping_da", 3))),
        (walk(two_v_two(), ("bao_chuai", 1)), walk(two_v_two(), ("jiao", 1))),
        (dachu.Calling([1], rules=dachu.Rules(first_caller_2v2="chu")), dachu.Calling([1], multiplier=4)),
    ]


@pytest.mark.parametrize("state, other", _states(), ids=lambda o: type(o).__name__)
def test_states_are_frozen_values(state, other):
    import json
    import pickle

    cls = type(state)
    assert cls in (dachu.Deal, dachu.Calling) and cls.__module__ == "handeval.dachu"
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state) and again is not state
    assert again.history == state.history and again.legal_actions == state.legal_actions
    assert again.to_dict() == state.to_dict()
    json.dumps(state.to_dict())
    assert state != other and len({state, again, other}) == 2
    assert repr(state).startswith(cls.__name__ + "(") and "multiplier=" in repr(state)
    with pytest.raises(AttributeError):
        state.multiplier = 0
    # apply returns a new state and leaves this one as it was.
    before = state.to_dict()
    if state.legal_actions:
        assert state.apply(state.legal_actions[0]) != state
    assert state.to_dict() == before


def test_deal_and_calling_are_the_native_classes():
    assert dachu.Deal is handeval._core.DachuDeal and dachu.Calling is handeval._core.DachuCalling
    d = _deal_to(dachu.Deal(HANDS), 13).apply(("finish",))
    assert (d.turn, d.teams, d.chu_source) == (None, "2v2" if len(d.chu_side) == 2 else "1v3", "ping_xuan")
    c = d.calling()
    assert isinstance(c, dachu.Calling) and c.multiplier == d.multiplier
    assert pickle_round_trip(c).apply(c.legal_actions[0]) == c.apply(c.legal_actions[0])


def pickle_round_trip(x):
    import pickle

    return pickle.loads(pickle.dumps(x))


def test_play_fields_constructor_and_reuse():
    p = dachu.classify("As", "black")
    assert (p.kind, p.kind_zh, p.cards, p.strength, len(p)) == ("single", "單張", ["As"], 14, 1)
    assert dachu.classify("As", "red").strength == 12
    # The constructor checks that the cards make that play under one 儲 colour.
    assert dachu.Play("single", "單張", ["As"], 12) == dachu.classify("As", "red")
    with pytest.raises(HandevalError) as e:
        dachu.Play("single", "單張", ["As"], 13)
    assert e.value.field == "strength"
    with pytest.raises(HandevalError) as e:
        dachu.Play("pair", "對子", ["As"], 12)
    assert e.value.field == "kind"
    with pytest.raises(HandevalError, match="not a play"):
        dachu.Play("pair", "對子", ["As", "Kd"], 12)
    # A Play passed back in is used as is.
    table = dachu.classify("9s 9h", "red")
    hand = "Ts Th 2s 2h 3c"
    assert dachu.legal_plays(hand, table, "red") == dachu.legal_plays(hand, "9s 9h", "red")
    assert dachu.beats(dachu.classify("Ts Th", "red"), table, "red")
    assert dachu.timeout_play(hand, None, "red") == ["3c"]


def test_every_function_taking_rules_reads_them():
    # Validation of each option at construction: tests/api/test_native_types.py.
    # A Calling settles under the rules it was made with (from the Deal), unless overridden.
    ls = dachu.Rules(unit_per="losing_side")
    d = _deal_to(dachu.Deal(HANDS, rules=ls), 13).apply(("finish",))  # 1 vs 3, seat 2 alone
    c = walk(d.calling(), ("ping_da", 2))
    assert (
        c.settle([0, 1, 3, 2], base=10).deltas
        == dachu.settle([2], [0, 1, 3, 2], base=10, rules=ls).deltas
        == [7, 7, -20, 6]
    )
    assert dachu.settle(c, [0, 1, 3, 2], base=10).deltas == [7, 7, -20, 6]
    assert c.settle([0, 1, 3, 2], base=10, rules=dachu.Rules()).deltas == [20, 20, -60, 20]
    assert pickle_round_trip(c).settle([0, 1, 3, 2], base=10).deltas == [7, 7, -20, 6]
    bundle = handeval.Rules(dachu=dachu.Rules(mixed_ace_pair=False))
    assert bundle.dachu.mixed_ace_pair is False
    with pytest.raises(HandevalError, match="dachu"):
        handeval.Rules(dachu=handeval.tienlen.Rules())
    # Every function taking rules= honours them (mixed_ace_pair changes what is a play).
    strict = dachu.Rules(mixed_ace_pair=False)
    hand = "Ah As 3c 4d"
    assert ["As", "Ah"] in [p.cards for p in dachu.legal_plays(hand, None, "red")]
    assert ["As", "Ah"] not in [p.cards for p in dachu.legal_plays(hand, None, "red", rules=bundle)]
    assert dachu.beats_many([("Ah As", "Ks Kd")], "red", rules=strict)[0].field == "pairs[0].play"
    with pytest.raises(HandevalError, match="mixed_ace_pair"):
        dachu.beats("Ah As", "Ks Kd", "red", rules=strict)


def test_constants_are_the_rule_books():
    # The module's lists come from the core; RULES 3.2 and 3.6 fix them.
    assert dachu.KINDS == ("single", "pair", "straight", "triple_bomb", "quad_bomb", "du_chu")
    assert dachu.CALLS == ("ping_da", "chuai", "bao_chuai", "jiao")
    assert [a for a, _ in two_v_two().legal_actions] == list(dachu.CALLS)

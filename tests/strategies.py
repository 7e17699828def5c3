"""Hypothesis strategies and card constants shared by more than one test layer (tests/api,
tests/cli, tests/grpc); importable from any test folder because tests/ is on sys.path (conftest.py)."""

from hypothesis import strategies as st

from handeval import shisanshui as ssw
from harness.deck import DECK, RANKS

#: A 十三水 hand of 13.
SSW_HAND = "As Ks Qh Jd 9c 8c 7s 6h 5d 4c 3s 2h 2d"
#: Four 越式13张 hands of 13 for whole game records: seat 0 holds the 3s, seat 3 the four
#: aces.
TL_HANDS = [
    "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d",
    "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h",
    "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Kc Qc",
    "3c 4c 5c 6c 7c 8c 9c Tc Jc Ad As Ac Ah",
]
#: Four 打儲 hands of 13 for whole game records (each seat's cards in dealing order);
#: seat 1 holds the red Ah.
DC_HANDS = [
    "3h 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2s",
    "Ah Ad 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2h",
    "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd As 2d",
    "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c",
]
#: Four 打儲 hands of 13 (each seat's cards in dealing order); seat 0 holds the red Ah.
DC_HANDS_SEAT0_AH = [
    "Ah 5s 5h 5d 2s 3s 4s 6s 7s 8s 9s Ts Js",
    "Ad 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Qs",
    "As Ac 2d 3d 4d 6d 7d 8d 9d Td Jd Qd Kd",
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ks",
]
#: Four 打儲 hands of 13 where seats 0 and 1 each hold a triple to 夢踹 (5s 5h 5d, 6h 6d 6c)
#: after five deals; seat 0 holds the red Ah.
DC_DECLARING_HANDS = [
    "Ah 5s 5h 5d 2s 3s 4s 6s 7s 8s 9s Ts Js",
    "Ad 6h 6d 6c 2h 3h 4h 7h 8h 9h Th Jh Qh",
    "As Ac 2d 3d 4d 7d 8d 9d Td Jd Qd Kd Kh",
    "2c 3c 4c 5c 7c 8c 9c Tc Jc Qc Kc Ks Qs",
]


@st.composite
def ssw_deal(draw):
    """A 十三水 deal of 2-4 seats: declared specials, any splits (mostly fouled) or splits by
    rank (scoops, home runs), carried amounts, base and rules."""
    n = draw(st.integers(2, 4))
    cards = draw(st.permutations(DECK))
    players = []
    for i in range(n):
        h = cards[13 * i : 13 * i + 13]
        sid = ssw.special(h)
        if sid and draw(st.booleans()):
            players.append({"special": sid, "cards": h})
        else:  # any split (mostly fouled), or one by rank (mostly not: scoops, home runs)
            if draw(st.booleans()):
                h = sorted(h, key=lambda c: RANKS.index(c[0]))
            players.append({"front": h[:3], "middle": h[3:8], "back": h[8:]})
    carried = draw(st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(0, 10**6)), min_size=n, max_size=n)))
    base = draw(st.integers(1, 10**6))
    rules = ssw.Rules(
        suit_tiebreak=draw(st.booleans()),
        home_run_min_opponents=draw(st.integers(1, 3)),
        rake_percent=draw(st.sampled_from([0, 5])),
    )
    return players, base, carried, rules

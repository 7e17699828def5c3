"""Hypothesis strategies and card constants shared by more than one test layer (tests/api,
tests/grpc); importable from any test folder because tests/ is on sys.path (conftest.py)."""

from hypothesis import strategies as st

from handeval import shisanshui as ssw

RANKS = "23456789TJQKA"
SUITS = "shdc"
DECK = [r + s for r in RANKS for s in SUITS]


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

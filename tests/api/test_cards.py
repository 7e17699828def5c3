"""Cards and money shared by every game (docs/rules.md §0 and §4)."""

import pytest
from hypothesis import given, strategies as st

import handeval
from handeval import HandevalError
from harness.deck import DECK, RANKS, SUITS


def test_notations():
    assert handeval.parse_cards("As 10d ♥3") == ["As", "Td", "3h"]
    assert handeval.parse_cards("as,TD, 7♣  ♠q") == ["As", "Td", "7c", "Qs"]
    assert handeval.parse_cards(["10h", "kC"]) == ["Th", "Kc"]
    assert handeval.parse_cards("") == []


def test_every_card_round_trips():
    assert handeval.parse_cards(" ".join(DECK)) == DECK


@pytest.mark.parametrize(
    "text, words",
    [
        ("As Xs", ['"Xs"', "position 1", "rank"]),
        ("As Kx", ['"Kx"', "suit"]),
        ("As,,Kd", ["empty", "position 1"]),
        ("As Kd aS", ["duplicate card As", "0 and 2"]),
        ("A", ['"A"', "rank and a suit"]),
    ],
)
def test_bad_cards_name_token_and_position(text, words):
    with pytest.raises(HandevalError) as e:
        handeval.parse_cards(text)
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("bad", [None, 5, ["As", 3], [["As"]], b"As", {"As": 1}])
def test_non_card_objects_are_handeval_errors(bad):
    with pytest.raises(HandevalError) as e:
        handeval.parse_cards(bad)
    assert e.value.field == "cards"
    assert isinstance(e.value, ValueError)


def test_cap_seed_vectors(vectors):
    for v in vectors["cap"]:
        assert handeval.cap(v["theoretical"], v["carried"]) == v["expected"], v["source"]


def test_cap_bad_input():
    with pytest.raises(HandevalError, match="carried"):
        handeval.cap([1, -1], [1])
    with pytest.raises(HandevalError, match=r"carried\[0\]"):
        handeval.cap([1, -1], [-5, None])
    with pytest.raises(HandevalError, match="add up to 0"):
        handeval.cap([1, 0], [None, None])
    with pytest.raises(HandevalError, match="64-bit"):
        handeval.cap([2**70, -(2**70)], [None, None])


@st.composite
def zero_sum(draw):
    n = draw(st.integers(2, 6))
    r = draw(st.lists(st.integers(-(10**12), 10**12), min_size=n, max_size=n))
    r[0] -= sum(r)
    carried = draw(st.lists(st.one_of(st.none(), st.integers(0, 10**12)), min_size=n, max_size=n))
    return r, carried


@given(zero_sum())
def test_cap_is_zero_sum_and_never_exceeds_carried(case):
    r, carried = case
    out = handeval.cap(r, carried)
    assert sum(out) == 0
    for o, c, t in zip(out, carried, r):
        if c is not None:
            assert abs(o) <= c
        assert abs(o) <= abs(t) and (o == 0 or (o > 0) == (t > 0))


# The binding reads the common ASCII forms ("As Kd", "10h", "sA", any case; items of a
# list) on a fast path and hands anything else to the core parser. Joining the same
# tokens with commas (or padding list items) always takes the core's path, so the two
# spellings must agree: same cards, or both a HandevalError with the same description.
_TOKEN = st.one_of(
    st.builds(
        lambda r, s, swap, up: ((s + r) if swap else (r + s)).upper() if up else ((s + r) if swap else (r + s)),
        st.sampled_from(list(RANKS) + ["10", "t", "a", "k", "1", "0", "X"]),
        st.sampled_from(list(SUITS) + ["S", "H", "x", "♠", "♥"]),
        st.booleans(),
        st.booleans(),
    ),
    st.sampled_from(["", "A", "As1", "10", "AsKd", "1Os"]),
)


def _outcome(cards):
    try:
        return handeval.parse_cards(cards)
    except HandevalError as e:
        return ("error", e.description)


@given(st.lists(_TOKEN, max_size=14))
def test_fast_card_path_agrees_with_the_core_parser(tokens):
    fast, core = _outcome(" ".join(tokens)), _outcome(",".join(tokens))
    if "" in tokens or not tokens:
        return  # empty tokens: spaces collapse, commas refuse; not the same input
    assert fast == core, tokens
    assert _outcome(list(tokens)) == _outcome([f" {t} " for t in tokens]), tokens

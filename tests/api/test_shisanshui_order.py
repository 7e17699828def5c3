"""handeval.shisanshui.order_keys: one integer per row that ranks independent rows as
compare does (the core checks it against every row exhaustively; here the binding)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from handeval import HandevalError, shisanshui
from harness.deck import DECK

RULES = [None, shisanshui.Rules(suit_tiebreak=False), shisanshui.Rules(a2345="second_highest", suit_order="dchs")]


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.sampled_from([3, 5]), st.sampled_from(RULES))
def test_keys_order_two_rows_of_one_deck_as_compare_does(deck, n, rules):
    a, b = " ".join(deck[:n]), " ".join(deck[n : 2 * n])
    ka, kb = shisanshui.order_keys([a, b], rules=rules)
    assert (ka > kb) - (ka < kb) == shisanshui.compare(a, b, rules=rules)


def test_rows_may_share_cards_and_bad_rows_are_named():
    royal, wheel = "As Ks Qs Js Ts", "As 2s 3s 4s 5s"
    k = shisanshui.order_keys([royal, wheel, "Ts Js Qs Ks As", "As Kd Qd Jd Td"])
    assert k[0] == k[2] > k[1] > k[3]  # the same cards tie; a straight flush beats a straight
    assert shisanshui.order_keys([]) == []
    for rows, field, what in (
        ([royal, "2s 3s 4s"], "rows[1]", "has 3 cards, the first row has 5"),
        ([royal, "2s 2s 3s 4s 5s"], "rows[1]", "duplicate"),
        (["Xs 2s 3s"], "rows[0]", "bad card"),
        ("As Ks Qs", "rows", "expected a list"),
    ):
        with pytest.raises(HandevalError) as ei:
            shisanshui.order_keys(rows)
        assert ei.value.field == field and what in ei.value.description
    with pytest.raises(HandevalError) as ei:
        shisanshui.order_keys([royal], rules="bad")
    assert ei.value.field == "rules"

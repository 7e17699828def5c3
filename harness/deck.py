"""The one test deck: every card as handeval writes it, in id order (``id = rank * 4 +
suit``, rank 0 = '2' … 12 = 'A', suit s h d c: the packed rows' card ids), defined once by
the load scenarios (``handeval.load.scenarios.DECK``, shipped for ``bench-load``) and
shared here with tests, scripts and benches; and the same 52 cards in 越式13张's order."""

from __future__ import annotations

from handeval.load.scenarios import DECK, RANKS

#: The suits in id order.
SUITS = "shdc"

#: 越式13张's order, lowest first: rank 3 … A, 2 (the highest), and within a rank
#: ♠ < ♣ < ♦ < ♥.
TL_RANKS = "3456789TJQKA2"
TL_SUITS = "scdh"
TL_DECK = sorted(DECK, key=lambda card: (TL_RANKS.index(card[0]), TL_SUITS.index(card[1])))

__all__ = ["DECK", "RANKS", "SUITS", "TL_DECK", "TL_RANKS", "TL_SUITS"]

"""handeval: hand evaluation and settlement for 十三水 (shisanshui), 越式13张 (tienlen)
and 打儲 (dachu). The rules live in the Rust core ``handeval._core``; see docs/rules.md.

The evaluator (this package and its game modules) needs no other package; the gRPC
service (``handeval.server``, ``handeval serve``) needs the ``server`` extra
(``pip install 'handeval[server]'``) and the load tests (``handeval.load``) the ``load`` extra.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

from handeval import _core, dachu, shisanshui, tienlen
from handeval.errors import HandevalError

__version__ = _core.__version__

__all__ = ["HandevalError", "Rules", "parse_cards", "cap", "shisanshui", "dachu", "tienlen", "__version__"]


#: All house-rule options, one part per game (``shisanshui``, ``tienlen``, ``dachu``;
#: keyword-only, each defaulting to that game's ``Rules()``); any game function taking
#: ``rules=`` accepts this or that game's own ``Rules``.
Rules = _core.Rules


def parse_cards(cards: Union[str, Sequence[str]]) -> List[str]:
    """Parse cards (``"As 10d ♥3"`` or a list of card strings) to canonical strings."""
    return _core.parse_cards(cards)


def cap(theoretical: Sequence[int], carried: Sequence[Optional[int]]) -> List[int]:
    """防以小博大 (docs/rules.md §4): limit each result to the amount carried in and
    scale the larger side down, exactly zero-sum. ``None`` in ``carried`` is uncapped."""
    return _core.cap(theoretical, carried)

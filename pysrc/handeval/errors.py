"""The one exception family of handeval.

``HandevalError`` is raised by the Rust core (``handeval._core``) and by the Python layer
alike; it is a ``ValueError`` whose ``field`` attribute holds the path of the bad input
when known (e.g. ``"players[1].front"``, else None) and whose ``description`` says what is
wrong; ``str()`` joins them as ``"field: description"``. ``reason`` names the kind of
mistake for programs (one of ``ERROR_REASONS``: ``"bad_card"``, ``"duplicate_card"``,
``"not_your_turn"``, …; ``"invalid"`` when no narrower kind fits). ``action_index`` is the
index of the failing action in the list ``field`` names (a record's ``actions``,
``plays``…), else None.
"""

from handeval._core import ERROR_REASONS, HandevalError

__all__ = ["ERROR_REASONS", "HandevalError"]

"""The one exception family of handeval.

``HandevalError`` is raised by the Rust core (``handeval._core``) and by the Python layer
alike; it is a ``ValueError`` whose ``field`` attribute holds the path of the bad input
when known (e.g. ``"players[1].front"``, else None) and whose ``description`` says what is
wrong; ``str()`` joins them as ``"field: description"``.
"""

from handeval._core import HandevalError

__all__ = ["HandevalError"]

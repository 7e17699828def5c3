"""The one exception family of handeval.

``HandevalError`` is raised by the Rust core (``handeval._core``) and by the Python layer
alike; it is a ``ValueError`` whose message names the bad card, field or seat, and whose
``field`` attribute holds the field path when known (e.g. ``"players[1].front"``).
"""

from handeval._core import HandevalError

__all__ = ["HandevalError", "fail"]


def fail(field, message):
    """Raise a HandevalError for ``field``."""
    err = HandevalError(f"{field}: {message}" if field else message)
    err.field = field
    raise err

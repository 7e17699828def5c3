"""The base of the package's string enums (``dachu.LineKind``, ``tienlen.LineKind``).

Python 3.10, which the package supports, has no ``enum.StrEnum``; a plain ``(str, enum.Enum)``
prints as ``LineKind.CAP`` and formats as that or as ``cap`` depending on the Python
version. The members stand for the plain strings the binding returns (``Line.kind``), so
they print, format and hash as those strings on every version.
"""

from __future__ import annotations

import enum


class StrEnum(str, enum.Enum):
    """A ``str`` enum whose members equal, hash, print and format as their value."""

    # Equal strings hash alike (str's hash, written out rather than left to the mixin order).
    __hash__ = str.__hash__

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)

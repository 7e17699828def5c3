"""Base of every result object: immutable, with ``to_dict()`` for JSON and logging."""

import dataclasses


class Result:
    """Mixin for frozen dataclasses."""

    def to_dict(self):
        return dataclasses.asdict(self)

"""What the per-game request converters share: request-level errors, per-item results,
rule options, carried amounts and the deadline check.

Everything here runs in the server's worker threads (never on the event loop), so it may
be CPU-bound; it must not touch the grpc context.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import time
from typing import Callable, List, Optional

from google.protobuf import json_format, struct_pb2

from handeval.errors import HandevalError
from handeval.v1 import common_pb2


class BadRequest(Exception):
    """The request as a whole is bad → INVALID_ARGUMENT with a google.rpc.BadRequest
    detail naming ``field`` (a path in the request, e.g. ``shisanshui.rules.a2345``)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.description = message


class Unimplemented(Exception):
    """The Python API of this build lacks the function a request needs → UNIMPLEMENTED."""


class DeadlineExceeded(Exception):
    """The client's deadline passed while the batch was being processed."""


def api(module: str, name: str) -> Callable:
    """``handeval.<module>.<name>``, or Unimplemented when this build lacks it (the game
    modules are merged independently of the server)."""
    try:
        mod = importlib.import_module(f"handeval.{module}")
    except ImportError:
        raise Unimplemented(f"handeval.{module} is not available in this build") from None
    fn = getattr(mod, name, None)
    if fn is None:
        raise Unimplemented(f"handeval.{module}.{name} is not available in this build")
    return fn


def game_module(module: str):
    try:
        return importlib.import_module(f"handeval.{module}")
    except ImportError:
        raise Unimplemented(f"handeval.{module} is not available in this build") from None


def item_error(e: HandevalError, prefix: str = "") -> common_pb2.ItemError:
    field = getattr(e, "field", None) or ""
    if prefix and field:
        field = f"{prefix}.{field}"
    elif prefix:
        field = prefix
    return common_pb2.ItemError(field=field, message=str(e))


class Batch:
    """Runs one function per item, turning a HandevalError into that item's ItemError,
    and stops with DeadlineExceeded once the client's deadline has passed."""

    def __init__(self, deadline: Optional[float]):
        self.deadline = deadline
        self.item_errors = 0

    def check_deadline(self, done: int = 0, total: int = 0) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise DeadlineExceeded(f"deadline exceeded after {done} of {total} items")

    def each(self, items, fn: Callable, result_cls) -> List:
        """``fn(item)`` returns the keyword arguments of ``result_cls`` (one oneof
        member); a HandevalError becomes ``result_cls(error=...)``."""
        out = []
        total = len(items)
        for i, item in enumerate(items):
            if i % 64 == 0:
                self.check_deadline(i, total)
            try:
                out.append(result_cls(**fn(item)))
            except HandevalError as e:
                self.item_errors += 1
                out.append(result_cls(error=item_error(e)))
        return out


def rules_from(msg, module: str, field: str, probe: Optional[Callable] = None):
    """The game's ``Rules`` from a proto rules message: set fields override the defaults
    (proto3 ``optional``: unset = default). A field the Python ``Rules`` lacks, or a value
    ``probe(rules)`` rejects, is a BadRequest naming ``field``.``name``."""
    set_fields = msg.ListFields()
    if not set_fields:
        return None
    cls = getattr(game_module(module), "Rules", None)
    if cls is None:
        raise BadRequest(field, f"handeval.{module} has no rule options in this build")
    # native Rules list their options in to_dict(); the others are dataclasses
    names = set(cls().to_dict()) if hasattr(cls, "to_dict") else {f.name for f in dataclasses.fields(cls)}
    kw = {}
    for fd, value in set_fields:
        if fd.name not in names:
            raise BadRequest(f"{field}.{fd.name}", f"not a rule option of handeval.{module}.Rules in this build")
        kw[fd.name] = value
    try:
        rules = cls(**kw)
        if probe is not None:
            probe(rules)
    except HandevalError as e:
        sub = getattr(e, "field", None) or ""
        message = str(e)
        if sub and message.startswith(f"{sub}: "):
            message = message[len(sub) + 2:]
        sub = sub[len("rules."):] if sub.startswith("rules.") else sub
        raise BadRequest(f"{field}.{sub}" if sub else field, message) from None
    except (TypeError, ValueError) as e:
        raise BadRequest(field, str(e)) from None
    return rules


def with_rules(fn: Callable, rules) -> dict:
    """``{"rules": rules}`` when rules were given and ``fn`` takes them, else ``{}``."""
    if rules is None:
        return {}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {"rules": rules}
    if "rules" in params or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return {"rules": rules}
    return {}


def carried_from(carried) -> Optional[list]:
    """``repeated Carried`` → None (nobody capped) or per-seat ``int | None``."""
    if not carried:
        return None
    return [c.amount if c.HasField("amount") else None for c in carried]


def to_struct(obj) -> struct_pb2.Struct:
    """A result object (``to_dict()``), dataclass or dict → google.protobuf.Struct."""
    if hasattr(obj, "to_dict"):
        obj = obj.to_dict()
    elif dataclasses.is_dataclass(obj):
        obj = dataclasses.asdict(obj)
    s = struct_pb2.Struct()
    s.update(_jsonable(obj) if isinstance(obj, dict) else {"value": _jsonable(obj)})
    return s


def from_struct(s: struct_pb2.Struct) -> dict:
    """Struct → dict, with integral numbers back as int (Struct numbers are doubles)."""
    return _ints(json_format.MessageToDict(s))


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if hasattr(x, "to_dict"):
        return _jsonable(x.to_dict())
    if dataclasses.is_dataclass(x):
        return _jsonable(dataclasses.asdict(x))
    return x


def _ints(x):
    if isinstance(x, dict):
        return {k: _ints(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_ints(v) for v in x]
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def cards_of(x) -> List[str]:
    """The cards of a play the API returned: an object with ``.cards``, a list of card
    strings, or one string."""
    if hasattr(x, "cards"):
        x = x.cards
    if isinstance(x, str):
        return x.split()
    return [str(c) for c in x]

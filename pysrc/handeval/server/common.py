"""What the per-game converters share: request-level errors, the batch runner (per-item
errors, deadline and cancellation), rule options and carried amounts.

A converter may run on the event loop (small batches) or in a worker thread (large
ones); it never touches the grpc context.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from handeval.errors import HandevalError
from handeval.v2 import common_pb2

#: ErrorReason enum value of each core reason name ("bad_card" -> ERROR_REASON_BAD_CARD).
REASONS = {v.name[len("ERROR_REASON_"):].lower(): v.number
           for v in common_pb2.ErrorReason.DESCRIPTOR.values if v.number}

#: Echoed input (a bad value in a message) is cut to this many characters, so a huge bad
#: value cannot bloat an answer, a status trailer or the log. The Rust core cuts the card
#: tokens it echoes the same way (rust/handeval-core/src/error.rs).
ECHO_CHARS = 64
#: Longest description the server sends or logs (a message quoting several cut values).
MESSAGE_CHARS = 1024
#: Deadline and cancellation are checked after this many items.
CHECK_EVERY = 16


def echo(value) -> str:
    """``repr`` of a value for an error message, cut to :data:`ECHO_CHARS`."""
    text = repr(value)
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + f"…({len(text)} chars)"


def clip(message: str) -> str:
    return message if len(message) <= MESSAGE_CHARS else message[:MESSAGE_CHARS] + "…"


def reason_of(e) -> Any:
    """The ErrorReason value of an error's ``reason`` name (INVALID when unknown)."""
    return REASONS.get(getattr(e, "reason", None) or "invalid", common_pb2.ERROR_REASON_INVALID)


class BadRequest(Exception):
    """The request as a whole is bad → INVALID_ARGUMENT with google.rpc.BadRequest naming
    ``field`` (a path in the request, e.g. ``shisanshui.rules.a2345``) and
    google.rpc.ErrorInfo carrying ``reason`` (a core reason name, e.g. ``"bad_rule"``)."""

    def __init__(self, field: str, message: str, reason: str = "invalid"):
        message = clip(message)
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.description = message
        self.reason = reason


class Stopped(Exception):
    """The batch stopped early: the deadline passed (``code`` DEADLINE_EXCEEDED) or the
    client cancelled the call (CANCELLED)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class ItemFailed(Exception):
    """An item's error at a path the converter knows better than the Python API (e.g.
    ``round_state.turns[2]`` for the API's ``round[2]``)."""

    def __init__(self, field: str, description: str, reason: str = "invalid"):
        super().__init__(description)
        self.field = field
        self.description = description
        self.reason = reason


def join(*parts) -> str:
    """Field path parts → ``a.b[2].c`` (empty parts skipped, ``[i]`` glued on)."""
    out = ""
    for p in parts:
        if not p:
            continue
        out += p if not out or p.startswith("[") else "." + p
    return out


def is_rules_field(field: Optional[str]) -> bool:
    return field is not None and (field == "rules" or field.startswith("rules."))


def describe(e) -> str:
    """What is wrong, from a HandevalError (or ItemFailed): its description, else str(e)."""
    return getattr(e, "description", None) or str(e)


def rename(e: HandevalError, renames: dict, prefix: str = ""):
    """``e`` as an ItemFailed under ``prefix``, its first path segment renamed by
    ``renames`` (the Python argument name → the proto field name; ``""`` drops it). A
    rules error stays itself (Batch.each fails the whole request for it)."""
    if is_rules_field(e.field):
        return e
    field = e.field or ""
    head, sep, rest = field.partition(".")
    base, bracket, index = head.partition("[")
    if base in renames:
        field = join(renames[base], bracket + index, rest if sep else "")
    return ItemFailed(join(prefix, field), describe(e), e.reason)


def at(field: str, fn, *args, **kw):
    """``fn(*args, **kw)``, a HandevalError reported at ``field``: the proto field that
    held the argument, in place of the Python argument's name."""
    try:
        return fn(*args, **kw)
    except HandevalError as e:
        if is_rules_field(e.field):
            raise
        raise ItemFailed(field, describe(e), e.reason) from None


class Batch:
    """Runs one function per item, turning a HandevalError into that item's ItemError
    (field ``<items>[i].…``), and stops once the client's deadline has passed or the call
    was cancelled (checked every :data:`CHECK_EVERY` items and inside long work)."""

    __slots__ = ("game", "deadline", "cancelled", "item_errors")

    #: gRPC cancels a call whose deadline passes by its own clock, which can run a few ms
    #: ahead of ``deadline`` (read from ``time_remaining()`` a moment later): a cancel this
    #: close to the deadline is the deadline.
    DEADLINE_SLACK = 0.25

    def __init__(self, game: str = "", deadline: Optional[float] = None):
        self.game = game
        self.deadline = deadline
        self.cancelled: Optional[str] = None  # why the call's task was cancelled: a status code
        self.item_errors = 0

    def cancel(self) -> None:
        """The call's task was cancelled: the work stops at its next check, as
        DEADLINE_EXCEEDED when the deadline has (all but) passed, else CANCELLED."""
        expired = self.deadline is not None and time.monotonic() > self.deadline - self.DEADLINE_SLACK
        self.cancelled = "DEADLINE_EXCEEDED" if expired else "CANCELLED"

    def check(self, done: int = 0, total: int = 0, where: str = "") -> None:
        code = self.cancelled
        if code is None and self.deadline is not None and time.monotonic() > self.deadline:
            code = "DEADLINE_EXCEEDED"
        if code:
            why = "deadline exceeded" if code == "DEADLINE_EXCEEDED" else "the call was cancelled"
            raise Stopped(code, f"{why}; stopped {where or f'after {done} of {total} items'}")

    def each(self, items, fn: Callable, results, name: str = "items") -> None:
        """One result per item, written into the response's repeated field ``results``
        in place (no result message built and then copied): ``fn(item, out)`` fills the
        new result ``out``, or returns a message of its type to merge into it. A
        HandevalError (or ItemFailed) becomes ``out.error`` at ``<name>[i].…``."""
        total = len(items)
        for i, item in enumerate(items):
            if i % CHECK_EVERY == 0:
                self.check(i, total)
            self.one(fn, item, results.add(), i, name)

    def one(self, fn: Callable, item, out, i: int, name: str = "items") -> None:
        """``fn(item, out)`` for the item ``name[i]``, its HandevalError (or ItemFailed)
        written as ``out.error``; a rules error fails the whole request."""
        try:
            r = fn(item, out)
            if r is not None:
                out.MergeFrom(r)
        except HandevalError as e:
            bad_rules = rules_error(e, self.game)
            if bad_rules is not None:
                raise bad_rules from None
            self.fail(out, e, i, name)
        except ItemFailed as e:
            self.fail(out, e, i, name)

    def fail(self, out, e, i: int, name: str = "items") -> None:
        """``out`` (a result message) becomes the ItemError of ``e`` at ``name[i].…``."""
        self.item_errors += 1
        out.Clear()
        out.error.field = join(f"{name}[{i}]", getattr(e, "field", None) or "")
        out.error.reason = reason_of(e)
        out.error.message = clip(describe(e))


def rules_from(req, cls, field: str):
    """``cls(**set fields)`` of ``req.rules`` once per request (proto3 ``optional``: unset
    = the default), or None when nothing is set (the API's defaults). A value ``cls``
    rejects is a BadRequest naming ``field.<option>``."""
    if not req.HasField("rules"):
        return None
    options = {}
    for fd, value in req.rules.ListFields():
        try:
            options[fd.name] = enum_name(fd.enum_type, value) if fd.enum_type else value
        except ItemFailed as e:
            raise BadRequest(join(field, fd.name), e.description, "bad_rule") from None
    options = {k: v for k, v in options.items() if v is not None}  # UNSPECIFIED = the default
    if not options:
        return None
    try:
        return cls(**options)
    except HandevalError as e:
        raise BadRequest(join(field, rule_option(e.field)), describe(e), rule_reason(e)) from None


def rule_reason(e) -> str:
    """A rules error's reason: the core's when it names one, else ``bad_rule``."""
    reason = getattr(e, "reason", None)
    return reason if reason and reason != "invalid" else "bad_rule"


def rule_option(field: Optional[str]) -> str:
    """The option's name in a rules error's field: ``rules.a2345`` → ``a2345`` (the native
    ``Rules`` name every bad option so); ``""`` for the whole ``rules``."""
    return (field or "").partition("rules.")[2]


def rules_error(e: HandevalError, game: str) -> Optional[BadRequest]:
    """A rules error that surfaced while answering an item: the request's fault, so the
    whole request fails naming the option."""
    if is_rules_field(e.field):
        return BadRequest(join(f"{game}.rules", rule_option(e.field)), describe(e), rule_reason(e))
    return None


def carried_from(carried) -> Optional[list]:
    """``repeated Carried`` → None (nobody capped) or per-seat ``int | None``."""
    if not carried:
        return None
    return [c.amount if c.HasField("amount") else None for c in carried]


def opt(msg, name: str, default=None):
    """A proto3 ``optional`` field's value, or ``default`` when unset."""
    return getattr(msg, name) if msg.HasField(name) else default


# ---- enums: the proto value <-> the Python API's name ----

_TO_NAME: dict = {}
_TO_VALUE: dict = {}


def _enum_tables(enum):
    key = enum.full_name
    if key not in _TO_NAME:
        prefix = enum.values_by_number[0].name[:-len("UNSPECIFIED")]
        names = {v.number: v.name[len(prefix):].lower()
                 for v in enum.values if v.number}
        _TO_NAME[key] = names
        _TO_VALUE[key] = {n: k for k, n in names.items()}
    return _TO_NAME[key], _TO_VALUE[key]


def enum_name(enum, value: int, field: str = "") -> Optional[str]:
    """The Python API's name of a proto enum value (``enum`` a descriptor or a generated
    enum wrapper); None for UNSPECIFIED. An unknown number (a newer client) is an
    INVALID ItemFailed."""
    enum = getattr(enum, "DESCRIPTOR", enum)
    if not value:
        return None
    names, _ = _enum_tables(enum)
    try:
        return names[value]
    except KeyError:
        raise ItemFailed(field, f"{value} is not a value of {enum.name}") from None


def enum_value(enum, name: Optional[str]) -> Any:
    """The proto enum value of a Python API name (None → 0, UNSPECIFIED)."""
    if name is None:
        return 0
    enum = getattr(enum, "DESCRIPTOR", enum)
    return _enum_tables(enum)[1][name]


def cards(m) -> list:
    """A ``Cards`` message → the list of its entries (one card each) for the Python API."""
    return list(m.cards)

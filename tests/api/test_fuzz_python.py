"""Fuzzing the public Python API with hypothesis: every public function and
class of every game module, called with arbitrary Python objects — None, bools, huge
ints, floats, nested lists, tuples, dicts with wrong keys, bytes, huge strings, lone
surrogates, objects of other classes — mixed with plausible arguments so the deep paths
run too. The only acceptable failure is ``handeval.HandevalError``: never TypeError,
AttributeError, KeyError, OverflowError, SystemError, a panic or a crash.

Examples per function: ``HANDEVAL_FUZZ_EXAMPLES`` (default 30, fixed seeds, so the test
command stays quick; ``.ci/run`` then runs this file again with 400 random examples per
function, and ``HANDEVAL_FUZZ_EXAMPLES=20000 python -m pytest tests/api/test_fuzz_python.py``
is the long run documented in docs/hardening.md).
"""

from __future__ import annotations

import enum
import inspect
import os
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import handeval
from handeval import HandevalError
from harness.deck import DECK

EXAMPLES = int(os.environ.get("HANDEVAL_FUZZ_EXAMPLES", "30"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("HANDEVAL_FUZZ_RANDOM"),
    suppress_health_check=list(HealthCheck),
    database=None,
)


def _game_modules():
    return [handeval, handeval.shisanshui, handeval.tienlen, handeval.dachu]


def _is_result_class(obj):
    """A native result class: its constructor takes exactly its fields, positionally
    (pickling uses it); tests/api/test_native_types.py covers those."""
    fields = getattr(obj, "__match_args__", None)
    if not inspect.isclass(obj) or not fields:
        return False
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    return tuple(p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD) == tuple(fields)


def _entries():
    """(id, callable) for every public function and class of the game modules."""
    out = []
    for mod in _game_modules():
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for name in names:
            obj = getattr(mod, name, None)
            if obj is None or inspect.ismodule(obj) or name in ("HandevalError", "Result"):
                continue
            if not callable(obj):
                continue
            if getattr(obj, "__module__", "").split(".")[0] != "handeval":
                continue
            if _is_result_class(obj):
                continue  # a value holder (its fields are its arguments), not an input path
            if isinstance(obj, enum.EnumMeta):
                continue  # a set of names (LineKind), like KINDS: no input path into the engine
            out.append((f"{mod.__name__}.{name}", obj))
    return out


ENTRIES = _entries()

# ---- arbitrary objects


class Odd:
    """An object of a class nobody expects, with a hostile __str__ and __len__."""

    def __str__(self):
        raise RuntimeError("Odd.__str__")

    def __len__(self):
        return -1

    def __iter__(self):
        raise RuntimeError("Odd.__iter__")


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**40, -1, 0, 1, 2**62]),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.sampled_from(
        [
            "",
            " ",
            ",",
            ",,",
            "As",
            "As As",
            "10d",
            "♥3",
            "\ud800",
            "\x00",
            "A" * 100_000,
            "red",
            "black",
            "pass",
            "lowest",
            "second_highest",
            "shcd",
            "liu_dui_ban",
            "As Kd Qh",
            "2s 3s 4s 5s 6s",
            " ".join(DECK),
            "As " * 20_000,
        ]
    ),
    st.builds(Odd),
    st.builds(object),
    st.just(Ellipsis),
    st.just(float("inf")),
)

anything = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.dictionaries(
            st.one_of(
                st.text(max_size=8),
                st.sampled_from(["front", "middle", "back", "special", "cards", "id", "seat", "from", "to"]),
                st.integers(),
            ),
            inner,
            max_size=5,
        ),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=20,
)


@st.composite
def card_text(draw, n=None):
    n = draw(st.integers(0, 14)) if n is None else n
    rng = random.Random(draw(st.integers(0, 2**32)))
    cards = rng.sample(DECK, n)
    if draw(st.integers(0, 9)) == 0 and cards:  # a repeated card
        cards.append(cards[0])
    return draw(st.sampled_from([" ".join(cards), ",".join(cards), cards, tuple(cards)]))


@st.composite
def deal_players(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    deck = rng.sample(DECK, 52)
    n = draw(st.integers(0, 5))
    players = []
    for i in range(n):
        h = deck[13 * (i % 4) : 13 * (i % 4) + 13]
        if draw(st.booleans()):
            players.append({"front": " ".join(h[:3]), "middle": " ".join(h[3:8]), "back": " ".join(h[8:])})
        else:
            players.append(
                {
                    "special": draw(st.sampled_from(["liu_dui_ban", "san_shunzi", "qing_long", "x"])),
                    "cards": " ".join(h),
                }
            )
    if draw(st.integers(0, 4)) == 0 and players:
        players[0] = draw(anything)
    return players


def plausible(name: str):
    """Arguments that look right for a parameter of this name, so deep paths are hit."""
    n = name.lower()
    if n in ("cards", "play", "table", "hand", "a", "b", "front", "middle", "back", "cards13", "row"):
        return st.one_of(card_text(), card_text(3), card_text(5), card_text(13))
    if n in ("rows", "hands", "list_of_hands", "hands13", "remaining"):
        return st.lists(card_text(), max_size=5)
    if n == "chu":
        return st.sampled_from(["red", "black", "blue", ""])
    if n == "players":
        return deal_players()
    if n in (
        "base",
        "multiplier",
        "seat",
        "first_seat",
        "start_seat",
        "winner",
        "opponents",
        "top_k",
        "seed",
        "row_size",
        "percent",
    ):
        return st.one_of(st.integers(-3, 6), st.sampled_from([2**62, 2**63 - 1, -(2**63)]))
    if n in ("carried", "theoretical", "played_any", "chu_side", "places", "surrendered", "bei_bao_da", "escaped"):
        return st.lists(st.one_of(st.none(), st.integers(-5, 1000), st.sampled_from([2**63 - 1, -(2**63)])), max_size=5)
    if n == "rules":
        return st.sampled_from([None, handeval.Rules()])
    if n == "data":
        return st.binary(max_size=60)
    return anything


def _arguments(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = [
        p
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and not p.name.startswith("_")
    ]
    return params


@st.composite
def call_args(draw, fn):
    params = _arguments(fn) or []
    args, kwargs = [], {}
    for p in params:
        if p.default is not p.empty and draw(st.integers(0, 2)) == 0:
            continue  # leave it to its default
        value = draw(st.one_of(plausible(p.name), anything) if draw(st.booleans()) else plausible(p.name))
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = value
        elif kwargs:
            kwargs[p.name] = value
        else:
            args.append(value)
    if draw(st.integers(0, 15)) == 0:
        kwargs[draw(st.sampled_from(["bogus", "rules_", "x"]))] = draw(anything)
    return args, kwargs


def python_path_problem(fn, field, keywords=()):
    """None when an error's `field` starts at a parameter of `fn` (``players[1].front``
    of ``settle(players, ...)``) or at one of the ``keywords`` the call gave (a Rules
    keyword it does not take is named), else what is wrong: no invented path."""
    if field is None:
        return None
    params = {p.name for p in _arguments(fn) or []} | set(keywords)
    if field.startswith("rules.") and "rules" not in params:
        field = field[len("rules.") :]  # a Rules class: its options are rules.<option> (docs/api.md)
    head = re.match(r"[A-Za-z_0-9]*", field).group(0)
    return (
        None
        if head in params
        else f"{field!r} starts at no parameter of {getattr(fn, '__name__', fn)} ({sorted(params)})"
    )


def _call_and_use(fn, args, kwargs):
    """Call, then touch the result the way a caller would (to_dict, iteration, methods
    of state objects) — conversion bugs hide there too."""
    try:
        result = fn(*args, **kwargs)
    except HandevalError as e:
        assert str(e), "a HandevalError without a message"
        why = python_path_problem(fn, e.field, kwargs)
        assert why is None, (why, str(e))
        return
    except TypeError as e:
        # Python's own argument binding (a wrong keyword, too few arguments) is the one
        # TypeError a caller can get — and only from the call itself, never from inside.
        if "argument" in str(e) and e.__traceback__.tb_next is None:
            return
        raise
    for obj in result if isinstance(result, list) else [result]:
        if hasattr(obj, "to_dict"):
            obj.to_dict()
        for attr in ("legal_actions", "history"):
            if callable(getattr(obj, attr, None)):
                try:
                    getattr(obj, attr)()
                except HandevalError:
                    pass


@pytest.mark.parametrize("name, fn", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_any_arguments_give_a_result_or_handeval_error(name, fn):
    if _arguments(fn) is None:
        pytest.skip(f"{name} has no inspectable signature")

    @SETTINGS
    @given(data=st.data())
    def run(data):
        args, kwargs = data.draw(call_args(fn))
        _call_and_use(fn, args, kwargs)

    run()


def test_every_game_module_is_fuzzed():
    names = {n for n, _ in ENTRIES}
    for must in (
        "handeval.parse_cards",
        "handeval.cap",
        "handeval.shisanshui.settle",
        "handeval.shisanshui.classify",
        "handeval.dachu.settle",
        "handeval.dachu.legal_plays",
    ):
        assert must in names, f"{must} is not fuzzed"
    for mod in _game_modules()[1:]:
        assert any(n.startswith(mod.__name__ + ".") for n in names)


#: Every option of every game's Rules, read from the classes themselves.
RULE_OPTIONS = sorted(
    {name for mod in (handeval.shisanshui, handeval.tienlen, handeval.dachu) for name in mod.Rules.__match_args__}
)


@SETTINGS
@given(rules_kwargs=st.dictionaries(st.sampled_from(RULE_OPTIONS), anything, max_size=4), cards=card_text(5))
def test_rules_with_arbitrary_values_are_handeval_errors_when_used(rules_kwargs, cards):
    """A game's Rules built with any values: building or using them is fine or a
    HandevalError."""
    for mod in _game_modules()[1:]:
        cls = mod.Rules
        names = set(cls.__match_args__)
        kw = {k: v for k, v in rules_kwargs.items() if k in names}
        try:
            rules = cls(**kw)
        except HandevalError:
            continue
        # the first function of the module that takes rules=
        name = next(
            n
            for n in ("classify", "settle_instant", "settle")
            if "rules" in inspect.signature(getattr(mod, n)).parameters
        )
        fn = getattr(mod, name)
        args = {
            "classify": ((cards, "red") if mod.__name__.endswith("dachu") else (cards,)),
            "settle_instant": ([cards, cards], 1),
            "settle": ([0], [0, 1, 2, 3]),
        }[name]
        try:
            fn(*args, rules=rules)
        except HandevalError:
            pass


def test_known_findings_stay_fixed():
    """Inputs that once escaped as something other than HandevalError."""
    # i64::MIN was negated with overflow (a panic); the cap's totals are 128-bit now and
    # the game settles (RULES §4: clamped amounts that fit always settle).
    assert handeval.cap([-(2**63), 2**63 - 1, 1], [None, 5, 5]) == [-6, 5, 1]


def test_known_path_findings_stay_fixed():
    """Error paths the long random fuzz (.ci/run) once found outside the call's
    parameters: each must name a parameter the caller passed."""
    with pytest.raises(HandevalError) as e:
        handeval.tienlen.may_play([], 0, "")  # was "action", a parameter of check_action only
    assert e.value.field == "cards", e.value.field
    assert python_path_problem(handeval.tienlen.may_play, e.value.field) is None

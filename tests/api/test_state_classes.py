"""The game-record state classes (dachu Deal / Calling / Game, tienlen Game) share the
value classes' field list mechanism (native_class! in rust/handeval-py/src/result.rs):
to_dict() holds exactly their fields, each one a property read back unchanged, and the
repr shows fields of the state. They compare by state and pickle by replaying their
record, and have no replace() nor __match_args__ (apply() makes new states)."""

import json
import pickle
import re

import pytest

from handeval import dachu, tienlen as tl

from strategies import DC_HANDS, TL_HANDS


def states():
    deal = dachu.Deal(DC_HANDS)
    yield deal
    for _ in range(9):
        deal = deal.apply(("deal",))
    deal = deal.apply(("cheng_chu", 1, "red")).apply(("finish",))
    yield deal
    calling = deal.calling()
    yield calling
    while not calling.over:
        calling = calling.apply(calling.legal_actions[0])
    yield calling
    game = dachu.Game(deal, calling)
    yield game
    yield game.apply(game.legal_actions[0])
    g = tl.Game(TL_HANDS)
    yield g
    yield g.apply((g.turn, g.legal_plays[0].cards))


STATES = list(states())
IDS = [f"{type(s).__module__}.{type(s).__name__}-{i}" for i, s in enumerate(STATES)]


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v.to_dict() if hasattr(v, "to_dict") else v


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_to_dict_holds_the_fields_read_back(state):
    d = state.to_dict()
    assert d, "a state has fields"
    for name, value in d.items():
        assert type(getattr(type(state), name)).__name__ == "getset_descriptor"  # an attribute, not a method
        assert value == _plain(getattr(state, name))
    json.dumps(d)


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_repr_shows_fields_of_the_state(state):
    r = repr(state)
    assert r.startswith(type(state).__name__ + "(") and r.endswith(")")
    if isinstance(state, tl.Game):
        return  # Game(<the core's description>)
    names = re.findall(r"(?:^|, )(\w+)=", r[len(type(state).__name__) + 1 : -1])
    assert names and all(n in state.to_dict() for n in names)


@pytest.mark.parametrize("state", STATES, ids=IDS)
def test_state_equality_pickling_and_no_replace(state):
    back = pickle.loads(pickle.dumps(state))
    assert back == state and hash(back) == hash(state) and back.to_dict() == state.to_dict()
    assert state != object() and state != state.to_dict()
    assert not hasattr(state, "replace") and not hasattr(type(state), "__match_args__")

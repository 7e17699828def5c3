"""The native result and rule classes (rust/handeval-py/src/result.rs, rules.rs): every
class is frozen, compares and hashes by its fields, pickles, gives to_dict() and a repr
naming its fields; every Rules option is validated at construction."""

import copy
import json
import pickle

import pytest

import handeval
from handeval import HandevalError, dachu, shisanshui as ssw, tienlen as tl

TL_INSTANT = ["2s 2h 2d 2c 3s 4s 5s 6s 7s 8s 9s Ts Js", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah Qs"]


def samples():
    """One or more instances of every native class, built through the public API."""
    yield ssw.classify("As Kd Qh Js 9c")
    yield ssw.classify("2s 2h 9d")
    yield ssw.special_hand("2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As")  # no split
    yield ssw.special_hand("2s 3s 4s 5s 6s 7h 8h 9h Th Jh 9d Td Jd")  # with a split
    s = ssw.settle(
        [
            {"front": "2s 3h 4d", "middle": "6c 7c 8d 9s Jd", "back": "Qs Qh 9d 9c 5s"},
            {"front": "Ks Kh Kd", "middle": "2h 3c 4h 6d 8s", "back": "Qd Qc 7d 7h 5c"},
            {"special": "liu_dui_ban", "cards": "2c 2d 3s 3d 4s 4c 5h 5d 6h 6s Ac Ad Ts"},
        ],
        base=10,
        rules=ssw.Rules(rake_percent=5),
    )
    yield s
    yield s.pairs[0]
    a = ssw.arrange("As Ah Ad Ac 2s 5h 7d 9c Js Kh 3d 4c 8h", top_k=3)
    yield a
    yield a.alternatives[1]
    yield ssw.best_response(
        "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As",
        [{"front": "2h 3s 4s", "middle": "5s 6h 7s 8s 9s", "back": "Th Js Qs Ks Ah"}],
    )
    yield ssw.Rules()
    yield ssw.Rules(
        suit_tiebreak=False,
        suit_order="hscd",
        a2345="second_highest",
        foul_scoring=False,
        home_run_min_opponents=2,
        rake_percent=5,
    )
    yield handeval.Rules()
    yield handeval.Rules(shisanshui=ssw.Rules(rake_percent=3))
    yield handeval.Rules(tienlen=tl.Rules(rake_percent=0), dachu=dachu.Rules(escape_units=2))
    # 越式13张
    yield tl.Rules()
    yield tl.Rules(
        first_lead_must_contain_lowest=True,
        unplayed_loser_adds_multipliers=False,
        turn_after_chop="resume",
        rake_percent=0,
    )
    yield tl.classify("3s")
    yield tl.classify("5s 5h 6s 6h 7s 7h")
    yield tl.instant_hand(TL_INSTANT[0])
    yield tl.first_leader(["4s 5s", "3c Kd"])
    yield tl.round_state([[0, "Ks"], [1, "2s"], [2, "pass"]])
    yield tl.round_state([])
    settlement = tl.settle(["", "3s 4s", "2h"], 0, 10, chops=[(2, 1, 20)])
    yield settlement
    yield settlement.lines[0]
    yield tl.settle_instant(TL_INSTANT, 1)
    # 打儲
    yield dachu.Rules()
    yield dachu.Rules(
        mixed_ace_pair=False,
        cheng_chu_alone=False,
        escape_shared_by_all=False,
        unit_per="losing_side",
        first_caller_2v2="chu",
        escape_units=0,
        jiao_round_up=False,
        declare_once_per="game",
        pass_is_final=True,
    )
    yield dachu.classify("As", "black")
    yield dachu.classify("9s Ts Jd", "red")
    settlement = dachu.settle([0], [0, 1, 2, 3], base=2)
    yield settlement
    yield settlement.lines[0]
    yield dachu.settle([0, 2], base=10, escaped=[1])


SAMPLES = list(samples())
IDS = [f"{type(x).__module__}.{type(x).__name__}-{i}" for i, x in enumerate(SAMPLES)]


@pytest.mark.parametrize("obj", SAMPLES, ids=IDS)
def test_frozen(obj):
    for name in type(obj).__match_args__:
        with pytest.raises(AttributeError):
            setattr(obj, name, getattr(obj, name))


@pytest.mark.parametrize("obj", SAMPLES, ids=IDS)
def test_pickle_and_copy_round_trip(obj):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(obj, protocol=proto))
        assert type(back) is type(obj) and back == obj and hash(back) == hash(obj)
    assert copy.deepcopy(obj) == obj and copy.copy(obj) == obj


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v.to_dict() if hasattr(v, "to_dict") else v


@pytest.mark.parametrize("obj", SAMPLES, ids=IDS)
def test_to_dict_repr_and_fields_agree(obj):
    fields = type(obj).__match_args__
    d = obj.to_dict()
    assert tuple(d) == fields
    for name in fields:
        assert d[name] == _plain(getattr(obj, name))  # nested results become dicts
    json.dumps(d)
    r = repr(obj)
    assert r.startswith(type(obj).__name__ + "(")
    for name in fields:
        assert f"{name}=" in r


@pytest.mark.parametrize("obj", SAMPLES, ids=IDS)
def test_equality_and_hash_follow_the_fields(obj):
    same = obj.replace()
    assert same == obj and hash(same) == hash(obj) and same is not obj
    assert obj != object() and obj != obj.to_dict()
    assert len({obj, same}) == 1


def test_different_samples_of_a_class_are_unequal():
    by_class = {}
    for obj in SAMPLES:
        by_class.setdefault(type(obj), []).append(obj)
    for objs in by_class.values():
        for i, a in enumerate(objs):
            for b in objs[i + 1 :]:
                assert a != b and not (a == b)


def test_nested_results_and_their_dicts():
    s = ssw.settle(
        [
            {"front": "2s 3h 4d", "middle": "6c 7c 8d 9s Jd", "back": "Qs Qh 9d 9c 5s"},
            {"front": "Ks Kh Kd", "middle": "2h 3c 4h 6d 8s", "back": "Qd Qc 7d 7h 5c"},
        ]
    )
    assert isinstance(s.pairs[0], ssw.PairResult)
    d = s.to_dict()
    assert d["pairs"] == [p.to_dict() for p in s.pairs] and isinstance(d["pairs"][0], dict)
    a = ssw.arrange("As Ah Ad Ac 2s 5h 7d 9c Js Kh 3d 4c 8h", top_k=2)
    assert all(isinstance(x, ssw.Arrangement) for x in a.alternatives)
    assert a.to_dict()["alternatives"][1] == a.alternatives[1].to_dict()
    sp = ssw.special_hand("2s 3s 4s 5s 6s 7h 8h 9h Th Jh 9d Td Jd")
    assert isinstance(sp, ssw.SpecialHand) and sp.to_dict()["split"] == sp.split
    assert all(isinstance(r, list) for r in sp.split)


def test_result_constructors_take_the_fields():
    for obj in SAMPLES:
        cls = type(obj)
        if cls in (ssw.Rules, tl.Rules, dachu.Rules, handeval.Rules):  # keyword-only
            continue
        assert cls(**{f: getattr(obj, f) for f in cls.__match_args__}) == obj
        assert cls(*[getattr(obj, f) for f in cls.__match_args__]) == obj


def test_lists_read_from_a_result_are_copies():
    row = ssw.classify("As Kd Qh Js 9c")
    row.cards.append("2c")
    assert row.cards == ["As", "Kd", "Qh", "Js", "9c"]


def test_replace_changes_fields_and_validates():
    row = ssw.classify("As Kd Qh Js 9c")
    assert row.replace(strength=1).strength == 1 and row.replace(strength=1) != row
    with pytest.raises(HandevalError) as e:
        row.replace(colour="red")
    assert e.value.field == "colour"
    r = ssw.Rules().replace(rake_percent=7)
    assert r == ssw.Rules(rake_percent=7)
    with pytest.raises(HandevalError) as e:
        r.replace(rake_percent=101)
    assert e.value.field == "rules.rake_percent"


def test_classes_live_where_the_public_modules_export_them():
    assert (ssw.Row.__module__, ssw.Row.__name__) == ("handeval.shisanshui", "Row")
    assert (ssw.Rules.__module__, ssw.Rules.__name__) == ("handeval.shisanshui", "Rules")
    assert (handeval.Rules.__module__, handeval.Rules.__name__) == ("handeval", "Rules")
    for module in (tl, dachu):
        for name in module.__all__:
            cls = getattr(module, name)
            if isinstance(cls, type):
                assert (cls.__module__, cls.__name__) == (module.__name__, name)


# ---- Rules: defaults from the core, validation at construction


def test_shisanshui_rules_defaults():
    assert ssw.Rules().to_dict() == {
        "suit_tiebreak": True,
        "suit_order": "shcd",
        "a2345": "lowest",
        "foul_scoring": True,
        "home_run_min_opponents": 3,
        "rake_percent": 0,
    }
    # None is "the default" for every option
    assert ssw.Rules(**dict.fromkeys(ssw.Rules.__match_args__)) == ssw.Rules()


SSW_BAD = [
    ("suit_tiebreak", 1, "True or False"),
    ("suit_tiebreak", "yes", "True or False"),
    ("suit_order", "shhd", "each of s h d c"),
    ("suit_order", "shc", "each of s h d c"),
    ("suit_order", 7, "string"),
    ("a2345", "top", "lowest"),
    ("a2345", b"lowest", "string"),
    ("foul_scoring", 0, "True or False"),
    ("home_run_min_opponents", 0, "at least 1"),
    ("home_run_min_opponents", -1, "non-negative"),
    ("home_run_min_opponents", 2**40, "non-negative"),
    ("home_run_min_opponents", 2.0, "integer"),
    ("home_run_min_opponents", True, "integer"),
    ("rake_percent", 101, "0..100"),
    ("rake_percent", 500, "0..100"),
    ("rake_percent", -5, "non-negative"),
    ("rake_percent", "5", "integer"),
]


@pytest.mark.parametrize("option, value, words", SSW_BAD)
def test_shisanshui_rules_reject_bad_values_at_construction(option, value, words):
    with pytest.raises(HandevalError) as e:
        ssw.Rules(**{option: value})
    assert e.value.field == f"rules.{option}"
    assert words in e.value.description
    assert str(e.value) == f"rules.{option}: {e.value.description}"


def test_every_shisanshui_option_has_a_bad_value_case():
    assert {o for o, _, _ in SSW_BAD} == set(ssw.Rules.__match_args__)


TL_BAD = [
    ("first_lead_must_contain_lowest", 1, "True or False"),
    ("turn_after_chop", "next", "from_chopper"),
    ("turn_after_chop", 1, "string"),
    ("chop_window", "later", "first_actor"),
    ("chop_window", 1, "string"),
    ("unplayed_loser_adds_multipliers", "yes", "True or False"),
    ("rake_percent", 500, "0..100"),
    ("rake_percent", 101, "0..100"),
    ("rake_percent", -1, "non-negative"),
    ("rake_percent", True, "integer"),
    ("rake_percent", 5.0, "integer"),
]

DC_BAD = [
    ("mixed_ace_pair", 1, "True or False"),
    ("cheng_chu_alone", "no", "True or False"),
    ("escape_shared_by_all", 0, "True or False"),
    ("unit_per", "per_pair", "larger_side"),
    ("unit_per", 3, "string"),
    ("first_caller_2v2", "north", "other"),
    ("escape_units", 5000, "0..1000"),
    ("escape_units", -1, "non-negative"),
    ("escape_units", 2.5, "integer"),
    ("jiao_round_up", "yes", "True or False"),
    ("pass_is_final", "yes", "True or False"),
    ("declare_once_per", "never", "player_and_kind"),
    ("declare_once_per", 0, "string"),
    ("timeout_display", "rightmost", "strongest_left"),
    ("timeout_display", 1, "string"),
    ("pass_is_final", "yes", "True or False"),
]


@pytest.mark.parametrize(
    "cls, option, value, words", [(tl.Rules, *b) for b in TL_BAD] + [(dachu.Rules, *b) for b in DC_BAD]
)
def test_game_rules_reject_bad_values_at_construction(cls, option, value, words):
    with pytest.raises(HandevalError) as e:
        cls(**{option: value})
    assert e.value.field == f"rules.{option}"
    assert words in e.value.description, e.value.description
    assert str(e.value) == f"rules.{option}: {e.value.description}"
    with pytest.raises(HandevalError) as e:
        cls().replace(**{option: value})
    assert e.value.field == f"rules.{option}"


def test_every_game_option_has_a_bad_value_case():
    assert {o for o, _, _ in TL_BAD} == set(tl.Rules.__match_args__)
    assert {o for o, _, _ in DC_BAD} == set(dachu.Rules.__match_args__)


def test_game_rules_defaults():
    assert tl.Rules().to_dict() == {
        "first_lead_must_contain_lowest": False,
        "unplayed_loser_adds_multipliers": True,
        "turn_after_chop": "from_chopper",
        "chop_window": "first_actor",
        "rake_percent": 5,
    }
    assert dachu.Rules().to_dict() == {
        "mixed_ace_pair": True,
        "cheng_chu_alone": True,
        "escape_shared_by_all": True,
        "unit_per": "larger_side",
        "first_caller_2v2": "other",
        "escape_units": 5,
        "jiao_round_up": True,
        "declare_once_per": "player_and_kind",
        "pass_is_final": False,
        "timeout_display": "strongest_left",
    }
    for cls in (tl.Rules, dachu.Rules):
        assert cls(**dict.fromkeys(cls.__match_args__)) == cls()
    assert handeval.Rules().tienlen == tl.Rules() and handeval.Rules().dachu == dachu.Rules()


def test_rules_are_keyword_only():
    for cls in (ssw.Rules, tl.Rules, dachu.Rules):
        with pytest.raises(TypeError):
            cls(True)


def test_rules_argument_accepts_own_bundle_or_none():
    alt = ssw.Rules(a2345="second_highest")
    wheel, king = "As 2d 3c 4h 5s", "9s Tc Jd Qh Kc"
    assert ssw.compare(wheel, king) == -1
    assert ssw.compare(wheel, king, rules=alt) == 1
    assert ssw.compare(wheel, king, rules=handeval.Rules(shisanshui=alt)) == 1
    for bad in ("strict", {"a2345": "second_highest"}, handeval.Rules().tienlen):
        with pytest.raises(HandevalError) as e:
            ssw.compare(wheel, king, rules=bad)
        assert e.value.field == "rules"


def test_bundle_parts_are_checked():
    with pytest.raises(HandevalError) as e:
        handeval.Rules(shisanshui="lowest")
    assert e.value.field == "shisanshui"
    for game, wrong in (("tienlen", dachu.Rules()), ("dachu", tl.Rules())):
        with pytest.raises(HandevalError) as e:
            handeval.Rules(**{game: wrong})
        assert e.value.field == game
    assert handeval.Rules().shisanshui == ssw.Rules()


def test_handeval_error_keeps_field_and_description_apart():
    with pytest.raises(HandevalError) as e:
        ssw.classify("As Kx")
    err = e.value
    assert err.field == "cards" and err.description and str(err) == f"cards: {err.description}"
    assert isinstance(err, ValueError)
    bare = HandevalError("x")  # raised from Python without the parts: both read None
    assert bare.field is None and bare.description is None

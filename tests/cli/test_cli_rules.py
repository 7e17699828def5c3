"""``--rules`` on every game command of the CLI: a JSON object or key=value pairs, read by
the game's Python ``Rules`` (so validated exactly as the API validates it), passed to the
API call; a bad value is one line naming ``--rules`` and the option, exit 2."""

import argparse
import json
import subprocess
import sys

import pytest

from handeval import cli, dachu, shisanshui, tienlen

CMD = [sys.executable, "-m", "handeval"]
MODULES = {"shisanshui": shisanshui, "tienlen": tienlen, "dachu": dachu}


def run(*args):
    p = subprocess.run(CMD + [str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    return p


def _subcommands(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def game_commands():
    """(game, command words, parser) of every game command of the CLI."""
    top = _subcommands(cli._build_parser())
    for name in ("classify", "special", "compare", "settle", "arrange"):
        yield "shisanshui", (name,), top[name]
    for game in ("tienlen", "dachu"):
        for name, parser in _subcommands(top[game]).items():
            yield game, (game, name), parser


def test_every_game_command_takes_rules():
    seen = []
    for game, words, parser in game_commands():
        options = {o for a in parser._actions for o in a.option_strings}
        assert "--rules" in options, words
        assert parser.get_default("rules_game") == game, words
        seen.append(words)
    assert len(seen) >= 5 + 6 + 7  # 十三水's commands, 越式13张's and 打儲's


def _text(value):
    return json.dumps(value) if not isinstance(value, str) else value


@pytest.mark.parametrize("game", MODULES)
def test_every_option_reads_as_key_value_and_as_json(game):
    """Each option of the game's Rules, given its default and a changed value, in both
    forms, gives the Rules the API builds from the same keywords."""
    module = MODULES[game]
    defaults = module.Rules().to_dict()
    for key, value in defaults.items():
        others = [not value] if isinstance(value, bool) else [value + 1] if isinstance(value, int) else []
        for v in [value, *others]:
            want = module.Rules(**{key: v}).to_dict()
            assert cli.parse_rules(game, f"{key}={_text(v)}").to_dict() == want
            assert cli.parse_rules(game, json.dumps({key: v})).to_dict() == want
    both = dict(list(defaults.items())[:2])
    pairs = ",".join(f"{k}={_text(v)}" for k, v in both.items())
    assert cli.parse_rules(game, pairs).to_dict() == module.Rules(**both).to_dict()
    assert cli.parse_rules(game, pairs.replace(",", " ")).to_dict() == module.Rules(**both).to_dict()
    assert cli.parse_rules(game, None) is None


def test_rules_change_the_answer_as_in_the_api():
    wheel, king_high = "As 2s 3s 4h 5s", "Kh Qh Jd Th 9c"  # A2345 straight vs K-high straight
    house = shisanshui.Rules(a2345="second_highest")
    assert shisanshui.compare(wheel, king_high) == -1 and shisanshui.compare(wheel, king_high, rules=house) == 1
    for form in ("a2345=second_highest", '{"a2345": "second_highest"}'):
        r = run("compare", wheel, "--vs", king_high, "--rules", form, "--json")
        assert r.returncode == 0 and json.loads(r.stdout) == {"compare": 1}, r.stderr
    assert json.loads(run("compare", wheel, "--vs", king_high, "--json").stdout) == {"compare": -1}
    r = run("classify", wheel, "--rules", "a2345=second_highest", "--json")
    assert json.loads(r.stdout) == shisanshui.classify(wheel, rules=house).to_dict()
    assert json.loads(r.stdout) != shisanshui.classify(wheel).to_dict()


def test_tienlen_settle_uses_the_rules():
    hands = ["-", "2h 7s 7h 7d 7c", "3s 4h", "5d 6c 8s"]
    r = run("tienlen", "settle", "--winner", "0", "--base", "10", *hands, "--rules", "rake_percent=0", "--json")
    assert r.returncode == 0, r.stderr
    want = tienlen.settle(["", *hands[1:]], winner=0, base=10, rules=tienlen.Rules(rake_percent=0)).to_dict()
    got = json.loads(r.stdout)
    assert got == json.loads(json.dumps(want)) and got["rake"] == 0
    assert json.loads(run("tienlen", "settle", "--winner", "0", "--base", "10", *hands, "--json").stdout)["rake"] > 0


@pytest.mark.parametrize(
    "words,value,says",
    [
        (("classify", "As Ks Qs"), "nope=1", "'nope' is not a 十三水 (shisanshui) rule"),
        (("classify", "As Ks Qs"), "a2345=x", "rules.a2345"),
        (("classify", "As Ks Qs"), "suit_tiebreak=yes", "rules.suit_tiebreak"),
        (("classify", "As Ks Qs"), "a2345", "is not key=value"),
        (("classify", "As Ks Qs"), "{bad json", "bad JSON"),
        (("classify", "As Ks Qs"), "a2345=lowest a2345=lowest", "given twice"),
        (("tienlen", "classify", "3s"), "rake_percent=200", "rules.rake_percent"),
        (("tienlen", "classify", "3s"), "a2345=lowest", "is not a 越式13张 (tienlen) rule"),
        (("dachu", "classify", "3s", "--chu", "red"), "escape_units=-1", "rules.escape_units"),
        (("dachu", "classify", "3s", "--chu", "red"), '{"pass_is_final": 1}', "rules.pass_is_final"),
    ],
)
def test_a_bad_rules_value_is_one_line_naming_the_option(words, value, says):
    r = run(*words, "--rules", value)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handeval: --rules: ") and says in lines[0], r.stderr


@pytest.mark.parametrize(
    "words", [("classify", "As Ks Qs"), ("tienlen", "classify", "3s"), ("dachu", "classify", "3s", "--chu", "red")]
)
def test_an_unknown_rule_prints_its_reason(words):
    """An option the game does not have is a bad rule like a bad value: its line ends with
    the reason in brackets, as every HandevalError's does (what a script branches on)."""
    bad = run(*words, "--rules", "nosuch=1")
    assert bad.returncode == 2 and bad.stderr.rstrip().endswith("[bad_rule]"), bad.stderr
    assert "'nosuch'" in bad.stderr


def test_an_empty_object_is_the_defaults():
    assert cli.parse_rules("shisanshui", "{}").to_dict() == shisanshui.Rules().to_dict()

"""What the ``handeval`` command's modules share: the usage error, reading cards, seats,
amounts and action lists from arguments, ``--rules``, ``--json`` and the text printers."""

from __future__ import annotations

import argparse
import json
import sys

from handeval.errors import HandevalError

# ------------------------------------------------------------------------ arguments


class Usage(Exception):
    """A command used wrongly: the message is printed after ``handeval: `` (exit 2);
    ``reason``, when the cause is a HandevalError, is its reason (printed in brackets)."""

    def __init__(self, message, reason=None):
        super().__init__(message)
        self.reason = reason


def card_text(tokens):
    """Cards given as one quoted argument or as several (``As Ks Qs``)."""
    return " ".join(tokens)


def to_json(obj):
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    if isinstance(obj, (list, tuple)):
        return [to_json(x) for x in obj]
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    return obj


def print_json(obj):
    print(json.dumps(to_json(obj), ensure_ascii=False))


def seat_cards(text):
    """One seat's cards in a list argument: ``-`` (or empty) is no cards."""
    return "" if text in ("-", "") else text


def int_list(text):
    """``"500,60"`` or ``"500 60"`` -> [500, 60]; ``-`` or ``none`` entries are None."""
    out = []
    for part in text.replace(",", " ").split():
        if part.lower() in ("-", "none"):
            out.append(None)
        else:
            try:
                out.append(int(part))
            except ValueError:
                raise argparse.ArgumentTypeError(f"not an integer: {part!r}") from None
    return out


def parse_actions(text):
    """A list of actions: JSON (``[["deal"], ["meng_xuan", 0, "Ah"]]``) or text, one action
    per line or ``;``: a name, then seats (integers) and cards/words, e.g.
    ``deal*9; meng_xuan 0 Ah; meng_chuai 0 5s 5h 5d; finish`` (``*N`` repeats it)."""
    text = text.strip()
    if text.startswith("["):
        try:
            return [tuple(a) if isinstance(a, list) else (a,) for a in json.loads(text)]
        except json.JSONDecodeError as e:
            raise argparse.ArgumentTypeError(f"actions: bad JSON: {e}") from None
    actions = []
    for chunk in text.replace("\n", ";").split(";"):
        words = chunk.split()
        if not words:
            continue
        name, _, times = words[0].partition("*")
        if times and not times.isdigit():
            raise argparse.ArgumentTypeError(f"actions: bad repeat count in {words[0]!r}")
        ints = [int(w) for w in words[1:] if w.lstrip("-").isdigit()]
        rest = [w for w in words[1:] if not w.lstrip("-").isdigit()]
        action = (name, *ints) + ((" ".join(rest),) if rest else ())
        actions += [action] * (int(times) if times else 1)
    return actions


def action_text(action):
    return " ".join(" ".join(a) if isinstance(a, (list, tuple)) else str(a) for a in action)


def apply_all(state, actions, what):
    for i, action in enumerate(actions):
        try:
            state = state.apply(action)
        except HandevalError as e:
            raise Usage(
                f"{what}[{i}] ({action_text(action)}): {getattr(e, 'description', None) or e}", e.reason
            ) from None
    return state


def actions_arg(text):
    return parse_actions(sys.stdin.read() if text == "-" else text)


# ------------------------------------------------------------------------ house rules

#: The game of each command group's ``--rules``: its Python module (whose ``Rules`` reads
#: the options) and its name in messages.
RULES_GAMES = {"shisanshui": "十三水", "tienlen": "越式13张", "dachu": "打儲"}


def _rules_value(text):
    """One ``key=value`` value: a JSON literal (``true``, ``5``, ``"x"``) or else the text
    itself (``a2345=second_highest``); ``True``/``False`` as Python writes them too."""
    if text in ("True", "False"):
        return text == "True"
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_rules(game, text):
    """The ``Rules`` of ``game`` from a ``--rules`` value: a JSON object
    (``{"a2345": "second_highest"}``) or ``key=value`` pairs separated by commas or spaces
    (``a2345=second_highest,suit_tiebreak=false``); None for no value. Validated by the
    game's Python ``Rules`` itself: a bad option or value is a ``Usage`` naming
    ``--rules`` and the option (exit 2)."""
    import importlib

    if text is None:
        return None
    module = importlib.import_module(f"handeval.{game}")
    text = text.strip()
    if text.startswith("{"):
        try:
            options = json.loads(text)
        except json.JSONDecodeError as e:
            raise Usage(f"--rules: bad JSON: {e}") from None
    else:
        options = {}
        for pair in text.replace(",", " ").split():
            key, eq, value = pair.partition("=")
            if not eq or not key:
                raise Usage(f"--rules: {pair!r} is not key=value (or give a JSON object)")
            if key in options:
                raise Usage(f"--rules: {key} given twice")
            options[key] = _rules_value(value)
    known = module.Rules().to_dict()
    unknown = [k for k in options if k not in known]
    if unknown:
        raise Usage(
            f"--rules: {unknown[0]!r} is not a {RULES_GAMES[game]} ({game}) rule; the options: {', '.join(known)}",
            "bad_rule",
        )
    try:
        return module.Rules(**options)
    except HandevalError as e:
        raise Usage(f"--rules: {e}", e.reason) from None


def _add_rules_option(parser, game):
    """``--rules`` on one game command; :func:`main` turns it into ``args.rules``."""
    parser.add_argument(
        "--rules",
        dest="rules_text",
        metavar="RULES",
        default=None,
        help=f"{RULES_GAMES[game]} house rules (docs/rules.md): a JSON object or key=value "
        "pairs, e.g. "
        + {
            "shisanshui": "a2345=second_highest,suit_tiebreak=false",
            "tienlen": "rake_percent=0",
            "dachu": "pass_is_final=true",
        }[game]
        + " (default: the defaults)",
    )
    parser.set_defaults(rules_game=game)


def add_rules_options(games):
    """``--rules`` on every command of each game (``{game: its command parsers}``): one
    place, so every game command has it."""
    for game, parsers in games.items():
        for parser in parsers:
            _add_rules_option(parser, game)


# ------------------------------------------------------------------------ parsers


def add_seat_options(parser, viewer_help, suggest_help):
    """A game command's ``--viewer``, ``--suggest`` (托管) and the suggestion's ``--seed``
    and ``--effort``: one definition for every command that shows a seat's view."""
    parser.add_argument("--viewer", type=int, help=viewer_help)
    parser.add_argument("--suggest", action="store_true", help=suggest_help)
    parser.add_argument("--seed", type=int, default=0, help="the suggestion's seed (default 0)")
    parser.add_argument("--effort", type=int, help="the suggestion's effort (default 0: the fast heuristic)")


#: ``--json`` after the subcommand too (a parent of every command); SUPPRESS keeps a
#: ``--json`` given before it.
_JSON_AFTER = argparse.ArgumentParser(add_help=False)
_JSON_AFTER.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of text")


def command(group, name, func, help, **kw):
    """A command ``name`` in ``group`` (a subparsers action) that runs ``func(args)``."""
    c = group.add_parser(name, help=help, parents=[_JSON_AFTER], **kw)
    c.set_defaults(func=func)
    return c


def name_commands(sub, group, title):
    """Sets the top-level help line of ``group`` (a parser added to ``sub``, whose commands
    are all added) to ``title`` and the names of its commands, read from its subparsers,
    so that ``handeval --help`` lists every command there is."""
    names = next(a for a in group._actions if isinstance(a, argparse._SubParsersAction)).choices
    line = f"{title}: {', '.join(names)}"
    for choice in sub._choices_actions:  # argparse keeps each subcommand's help line here
        if choice.dest == group.prog.split()[-1]:
            choice.help = line


def add_cards(c, name="cards", help="cards, one quoted argument or several: As Ks Qs", nargs="+"):
    c.add_argument(name, nargs=nargs, help=help)


# ------------------------------------------------------------------------ printing


def play_text(p):
    return f"{p.kind} ({p.kind_zh}): {' '.join(p.cards)}"


def print_plays(plays, as_json):
    if as_json:
        return print_json(plays)
    for p in plays:
        print(play_text(p))
    if not plays:
        print("no legal play (pass)")


def settlement_text(s, lines):
    print("deltas  " + " ".join(f"{d:+d}" for d in s.deltas))
    for line in lines:
        print("  " + line)


def value_text(v, top=True):
    """A state value as text for people, never Python's repr: None is ``-``, a bool
    ``yes``/``no``, a list's items are separated by ``, `` (by spaces inside an item, so a
    list of card lists reads ``5s 5h 5d, 9c 9d 9h``); an empty list is ``none``."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if not v:
            return "none" if top else "-"
        return (", " if top else " ").join(value_text(x, top=False) for x in v)
    return str(v)


def print_state(title, d):
    print(title)
    for k, v in d.items():
        if k in ("legal_actions", "history"):
            v = "; ".join(map(action_text, v)) or "none"
        else:
            v = value_text(v)
        print(f"  {k:<14}{v}")

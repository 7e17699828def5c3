"""The ``handeval`` command: every game's rules from a shell, batch arrangement, and the
gRPC server.

``handeval classify|compare|special|settle|arrange`` are 十三水; ``handeval tienlen ...`` (越式13张) and
``handeval dachu ...`` (打儲) hold the other games; ``serve``, ``call`` and ``bench-load``
are the service's tools (they need the ``server`` extra). One module per game
(:mod:`handeval.cli.shisanshui`, :mod:`~handeval.cli.tienlen`, :mod:`~handeval.cli.dachu`),
one for the tools (:mod:`~handeval.cli.tools`) and what they share in
:mod:`~handeval.cli.common`. Each subcommand is one small function, registered by its
module's ``add_commands``, and uses only the public Python API; output is plain text for
people, or JSON with ``--json`` (before or after the subcommand) for scripts. Cards may
be one quoted argument or several (``handeval classify As Ks Qs``).

Exit codes: 0 success; 1 a batch with bad lines (each reported in the output); 2 bad
input (a ``HandevalError``, printed as ``handeval: field: description``), bad usage or a
tool without its extra; 130 interrupted (Ctrl-C); 141 the reader of our output went away
(``| head``).
"""

from __future__ import annotations

import argparse
import os
import sys

from handeval.cli import dachu, shisanshui, tienlen, tools
from handeval.cli.common import Usage, add_rules_options, parse_rules
from handeval.errors import HandevalError

__all__ = ["main", "parse_rules"]


def _version():
    try:
        from importlib.metadata import version

        return version("handeval")
    except Exception:  # running from a source tree that is not installed
        from handeval import __version__

        return __version__


def _build_parser():
    p = argparse.ArgumentParser(prog="handeval", description="Hand evaluation for 十三水, 越式13张 and 打儲.")
    p.add_argument("--version", action="version", version=f"handeval {_version()}")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = {
        "shisanshui": shisanshui.add_commands(sub),
        "tienlen": tienlen.add_commands(sub),
        "dachu": dachu.add_commands(sub),
    }
    tools.add_commands(sub)
    add_rules_options(games)
    return p


def _quiet_stdout():
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush
    does not raise again (the recipe of Python's signal module documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv=None):
    try:
        args = _build_parser().parse_args(argv)
        if getattr(args, "rules_game", None):
            args.rules = parse_rules(args.rules_game, args.rules_text)
        return args.func(args) or 0
    except (HandevalError, Usage) as e:
        # The reason in brackets: what a script branches on (HandevalError.reason).
        reason = getattr(e, "reason", None)
        print(f"handeval: {e}" + (f" [{reason}]" if reason else ""), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("handeval: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 141

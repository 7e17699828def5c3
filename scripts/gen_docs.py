#!/usr/bin/env python3
"""Writes what is derived from each game's rule options: the option tables of docs/api.md
and docs/rules.md and the ``Rules`` classes of the stub ``pysrc/handeval/_core.pyi``; and
docs/grpc.md's table of error reasons, from the cases of tests/reason_cases.py (the table
tests/api/test_reasons.py checks through the Python API, the CLI and gRPC).

The one source is the core's list of options (``<game>_rule_options!`` in
rust/handeval-core): its doc comments reach the built classes as each attribute's
``__doc__``, and this script reads them from there, with each default from ``Rules()``.
Each description ends with ``(§<section>, house rule)`` or ``(§<section>, variant)``.

    python3 scripts/gen_docs.py           # rewrite the generated parts
    python3 scripts/gen_docs.py --check   # exit 1, with a diff, if one is out of date

Only the text between ``<!-- BEGIN generated ... -->`` / ``<!-- END generated ... -->``
(Markdown) and ``# BEGIN generated ...`` / ``# END generated ...`` (the stub) is written;
tests/docs runs ``--check``. Needs handeval installed (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

from handeval import dachu, shisanshui, tienlen

ROOT = Path(__file__).resolve().parents[1]
GAMES = [
    ("shisanshui", "十三水", shisanshui.Rules),
    ("tienlen", "越式13张", tienlen.Rules),
    ("dachu", "打儲", dachu.Rules),
]
TRAILER = re.compile(r"\s*\(§([\d.]+[a-z]?), (house rule|variant)\)\s*$")
PY_TYPES = {bool: "bool", int: "int", str: "str"}


def literal(value):
    """A default as the docs write it: ``True``, ``5``, ``"shcd"``."""
    return f'"{value}"' if isinstance(value, str) else repr(value)


def options(cls):
    """``(name, default, python type, meaning, section, kind)`` of each option, in order."""
    default = cls()
    out = []
    for name in cls.__match_args__:
        doc = " ".join((getattr(cls, name).__doc__ or "").split())
        m = TRAILER.search(doc)
        if not m:
            raise SystemExit(
                f"{cls.__module__}.Rules.{name}: its doc must end with '(§<section>, house rule)' "
                f"or '(§<section>, variant)' (the core's <game>_rule_options!), got {doc!r}"
            )
        value = getattr(default, name)
        out.append((name, value, PY_TYPES[type(value)], doc[: m.start()], m.group(1), m.group(2)))
    return out


def api_table(cls):
    rows = ["| option | default | meaning (§) |", "|---|---|---|"]
    for name, value, _, meaning, section, _ in options(cls):
        rows.append(f"| `{name}` | `{literal(value)}` | {meaning} ({section}) |")
    return "\n".join(rows)


def rules_table():
    rows = ["| game | option | default | meaning | § | kind |", "|---|---|---|---|---|---|"]
    for _, zh, cls in GAMES:
        for name, value, _, meaning, section, kind in options(cls):
            rows.append(f"| {zh} | `{name}` | `{literal(value)}` | {meaning} | {section} | {kind} |")
    return "\n".join(rows)


def stub_class(game, cls):
    opts = options(cls)
    native = f"{game.capitalize()}Rules"
    lines = [
        "@final",
        f"class {native}(_Native):",
        f'    """handeval.{game}.Rules"""',
        "    __match_args__ = (" + ", ".join(f'"{o[0]}"' for o in opts) + ("," if len(opts) == 1 else "") + ")",
        "    def __new__(",
        "        cls,",
        "        *,",
        *(f"        {name}: Optional[{t}] = None," for name, _, t, *_ in opts),
        f"    ) -> {native}: ...",
    ]
    for name, _, t, meaning, section, kind in opts:
        lines += ["    @property", f"    def {name}(self) -> {t}:", f'        """{meaning} (§{section}, {kind})"""']
    lines.append(f"    def replace(self, **changes: Any) -> {native}: ...")
    return "\n".join(lines)


ZH = {"shisanshui": "十三水", "tienlen": "越式13张", "dachu": "打儲"}


def reasons_table():
    sys.path.insert(0, str(ROOT / "tests"))
    from reason_cases import CASES

    rows = [
        "| game | reason | a mistake that gives it | gRPC `ItemError.field` | action_index | CLI |",
        "|---|---|---|---|---|---|",
    ]
    for c in CASES:
        field = f"`{c.field}`" if c.field else ""
        index = "" if c.action_index is None else str(c.action_index)
        rows.append(
            f"| {ZH[c.game]} | `ERROR_REASON_{c.reason.upper()}` | {c.what} | {field} | {index} | "
            f"{'yes' if c.cli else ''} |"
        )
    return "\n".join(rows)


def replace_between(text, begin, end, body, path):
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"{path}: missing the markers {begin!r} … {end!r}")
    return text[: i + len(begin)] + "\n" + body + "\n" + text[j:]


def md(path, key, body):
    return (path, f"<!-- BEGIN generated: {key} (scripts/gen_docs.py) -->", f"<!-- END generated: {key} -->", body)


def targets():
    api, rules, stub = ROOT / "docs" / "api.md", ROOT / "docs" / "rules.md", ROOT / "pysrc" / "handeval" / "_core.pyi"
    out = [md(api, f"{game}.Rules options", api_table(cls)) for game, _, cls in GAMES]
    out.append(md(rules, "rule options", rules_table()))
    out.append(md(ROOT / "docs" / "grpc.md", "error reasons", reasons_table()))
    out += [
        (
            stub,
            f"# BEGIN generated: {game}.Rules (scripts/gen_docs.py)",
            f"# END generated: {game}.Rules",
            stub_class(game, cls),
        )
        for game, _, cls in GAMES
    ]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a generated part is out of date")
    args = ap.parse_args(argv)
    new = {}
    for path, begin, end, body in targets():
        text = new.get(path, path.read_text(encoding="utf-8"))
        new[path] = replace_between(text, begin, end, body, path)
    stale = []
    for path, text in new.items():
        old = path.read_text(encoding="utf-8")
        if old == text:
            continue
        stale.append(path)
        if args.check:
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), str(path.relative_to(ROOT)), "generated"
                )
            )
        else:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"\nout of date: {', '.join(str(p.relative_to(ROOT)) for p in stale)}; run python3 scripts/gen_docs.py")
        return 1
    if not args.check:
        print(f"wrote {len(stale)} file(s)" if stale else "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

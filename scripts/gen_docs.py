#!/usr/bin/env python3
"""Writes what is derived from the binding's definitions (read from the built
``handeval._core``), so each is written once:

* each game's rule options: the option tables of docs/api.md and docs/rules.md and the
  ``Rules`` classes of the stub ``pysrc/handeval/_core.pyi``. The one source is the core's
  list of options (``<game>_rule_options!`` in rust/handeval-core): its doc comments reach
  the built classes as each attribute's ``__doc__``, with each default from ``Rules()``.
  Each description ends with ``(§<section>, house rule)`` or ``(§<section>, variant)``.
* each result class (``native_class!`` in rust/handeval-py): its fields, in order
  (``__match_args__``), and each field's description (its doc comment in the binding,
  the getter's ``__doc__``) become the class's field properties in the stub and its field
  table in docs/api.md. A field's Python type is written once, in the stub's ``__new__``
  (the constructor takes every field, in order; a field reads back as ``list`` where
  ``__new__`` takes a ``Sequence``, ``list[str]`` where it takes cards).
* the ``LineKind`` enums of ``handeval.tienlen`` and ``handeval.dachu``: their members
  and descriptions from the core's line kinds (``_core.TL_LINE_KINDS`` /
  ``DC_LINE_KINDS``).
* docs/grpc.md's table of error reasons, from the cases of harness/reason_cases.py (the
  table tests/api/test_reasons.py checks through the Python API, the CLI and gRPC).

    python3 scripts/gen_docs.py           # rewrite the generated parts
    python3 scripts/gen_docs.py --check   # exit 1, with a diff, if one is out of date

Only the text between ``<!-- BEGIN generated ... -->`` / ``<!-- END generated ... -->``
(Markdown) and ``# BEGIN generated ...`` / ``# END generated ...`` (the stub, the Python
modules) is written; tests/docs runs ``--check``. Needs handeval installed (``pip install
-e .``). ``--stub PATH`` checks or writes another copy of the stub (tests/docs uses it).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
from pathlib import Path

from handeval import _core, dachu, shisanshui, tienlen

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


# ---- result classes: fields and their descriptions from the binding, types from __new__ ----


def result_classes():
    """The ``_core`` names of the value classes that are results (not ``Rules``)."""
    out = []
    for name in dir(_core):
        cls = getattr(_core, name)
        if isinstance(cls, type) and hasattr(cls, "__match_args__") and not name.endswith("Rules"):
            out.append(name)
    return out


def field_docs(name):
    """``[(field, description)]`` of ``_core.<name>``; every field must have one."""
    cls = getattr(_core, name)
    out = []
    for f in cls.__match_args__:
        doc = " ".join((getattr(cls, f).__doc__ or "").split())
        if not doc:
            raise SystemExit(
                f"_core.{name}.{f}: no description; write one as the field's doc comment in rust/handeval-py"
            )
        out.append((f, doc))
    return out


def read_type(node):
    """The type a field reads back as, from the type ``__new__`` takes it as."""
    if isinstance(node, ast.Name) and node.id == "_Cards":
        return "List[str]"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        head = {"Sequence": "List"}.get(node.value.id, node.value.id)
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return f"{head}[{', '.join(read_type(a) for a in args)}]"
    return ast.unparse(node)


def stub_field_types(stub_text):
    """``{class: [(param, read type)]}`` from each stub class's ``__new__``."""
    out = {}
    for node in ast.parse(stub_text).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__new__":
                args = item.args.args[1:] + item.args.kwonlyargs
                out[node.name] = [(a.arg, read_type(a.annotation) if a.annotation else "Any") for a in args]
    return out


def field_types(name, stub_text):
    fields = [f for f, _ in field_docs(name)]
    params = stub_field_types(stub_text).get(name)
    if params is None or [p for p, _ in params] != fields:
        raise SystemExit(
            f"_core.pyi: {name}.__new__ must take the fields {fields}, in order "
            f"(it is where their types are written), got {params and [p for p, _ in params]}"
        )
    return dict(params)


def stub_fields(name, stub_text):
    """The generated part of a result class in the stub: ``__match_args__`` and the fields."""
    types = field_types(name, stub_text)
    docs = field_docs(name)
    lines = ["    __match_args__ = (" + ", ".join(f'"{f}"' for f, _ in docs) + ("," if len(docs) == 1 else "") + ")"]
    for f, doc in docs:
        lines += ["    @property", f"    def {f}(self) -> {types[f]}:", f'        """{doc}"""']
    return "\n".join(lines)


PUBLIC = {"List": "list", "Tuple": "tuple", "Dict": "dict"}


def doc_type(t):
    """A stub type as docs/api.md writes it: ``list[PairResult]``, ``str | None``."""
    node = ast.parse(t, mode="eval").body

    def show(n):
        if isinstance(n, ast.Subscript):
            args = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            head = n.value.id
            if head == "Optional":
                return f"{show(args[0])} \\| None"
            return f"{PUBLIC.get(head, head)}[{', '.join(show(a) for a in args)}]"
        if isinstance(n, ast.Name) and hasattr(_core, n.id):
            return getattr(_core, n.id).__name__
        return ast.unparse(n)

    return show(node)


def api_fields(name, stub_text):
    types = field_types(name, stub_text)
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for f, doc in field_docs(name):
        rows.append(f"| `{f}` | {doc_type(types[f])} | {doc.replace('|', chr(92) + '|')} |")
    return "\n".join(rows)


def public_name(name):
    cls = getattr(_core, name)
    return f"{cls.__module__.removeprefix('handeval.')}.{cls.__name__}"


# ---- the LineKind enums: members from the core's line kinds ----


def line_kinds(kinds):
    lines = []
    for value, doc in kinds.items():
        lines += [f"    #: {doc}", f'    {value.upper()} = "{value}"']
    return "\n".join(lines)


ZH = {"shisanshui": "十三水", "tienlen": "越式13张", "dachu": "打儲"}


def reasons_table():
    sys.path.insert(0, str(ROOT))
    from harness.reason_cases import CASES

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
        raise SystemExit(f"{path}: missing the markers {begin.strip()!r} … {end.strip()!r}")
    return text[: i + len(begin)] + "\n" + body + "\n" + text[j:]


def md(path, key, body):
    return (path, f"<!-- BEGIN generated: {key} (scripts/gen_docs.py) -->", f"<!-- END generated: {key} -->", body)


STUB = ROOT / "pysrc" / "handeval" / "_core.pyi"


def targets(stub=STUB):
    api, rules = ROOT / "docs" / "api.md", ROOT / "docs" / "rules.md"
    stub_text = stub.read_text(encoding="utf-8")
    out = [md(api, f"{game}.Rules options", api_table(cls)) for game, _, cls in GAMES]
    for name in result_classes():
        out.append(md(api, f"{public_name(name)} fields", api_fields(name, stub_text)))
        out.append(
            (
                stub,
                f"    # BEGIN generated: {name} fields (scripts/gen_docs.py)",
                f"    # END generated: {name} fields",
                stub_fields(name, stub_text),
            )
        )
    for game, kinds in (("tienlen", _core.TL_LINE_KINDS), ("dachu", _core.DC_LINE_KINDS)):
        out.append(
            (
                ROOT / "pysrc" / "handeval" / f"{game}.py",
                "    # BEGIN generated: LineKind (scripts/gen_docs.py)",
                "    # END generated: LineKind",
                line_kinds(kinds),
            )
        )
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


def rel(path):
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if a generated part is out of date")
    ap.add_argument("--stub", type=Path, default=STUB, help="the stub to check or write (default: the package's)")
    args = ap.parse_args(argv)
    new = {}
    for path, begin, end, body in targets(args.stub.resolve()):
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
                difflib.unified_diff(old.splitlines(True), text.splitlines(True), rel(path), "generated")
            )
        else:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"\nout of date: {', '.join(rel(p) for p in stale)}; run python3 scripts/gen_docs.py")
        return 1
    if not args.check:
        print(f"wrote {len(stale)} file(s)" if stale else "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

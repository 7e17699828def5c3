"""Every snippet of the user-facing Markdown runs as written, and every link stays inside
the repository.

Files: README.md, docs/*.md, deploy/README.md. The conventions for writing them:

* ```python blocks are executed, each file's blocks in order in one namespace (a later
  block may use names from an earlier one); a block must not raise.
  - A line that is an expression followed by a comment that starts with a Python
    literal is checked: ``row.category  # 'straight_flush'`` asserts that value. The
    literal may be followed by prose after ``:``, `` (`` or `` —`` (``# 1: ♠ beats ♥``);
    a comment that is not a literal is just a comment.
  - Code that talks to the gRPC service may use ``127.0.0.1:50051`` (the default
    address): the test starts ``handeval serve`` on a free loopback port and points
    that address there.
* ```sh / ```bash / ```console blocks: a block made only of ``handeval`` commands and
  variable assignments (``H='["3s 5h ..."]'``) runs whole in bash (``set -euo
  pipefail``), after the assignments of the file's earlier such blocks; in any other
  block each ``handeval`` command runs alone. Each must exit 0. ``handeval`` there
  is this Python's, ``handeval call`` is pointed at the test's server, and
  ``handeval serve`` / ``handeval bench-load`` are skipped (the test's own server stands
  in). Other commands (pip, bash scripts, cargo, grpcurl) are not run here: CI runs
  them itself. Sample output goes in ``#`` comments.
* Anything not meant to run — sample output, signatures, pseudo-code — goes in a
  ```text block (or a fence without a language).
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from grpc_fixtures import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "deploy" / "README.md"]
DEFAULT_TARGET = "127.0.0.1:50051"
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
SHELL = {"sh", "bash", "console", "shell"}


def blocks(path, langs):
    """``(line number, code)`` of each fenced block of ``path`` in ``langs``."""
    text = path.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        if m.group(1) in langs:
            yield text.count("\n", 0, m.start(2)) + 1, m.group(2)


def rel(path):
    return str(path.relative_to(ROOT))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = ServerProcess(tmp_path_factory.mktemp("docs"), metrics=False)
    try:
        yield s.wait_serving()
    finally:
        s.terminate()


# ---------------------------------------------------------------- python blocks

_PROSE = re.compile(r"(?::\s| \(| —| -- )")


def _expected_literal(comment):
    """The literal a comment starts with (whole, or before ``: `` / `` (`` / `` —``)."""
    for text in (comment, *[comment[: m.start()] for m in _PROSE.finditer(comment)]):
        try:
            return True, ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return False, None


def _checked(code, lineno):
    """The block's source with each ``expr  # literal`` line turned into an assertion."""
    lines = code.splitlines()
    for node in ast.parse(code).body:
        if not (isinstance(node, ast.Expr) and node.lineno == node.end_lineno):
            continue
        line, expr = lines[node.lineno - 1], ast.get_source_segment(code, node)
        head, _, rest = line.partition(expr)
        if rest.strip().startswith("#"):
            ok, value = _expected_literal(rest.strip()[1:].strip())
            if ok:
                lines[node.lineno - 1] = f"{head}__doc_check__(({expr}), {value!r}, {lineno + node.lineno - 1})"
    return "\n".join(lines)


def _doc_check(got, expected, line):
    assert got == expected, f"line {line}: the snippet says {expected!r}, it gives {got!r}"


PY_DOCS = [d for d in DOCS if any(blocks(d, {"python"}))]


@pytest.mark.parametrize("path", PY_DOCS, ids=rel)
def test_python_snippets_run_as_written(path, server):
    ns = {"__name__": f"doc_{path.stem}", "__doc_check__": _doc_check}
    for lineno, code in blocks(path, {"python"}):
        code = code.replace(DEFAULT_TARGET, server.target)
        src = _checked(code, lineno)
        try:
            exec(compile(src, f"{rel(path)}:{lineno}", "exec"), ns)
        except Exception as e:
            raise AssertionError(
                f"{rel(path)}, block at line {lineno}: {type(e).__name__}: {e} (code that is "
                "not meant to run goes in a ```text block: tests/docs/test_docs.py)"
            ) from e


def test_literal_comments_are_checked():
    # the mechanism itself: a wrong value in a comment fails, prose after it is allowed
    src = _checked("x = 2\nx + 1  # 3: the sum\nx  # not a literal\n", 1)
    assert "__doc_check__((x + 1), 3, 2)" in src and "__doc_check__((x)," not in src
    with pytest.raises(AssertionError, match="says 4"):
        exec(_checked("1 + 2  # 4\n", 1), {"__doc_check__": _doc_check})
    assert _expected_literal("('straight_flush', '同花顺')") == (True, ("straight_flush", "同花顺"))
    assert _expected_literal("True (倒水)") == (True, True)
    assert _expected_literal("the best split")[0] is False


# ---------------------------------------------------------------- shell blocks


ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")
# The test's stand-in for the installed command: this Python's handeval, `call` pointed
# at the test's server, `serve` and `bench-load` skipped.
HANDEVAL_FUNCTION = """
handeval() {
    case "$1" in
        serve|bench-load) return 0 ;;
        call) "$HANDEVAL_PYTHON" -m handeval "$@" --target "$HANDEVAL_TARGET" ;;
        *) "$HANDEVAL_PYTHON" -m handeval "$@" ;;
    esac
}
"""


def _commands(code):
    """``(line offset, text, words)`` of each command of a shell block: lines joined
    while a quote is open or a line ends in a backslash; comments dropped."""
    lines, i = code.splitlines(), 0
    while i < len(lines):
        start, text = i, lines[i]
        while True:
            try:
                words = shlex.split(text, comments=True)
                if not text.endswith("\\"):
                    break
            except ValueError:  # an open quote: the command goes on
                pass
            i += 1
            if i == len(lines):
                raise AssertionError(f"unterminated shell command: {lines[start]!r}")
            text += "\n" + lines[i]
        i += 1
        if words:
            yield start, text, words


def _shell_cases(path):
    """A block of only ``handeval`` commands and variable assignments runs whole in bash,
    after the assignments of the file's earlier blocks (blocks of a file share variables
    as python blocks share names); from any other block (pip, cargo, bash scripts ...),
    each ``handeval`` command alone."""
    assignments = []
    for lineno, code in blocks(path, SHELL):
        cmds = list(_commands(code))
        if all(w[0] == "handeval" or ASSIGNMENT.match(w[0]) for _, _, w in cmds):
            if any(w[0] == "handeval" for _, _, w in cmds):
                yield lineno, "\n".join(assignments + [code])
            assignments += [text for _, text, w in cmds if ASSIGNMENT.match(w[0])]
        else:
            for off, text, words in cmds:
                if words[0] == "handeval":
                    yield lineno + off, text


SH_CASES = [(d, n, code) for d in DOCS for n, code in _shell_cases(d)]


@pytest.mark.parametrize("path,lineno,code", SH_CASES, ids=[f"{rel(d)}:{n}" for d, n, _ in SH_CASES])
def test_cli_examples_run(path, lineno, code, server):
    env = dict(os.environ, HANDEVAL_PYTHON=sys.executable, HANDEVAL_TARGET=server.target)
    p = subprocess.run(
        ["bash", "-c", "set -euo pipefail\n" + HANDEVAL_FUNCTION + code],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr, f"{rel(path)}:{lineno}: {p.stderr}"


# ---------------------------------------------------------------- links

LINK = re.compile(r"\]\(([^)\s]+)\)")
LINKS = [
    (d, target)
    for d in DOCS
    for target in LINK.findall(d.read_text(encoding="utf-8"))
    if not re.match(r"[a-z]+:", target) and not target.startswith("#")
]


@pytest.mark.parametrize("path,target", LINKS, ids=[f"{rel(d)}->{t}" for d, t in LINKS])
def test_links_stay_inside_the_repository_and_exist(path, target):
    resolved = (path.parent / target.split("#")[0]).resolve()
    assert resolved.is_relative_to(ROOT), f"{rel(path)} links outside the repository: {target}"
    assert resolved.exists(), f"{rel(path)} links a missing file: {target}"


def test_readme_links_every_doc():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in [
        "docs/rules.md",
        "docs/api.md",
        "docs/grpc.md",
        "docs/hardening.md",
        "docs/arrange.md",
        "docs/benchmarks.md",
        "deploy/README.md",
        "LICENSE",
    ]:
        assert f"]({doc})" in readme, doc


USER_FILES = sorted(
    {
        f
        for f in [
            *DOCS,
            ROOT / "pyproject.toml",
            *(ROOT / "pysrc").rglob("*.py"),
            *(ROOT / "tests").rglob("*.py"),
            *(ROOT / "examples").glob("*"),
            *(ROOT / "deploy").rglob("*"),
            *(ROOT / "scripts").glob("*"),
        ]
        if f.is_file()
    }
)


@pytest.mark.parametrize("path", USER_FILES, ids=rel)
def test_nothing_user_facing_points_outside_the_repository(path):
    """No file a user gets names the reference material beside the project."""
    needle = "../" + "shared"  # split, so this file does not match itself
    assert needle not in path.read_text(encoding="utf-8", errors="replace")


def gen_docs_check(*args):
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_docs.py"), "--check", *args], capture_output=True, text=True
    )


def test_generated_parts_are_current():
    """The option tables of docs/api.md and docs/rules.md, the result classes' field tables,
    the stub's Rules classes and result fields and the LineKind enums are generated from
    the built classes (each description comes from the core's list of options or the
    binding's doc comments): ``python3 scripts/gen_docs.py`` rewrites them."""
    r = gen_docs_check()
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_grpc_md_shows_each_dachu_play_shape():
    """docs/grpc.md shows a 打儲 Evaluate ``play`` with its cards inside a ``Cards`` message
    (``{"play": {"cards": {"cards": […]}}}``, the shape a client most often gets wrong), and
    that example parses as an EvaluateRequest with those cards (it is run against the
    server by test_cli_examples_run)."""
    import json

    from google.protobuf import json_format

    from handeval.v2 import handeval_pb2

    text = (ROOT / "docs" / "grpc.md").read_text(encoding="utf-8")
    calls = re.findall(r"^handeval call Evaluate '(\{\"dachu\": \{\"items\": \[\{\"play\".*)'$", text, re.M)
    assert calls, "no 打儲 Evaluate play example in docs/grpc.md"
    request = json_format.Parse(calls[0], handeval_pb2.EvaluateRequest())
    item = request.dachu.items[0]
    assert (
        item.WhichOneof("item") == "play"
        and list(item.play.cards.cards) == json.loads(calls[0])["dachu"]["items"][0]["play"]["cards"]["cards"]
    )
    assert '{"play": {"cards": {"cards": […]}' in text


STUB = ROOT / "pysrc" / "handeval" / "_core.pyi"
# Hand edits of the stub's generated parts, each of which the check must refuse: a field's
# description, a field dropped from __match_args__, a field's type changed in the property
# only (the type is written in __new__), a Rules option's description.
STUB_EDITS = [
    ('"""`pairwise[i][j]`: the waters seat i wins', '"""`pairwise[i][j]`: what seat i wins'),
    ('"waters", "deltas", "pairwise", "fouls"', '"waters", "deltas", "fouls"'),
    ("def pairwise(self) -> List[List[int]]:", "def pairwise(self) -> List[Any]:"),
    ('"""抽水: percent of each positive result', '"""Rake: percent of each positive result'),
]


@pytest.mark.parametrize("old,new", STUB_EDITS, ids=range(len(STUB_EDITS)))
def test_a_hand_edit_of_the_stub_fails_the_check(tmp_path, old, new):
    text = STUB.read_text(encoding="utf-8")
    copy = tmp_path / "_core.pyi"
    copy.write_text(text, encoding="utf-8")
    assert gen_docs_check("--stub", str(copy)).returncode == 0  # the copy as it is: current
    assert text.count(old) == 1, old
    copy.write_text(text.replace(old, new), encoding="utf-8")
    r = gen_docs_check("--stub", str(copy))
    assert r.returncode == 1 and "_core.pyi" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]


def test_a_field_without_its_type_in_new_fails_the_check(tmp_path):
    """A field's type is written once, in ``__new__``: a ``__new__`` that does not take the
    fields in order is an error naming the class."""
    text = STUB.read_text(encoding="utf-8")
    old = "def __new__(cls, a: int, b: int, kind: str,"
    assert text.count(old) == 1
    copy = tmp_path / "_core.pyi"
    copy.write_text(text.replace(old, "def __new__(cls, b: int, a: int, kind: str,"), encoding="utf-8")
    r = gen_docs_check("--stub", str(copy))
    assert r.returncode != 0 and "ShisanshuiPairResult.__new__ must take the fields" in r.stderr, r.stderr[-2000:]

"""The user-facing Markdown names only things that exist: every repository file or folder
path it mentions (``scripts/test.sh``, ``rust/handeval-core/src/money.rs``,
``fuzz/regressions/``) is in the checkout, and every Python name ``handeval.<module>`` or
``handeval.<module>.<name>`` imports and resolves.

Files: README.md, CONTRIBUTING.md, CHANGELOG.md, docs/*.md, deploy/README.md.

What counts as a path: a word that starts with one of the repository's top-level folders
(``rust/``, ``pysrc/``, ``tests/``, ...) and is not part of a URL. A word with a
placeholder in it (``<target>``, ``*``, ``…``, ``{a,b}``, ``NAME``) is a pattern, not a
path: only the part before the placeholder is checked (that folder must exist). A path
git ignores (``fuzz/artifacts/``, made by a tool) counts as existing; ``NOT_FILES`` lists
the few words that look like paths and are not. A CHANGELOG entry describes what was, so
only its current-release section is checked.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DOCS = sorted(
    p
    for p in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", ROOT / "deploy" / "README.md"]
    + list((ROOT / "docs").glob("*.md"))
    if p.exists()
)

TOP_FOLDERS = (
    "rust",
    "pysrc",
    "tests",
    "scripts",
    "benches",
    "docs",
    "protos",
    "examples",
    "fuzz",
    "deploy",
    ".ci",
    ".github",
)

# Words that look like repository paths and are not, each with what it is.
NOT_FILES = {
    "deploy/locust-master": "a Kubernetes resource (kubectl exec deploy/NAME)",
    "benches/load.py": "a file of an old commit, named with the commit",
}
# handeval.<ext>: a file (handeval.proto) or the error domain (handeval.io), not Python.
NOT_PYTHON_LAST = {"proto", "io", "py", "pyi", "rs", "md", "toml", "json", "yaml", "txt"}

# A path: a top-level folder, then path characters; not preceded by a character that would
# make it the tail of a longer path or a URL.
PATH_RE = re.compile(r"(?<![\w/.\-~:$])((?:" + "|".join(re.escape(t) for t in TOP_FOLDERS) + r")/[\w./\-<>*…{},]*)")
# A Python name under the package: handeval.<module>[.<name>...].
PY_NAME_RE = re.compile(r"(?<![\w./\-])(handeval(?:\.[A-Za-z_]\w*)+)")
# Where a pattern's placeholder starts: what comes after it is not a real name.
PLACEHOLDER_RE = re.compile(r"[<>*…{}]|\b[A-Z]{3,}\b")


def _text(doc: Path) -> str:
    text = doc.read_text(encoding="utf-8")
    if doc.name == "CHANGELOG.md":
        # Released sections describe files as they were: only the unreleased one is current.
        m = re.search(r"^## \[?Unreleased\]?.*?(?=^## |\Z)", text, flags=re.M | re.S)
        text = m.group(0) if m else ""
    return text


def _lines(doc: Path):
    yield from enumerate(_text(doc).splitlines(), 1)


def referenced_paths(doc: Path) -> list[tuple[int, str, str]]:
    """(line, word as written, the part to check) for each path-like word of ``doc``."""
    out = []
    for n, line in _lines(doc):
        for m in PATH_RE.finditer(line):
            word = m.group(1)
            check = word
            cut = PLACEHOLDER_RE.search(check)
            if cut:
                check = check[: cut.start()]
                check = check[: check.rfind("/") + 1]  # the folder before the placeholder
            check = check.rstrip(".,:;)")
            if word.rstrip(".,:;)") in NOT_FILES:
                continue
            out.append((n, word, check))
    return out


def exists(path: str) -> bool:
    """Whether the checkout has ``path``, or git ignores it (a folder a tool makes)."""
    if (ROOT / path).exists():
        return True
    r = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT, capture_output=True)
    return r.returncode == 0


def resolves(name: str) -> bool:
    """Whether ``handeval.a.b.c`` is a module, or a module's attribute chain."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        module_name = ".".join(parts[:i])
        try:
            obj = importlib.import_module(module_name)
        except ImportError:
            continue
        for attr in parts[i:]:
            try:
                obj = getattr(obj, attr)
            except AttributeError:
                return False
        return True
    return False


def referenced_python_names(doc: Path) -> list[tuple[int, str]]:
    out = []
    for n, line in _lines(doc):
        for m in PY_NAME_RE.finditer(line):
            name = m.group(1).rstrip(".")
            # handeval.v2.<Message>: a protobuf package name (handeval.v2.Handeval/Settle),
            # not Python's (Python's modules there are handeval.v2.<file>_pb2).
            if re.match(r"handeval\.v2\.[A-Z]", name) or name.rsplit(".", 1)[1] in NOT_PYTHON_LAST:
                continue
            out.append((n, name))
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_paths_exist(doc):
    missing = [f"{doc.name}:{n}: {word}" for n, word, check in referenced_paths(doc) if not exists(check)]
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_python_names_exist(doc):
    missing = [f"{doc.name}:{n}: {name}" for n, name in referenced_python_names(doc) if not resolves(name)]
    assert not missing, "Python names in the docs that do not exist:\n" + "\n".join(missing)


def test_the_checks_catch_a_wrong_name(tmp_path):
    """The scanners find what they should (a test of the test: a stale name fails)."""
    doc = tmp_path / "x.md"
    doc.write_text(
        "See `scripts/no_such_script.py`, rust/handeval-core/src/money.rs and "
        "fuzz/corpus/<target>/ (a pattern), https://example.com/scripts/elsewhere.py (a URL), "
        "`handeval.shisanshui.classify`, handeval.shisanshui.no_such_function, handeval.v2.SettleRequest, "
        "handeval.proto, fuzz/artifacts/<target>/ (made by cargo fuzz, ignored by git).\n",
        encoding="utf-8",
    )
    paths = {word: exists(check) for _, word, check in referenced_paths(doc)}
    assert paths == {
        "scripts/no_such_script.py": False,
        "rust/handeval-core/src/money.rs": True,
        "fuzz/corpus/<target>/": True,
        "fuzz/artifacts/<target>/": True,
    }
    names = {name: resolves(name) for _, name in referenced_python_names(doc)}
    assert names == {"handeval.shisanshui.classify": True, "handeval.shisanshui.no_such_function": False}

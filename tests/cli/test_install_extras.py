"""What each install needs: the evaluator (``import handeval``, the game modules, the
CLI's game commands) runs without the packages of the ``server`` and ``load`` extras and
without tqdm; the service's tools, without them, print one line naming the pip command
that installs the extra and exit 2.

A user without the extras is played by a subprocess whose imports of those packages fail
(a finder first in ``sys.meta_path`` raises ModuleNotFoundError for them, as Python does
for a package that is not installed), beside the same command with everything installed.
A fresh virtualenv with only the wheel is scripts/smoke_wheel.sh's check."""

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from handeval import dachu, shisanshui, tienlen

from strategies import DC_HANDS_SEAT0_AH as DC_HANDS, SSW_HAND as HAND

ROOT = Path(__file__).resolve().parents[2]
#: The top-level modules of every package the extras add (server, load) and tqdm.
BLOCKED = (
    "grpc",
    "google",
    "grpc_health",
    "grpc_reflection",
    "grpc_status",
    "grpc_tools",
    "prometheus_client",
    "tqdm",
    "locust",
    "matplotlib",
)
BLOCKER = f"""
import sys

BLOCKED = {BLOCKED!r}


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
"""


def python(code, blocked=True, cwd=ROOT, input=None):
    return subprocess.run(
        [sys.executable, "-c", (BLOCKER if blocked else "") + code],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=input,
        timeout=120,
    )


def handeval(*args, blocked=True, cwd=ROOT, input=None):
    """``handeval ARGS`` as the console script runs it (``handeval.cli:main``)."""
    code = f"import sys\nfrom handeval.cli import main\nsys.exit(main({list(args)!r}))\n"
    return python(code, blocked=blocked, cwd=cwd, input=input)


def test_the_blocker_blocks():
    p = python("import grpc")
    assert p.returncode == 1 and "ModuleNotFoundError: No module named 'grpc'" in p.stderr
    p = python("import tqdm")
    assert p.returncode == 1 and "No module named 'tqdm'" in p.stderr


def test_the_python_api_runs_without_the_extras():
    """``import handeval`` and every game module answer as with everything installed, and
    import none of the extras' packages."""
    code = f"""
import json
import handeval
from handeval import dachu, shisanshui, tienlen

out = {{
    "classify": shisanshui.classify("As Ks Qs Js Ts").to_dict(),
    "arrange": shisanshui.arrange({HAND!r}).to_dict(),
    "tienlen": tienlen.classify("4s 4h 5s 5h 6s 6h").to_dict(),
    "dachu": dachu.beats("As", "2h", chu="black"),
    "cards": handeval.parse_cards("As 10d ♥3"),
    "imported": sorted({{m.split(".")[0] for m in sys.modules}} & set(BLOCKED)),
}}
print(json.dumps(out))
"""
    p = python(code)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["imported"] == []
    assert got["classify"] == shisanshui.classify("As Ks Qs Js Ts").to_dict()
    assert got["arrange"] == json.loads(json.dumps(shisanshui.arrange(HAND).to_dict()))
    assert got["tienlen"] == json.loads(json.dumps(tienlen.classify("4s 4h 5s 5h 6s 6h").to_dict()))
    assert got["dachu"] is dachu.beats("As", "2h", chu="black")
    assert got["cards"] == ["As", "Td", "3h"]


EVALUATOR_COMMANDS = [
    ("--json", "classify", "As", "Ks", "Qs", "Js", "Ts"),
    ("special", "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"),
    ("compare", "Ks Kd 7h 5c 3c", "--vs", "Kh Kc 7s 5d 3d"),
    (
        "settle",
        "--base",
        "10",
        "Qs Qh Qd / 2h 5h 7h 9h Jh / Ks Kh Kd 4s 4h",
        "2s 3d 5c / 6c 7c 8d 9s Td / 2c 4c Jc Kc Ac",
    ),
    ("arrange", HAND, "--rules", "a2345=second_highest"),
    ("arrange", "--file", "-"),
    ("tienlen", "legal", "4s 4h 5s 5h 6s 6h 9c", "--table", "3s 3h"),
    ("tienlen", "settle", "--winner", "0", "--base", "10", "-", "2h 7s 7h 7d 7c", "3s 4h", "5d 6c 8s"),
    ("--json", "dachu", "classify", "5s 5h 5d", "--chu", "red"),
    ("dachu", "settle", "--chu-side", "2", "--places", "2", "0", "1", "3", "--base", "10"),
    ("dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal; meng_xuan 0 Ah; deal*8; finish"),
    ("--help",),
    ("serve", "--help"),
]


@pytest.mark.parametrize("args", EVALUATOR_COMMANDS, ids=lambda a: " ".join(a)[:40])
def test_the_evaluators_commands_run_without_the_extras(args):
    """Each answers exactly as with every package installed (``arrange --file`` without
    its progress bar, which needs tqdm)."""
    stdin = f"{HAND}\n{HAND}\n" if "--file" in args else None
    without, full = handeval(*args, input=stdin), handeval(*args, blocked=False, input=stdin)
    assert without.returncode == 0, without.stderr
    assert "Traceback" not in without.stderr
    assert full.returncode == 0 and without.stdout == full.stdout and without.stdout.strip()


TOOLS = [
    (("serve",), "server"),
    (("serve", "--port", "0", "--workers", "2"), "server"),
    (("call", "Evaluate", "{}", "--target", "127.0.0.1:1"), "server"),
    (("--json", "call", "Evaluate", "{}"), "server"),
    (("bench-load", "--run-time", "1"), "load"),
]


@pytest.mark.parametrize("args,extra", TOOLS, ids=lambda a: " ".join(a) if isinstance(a, tuple) else a)
def test_a_tool_without_its_extra_says_how_to_install_it(args, extra, tmp_path):
    """One line naming the tool and the pip command (from the checkout's folder its
    path ``.``, from elsewhere its full path; installed from a wheel, the name), exit 2,
    no traceback."""
    from handeval.load import source_checkout

    checkout = source_checkout()
    for cwd in (ROOT, tmp_path):
        where = "handeval" if checkout is None else "." if cwd == checkout else str(checkout)
        p = handeval(*args, cwd=cwd)
        tool = args[1] if args[0] == "--json" else args[0]
        assert p.returncode == 2, (p.returncode, p.stderr)
        assert p.stdout == ""
        lines = p.stderr.splitlines()
        assert len(lines) == 1, p.stderr
        assert lines[0].startswith(f"handeval {tool}: needs the {extra} extra")
        assert lines[0].endswith(f"pip install '{where}[{extra}]'"), lines[0]


def _requirement_name(req):
    return re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0].lower().replace("_", "-")


def test_the_extras_of_pyproject():
    """The evaluator depends on nothing; the server extra's packages are the ones whose
    modules the tools check (SERVER_MODULES); load and test include the server's."""
    from handeval.cli.tools import SERVER_MODULES

    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert project["dependencies"] == []
    assert "handeval[server]" in extras["load"]
    own = [r for r in extras["test"] if r.startswith("handeval[")]
    assert own and {"server", "load"} <= {e.strip() for r in own for e in r[len("handeval[") : -1].split(",")}
    assert "tqdm" in {_requirement_name(r) for r in extras["test"]}
    # Each module of SERVER_MODULES comes from a package of the server extra, and each
    # package of the extra provides one of them (read from the installed distributions).
    provided = importlib.metadata.packages_distributions()
    server = {_requirement_name(r) for r in extras["server"]}
    by_module = {m: {d.lower().replace("_", "-") for d in provided.get(m.split(".")[0], [])} for m in SERVER_MODULES}
    assert all(dists & server for dists in by_module.values()), by_module
    assert server <= set().union(*by_module.values()), (server, by_module)

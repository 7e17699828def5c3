#!/usr/bin/env bash
# The README's test command: installs handeval (and its test extras) into the current
# Python, then runs the Rust core's tests and the Python test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
# The environment (scripts/test_env.sh): the active virtualenv, else the checkout's .venv (the
# README's first command made it), else this Python or a new .venv.
# shellcheck source=scripts/test_env.sh
. scripts/test_env.sh
echo "scripts/test.sh: installing into $(python3 -c 'import sys; print(sys.prefix)'); building the extension" \
    "in release (about a minute on two cores, pip quiet meanwhile)"
# The core's unit tests (--lib: the examples and the criterion benches are compiled by
# .ci/run), built and run in the background from the start: profile core-test (Cargo.toml:
# the release optimisation, which the exhaustive checks need, without link-time
# optimisation) has its own directory, target/core-test, so this build does not wait for
# the extension's (target/release) nor the extension's for it, and it fills the cores
# while pip waits on the package index and while the extension's crate compiles alone.
# Cargo's output is shown when it is done.
cargo_log="$(mktemp)"
trap 'rm -f "$cargo_log"' EXIT
cargo test --locked --profile core-test -p handeval-core --lib >"$cargo_log" 2>&1 &
cargo_pid=$!
# The extension in release (the shipped build) and the dependencies. --no-compile: pip
# does not byte-compile every installed module (mypy, locust, grpc_tools...) up front;
# Python caches the ones a test imports when it first imports them.
pip_install=(python3 -m pip install --quiet --disable-pip-version-check --no-compile)
# Two pips at once when the Python reads TOML (3.11+): the dependencies of '.[test]', read
# from pyproject.toml (an extra that names handeval's own extras, handeval[server,load], by
# their packages), beside handeval itself (--no-deps: its build). One pip does them one
# after the other (it resolves and downloads every dependency before it builds the
# extension), so the extension's build waited for the package index.
if deps="$(python3 -c '
import re, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
def packages(extra):
    for req in extras[extra]:
        own = re.fullmatch(r"handeval\[([\w,\s-]+)\]", req)
        if own:
            for name in own.group(1).split(","):
                yield from packages(name.strip())
        else:
            yield req
print("\n".join(dict.fromkeys([*project["dependencies"], *packages("test")])))' 2>/dev/null)"; then
    deps_file="$(mktemp)"
    trap 'rm -f "$cargo_log" "$deps_file"' EXIT
    printf '%s\n' "$deps" >"$deps_file"
    "${pip_install[@]}" -r "$deps_file" &
    deps_pid=$!
    install_status=0
    "${pip_install[@]}" --no-deps -e . || install_status=$?
    wait "$deps_pid" || install_status=$?
else
    install_status=0
    "${pip_install[@]}" -e '.[test]' || install_status=$?
fi
if [ "$install_status" -ne 0 ]; then
    echo "scripts/test.sh: pip install failed (exit $install_status)" >&2
    kill "$cargo_pid" 2>/dev/null || true
    exit "$install_status"
fi
echo "scripts/test.sh: installed in $((SECONDS - start)) s"
# On every core (pytest-xdist); worksteal: an idle worker takes queued tests from a busy
# one, so a few long tests do not leave a core idle at the end.
pytest_status=0
python3 -m pytest -q -n auto --dist worksteal || pytest_status=$?
cargo_status=0
wait "$cargo_pid" || cargo_status=$?
if [ "$cargo_status" -ne 0 ]; then
    cat "$cargo_log"
else
    grep -E "^(test result|running)" "$cargo_log"
fi
echo "cargo test: exit $cargo_status; pytest: exit $pytest_status; $((SECONDS - start)) s in all"
[ "$cargo_status" -eq 0 ] && [ "$pytest_status" -eq 0 ]

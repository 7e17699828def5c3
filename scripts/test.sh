#!/usr/bin/env bash
# The README's test command: installs handeval (and its test extras) into the current
# Python, then runs the Rust core's tests and the Python test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
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
python3 -m pip install --quiet --disable-pip-version-check --no-compile -e '.[test]'
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

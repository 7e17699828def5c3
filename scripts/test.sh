#!/usr/bin/env bash
# The README's test command: installs handeval (and its test extras) into the current
# Python, then runs the Rust core's tests and the Python test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The core's tests in the release profile, whose dependencies the install above has just
# built (the exhaustive checks need optimised code; a second, debug-info profile would
# build everything again). --lib: the unit tests only (the examples and the criterion
# benches are compiled by .ci/run). They build and run beside the Python suite: the
# suite's server tests leave a core idle much of the time, so the wall time is nearer the
# CPU time than one after the other. Cargo's output is shown when it is done.
cargo_log="$(mktemp)"
trap 'rm -f "$cargo_log"' EXIT
cargo test --release --locked -p handeval-core --lib >"$cargo_log" 2>&1 &
cargo_pid=$!
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
echo "cargo test: exit $cargo_status; pytest: exit $pytest_status"
[ "$cargo_status" -eq 0 ] && [ "$pytest_status" -eq 0 ]

#!/usr/bin/env bash
# The README's test command: installs handeval (and its test extras) into the current
# Python, then runs the Rust core's tests and the Python test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
# The core's tests in the release profile, whose dependencies the install above has just
# built (the exhaustive checks need optimised code; a second, debug-info profile would
# build everything again). --lib: the unit tests only (the examples and the criterion
# benches are compiled by .ci/run).
cargo test --release --locked -p handeval-core --lib
# On every core (pytest-xdist); worksteal: an idle worker takes queued tests from a busy
# one, so a few long tests do not leave a core idle at the end.
python3 -m pytest -q -n auto --dist worksteal

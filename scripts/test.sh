#!/usr/bin/env bash
# The README's test command: installs handeval (and its test extras) into the current
# Python, then runs the Rust core's tests and the Python test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
cargo test --locked -p handeval-core
python3 -m pytest -q

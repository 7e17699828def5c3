#!/usr/bin/env bash
# Type checks: the stub of the compiled extension against the built module (stubtest),
# then mypy over the Python package. Needs the extension built (pip install -e '.[test]'
# or maturin develop) and mypy (in the test extras).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m mypy.stubtest handeval._core --allowlist scripts/stubtest-allowlist.txt
python3 -m mypy pysrc/handeval

#!/usr/bin/env bash
# Install the built wheel as a user without Rust would and try it: for the oldest
# supported Python (3.10, requires-python in pyproject.toml) and the newest one on this
# machine, a fresh virtualenv, `pip install WHEEL` with no cargo/rustc on PATH, then
# scripts/smoke_wheel.py --bare from an empty folder (import, classify, arrange, the CLI
# without grpc/protobuf/prometheus/tqdm installed; `handeval serve` names the extra's
# install command), then `pip install 'WHEEL[server]'` and scripts/smoke_wheel.py (the same,
# and `handeval serve` on a free loopback port with a health check; it stops by itself).
#   bash scripts/smoke_wheel.sh [dist/handeval-*.whl]
set -euo pipefail
cd "$(dirname "$0")/.."
WHEEL="$(realpath "${1:-$(ls dist/handeval-*.whl | head -1)}")"
SMOKE="$(realpath scripts/smoke_wheel.py)"
OLDEST=10   # CPython 3.10: keep equal to requires-python

# python3.X for X = $1: on PATH, or one of pyenv's versions (CI machines keep several).
find_python() {
    local x="$1" py
    for py in "$(command -v "python3.$x" || true)" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$x".*/bin/python3."$x"; do
        if [ -n "$py" ] && [ -x "$py" ] && "$py" -c 'import venv, ssl' 2>/dev/null; then
            echo "$py"
            return 0
        fi
    done
    return 1
}

oldest="$(find_python "$OLDEST")" || { echo "smoke_wheel: no python3.$OLDEST found (the oldest supported Python)" >&2; exit 1; }
newest=""
for x in 20 19 18 17 16 15 14 13 12 11; do
    if newest="$(find_python "$x")"; then break; fi
done
pythons=("$oldest")
if [ -n "$newest" ] && [ "$newest" != "$oldest" ]; then pythons+=("$newest"); fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for py in "${pythons[@]}"; do
    name="$(basename "$py")"
    echo "== $name ($("$py" -c 'import sys; print(sys.version.split()[0])')): fresh venv, pip install $(basename "$WHEEL")"
    "$py" -m venv "$work/$name"
    # Only the venv and the system's bin folders: no cargo, no rustc, no other Python.
    run() { (cd "$work" && env -u PYTHONPATH PATH="$work/$name/bin:/usr/bin:/bin" "$@"); }
    if run sh -c 'command -v cargo || command -v rustc'; then
        echo "smoke_wheel: a Rust toolchain is on the smoke test's PATH" >&2
        exit 1
    fi
    run python -m pip install --quiet --disable-pip-version-check "$WHEEL"
    if run python -m pip list --disable-pip-version-check 2>/dev/null | grep -i -E '^(grpcio|protobuf|prometheus|tqdm)'; then
        echo "smoke_wheel: the bare wheel installed the server extra's packages" >&2
        exit 1
    fi
    run python "$SMOKE" --bare
    echo "== $name: pip install '$(basename "$WHEEL")[server]'"
    run python -m pip install --quiet --disable-pip-version-check "$WHEEL[server]"
    run python "$SMOKE"
done
echo "smoke_wheel: ok (${pythons[*]})"

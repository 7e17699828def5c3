#!/usr/bin/env bash
# Build what users without Rust install: the manylinux wheel (one abi3 wheel for
# CPython >= 3.10) and the sdist, into OUT (default dist/).
#
# maturin links with zig (the `ziglang` package from PyPI) against the glibc of
# manylinux2014 (glibc 2.17) and checks the wheel's compatibility itself; auditwheel
# then shows the platform tag the wheel really satisfies. Both tools are installed into
# a build virtualenv here, so this works on a fresh machine with Python and cargo.
# Run by .ci/run; scripts/smoke_wheel.sh tests the result.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-dist}"
BUILD_VENV="$(realpath -m "${CARGO_TARGET_DIR:-target}/wheel-build-venv")"
if [ ! -x "$BUILD_VENV/bin/maturin" ]; then
    python3 -m venv "$BUILD_VENV"
    "$BUILD_VENV/bin/pip" install --quiet --disable-pip-version-check \
        "maturin>=1.7,<2" "ziglang>=0.13" "auditwheel>=6"
fi
# maturin runs zig as `python -m ziglang` with the Python it finds first: the build venv's.
export PATH="$BUILD_VENV/bin:$PATH"
rm -f "$OUT"/handeval-*.whl "$OUT"/handeval-*.tar.gz
"$BUILD_VENV/bin/maturin" build --quiet --release --locked --zig --compatibility manylinux2014 --out "$OUT"
"$BUILD_VENV/bin/maturin" sdist --out "$OUT"
WHEEL=$(ls "$OUT"/handeval-*.whl)
"$BUILD_VENV/bin/auditwheel" show "$WHEEL"
echo "built: $WHEEL $(ls "$OUT"/handeval-*.tar.gz)"

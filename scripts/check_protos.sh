#!/usr/bin/env bash
# The protos' CI check: `buf lint` (buf.yaml: the STANDARD rules but the service name)
# and `buf breaking` (the WIRE rules: old clients' bytes still parse; a removed field
# keeps its number reserved) of protos/handeval/v2 against a baseline from this clone's
# git history. buf comes from PyPI (package buf-bin), installed here into the active
# Python environment if missing.
#
# The baseline (PROTOS_BASE, a commit) defaults to the last commit: HEAD when the
# working tree's protos differ from it, else HEAD's parent. A baseline without
# protos/handeval/v2 (the history before v2) skips `buf breaking` with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

if ! command -v buf >/dev/null 2>&1; then
    "$PYTHON" -m pip install -q "buf-bin>=1.50,<2"
fi
buf lint

if [ -z "${PROTOS_BASE:-}" ]; then
    if git diff --quiet HEAD -- protos; then
        PROTOS_BASE=$(git rev-parse --verify -q HEAD~1 || true)
    else
        PROTOS_BASE=HEAD
    fi
fi
if [ -z "$PROTOS_BASE" ] || ! git cat-file -e "${PROTOS_BASE}:protos/handeval/v2" 2>/dev/null; then
    echo "protos: buf lint passed; buf breaking skipped: the baseline ${PROTOS_BASE:-(none)} has no protos/handeval/v2"
    exit 0
fi
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
git archive "$PROTOS_BASE" protos | tar -x -C "$base"
buf breaking protos --against "$base/protos"
echo "protos: buf lint and buf breaking (against $(git rev-parse --short "$PROTOS_BASE")) passed"

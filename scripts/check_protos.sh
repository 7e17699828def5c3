#!/usr/bin/env bash
# The protos' CI check: `buf lint` (buf.yaml: the STANDARD rules but the released service
# name) and `buf breaking` against the last released v1 (the WIRE rules: old clients'
# bytes still parse; a removed field keeps its number reserved). buf comes from PyPI
# (package buf-bin), installed here into the active Python environment if missing.
#
# The released baseline is the protos of commit RELEASED_V1 (the v1 that game servers
# were built against before v1 was typed); it is read from this clone's git history, so
# the check needs a clone with that commit (CI's fresh clone has the full history).
set -euo pipefail
cd "$(dirname "$0")/.."
RELEASED_V1=${RELEASED_V1:-ec1b24671720c7f0788f289e06861b08675394c6}
PYTHON=${PYTHON:-python3}

if ! command -v buf >/dev/null 2>&1; then
    "$PYTHON" -m pip install -q "buf-bin>=1.50,<2"
fi
if ! git cat-file -e "${RELEASED_V1}^{commit}" 2>/dev/null; then
    echo "check_protos: commit $RELEASED_V1 (the released v1) is not in this clone; fetch the full history" >&2
    exit 1
fi
buf lint
buf breaking --against ".git#ref=${RELEASED_V1},subdir=protos"
echo "protos: buf lint and buf breaking (against ${RELEASED_V1:0:7}) passed"

#!/usr/bin/env bash
# The whole benchmark set, then the generated tables in $BENCH_OUT/benchmarks-latest.md:
#   1. pytest-benchmark suites in benches/ (Python API and gRPC, ratios to named baselines)
#   2. cargo bench -p handeval-core (criterion; Rust core)
#   3. the Locust load tests (handeval bench-load, headless) against servers they start
#      on free loopback ports (1 and 2 workers): packed rows, unary single rows at 32
#      users, string batches and the default mix of every scenario; each run is bounded.
# Raw results (JSON, logs, PNG plots) go to $BENCH_OUT (default target/bench-results).
# The hand-written analysis stays in docs/benchmarks.md.
#
# Environment: PYTHON (default python3, with handeval installed: pip install -e '.[test,load]'),
# BENCH_OUT, LOAD_SECONDS (measured seconds per load run, default 10), BENCH_SKIP
# (space-separated parts to skip: pytest cargo load).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${BENCH_OUT:-target/bench-results}
SECS=${LOAD_SECONDS:-10}
SKIP=" ${BENCH_SKIP:-} "
START=$(date +%s)

# The numbers must be this checkout's: refuse a handeval installed from elsewhere.
if ! "$PY" -c 'import handeval, pathlib, sys; sys.exit(pathlib.Path(handeval.__file__).resolve().is_relative_to(pathlib.Path("pysrc").resolve()) is False)'; then
    echo "bench_all.sh: $PY imports handeval from elsewhere; run: $PY -m pip install -e '.[test,load]' (or set PYTHON)" >&2
    exit 2
fi
rm -rf "$OUT"
mkdir -p "$OUT"
echo "== start: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(uptime)" | tee "$OUT/uptime.txt"

if [[ "$SKIP" != *" pytest "* ]]; then
    echo "== pytest-benchmark: benches/bench_*.py"
    # benches/ files are bench_*.py, not test_*.py: name the pattern explicitly.
    "$PY" -m pytest benches -q -o python_files='bench_*.py' -p no:cacheprovider \
        --benchmark-json="$OUT/pytest.json" 2>&1 | tee "$OUT/pytest.txt"
fi

if [[ "$SKIP" != *" cargo "* ]]; then
    echo "== cargo bench -p handeval-core --features bench --benches"
    cargo bench --locked -p handeval-core --features bench --benches 2>&1 | tee "$OUT/cargo-bench.txt"
fi

HAVE_MPL=0
if "$PY" -c 'import matplotlib' 2>/dev/null; then HAVE_MPL=1; fi

load() {  # load LABEL ARGS...: one bounded Locust run against a fresh spawned server
    local label=$1
    shift
    local plot=()
    if [[ $HAVE_MPL == 1 ]]; then plot=(--plot "$OUT/load-$label.png"); fi
    echo "== load $label: $*"
    # exit code 1 = some requests failed: recorded in the tables, not fatal here
    "$PY" -m handeval bench-load --spawn-server --run-time "$SECS" --label "$label" --csv "$OUT/load-$label" \
        --json-out "$OUT/load-$label.json" --server-log "$OUT/server-$label.log" "${plot[@]}" "$@" \
        >>"$OUT/load.txt" 2>"$OUT/locust-$label.log" || [[ $? == 1 ]]
    tail -8 "$OUT/load.txt"
}

if [[ "$SKIP" != *" load "* ]]; then
    load 1-packed-1w --server-workers 1 --mix ssw.packed@100000 --users 4 --pool 4
    load 2-packed-2w --server-workers 2 --mix ssw.packed@100000 --users 4 --pool 4
    # The floor: a bare grpc.aio server answering at once (what Python gRPC costs by itself).
    load 3-unary-floor --server-kind floor --mix ssw.evaluate@1 --users 32 --channels 16
    load 4-unary-1w --server-workers 1 --mix ssw.evaluate@1 --users 32 --channels 16
    load 5-unary-2w --server-workers 2 --mix ssw.evaluate@1 --users 32 --channels 16
    # Open loop: 32 users sending 500 (1 worker) / 1000 (2 workers) requests/s in total.
    load 6-unary-paced-1w --server-workers 1 --mix ssw.evaluate@1 --users 32 --channels 16 --rate-per-user 15.625
    load 7-unary-paced-2w --server-workers 2 --mix ssw.evaluate@1 --users 32 --channels 16 --rate-per-user 31.25
    load 8-unary-packed-1w --server-workers 1 --mix ssw.packed@1 --users 32 --channels 16
    load 9-strings-1w --server-workers 1 --mix ssw.evaluate@1000 --users 4
    load 10-strings-2w --server-workers 2 --mix ssw.evaluate@1000 --users 4
    # Every scenario, the default mix (weights = shares of the 26 users: each scenario its weight).
    load 11-mix-1w --server-workers 1 --users 26 --mix default
    # The generator on both cores: a local master and two worker processes.
    load 12-unary-1w-2proc --server-workers 1 --mix ssw.evaluate@1 --users 32 --channels 16 --processes 2
fi

UPTIME=$(uptime)
echo "== end: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $UPTIME" | tee -a "$OUT/uptime.txt"
UPTIME="$(head -1 "$OUT/uptime.txt" | sed 's/^== //') / $(tail -1 "$OUT/uptime.txt" | sed 's/^== //')"
"$PY" benches/report.py --results "$OUT" --out "$OUT/benchmarks-latest.md" \
    --criterion target/criterion --since "$START" --uptime "$UPTIME"
echo "raw results and tables (benchmarks-latest.md) in $OUT"

#!/usr/bin/env bash
# The Rust fuzzers, briefly (CI) or for longer (by hand) — docs/hardening.md.
#
#   bash scripts/fuzz_ci.sh                    # CI: replay the seeds, then each target 5 s
#   FUZZ_SECONDS=60 bash scripts/fuzz_ci.sh    # a longer coverage-guided run
#   FUZZ_TARGETS="money cards" bash scripts/fuzz_ci.sh
#
# fuzz/corpus/<target>/ is a small committed seed set (a few dozen inputs per target,
# kept from a coverage-minimised corpus); fuzz/regressions/<target>/ holds the inputs of
# fixed findings, named by their cause.
# 1. Replay: every seed and regression through the targets' checks as a plain
#    `cargo test` (stable Rust, no libFuzzer). The wire's target
#    (fuzz_targets/wire.rs, the gRPC entry point on any bytes) is replayed by
#    fuzz/tests/wire.rs in the same `cargo test`.
# 2. Coverage-guided: `cargo fuzz run` per target for FUZZ_SECONDS on a copy of the
#    seeds in a temporary folder, which the run grows (the committed seeds are never
#    written, and the grown corpus is dropped at the end); the regressions are read too.
#    A crash prints its input and fails the script. cargo-fuzz needs
#    nightly flags: RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them. cargo-fuzz
#    itself is installed (pinned, --locked) when missing; FUZZ_INSTALL=0 skips step 2
#    instead. No sanitizer (-s none): handeval-core has no unsafe code, and without
#    ASan the build and the runs are about twice as fast; overflow checks and debug
#    assertions are on (fuzz/Cargo.toml profiles), so an overflow is a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS="${FUZZ_SECONDS:-5}"
CARGO_FUZZ_VERSION=0.13.2

echo "== fuzz: replaying the committed seeds and regressions (cargo test)"
replay_log="$(mktemp)"
if ! cargo test --locked --manifest-path fuzz/Cargo.toml --no-default-features -- --nocapture >"$replay_log" 2>&1; then
    tail -40 "$replay_log"
    exit 1
fi
grep -E "replayed|test result" "$replay_log"
rm -f "$replay_log"

if ! cargo fuzz --version >/dev/null 2>&1; then
    if [ "${FUZZ_INSTALL:-1}" != 1 ]; then
        echo "== fuzz: cargo-fuzz not installed and FUZZ_INSTALL=0: coverage-guided runs skipped"
        exit 0
    fi
    echo "== fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

export RUSTC_BOOTSTRAP=1
cd fuzz
cargo fuzz build -s none
targets="${FUZZ_TARGETS:-$(cargo fuzz list)}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=0
passed=0
printf '%-20s %12s %10s\n' target executions corpus
for t in $targets; do
    mkdir -p "$scratch/$t" "regressions/$t"
    if [ -d "corpus/$t" ]; then
        cp -R "corpus/$t/." "$scratch/$t/"
    fi
    log="$scratch/$t.log"
    if cargo fuzz run -s none "$t" "$scratch/$t" "regressions/$t" -- \
        -max_total_time="$SECS" -print_final_stats=1 -artifact_prefix="$scratch/$t-" >"$log" 2>&1; then
        passed=$((passed + 1))
        status=ok
    else
        failed=$((failed + 1))
        status=CRASH
    fi
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
    corpus=$(find "$scratch/$t" -type f | wc -l)
    printf '%-20s %12s %10s %s\n' "$t" "${execs:-?}" "$corpus" "$status"
    if [ "$status" != ok ]; then
        grep -E -A12 'panicked|ERROR: libFuzzer|SUMMARY' "$log" | head -40
        for a in "$scratch/$t-"*; do
            [ -f "$a" ] || continue
            echo "crash input $a (base64):"
            base64 "$a" | head -20
        done
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]

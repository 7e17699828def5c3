#!/usr/bin/env bash
# The 托管 (suggest) tournaments of docs/benchmarks.md; see
# rust/handeval-core/examples/tournament.rs for what a cell is (paired deals, the hero seat
# rotated, 95 % CIs of the paired gain).
#
# 越式13张, 2, 3 and 4 players, default suggest (effort 0) against the battery: (b) the
# weakest beating play, the greedy bot, the previous default (the build of PREVIOUS_COMMIT,
# asked over a pipe: examples/policy_pipe.rs built in a `git worktree` of that commit,
# in the same run) and a determinized UCT MCTS (MCTS_ITERATIONS a move, default 800);
# then (a) random and effort 8 vs effort 0; 打儲 against (b), (a) and effort 8.
# Then the sure-win figure over every decision of SURE_GAMES games (default 10,000) at
# each table size, and the cost of a default decision (single thread).
#
# Seeds: the tournaments use deals 1.. (SEED, default 1): held out, never used while the
# default was tuned (tuning used seeds 500000 and up). GAMES (default 2000) deals a cell;
# MCTS_GAMES (default 100) for the MCTS cells, whose opponent costs seconds a deal.
# RAYON_NUM_THREADS sets the threads (default 2); runs under nice.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-2}"
GAMES="${GAMES:-2000}"
GAMES_EFFORT="${GAMES_EFFORT:-2000}"
MCTS_GAMES="${MCTS_GAMES:-100}"
MCTS_ITERATIONS="${MCTS_ITERATIONS:-800}"
SURE_GAMES="${SURE_GAMES:-10000}"
SEED="${SEED:-1}"
PREVIOUS_COMMIT="${PREVIOUS_COMMIT:-55d6413}"
ONLY="${ONLY:-all}"   # all | battery | sure | cost | dachu

cargo build --release -p handeval-core --example tournament
T=target/release/examples/tournament

# The previous default: the same pipe example, built at PREVIOUS_COMMIT.
previous_policy() {
    local dir="$ROOT/target/previous-$PREVIOUS_COMMIT"
    [ -d "$dir" ] || git worktree add --detach "$dir" "$PREVIOUS_COMMIT" >&2
    cp rust/handeval-core/examples/policy_pipe.rs "$dir/rust/handeval-core/examples/policy_pipe.rs"
    (cd "$dir" && CARGO_TARGET_DIR="$ROOT/target/previous" cargo build --release -p handeval-core --example policy_pipe >&2)
    # The binary stays in target/previous; the worktree goes (no stray checkout for tools).
    git worktree remove --force "$dir" >&2
    echo "$ROOT/target/previous/release/examples/policy_pipe"
}

if [ "$ONLY" = all ] || [ "$ONLY" = battery ]; then
    PREVIOUS_POLICY=$(previous_policy)
    export PREVIOUS_POLICY
    for p in 2 3 4; do
        for o in weakest greedy previous; do nice "$T" tienlen "$p" "$o" --games "$GAMES" --seed "$SEED"; done
        nice "$T" tienlen "$p" "mcts:$MCTS_ITERATIONS" --games "$MCTS_GAMES" --seed "$SEED"
    done
fi
if [ "$ONLY" = all ]; then
    for p in 2 3 4; do nice "$T" tienlen "$p" random --games "$GAMES" --seed "$SEED"; done
    for p in 2 3 4; do nice "$T" tienlen "$p" effort:0 --effort 8 --games "$GAMES_EFFORT" --seed "$SEED"; done
fi
if [ "$ONLY" = all ] || [ "$ONLY" = dachu ]; then
    for o in weakest random; do nice "$T" dachu 4 "$o" --games "$GAMES" --seed "$SEED"; done
    nice "$T" dachu 4 effort:0 --effort 8 --games "$((GAMES_EFFORT / 2))" --seed "$SEED"
fi
if [ "$ONLY" = all ] || [ "$ONLY" = sure ]; then
    for p in 2 3 4; do nice "$T" tienlen "$p" weakest --games "$SURE_GAMES" --seed "$SEED" --sure-win; done
    for p in 2 3 4; do nice "$T" tienlen "$p" weakest --effort 4 --games "$((SURE_GAMES / 10))" --seed "$SEED" --sure-win; done
fi
if [ "$ONLY" = all ] || [ "$ONLY" = cost ]; then
    for p in 2 3 4; do "$T" tienlen "$p" weakest --games 2000 --seed "$SEED" --latency; done
    "$T" dachu 4 weakest --games 2000 --seed "$SEED" --latency
fi

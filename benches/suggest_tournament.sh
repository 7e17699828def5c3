#!/usr/bin/env bash
# The 托管 (suggest) tournaments of docs/benchmarks.md: 越式13张 with 2, 3 and 4 players and
# 打儲 (a side), suggest at effort 0 against (b) the weakest beating play and (a) a random
# legal action, 10,000 deals each; then effort 8 against effort 0 (GAMES_EFFORT deals,
# default 2,000; 打儲 1,000). Every deal is played twice (suggest, then the baseline, in
# the hero seat); see rust/handeval-core/examples/tournament.rs. Then the cost of a
# default decision over every decision of 2,000 games (single thread).
# RAYON_NUM_THREADS sets the threads (default 2); runs under nice.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p handeval-core --example tournament
T=target/release/examples/tournament
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-2}"
GAMES="${GAMES:-10000}"
GAMES_EFFORT="${GAMES_EFFORT:-2000}"
for p in 2 3 4; do
    for o in weakest random; do nice "$T" tienlen "$p" "$o" --games "$GAMES"; done
done
for o in weakest random; do nice "$T" dachu 4 "$o" --games "$GAMES"; done
for p in 2 3 4; do nice "$T" tienlen "$p" effort:0 --effort 8 --games "$GAMES_EFFORT"; done
nice "$T" dachu 4 effort:0 --effort 8 --games "$((GAMES_EFFORT / 2))"
for p in 2 3 4; do "$T" tienlen "$p" weakest --games 2000 --latency; done
"$T" dachu 4 weakest --games 2000 --latency

#!/usr/bin/env bash
# What the load generator itself costs: CPU per request and requests/s per generator core
# of Locust (handeval bench-load) against the grpc.aio generator it replaced
# (benches/load.py in its last version, read from git history with `git show`),
# interleaved in one run against the same kind of server (a fresh `handeval serve
# --workers 1` per run), same load: ssw.evaluate@1 (one row per call), 32 callers back
# to back, 4 connections per process.
# Needs a git checkout and pip install -e '.[load]'. Environment: PYTHON, SECS (default 15),
# ROUNDS (default 2), BENCH_OUT (default target/generator-cost).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
SECS=${SECS:-15}
ROUNDS=${ROUNDS:-2}
OUT=${BENCH_OUT:-target/generator-cost}
mkdir -p "$OUT"
git show dcf7aad:benches/load.py > "$OUT/load_dcf7aad.py"
echo "== start: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(uptime)" | tee "$OUT/uptime.txt"
for r in $(seq 1 "$ROUNDS"); do
    echo "== round $r: grpc.aio generator (benches/load.py of dcf7aad)"
    "$PY" "$OUT/load_dcf7aad.py" --spawn-server --mix ssw.evaluate@1 --concurrency 32 --channels 4 \
        --duration "$SECS" --warmup 2 --quiet --json-out "$OUT/aio-$r.json" | tail -3
    echo "== round $r: Locust, one process"
    "$PY" -m handeval bench-load --spawn-server --mix ssw.evaluate@1 --users 32 --channels 4 \
        --run-time "$SECS" --json-out "$OUT/locust-$r.json" 2>/dev/null | tail -3
    echo "== round $r: Locust without grpc.experimental.gevent (HANDEVAL_LOAD_PLAIN_GRPC=1)"
    HANDEVAL_LOAD_PLAIN_GRPC=1 "$PY" -m handeval bench-load --spawn-server --mix ssw.evaluate@1 --users 32 \
        --channels 4 --run-time "$SECS" --json-out "$OUT/plain-$r.json" 2>/dev/null | tail -3
    echo "== round $r: Locust, --processes 2 (master + 2 workers)"
    "$PY" -m handeval bench-load --spawn-server --mix ssw.evaluate@1 --users 32 --channels 4 --processes 2 \
        --run-time "$SECS" --json-out "$OUT/locust2-$r.json" 2>/dev/null | tail -3
done
echo "== end: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(uptime)" | tee -a "$OUT/uptime.txt"
"$PY" - "$OUT" <<'PYEOF'
import json, sys
from pathlib import Path
d = Path(sys.argv[1])
print("| run | req/s | generator CPU µs/req | requests/s per generator core | server CPU µs/req |")
print("|---|---|---|---|---|")
for f in sorted(d.glob("*.json")):
    r = json.loads(f.read_text())
    if "overall" in r:  # the grpc.aio generator
        c, s = r["cpu"]["client"], r["cpu"]["server"] or {}
        print(f"| {f.stem} | {r['overall']['requests_per_s']:,.0f} | {c['cpu_us_per_request']} | "
              f"{1e6 / c['cpu_us_per_request']:,.0f} | {s.get('cpu_us_per_request', '')} |")
    else:
        c, s, t = r["cpu"]["generator"], r["cpu"]["server"] or {}, r["summary"]["total"]
        print(f"| {f.stem} | {t['requests_per_s']:,.0f} | {c['cpu_us_per_request']} | "
              f"{c['requests_per_core_s'] or 0:,.0f} | {s.get('cpu_us_per_request', '')} |")
PYEOF

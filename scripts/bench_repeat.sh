#!/usr/bin/env bash
# Runs `beamtris bench` several times and summarises each figure over the runs.
#
#   scripts/bench_repeat.sh [RUNS] [SCALE]        (defaults: 5 runs, scale 5)
#
# This VM's speed drifts: the same binary reads up to ~1.7x slower for minutes at a time
# (another tenant on the host; thread CPU time does not remove it). One run is one sample of
# that drift, so the figures are kept per run (results/bench/run-K-{engine,players}.json) and
# summarised as min / median / max over the runs in results/bench/summary.md. The last run
# also rewrites results/bench/bench-engine.json and results/bench/bench-players.json.
# BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-5}
scale=${2:-5}
if [ -z "${BEAMTRIS:-}" ]; then
  cargo build --release --quiet
  BEAMTRIS=target/release/beamtris
fi
mkdir -p results/bench
for k in $(seq 1 "$runs"); do
  echo "bench run $k/$runs" >&2
  "$BEAMTRIS" bench --scale "$scale" \
    --out "results/bench/run-$k-engine.json" \
    --players-out "results/bench/run-$k-players.json" >/dev/null
done
cp "results/bench/run-$runs-engine.json" results/bench/bench-engine.json
cp "results/bench/run-$runs-players.json" results/bench/bench-players.json

python3 - "$runs" "$scale" <<'EOF'
import json, statistics, sys
runs, scale = int(sys.argv[1]), sys.argv[2]
figures = {}
dates = []
for k in range(1, runs + 1):
    for part in ("engine", "players"):
        report = json.load(open(f"results/bench/run-{k}-{part}.json"))
        dates.append(report["date"])
        for f in report["figures"]:
            figures.setdefault(f["name"], []).append(f["ns_per_iter"])
lines = [
    "# Benchmarks over repeated runs",
    "",
    f"`scripts/bench_repeat.sh {runs} {scale}`: {runs} runs of `beamtris bench --scale {scale}`,",
    f"{dates[0]} to {dates[-1]}. Each run's figure is the median of 7 samples of thread CPU time;",
    "this table gives the least, the median and the largest of those over the runs.",
    "",
    "| figure | min | median | max |",
    "|---|---|---|---|",
]
def fmt(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns:.0f} ns"
for name, v in figures.items():
    lines.append(f"| {name} | {fmt(min(v))} | {fmt(statistics.median(v))} | {fmt(max(v))} |")
open("results/bench/summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF

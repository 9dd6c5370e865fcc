#!/usr/bin/env bash
# The optimizer's time/score curve against the published solvers (the targets: beat 1 338 900 in
# 60 s, 1 351 558 in 216 s, 1 395 326 in 872 s on a 2-core machine; 1 425 000 within 15 min).
# Runs `solve` at the beam widths chosen for those budgets and writes
# results/curve/budget-SECONDSs.json + .txt, then the summary and figure.
#
#   scripts/curve.sh                 # every point
#   scripts/curve.sh 60              # one point
#
# Run it on an otherwise idle machine: wall time is what is being measured. The committed
# points ran with the default weights of their day (each JSON names them); a rerun uses
# today's default and replaces them, so give the files another name to keep both.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/beamtris
out=results/curve
mkdir -p "$out"

# budget seconds -> "moves beam"
declare -A point=(
  [60]="reach 3000"
  [216]="reach 6000"
  [872]="reach 24000"
  [600]="reach 36000"
  [900]="reach 48000"
)
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(60 216 600 872 900)
for budget in "${budgets[@]}"; do
  spec=${point[$budget]:-}
  if [ -z "$spec" ]; then
    echo "curve.sh: no point for $budget s (known: ${!point[*]})" >&2
    exit 2
  fi
  read -r moves beam <<<"$spec"
  echo "== ${budget} s budget: --moves $moves --beam $beam" >&2
  "$bin" solve --moves "$moves" --beam "$beam" --out "$out/budget-${budget}s.json" >/dev/null
done
# One writer of the summary and the figure: `report curve` (every solve result in the folder,
# the beam-60 000 `tuned` run and the default command beside them).
"$bin" report curve --dir "$out" --also results/tencent/solve-b60000-reach.json \
  --also results/bench/default-command/beam-5500.json --also results/bench/default-command/beam-5500-i.json \
  --also results/bench/default-command/beam-5000-i.json \
  --also results/bench/default-command/beam-4000-open-column.json

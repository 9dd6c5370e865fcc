#!/usr/bin/env bash
# The optimizer's time/score curve against the published solvers (issue: beat 1 338 900 in
# 60 s, 1 351 558 in 216 s, 1 395 326 in 872 s on a 2-core machine). Runs `solve` at the beam
# widths chosen for those budgets and writes results/curve/NAME.json + .txt and a summary.
#
#   scripts/curve.sh                 # the three points
#   scripts/curve.sh 60              # one point
#
# Run it on an otherwise idle machine: wall time is what is being measured.
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
)
budgets=("$@")
[ ${#budgets[@]} -gt 0 ] || budgets=(60 216 872)
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
python3 - "$out" <<'PY' 2>/dev/null || true
import json, sys, glob, os
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "budget-*.json"))):
    d = json.load(open(f))
    rows.append((int(os.path.basename(f)[7:-6]), d))
targets = {60: 1338900, 216: 1351558, 872: 1395326}
lines = ["| budget s | moves | beam | score | wall s | target | met |", "|---|---|---|---|---|---|---|"]
for b, d in sorted(rows, key=lambda r: r[0]):
    t = targets.get(b)
    met = "yes" if t and d["score"] > t and d["wall_seconds"] <= b else "no"
    lines.append(f"| {b} | {d['moves']} | {d['beam']} | {d['score']} | {d['wall_seconds']:.0f} | {t} | {met} |")
open(os.path.join(sys.argv[1], "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

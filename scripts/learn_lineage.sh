#!/usr/bin/env bash
# The descendants label on the Tencent game: data from a beam-1 000 solve (no rollouts), a
# lineage value added to tuned-b3000 at several scales, tried at equal width and at equal time.
#
#   scripts/learn_lineage.sh [DIR]      (default results/learning/round-3-lineage)
#
# Writes DIR/data.csv (kept if there), DIR/add-A.json (all value features) and
# DIR/add20-A.json (without hole_depth and wells, cheaper), solves DIR/try-*.json + .txt
# (replayed), and DIR/table.md. One thread, low priority. BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-results/learning/round-3-lineage}
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
mkdir -p "$dir"
[ -f "$dir/data.csv" ] || nice "$bin" learn data --beam 1000 --every 5 --per-step 64 \
  --horizon 50 --rollout-beam 0 --threads 1 --out "$dir/data.csv" 2>&1 | tail -1
cheap=cells,cells_sq,holes,rows_with_holes,row_transitions,column_transitions,max_height,max_height_sq,height_spread,bumpiness,bumpiness_sq,well_depth,tetris_ready,tetris_ready_cells,next_i,i_within_2,ready_and_i_within_2,ready_and_i_far,cells_and_i_far,edge_well
fit=$("$bin" learn fit "$dir/data.csv" --label lineage --out "$dir/model-lineage.json" 2>&1 | tail -1)
for a in 500 2000 5000; do
  "$bin" learn fit "$dir/data.csv" --label lineage --base results/weights/tuned-b3000.json --add "$a" --out "$dir/add-$a.json" 2>/dev/null
done
"$bin" learn fit "$dir/data.csv" --label lineage --features "$cheap" --base results/weights/tuned-b3000.json --add 2000 \
  --out "$dir/add20-2000.json" 2>/dev/null
try() { # name weights beam pieces
  [ -f "$dir/try-$1.json" ] || nice "$bin" solve --weights "$2" --beam "$3" --pieces "$4" \
    --threads 1 --out "$dir/try-$1.json" >/dev/null 2>&1
  python3 - "$dir/try-$1.json" "$1" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | `{sys.argv[3]}` | {sys.argv[4]} | {sys.argv[5]} | {d['score']} | {d['cpu_seconds']:.1f} |")
PY
}
{
  echo "# The descendants label: $dir"
  echo
  echo "Command: \`scripts/learn_lineage.sh $dir\`. Fit: $fit"
  echo
  echo "| run | weights | beam | pieces | score | CPU s |"
  echo "|---|---|---:|---:|---:|---:|"
  try base-b1000-p2000 results/weights/tuned-b3000.json 1000 2000
  for a in 500 2000 5000; do try "add-$a-b1000-p2000" "$dir/add-$a.json" 1000 2000; done
  try base-b1000-p5000 results/weights/tuned-b3000.json 1000 5000
  try add-2000-b1000-p5000 "$dir/add-2000.json" 1000 5000
  try add20-2000-b1000-p5000 "$dir/add20-2000.json" 1000 5000
  try base-b1700-p5000 results/weights/tuned-b3000.json 1700 5000
} > "$dir/table.md"
cat "$dir/table.md"

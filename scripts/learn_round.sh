#!/usr/bin/env bash
# One round of value learning on the Tencent game: draw data from a solve, fit models, try
# each at a short solve, and write a table.
#
#   scripts/learn_round.sh DIR [--weights W] [--beam N] [--every K] [--per-step S]
#                          [--horizon H] [--rollout-beam R] [--blends "0.1 0.3 1"]
#                          [--try-beam B] [--try-pieces P]
#
# Writes DIR/data.csv (kept if there: delete it to draw again), DIR/model-LABEL.json (the
# fitted value alone) and DIR/blend-LABEL-A.json (W plus A of the way to it), a solve of each
# at beam B over P pieces (DIR/try-*.json and .txt, replayed), and DIR/table.md. Everything
# runs on one thread at low priority. BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/learn_round.sh DIR [options]}; shift
weights=results/weights/tuned-b3000.json; beam=1000; every=10; per_step=16; horizon=40; rollout=50
blends="0.1 0.3 1"; try_beam=300; try_pieces=2000
while [ $# -gt 0 ]; do
  case "$1" in
    --weights) weights=$2; shift 2 ;;
    --beam) beam=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --per-step) per_step=$2; shift 2 ;;
    --horizon) horizon=$2; shift 2 ;;
    --rollout-beam) rollout=$2; shift 2 ;;
    --blends) blends=$2; shift 2 ;;
    --try-beam) try_beam=$2; shift 2 ;;
    --try-pieces) try_pieces=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
mkdir -p "$dir"
if [ ! -f "$dir/data.csv" ]; then
  nice "$bin" learn data --weights "$weights" --beam "$beam" --every "$every" \
    --per-step "$per_step" --horizon "$horizon" --rollout-beam "$rollout" --threads 1 \
    --out "$dir/data.csv" 2>&1 | tail -1
fi
try() { # name weights
  [ -f "$dir/try-$1.json" ] || nice "$bin" solve --weights "$2" --beam "$try_beam" \
    --pieces "$try_pieces" --threads 1 --out "$dir/try-$1.json" >/dev/null 2>&1
}
{
  echo "# Value learning: $dir"
  echo
  echo "Data: \`learn data --weights $weights --beam $beam --every $every --per-step $per_step --horizon $horizon --rollout-beam $rollout --threads 1\`;"
  echo "each model tried by \`solve --beam $try_beam --pieces $try_pieces --threads 1\` (scores replayed)."
  echo "Command: \`scripts/learn_round.sh $dir --weights $weights --beam $beam --every $every --per-step $per_step --horizon $horizon --rollout-beam $rollout --blends \"$blends\" --try-beam $try_beam --try-pieces $try_pieces\`"
  echo
  echo "| weights | fit: train R², held-out R² | score | pieces | end | wall s |"
  echo "|---|---|---:|---:|---|---:|"
  try base "$weights"
  row() { # name fit-line
    python3 - "$dir/try-$1.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"| {sys.argv[2]} | {sys.argv[3]} | {d['score']} | {d['pieces']} | {d['end']} | {d['wall_seconds']:.1f} |")
PY
  }
  row base ""
  for label in value gained; do
    fitline=$("$bin" learn fit "$dir/data.csv" --label "$label" --out "$dir/model-$label.json" 2>&1 | tail -1)
    r2=$(echo "$fitline" | sed -E 's/.*R² ([0-9.-]+); held out [0-9]+, R² ([0-9.-]+).*/\1, \2/')
    try "model-$label" "$dir/model-$label.json"; row "model-$label" "$r2"
    for a in $blends; do
      "$bin" learn fit "$dir/data.csv" --label "$label" --base "$weights" --blend "$a" \
        --out "$dir/blend-$label-$a.json" 2>/dev/null
      try "blend-$label-$a" "$dir/blend-$label-$a.json"; row "blend-$label-$a" "$r2"
    done
  done
} > "$dir/table.md"
cat "$dir/table.md"

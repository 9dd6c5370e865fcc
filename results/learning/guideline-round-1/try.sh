#!/usr/bin/env bash
# Solves the five Cold Clear 2 games of one objective (OBJ=attack, the default, or points)
# at one beam with one weights set and prints a table row: the objective's total, pieces,
# per piece, ratio to Cold Clear 2 (0.844 attack, 221.3 points a piece), per game, CPU s.
#   [OBJ=points] results/learning/guideline-round-1/try.sh BEAM NAME WEIGHTS
# writes runs/bBEAM-NAME-SEED.json (+ .txt, the record solve replays) in this folder; a
# complete run already there is kept. One thread, low priority. Run from the repository root.
set -euo pipefail
beam=${1:?usage: try.sh BEAM NAME WEIGHTS}; name=$2; w=$3; obj=${OBJ:-attack}
dir=results/learning/guideline-round-1/runs
mkdir -p "$dir"
for seed in 1742887628 1554295831 1 12345 378834655; do
  out=$dir/b$beam-$name-$seed.json
  if [ -f "$out" ] && grep -q '"complete": true' "$out"; then continue; fi
  nice target/release/beamtris solve --seed "seeds/cc2/tetrio-$seed-srs-$obj.json" \
    --beam "$beam" --threads 1 --weights "$w" --out "$out" >/dev/null 2>&1
done
python3 - "$dir" "$beam" "$name" "$w" "$obj" <<'PY'
import json, sys, pathlib
d, beam, name, w, obj = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
ref = {"attack": 0.844, "points": 221.3}[obj]
runs = [json.loads(p.read_text()) for p in sorted(d.glob(f"b{beam}-{name}-*.json"))]
total = sum(r[obj] for r in runs)
pieces = sum(r["pieces"] for r in runs)
per = [f"{r[obj + '_per_piece']:.3f}" for r in runs]
print(f"| {beam} | {name} | `{w}` | {total} | {pieces} | {total / pieces:.3f} | "
      f"{total / pieces / ref:.2f}x | {' '.join(per)} | {sum(r['cpu_seconds'] for r in runs):.0f} |")
PY

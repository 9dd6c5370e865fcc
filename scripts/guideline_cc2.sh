#!/usr/bin/env bash
# The five Cold Clear 2 comparison games (TETR.IO seeds, 500 pieces, SRS), both objectives,
# at one beam width: records, results JSON and a summary in results/guideline/cc2-bBEAM/.
# usage: scripts/guideline_cc2.sh BEAM [--threads T] [--weights-attack W] [--weights-points W]
# A run already in the folder is kept (delete it to rerun); an incomplete one is rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
beam=${1:?usage: scripts/guideline_cc2.sh BEAM [--threads T]}
shift
threads=2; wa=attack; wp=points
while [ $# -gt 0 ]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --weights-attack) wa=$2; shift 2 ;;
    --weights-points) wp=$2; shift 2 ;;
    *) echo "guideline_cc2.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
dir=results/guideline/cc2-b$beam
mkdir -p "$dir"
for seed in 1742887628 1554295831 1 12345 378834655; do
  for objective in attack points; do
    w=$wa; [ "$objective" = points ] && w=$wp
    out=$dir/$objective-$seed.json
    if [ -f "$out" ] && grep -q '"complete": true' "$out"; then continue; fi
    "$bin" solve --seed "seeds/cc2/tetrio-$seed-srs-$objective.json" --beam "$beam" \
      --threads "$threads" --weights "$w" --out "$out" >/dev/null
  done
done
python3 - "$dir" <<'PY'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
rows, tot = [], {}
for objective, ref, key in (("attack", 0.844, "attack_per_piece"), ("points", 221.3, "points_per_piece")):
    runs = [json.loads(p.read_text()) for p in sorted(d.glob(f"{objective}-*.json"))]
    if not runs:
        continue
    pieces = sum(r["pieces"] for r in runs)
    total = sum(r[objective] for r in runs)
    per = total / pieces
    rows.append(f"| {objective} | {len(runs)} | {total} | {per:.3f} | {ref} | {per / ref:.2f}x | "
                f"{sum(r['perfect_clears'] for r in runs)} | {sum(r['tspins'] for r in runs)} | "
                f"{max(r['wall_seconds'] for r in runs):.0f} | "
                f"{sum(r['end_reason'] not in ('pieces_done',) for r in runs)} |")
head = ("| objective | games | total | per piece | Cold Clear 2 | ratio | perfect clears | T-spins "
        "| slowest game (s) | games short of 500 |\n|---|---|---|---|---|---|---|---|---|---|")
text = f"# Cold Clear 2 comparison at beam {d.name.split('-b')[-1]}\n\n{head}\n" + "\n".join(rows) + "\n"
(d / "summary.md").write_text(text)
print(text)
PY

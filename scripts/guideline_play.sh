#!/usr/bin/env bash
# Online play on the five Cold Clear 2 comparison games (TETR.IO seeds, 500 pieces, SRS), both
# objectives: each piece decided by a beam over the hold piece, the piece in play and
# PREVIEWS previews. Records, results JSON and a summary in DIR (default
# results/guideline/play-pPREVIEWS).
# usage: scripts/guideline_play.sh [--previews P] [--beam N] [--samples S] [--weights-attack W]
#        [--weights-points W] [--objectives "attack points"] [--dir DIR] [--jobs J]
#        [--fourwide auto|on|off]
# A game already in DIR is kept (delete it to replay it).
set -euo pipefail
cd "$(dirname "$0")/.."
previews=5; beam=""; samples=""; fourwide=""; wa=attack; wp=points; objectives="attack points"; dir=""; jobs=1
while [ $# -gt 0 ]; do
  case $1 in
    --previews) previews=$2; shift 2 ;;
    --beam) beam=$2; shift 2 ;;
    --samples) samples=$2; shift 2 ;;
    --fourwide) fourwide=$2; shift 2 ;;
    --weights-attack) wa=$2; shift 2 ;;
    --weights-points) wp=$2; shift 2 ;;
    --objectives) objectives=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "guideline_play.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
dir=${dir:-results/guideline/play-p$previews}
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
mkdir -p "$dir"
for seed in 1742887628 1554295831 1 12345 378834655; do
  for objective in $objectives; do
    w=$wa; [ "$objective" = points ] && w=$wp
    out=$dir/$objective-$seed.json
    [ -f "$out" ] && continue
    echo "$bin play --seed seeds/cc2/tetrio-$seed-srs-$objective.json --previews $previews ${beam:+--beam $beam} ${samples:+--samples $samples} ${fourwide:+--fourwide $fourwide} --weights $w --out $out"
  done
done | xargs -P "$jobs" -I{} sh -c '{} >/dev/null'
python3 - "$dir" <<'PY'
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
# Cold Clear 2's attack and points a piece per seed (results/guideline/cold-clear-2.tsv)
cc2 = {}
for line in pathlib.Path("results/guideline/cold-clear-2.tsv").read_text().splitlines():
    f = line.split("\t")
    if line.startswith("#") or f[0] in ("seed", "all"):
        continue
    cc2[f"cc2-{f[0]}-attack"] = float(f[3])
    cc2[f"cc2-{f[0]}-points"] = float(f[5])
rows = []
for objective, ref, key in (("attack", 0.844, "attack_per_piece"), ("points", 221.3, "points_per_piece")):
    runs = [json.loads(p.read_text()) for p in sorted(d.glob(f"{objective}-*.json"))]
    if not runs:
        continue
    pieces = sum(r["pieces"] for r in runs)
    total = sum(r[objective] for r in runs)
    per = total / pieces
    attack = sum(r["attack"] for r in runs) / pieces
    points = sum(r["points"] for r in runs) / pieces
    mean = sum(r["seconds_per_move_mean"] * r["pieces"] for r in runs) / pieces
    cpu = sum((r["cpu_seconds_per_move_mean"] or 0) * r["pieces"] for r in runs) / pieces
    rows.append(f"| {objective} | {runs[0]['weights_name']} | {runs[0]['beam']} | {len(runs)} | {pieces} | "
                f"{attack:.3f} | {points:.1f} | {per / ref:.2f}x | "
                f"{max(r['max_combo'] for r in runs)} | {sum(r['tspins'] for r in runs)} | "
                f"{sum(r['perfect_clears'] for r in runs)} | {sum(r['topped_out'] for r in runs)} | "
                f"{sum(r.get('fourwide_policy_moves', 0) for r in runs)} | "
                f"{mean:.3f} / {cpu:.3f} | {max(r['seconds_per_move_max'] for r in runs):.3f} / "
                f"{max(r['cpu_seconds_per_move_max'] or 0 for r in runs):.3f} |")
    for r in runs:
        own = r['attack_per_piece'] if objective == "attack" else r['points_per_piece']
        ratio = f"{own / cc2[r['seed']]:.2f}x" if r['seed'] in cc2 else ""
        rows.append(f"| &nbsp; {r['seed']} | | | | {r['pieces']} | {r['attack_per_piece']:.3f} | "
                    f"{r['points_per_piece']:.1f} | {ratio} | {r['max_combo']} | {r['tspins']} | "
                    f"{r['perfect_clears']} | {int(r['topped_out'])} | "
                    f"{r.get('fourwide_policy_moves', 0)} | "
                    f"{r['seconds_per_move_mean']:.3f} / {r['cpu_seconds_per_move_mean'] or 0:.3f} | "
                    f"{r['seconds_per_move_max']:.3f} / {r['cpu_seconds_per_move_max'] or 0:.3f} |")
head = ("| objective | weights | beam | games | pieces | attack per piece | points per piece "
        "| vs Cold Clear 2 (0.844 attack, 221.3 points) | max combo | T-spins | perfect clears "
        "| topped out | moves by the 4-wide policy | s a move, mean wall / CPU | s a move, max wall / CPU |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
(d / "table.md").write_text(head + "\n" + "\n".join(rows) + "\n")
print(head + "\n" + "\n".join(rows))
PY

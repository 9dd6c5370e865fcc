#!/usr/bin/env bash
# What the 4-wide sub-strategy adds: games solved with it (--fourwide on), without it at the
# same beam, and without it at a wider beam that takes at least as much CPU time ("equal
# time"). Game sets (SRS, 500 pieces):
#   attack        ten attack games, guideline combo table: the five Cold Clear 2 seeds and five more
#   points        the five Cold Clear 2 points games
#   tetrio-table  the five Cold Clear 2 attack games under TETR.IO's combo multiplier
# Records, results JSON and summary.md in results/guideline/fourwide-ablation[-SET]-bBEAM/.
# usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--games SET] [--jobs J]
# Each game runs on one thread, J games at a time (default 2). A run already in the folder
# is kept (delete it to rerun); an incomplete one is rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
beam=${1:?usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--jobs J]}
wider=${2:?usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--jobs J]}
shift 2
jobs=2; set_name=attack
while [ $# -gt 0 ]; do
  case $1 in
    --jobs) jobs=$2; shift 2 ;;
    --games) set_name=$2; shift 2 ;;
    *) echo "fourwide_ablation.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
cc2="1742887628 1554295831 1 12345 378834655"
games=()
case $set_name in
  attack)
    dir=results/guideline/fourwide-ablation-b$beam
    for s in $cc2; do games+=("seeds/cc2/tetrio-$s-srs-attack.json"); done
    for s in 7 42 2024 99991 31337; do games+=("seeds/ablation/tetrio-$s-srs-attack.json"); done ;;
  points)
    dir=results/guideline/fourwide-ablation-points-b$beam
    for s in $cc2; do games+=("seeds/cc2/tetrio-$s-srs-points.json"); done ;;
  tetrio-table)
    dir=results/guideline/fourwide-ablation-tetrio-table-b$beam
    for s in $cc2; do games+=("seeds/ablation/tetrio-$s-srs-attack-tetrio-table.json"); done ;;
  *) echo "fourwide_ablation.sh: --games is attack, points or tetrio-table, not $set_name" >&2; exit 2 ;;
esac
mkdir -p "$dir"
run() { # game variant beam extra...
  local game=$1 variant=$2 b=$3; shift 3
  local out=$dir/$(basename "$game" .json)-$variant.json
  if [ -f "$out" ] && grep -q '"complete": true' "$out"; then return; fi
  nice -n 5 "$bin" solve --seed "$game" --beam "$b" --threads 1 "$@" --out "$out" >/dev/null 2>"$out.log"
  rm -f "$out.log"
}
n=0
for game in "${games[@]}"; do
  for variant in fourwide same-beam equal-time; do
    case $variant in
      fourwide) run "$game" $variant "$beam" --fourwide on & ;;
      same-beam) run "$game" $variant "$beam" --fourwide off & ;;
      equal-time) run "$game" $variant "$wider" --fourwide off & ;;
    esac
    n=$((n + 1))
    if [ $((n % jobs)) -eq 0 ]; then wait; fi
  done
done
wait
python3 - "$dir" "$beam" "$wider" "$set_name" <<'PY'
import json, sys, pathlib
d, beam, wider, set_name = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
key = "points" if set_name == "points" else "attack"
variants = ("fourwide", "same-beam", "equal-time")
rows, totals, wins = [], {v: [0, 0, 0.0] for v in variants}, {"same-beam": 0, "equal-time": 0}
for on in sorted(d.glob("*-fourwide.json")):
    stem = on.name[: -len("-fourwide.json")]
    r = {v: json.loads((d / f"{stem}-{v}.json").read_text()) for v in variants}
    for v in variants:
        totals[v][0] += r[v][key]; totals[v][1] += r[v]["pieces"]; totals[v][2] += r[v]["cpu_seconds"] or 0
    for v in wins:
        wins[v] += r["fourwide"][key] > r[v][key]
    cell = lambda v: (f"{r[v][key]} ({r[v][key + '_per_piece']:.3f}), combo {r[v]['max_combo']}, "
                      f"{r[v]['fourwide_sections']} sect., {r[v]['perfect_clears']} PC, {r[v]['cpu_seconds']:.0f} s")
    rows.append(f"| {r['fourwide']['seed']} | " + " | ".join(cell(v) for v in variants) + " |")
n = len(rows)
head = (f"| game | with 4-wide, beam {beam} | without, beam {beam} | without, beam {wider} (equal time) |\n"
        "|---|---|---|---|")
tot = "| **all** | " + " | ".join(
    f"**{totals[v][0]} ({totals[v][0] / max(totals[v][1], 1):.3f})**, {totals[v][2]:.0f} CPU s" for v in variants) + " |"
flag = "" if set_name == "attack" else f" --games {set_name}"
text = (f"# The 4-wide sub-strategy on and off, beam {beam}, games: {set_name}\n\n"
        f"Command: `scripts/fourwide_ablation.sh {beam} {wider}{flag}` (each game one thread, two games at a time, "
        f"load from other engineers' work alongside; CPU seconds compare fairly, wall seconds do not).\n\n"
        f"Each cell: {key} (per piece), longest combo, combo runs of 4+ started on a 4-wide section, "
        f"perfect clears, CPU seconds. One thread a game.\n\n{head}\n" + "\n".join(rows) + f"\n{tot}\n\n"
        f"With the sub-strategy, more {key} than without on {wins['same-beam']} of {n} games at equal beam "
        f"and on {wins['equal-time']} of {n} at equal time (beam {wider}).\n")
(d / "summary.md").write_text(text)
print(text)
PY

#!/usr/bin/env bash
# What the 4-wide sub-strategy adds: ten attack games (guideline combo table, SRS, 500 pieces:
# the five Cold Clear 2 seeds and five more) solved with it, without it at the same beam, and
# without it at a wider beam that takes at least as much CPU time ("equal time").
# Records, results JSON and summary.md in results/guideline/fourwide-ablation-bBEAM/.
# usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--jobs J]
# Each game runs on one thread, J games at a time (default 2). A run already in the folder
# is kept (delete it to rerun); an incomplete one is rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
beam=${1:?usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--jobs J]}
wider=${2:?usage: scripts/fourwide_ablation.sh BEAM WIDER_BEAM [--jobs J]}
shift 2
jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --jobs) jobs=$2; shift 2 ;;
    *) echo "fourwide_ablation.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
dir=results/guideline/fourwide-ablation-b$beam
mkdir -p "$dir"
games=()
for s in 1742887628 1554295831 1 12345 378834655; do games+=("seeds/cc2/tetrio-$s-srs-attack.json"); done
for s in 7 42 2024 99991 31337; do games+=("seeds/ablation/tetrio-$s-srs-attack.json"); done
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
      fourwide) run "$game" $variant "$beam" & ;;
      same-beam) run "$game" $variant "$beam" --no-fourwide & ;;
      equal-time) run "$game" $variant "$wider" --no-fourwide & ;;
    esac
    n=$((n + 1))
    if [ $((n % jobs)) -eq 0 ]; then wait; fi
  done
done
wait
python3 - "$dir" "$beam" "$wider" <<'PY'
import json, sys, pathlib
d, beam, wider = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
variants = ("fourwide", "same-beam", "equal-time")
rows, totals, wins = [], {v: [0, 0, 0.0] for v in variants}, {"same-beam": 0, "equal-time": 0}
for on in sorted(d.glob("*-fourwide.json")):
    stem = on.name[: -len("-fourwide.json")]
    r = {v: json.loads((d / f"{stem}-{v}.json").read_text()) for v in variants}
    for v in variants:
        totals[v][0] += r[v]["attack"]; totals[v][1] += r[v]["pieces"]; totals[v][2] += r[v]["cpu_seconds"] or 0
    for v in wins:
        wins[v] += r["fourwide"]["attack"] > r[v]["attack"]
    cell = lambda v: (f"{r[v]['attack']} ({r[v]['attack_per_piece']:.3f}), combo {r[v]['max_combo']}, "
                      f"{r[v]['fourwide_sections']} sect., {r[v]['perfect_clears']} PC, {r[v]['cpu_seconds']:.0f} s")
    rows.append(f"| {r['fourwide']['seed']} | " + " | ".join(cell(v) for v in variants) + " |")
n = len(rows)
head = (f"| game | with 4-wide, beam {beam} | without, beam {beam} | without, beam {wider} (equal time) |\n"
        "|---|---|---|---|")
tot = "| **all** | " + " | ".join(
    f"**{totals[v][0]} ({totals[v][0] / max(totals[v][1], 1):.3f})**, {totals[v][2]:.0f} CPU s" for v in variants) + " |"
text = (f"# The 4-wide sub-strategy on and off, beam {beam}\n\n"
        f"Command: `scripts/fourwide_ablation.sh {beam} {wider}` (each game one thread, two games at a time, "
        f"load from other engineers' work alongside; CPU seconds compare fairly, wall seconds do not).\n\n"
        f"Each cell: attack (per piece), longest combo, combo runs of 4+ started on a 4-wide section, "
        f"perfect clears, CPU seconds. One thread a game.\n\n{head}\n" + "\n".join(rows) + f"\n{tot}\n\n"
        f"With the sub-strategy, more attack than without on {wins['same-beam']} of {n} games at equal beam "
        f"and on {wins['equal-time']} of {n} at equal time (beam {wider}).\n")
(d / "summary.md").write_text(text)
print(text)
PY

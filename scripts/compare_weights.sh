#!/usr/bin/env bash
# Weight comparison: `solve` with each weight set at one beam width, then the table and plot.
#
#   scripts/compare_weights.sh WEIGHTS... [--beam N] [--moves drop|reach] [--pieces K]
#                              [--threads T] [--reference NAME] [--force]
#
# WEIGHTS are presets (default, dellacherie, eltetris) or weights files, paths relative to
# the repository root (e.g. results/tune-b200/best.json). Runs go to
# results/compare-weights/bN-MODE-LABEL.json + .txt, LABEL being the preset or the file's
# path without results/ and .json, / turned to - (and -kK with --pieces K, in results/compare-weights-kK/); a run already
# there and complete is skipped unless --force. Ends with `beamtris report compare`: summary.json,
# summary.md and score-vs-piece-bN-MODE.svg. BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

dir=
beam=1000
mode=drop
force=0
suffix=
reference=open-column
weights=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --beam) beam="$2"; shift 2 ;;
    --moves) mode="$2"; shift 2 ;;
    --pieces) extra+=(--pieces "$2"); suffix="-k$2"; shift 2 ;;
    --threads) extra+=(--threads "$2"); shift 2 ;;
    --reference) reference="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    --*) echo "compare_weights.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) weights+=("$1"); shift ;;
  esac
done
if [ ${#weights[@]} -eq 0 ]; then
  echo "compare_weights.sh: name at least one weight set (see --help)" >&2
  exit 2
fi

# Runs of another length do not compare with the whole-game ones: they get their own folder.
[ -n "$dir" ] || dir="results/compare-weights$suffix"

bin=${BEAMTRIS:-target/release/beamtris}
if [ -z "${BEAMTRIS:-}" ]; then
  cargo build --release --quiet
fi
mkdir -p "$dir"
for w in "${weights[@]}"; do
  label=${w#results/}
  label=${label#/}
  label=${label%.json}
  label=${label//\//-}
  out="$dir/b$beam-$mode-$label$suffix.json"
  if done_run "$out" && [ "$force" -eq 0 ]; then
    echo "compare: $out is complete, skipped (--force reruns it)" >&2
    continue
  fi
  echo "compare: $w at beam $beam, $mode moves" >&2
  "$bin" solve --beam "$beam" --moves "$mode" --weights "$w" ${extra[@]+"${extra[@]}"} \
    --out "$out" >/dev/null
done
"$bin" report compare --dir "$dir" --reference "$reference"

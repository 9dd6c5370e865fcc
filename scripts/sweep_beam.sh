#!/usr/bin/env bash
# Beam-width sweep: `solve` at each width in each move mode, then the summary and plot.
#
#   scripts/sweep_beam.sh [WIDTHS...] [--moves drop|reach] [--weights W] [--threads T] [--force]
#
# Default widths 100 300 1000 3000 10000, both move modes. Every run is kept in
# results/sweep-beam/ as MODE-bWIDTH.json + .txt; a width already done (complete) is skipped unless
# --force, so an interrupted sweep resumes. Ends with `beamtris report sweep`, which writes
# summary.json, summary.md and score-vs-beam.svg. BEAMTRIS=path skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

dir=results/sweep-beam
modes=(drop reach)
widths=()
force=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --moves) modes=("$2"); shift 2 ;;
    --weights) extra+=(--weights "$2"); shift 2 ;;
    --threads) extra+=(--threads "$2"); shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    [0-9]*) widths+=("$1"); shift ;;
    *) echo "sweep_beam.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#widths[@]} -gt 0 ] || widths=(100 300 1000 3000 10000)

bin=${BEAMTRIS:-target/release/beamtris}
if [ -z "${BEAMTRIS:-}" ]; then
  cargo build --release --quiet
fi
mkdir -p "$dir"
for mode in "${modes[@]}"; do
  for w in "${widths[@]}"; do
    out="$dir/$mode-b$w.json"
    if done_run "$out" && [ "$force" -eq 0 ]; then
      echo "sweep: $out is complete, skipped (--force reruns it)" >&2
      continue
    fi
    echo "sweep: $mode moves, beam $w" >&2
    "$bin" solve --beam "$w" --moves "$mode" ${extra[@]+"${extra[@]}"} --out "$out" >/dev/null
  done
done
"$bin" report sweep --dir "$dir"

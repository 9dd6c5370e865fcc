#!/usr/bin/env bash
# Tuning on one machine or many with GNU parallel: each generation is `tune --ask` (writes
# OUT/gen-N/commands.txt, one `beamtris solve` per candidate), GNU parallel runs the lines,
# `tune --tell` reads the results back. Interrupt it any time: run it again and it goes on
# (asking and telling twice change nothing; finished candidates are not rerun).
#
# usage: scripts/tune_parallel.sh GENERATIONS -- TUNE-ARGS...
#   e.g. scripts/tune_parallel.sh 4 -- --beam 3000 --moves reach --pieces 3000 \
#          --population 16 --start results/weights/tuned.json --out results/tune/b3000
# Environment: JOBS (parallel -j, default the core count), SSHLOGINFILE (a GNU parallel
# --sshloginfile: hosts that have this checkout at the same path and `beamtris` built;
# results come back through the shared path or --return, see below).
set -euo pipefail
cd "$(dirname "$0")/.."
generations=${1:?usage: scripts/tune_parallel.sh GENERATIONS -- TUNE-ARGS...}
shift
[ "${1:-}" = "--" ] && shift
cargo build --release -q
export PATH="$PWD/target/release:$PATH"
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--out" ]; then out=$a; fi
  prev=$a
done
[ -n "$out" ] || { echo "tune_parallel.sh: give --out DIR among the tune arguments" >&2; exit 2; }
remote=()
if [ -n "${SSHLOGINFILE:-}" ]; then
  # Run in the same folder on every host, send the weights, bring the results back.
  remote=(--sshloginfile "$SSHLOGINFILE" --workdir "$PWD" --basefile target/release/beamtris)
fi
while :; do
  done_gens=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cem']['generation'])" "$out/state.json" 2>/dev/null || echo 0)
  [ "$done_gens" -ge "$generations" ] && break
  commands=$(beamtris tune "$@" --ask)
  # Skip candidates whose whole result is already there (a rerun after an interruption); a
  # result a signal stopped (it names the signal in stopped_by) is run again.
  grep -v -F -f <(for f in "$(dirname "$commands")"/cand-*.json; do
      [ -e "$f" ] && ! grep -q '"stopped_by"' "$f" &&
        case $f in *.weights.json) ;; *) echo "--out $f" ;; esac; done) "$commands" \
    | parallel -j "${JOBS:-$(nproc)}" --halt soon,fail=1 "${remote[@]}" || true
  beamtris tune "$@" --tell
done
echo "tune_parallel.sh: $out holds $generations generations; best weights in $out/best.json"

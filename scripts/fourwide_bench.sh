#!/usr/bin/env bash
# Solves the 4-wide configurations of results/fourwide.json, one process per configuration
# (so each row's peak memory is its own), smallest first. Each run replaces its row.
#   scripts/fourwide_bench.sh [MAX_PREVIEW] [GENERATORS...]
# e.g. scripts/fourwide_bench.sh 6 random bag
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-6}
shift || true
generators=${*:-random bag}
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release --quiet
for p in $(seq 0 "$max"); do
  for g in $generators; do
    for hold in "" "--hold"; do
      echo "fourwide --generator $g --preview $p $hold" >&2
      ./target/release/beamtris fourwide --generator "$g" --preview "$p" $hold \
        --record results/fourwide.json > /dev/null
    done
  done
done

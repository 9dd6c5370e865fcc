#!/usr/bin/env bash
# Solves the 4-wide configurations of results/fourwide/fourwide.json, one process per configuration
# (so each row's peak memory is its own), smallest first. Each run replaces its row.
#   scripts/fourwide_bench.sh [MAX_PREVIEW] [GENERATORS...]
# e.g. scripts/fourwide_bench.sh 6 random bag
# Environment: RESIDUALS (3 or 6, default 3); HOLDS ("off on" by default, or "on" / "off");
# MIN_PREVIEW (default 0). A configuration too large for the memory available is refused
# by beamtris with a one-line error, and the script goes on to the next.
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-6}
shift || true
generators=${*:-random bag}
residuals=${RESIDUALS:-3}
holds=${HOLDS:-off on}
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo build --release --quiet
for p in $(seq "${MIN_PREVIEW:-0}" "$max"); do
  for g in $generators; do
    for h in $holds; do
      hold=""
      [ "$h" = on ] && hold="--hold"
      echo "fourwide --residuals $residuals --generator $g --preview $p $hold" >&2
      ./target/release/beamtris fourwide --residuals "$residuals" --generator "$g" \
        --preview "$p" $hold --record results/fourwide/fourwide.json > /dev/null || true
    done
  done
done

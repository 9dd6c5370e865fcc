#!/usr/bin/env bash
# Data for guideline round 1: the objective's preset's solve of each of the five Cold Clear 2
# games (OBJ=attack, the default, four-wide on as in solve; or OBJ=points), one thread, low
# priority.
#   [OBJ=points] results/learning/guideline-round-1/draw.sh HORIZON EVERY PER_STEP [BEAM]
# writes data-hHORIZON-SEED.csv at beam 1 000 (the default), data-bBEAM-hHORIZON-SEED.csv at
# another beam, data-points-... for points (kept if there; git ignores them). Run from the
# repository root.
set -euo pipefail
h=${1:?usage: draw.sh HORIZON EVERY PER_STEP [BEAM]}; every=$2; per=$3; beam=${4:-1000}
obj=${OBJ:-attack}
dir=results/learning/guideline-round-1
tag=h$h; [ "$beam" = 1000 ] || tag=b$beam-h$h; [ "$obj" = attack ] || tag=$obj-$tag
for seed in 1742887628 1554295831 1 12345 378834655; do
  [ -f "$dir/data-$tag-$seed.csv" ] || nice target/release/beamtris learn data \
    --seed "seeds/cc2/tetrio-$seed-srs-$obj.json" --beam "$beam" --every "$every" \
    --per-step "$per" --horizon "$h" --threads 1 --out "$dir/data-$tag-$seed.csv" 2>&1 | tail -1
done

#!/bin/bash
# The 20 solves of results/nes/ks2/README.md, one after another under nice, from the worktree
# root with the release build: each seed's solve (results file, record, log) and its verify.
set -u
cd "$(dirname "$0")/../../.."
BIN=target/release/beamtris
for seed in $(cat results/nes/ks2/seeds.txt); do
  out=results/nes/ks2/$seed
  [ -e "$out.json" ] && continue
  nice $BIN solve --seed seeds/nes-gym-ks2.json --gym-seed "$seed" --out "$out.json" > "$out.log" 2>&1
  $BIN verify "$out.txt" > "$out.verify.json"
done

#!/bin/sh
# Plays every movie of meta_nestris' tests/movies/ from power-on and writes the agreement
# table to results/nes/checkpoints.md:
#   scripts/nes_checkpoints.sh CLONE
# CLONE: a clone (bare or not) of github.com/negative-seven/meta_nestris (commit c6bf827 for
# the committed table); its movies are exported to a temporary folder first. Run from the
# crate root.
set -eu
MIRROR=${1:?usage: scripts/nes_checkpoints.sh META_NESTRIS_CLONE}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$MIRROR" archive HEAD tests/movies | tar -x -C "$tmp"
NES_MOVIES="$tmp/tests/movies" nice cargo test --test nes_all_movies -- --ignored

#!/bin/sh
# Plays every movie of meta_nestris' tests/movies/ from power-on and writes the agreement
# table to results/nes/checkpoints.md. The mirror is a bare git repository, so the movies
# are exported to a temporary folder first. Run from the crate root.
set -eu
MIRROR=${MIRROR:-/work/.mirror/negative-seven+meta_nestris/repo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$MIRROR" archive HEAD tests/movies | tar -x -C "$tmp"
NES_MOVIES="$tmp/tests/movies" nice cargo test --test nes_all_movies -- --ignored

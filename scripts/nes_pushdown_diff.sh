#!/bin/sh
# The push-down points differential (not run in CI): generates soft-drop movies with
# scripts/nes_pushdown/gen.rs, then plays them and any other movies given on beamtris and on
# a second program, frame by frame (scripts/nes_pushdown_diff.py):
#   scripts/nes_pushdown_diff.sh OUTDIR 'OTHER_CMD' [GAMES [MAX_FRAMES [SEED]]] [-- MORE.fm2 ...]
# OTHER_CMD prints the second program's frames in the format nes_pushdown_diff.py describes
# (for the committed table, a small driver of negative-seven/meta_nestris kept outside the
# project). Movies go to OUTDIR/movies (each game's last board to OUTDIR/gen.log), the table
# to OUTDIR/table.md. Run from the crate root; builds beamtris (dev profile) and the
# generator under target/.
set -eu
OUT=${1:?usage: scripts/nes_pushdown_diff.sh OUTDIR OTHER_CMD [GAMES [MAX_FRAMES [SEED]]] [-- MORE.fm2 ...]}
OTHER=${2:?usage: scripts/nes_pushdown_diff.sh OUTDIR OTHER_CMD [GAMES [MAX_FRAMES [SEED]]]}
shift 2
GAMES=60
FRAMES=40000
SEED=1
[ $# -gt 0 ] && [ "$1" != "--" ] && { GAMES=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { FRAMES=$1; shift; }
[ $# -gt 0 ] && [ "$1" != "--" ] && { SEED=$1; shift; }
[ $# -gt 0 ] && [ "$1" = "--" ] && shift

root=$(pwd)
gen="$root/target/nes-pushdown-gen"
mkdir -p "$gen/src" "$OUT/movies"
cp scripts/nes_pushdown/gen.rs "$gen/src/main.rs"
cat > "$gen/Cargo.toml" <<EOF
[package]
name = "nes-pushdown-gen"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
beamtris = { path = "$root" }

[profile.dev]
opt-level = 2

[profile.dev.package."*"]
opt-level = 3

[workspace]
EOF
nice cargo build --bin beamtris
(cd "$gen" && CARGO_TARGET_DIR="$root/target" nice cargo build)
"$root/target/debug/nes-pushdown-gen" "$OUT/movies" "$GAMES" "$FRAMES" "$SEED" 2>"$OUT/gen.log"
python3 scripts/nes_pushdown_diff.py --beamtris "$root/target/debug/beamtris" \
  --other "$OTHER" --table "$OUT/table.md" "$OUT"/movies/*.fm2 "$@"

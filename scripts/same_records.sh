#!/usr/bin/env bash
# Runs a fixed set of commands (solve, play, verify, show, tune on both families) with two
# beamtris binaries and compares what they write: records byte for byte, verify/show output,
# and every results-JSON field but times, memory and provenance. For a change that must keep
# behaviour (a refactor): build the old commit's binary, then
#   scripts/same_records.sh OLD_BINARY target/release/beamtris runs/same-records
# Run from the repository root. Prints one line a file, `same` or `DIFF`; exits 1 on a DIFF.
set -u
[ $# -eq 3 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY DIR" >&2; exit 2; }
old=$1 new=$2 dir=$3
runs() {
    local bin=$1 o=$2
    mkdir -p "$o"
    run() { local name=$1; shift; nice "$bin" "$@" >"$o/$name.stdout" 2>"$o/$name.stderr"; echo "$name $?" >>"$o/rc.txt"; }
    rm -f "$o/rc.txt"
    run solve-t solve --pieces 2000 --beam 500 --out "$o/solve-t.json"
    run solve-t-drop solve --pieces 800 --beam 200 --moves drop --weights results/weights/tuned.json --out "$o/solve-t-drop.json"
    run solve-g solve --seed seeds/tetrio-1742887628-attack.json --beam 200 --pieces 300 --out "$o/solve-g.json"
    run solve-g2 solve --seed seeds/ablation/tetrio-42-srs-attack.json --beam 100 --pieces 200 --out "$o/solve-g2.json"
    run solve-g3 solve --seed seeds/cc2/tetrio-1-srs-points.json --beam 100 --pieces 200 --out "$o/solve-g3.json"
    run play-std play --seed seeds/standard.json --games 3 --max-pieces 3000 --threads 1 --out "$o/play-std.json"
    run play-tencent play --seed seeds/tencent-geek-4.json --policy bcts --out "$o/play-tencent.json"
    run play-g play --seed seeds/cc2/tetrio-1-srs-attack.json --max-pieces 100 --out "$o/play-g.json"
    run play-g-fw play --seed seeds/cc2/tetrio-12345-srs-attack.json --max-pieces 60 --fourwide on --out "$o/play-gfw.json"
    run verify-t verify "$o/solve-t.txt"
    run verify-g verify "$o/solve-g.txt" --seed seeds/tetrio-1742887628-attack.json
    run show-fumen show "$o/solve-g.txt" --seed seeds/tetrio-1742887628-attack.json --fumen
    run show-text show "$o/solve-t.txt" --at 500
    run tune-t tune --beam 20 --pieces 100 --generations 1 --population 4 --out "$o/tune-t"
    run tune-g tune --seed seeds/tetrio-1742887628-attack.json --beam 20 --pieces 60 --generations 1 --population 4 --out "$o/tune-g"
}
runs "$old" "$dir/old"
runs "$new" "$dir/new"
python3 - "$dir" <<'PY'
import glob, json, os, sys
d = sys.argv[1]
skip = ("second", "time", "memory", "load_average", "date", "commit", "command", "machine", "record_file", "runs", "rss")
def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items() if not any(s in k for s in skip)}
    if isinstance(o, list):
        return [clean(x) for x in o]
    return o
bad = 0
for a in sorted(glob.glob(f"{d}/old/**/*", recursive=True)):
    if os.path.isdir(a) or a.endswith(".stderr"):
        continue
    b = a.replace(f"{d}/old/", f"{d}/new/", 1)
    if not os.path.exists(b):
        same = False
    else:
        try:  # results JSON (a file, or a command's stdout): compared without times
            same = clean(json.load(open(a))) == clean(json.load(open(b)))
        except ValueError:
            same = open(a, "rb").read() == open(b, "rb").read()
    bad += not same
    print("same" if same else "DIFF", os.path.relpath(a, f"{d}/old"))
sys.exit(1 if bad else 0)
PY

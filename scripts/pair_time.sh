#!/usr/bin/env bash
# Times two shell commands A and B as whole processes, in turn (A B A B ...), and prints
# min / median / max of each figure and of the A/B ratios of the pairs.
#
#   scripts/pair_time.sh [-n N] [--warmup K] 'A command' 'B command'
#
# -n N         pairs counted (default 3)
# --warmup K   pairs run first and not counted (default 0)
#
# Each run is `sh -c COMMAND` under GNU /usr/bin/time -v, from the current directory, its
# output (stdout and stderr) thrown away. Per run: user s, sys s, cpu s (user + sys), wall s
# (/usr/bin/time gives them to 0.01 s) and peak MiB (the largest resident set of the command
# or of any process it waited for). The ratios are taken pair by pair (run i of A over run i
# of B), for user, cpu and wall time. A command that exits non-zero stops the script (exit 1);
# a wrong argument exits 2. Example, ratios about 0.5:
#   scripts/pair_time.sh -n 3 'sleep 0.1' 'sleep 0.2'
set -euo pipefail

usage() { sed -n '2,17s/^# \{0,1\}//p' "$0"; }
die() { echo "pair_time.sh: $1" >&2; exit "${2:-2}"; }

n=3 warmup=0
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    -n) [ $# -ge 2 ] || die "-n needs a number"; n=$2; shift 2 ;;
    --warmup) [ $# -ge 2 ] || die "--warmup needs a number"; warmup=$2; shift 2 ;;
    --) shift; break ;;
    -?*) die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || die "-n wants a whole number of at least 1, not '$n'"
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup wants a whole number, not '$warmup'"
[ $# -eq 2 ] || die "wants two commands, A and B, got $# (see --help)"
[ -x /usr/bin/time ] || die "GNU /usr/bin/time is needed (Debian/Ubuntu package: time)" 1
a=$1 b=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$tmp/runs.txt
: >"$data"

# run LABEL COMMAND RUN_NAME COUNTED: one timed run; appends "LABEL user sys wall kB" if counted.
run() {
  local label=$1 cmd=$2 name=$3 counted=$4 rc=0
  /usr/bin/time -v -o "$tmp/time.txt" sh -c "$cmd" >/dev/null 2>&1 </dev/null || rc=$?
  [ "$rc" -eq 0 ] || die "command $label failed (exit $rc) in $name: $cmd" 1
  [ "$counted" = yes ] || return 0
  awk -v label="$label" -F': ' '
    /User time \(seconds\)/ { u = $2 }
    /System time \(seconds\)/ { s = $2 }
    /Elapsed \(wall clock\) time/ { k = split($NF, p, ":"); w = 0
                                    for (i = 1; i <= k; i++) w = w * 60 + p[i] }
    /Maximum resident set size/ { m = $2 }
    END { print label, u, s, w, m }' "$tmp/time.txt" >>"$data"
}

for i in $(seq 1 "$warmup"); do
  run A "$a" "warm-up run $i" no
  run B "$b" "warm-up run $i" no
done
for i in $(seq 1 "$n"); do
  run A "$a" "run $i" yes
  run B "$b" "run $i" yes
done

python3 - "$data" "$a" "$b" "$n" "$warmup" <<'PY'
import statistics, sys
path, a, b, n, warmup = sys.argv[1:]
runs = {"A": [], "B": []}
for line in open(path):
    label, u, s, w, kb = line.split()
    u, s, w = float(u), float(s), float(w)
    runs[label].append({"user s": u, "sys s": s, "cpu s": u + s, "wall s": w,
                        "peak MiB": int(kb) / 1024})
def row(name, xs, fmt):
    print(f"{name:<14}" + "".join(fmt.format(x) for x in (min(xs), statistics.median(xs), max(xs))))
print(f"A = {a}\nB = {b}")
print(f"runs counted: A {n}, B {n}, in turn (A B A B ...); warm-up runs, not counted: {warmup} each")
print(f"{'':<14}{'min':>12}{'median':>12}{'max':>12}   whole process, /usr/bin/time -v")
for label in "AB":
    for key in ("user s", "sys s", "cpu s", "wall s", "peak MiB"):
        row(f"{label} {key}", [r[key] for r in runs[label]], "{:12.1f}" if key == "peak MiB" else "{:12.3f}")
for key in ("user", "cpu", "wall"):
    ratios = [ra[key + " s"] / rb[key + " s"] for ra, rb in zip(runs["A"], runs["B"]) if rb[key + " s"] > 0]
    if ratios:
        row(f"A/B {key}", ratios, "{:12.4f}")
    else:
        print(f"{'A/B ' + key:<14}{'-':>12}{'-':>12}{'-':>12}   (B's time reads 0)")
PY

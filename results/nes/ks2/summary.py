#!/usr/bin/env python3
"""The table of results/nes/ks2/README.md from the runs beside it: for each SEED.json (a
`beamtris solve` results file) its record's replay (`beamtris verify SEED.txt --trace`, kept
as SEED.trace.jsonl), the score at the level 29 and 39 transitions (points of the clears that
left the level below 29, below 39, as BetaTetris's "pre-29" and "pre-39" count), the clears by
size in each speed band, and the share of the all-tetris score.

Usage: python3 results/nes/ks2/summary.py [BINARY]   (from the worktree root; BINARY
defaults to target/release/beamtris). Prints the Markdown tables."""
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/beamtris"
# all-tetris scores: 1 200 x (level after the clear + 1), a tetris every 4 lines from 0
def level(lines):
    return 18 if lines < 130 else lines // 10 + 6
ALL = sum(1200 * (level(l) + 1) for l in range(4, 433, 4))            # 108 tetrises, 432 lines
ALL_428 = sum(1200 * (level(l) + 1) for l in range(4, 429, 4))        # 107 tetrises
ALL_29 = sum(1200 * (level(l) + 1) for l in range(4, 433, 4) if level(l) < 29)
ALL_39 = sum(1200 * (level(l) + 1) for l in range(4, 433, 4) if level(l) < 39)

def band(lv):
    return "18" if lv < 19 else "19-28" if lv < 29 else "29-38" if lv < 39 else "39-49"

rows = []
for res in sorted(HERE.glob("*.json")):
    if res.name.endswith(".verify.json"):
        continue
    r = json.loads(res.read_text())
    rec = res.with_suffix(".txt")
    trace_file = res.with_suffix(".trace.jsonl")
    if not trace_file.exists():
        out = subprocess.run([BIN, "verify", str(rec), "--trace"], capture_output=True, text=True, check=True)
        trace_file.write_text(out.stdout)
    locks = []
    for line in trace_file.read_text().splitlines():
        d = json.loads(line)
        if "lock" in d:
            locks.append(d)
    final = json.loads(trace_file.read_text().splitlines()[-1])
    assert final["score"] == r["score"], res
    pre29 = sum(l["gain"] for l in locks if l["level"] < 29)
    pre39 = sum(l["gain"] for l in locks if l["level"] < 39)
    clears = {}
    for l in locks:
        if l["cleared"]:
            clears.setdefault(band(l["level"]), [0, 0, 0, 0])[l["cleared"] - 1] += 1
    rows.append(dict(seed=r["seed"].rsplit("-", 1)[1], score=r["score"], lines=r["lines"], level=r["level"],
                     end=r["end_reason"], pre29=pre29, pre39=pre39, clears=clears,
                     wall=r["wall_seconds"], cpu=r["cpu_seconds"], beam=r.get("beam_width", r.get("beam")),
                     load=r.get("load_average_at_start")))

print(f"all-tetris: {ALL:,} (108 tetrises, 432 lines); to 428 lines {ALL_428:,}; before 29 {ALL_29:,}; before 39 {ALL_39:,}\n")
print("| seed | score (verify) | of all-tetris | lines | level | end | before 29 | before 39 | wall s | CPU s | load at start | files |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
f = lambda n: f"{n:,}".replace(",", " ")
for x in rows:
    print(f"| {x['seed']} | {f(x['score'])} | {100*x['score']/ALL:.1f} % | {x['lines']} | {x['level']} | {x['end']} | "
          f"{f(x['pre29'])} | {f(x['pre39'])} | {x['wall']:.0f} | {x['cpu']:.0f} | {x['load']} | "
          f"[json]({x['seed']}.json) [record]({x['seed']}.txt) [verify]({x['seed']}.verify.json) [trace]({x['seed']}.trace.jsonl) |")
if rows:
    sc = [x["score"] for x in rows]
    print(f"\nmean {f(round(statistics.mean(sc)))}, median {f(round(statistics.median(sc)))}, lowest {f(min(sc))}, "
          f"highest {f(max(sc))}; mean before 29 {f(round(statistics.mean(x['pre29'] for x in rows)))}, "
          f"before 39 {f(round(statistics.mean(x['pre39'] for x in rows)))}; "
          f"mean share of all-tetris {100*statistics.mean(sc)/ALL:.1f} %; {sum(x['end']=='lines_reached' for x in rows)} of {len(rows)} reach 430 lines\n")
    print("| seed | clears of 1 / 2 / 3 / 4 lines at 18 | 19-28 | 29-38 | 39-49 |")
    print("|---|---|---|---|---|")
    for x in rows:
        cells = [" / ".join(map(str, x["clears"].get(b, [0, 0, 0, 0]))) for b in ["18", "19-28", "29-38", "39-49"]]
        print(f"| {x['seed']} | " + " | ".join(cells) + " |")
    # points by speed band beside the all-tetris points of that band, and the burnt lines
    bands = [("18-28 (to 230 lines)", lambda x: x["pre29"], ALL_29),
             ("29-38 (230-330)", lambda x: x["pre39"] - x["pre29"], ALL_39 - ALL_29),
             ("39-49 (330-432, two rows a frame)", lambda x: x["score"] - x["pre39"], ALL - ALL_39)]
    print("\n| levels | mean points | all-tetris | share | lines burnt (singles, doubles, triples), all seeds |")
    print("|---|---|---|---|---|")
    names = {"18-28 (to 230 lines)": ["18", "19-28"], "29-38 (230-330)": ["29-38"], "39-49 (330-432, two rows a frame)": ["39-49"]}
    for name, get, all_band in bands:
        m = statistics.mean(get(x) for x in rows)
        burnt = [0, 0, 0]
        for x in rows:
            for b in names[name]:
                c = x["clears"].get(b, [0, 0, 0, 0])
                for i in range(3):
                    burnt[i] += c[i]
        lines_burnt = burnt[0] + 2 * burnt[1] + 3 * burnt[2]
        print(f"| {name} | {f(round(m))} | {f(all_band)} | {100*m/all_band:.1f} % | {lines_burnt} ({burnt[0]}, {burnt[1]}, {burnt[2]}) |")

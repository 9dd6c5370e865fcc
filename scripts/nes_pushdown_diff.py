#!/usr/bin/env python3
"""Push-down points differential: plays FM2 movies on beamtris and on a second NES Tetris
program, compares the score (and lines, level, top-out) at every frame of every game, and
counts the soft-drop additions by the path they take through the ROM's addHoldDownPoints.

usage: nes_pushdown_diff.py --beamtris BIN --other CMD [--table FILE] [--cut DIR] MOVIE.fm2 ...

BIN is a beamtris binary (its `import --at` gives the frames). CMD is a command that takes
an FM2 path as its last argument and prints one line per frame from frame 1 (the state
after that many inputs), up to the movie's end:
    FRAME menu NAME
    FRAME game SCORE LINES LEVEL DEAD HOLD_DOWN_POINTS PLAY_STATE
(DEAD is true/false; PLAY_STATE the name of the play state after the frame, as meta_nestris
names them: the update of lines and score is the frame that goes from UpdateLinesAndStatistics
or DoNothing to SpawnNextTetrimino). The
harness was run with a small driver of negative-seven/meta_nestris that prints this; it is
not part of the project (results/nes/pushdown/README.md).

Not run in CI. Prints a markdown table per movie and the totals; exit code 1 if any score
differs.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
from collections import Counter


def beamtris_frames(binary, movie, last):
    """Snapshot of frames 1..last from `beamtris import`, chunked (one --at list a call)."""
    out = {}
    step = 8000
    for lo in range(1, last + 1, step):
        frames = ",".join(str(f) for f in range(lo, min(last, lo + step - 1) + 1))
        text = subprocess.run(
            [binary, "import", movie, "--at", frames],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        for line in text.splitlines():
            s = json.loads(line)
            out[s["frame"]] = s
    return out


def other_frames(cmd, movie):
    text = subprocess.run(
        shlex.split(cmd) + [movie], check=True, capture_output=True, text=True
    ).stdout
    out = {}
    for line in text.splitlines():
        p = line.split()
        f = int(p[0])
        if p[1] == "menu":
            out[f] = None
        else:
            out[f] = {
                "score": int(p[2]),
                "lines": int(p[3]),
                "level": int(p[4]),
                "dead": p[5] == "true",
                "hdp": int(p[6]),
                "state": p[7],
            }
    return out


def bcd(n):
    return ((n // 10) << 4) | (n % 10)


def paths(score_before, hdp):
    """The branches addHoldDownPoints takes for this score and holdDownPoints (>= 2)."""
    low = bcd(score_before % 100)
    mid = bcd(score_before // 100 % 100)
    s = ((low - 1) & 0xFF) + hdp & 0xFF
    tags = []
    nib = s & 0x0F >= 0x0A
    if nib:
        tags.append("low nibble past 9 (+6)")
        s = (s + 6) & 0xFF
    if s & 0xF0 >= 0xA0:
        tags.append("low byte past 99 (hundreds +1)")
        if not nib and s & 0x0F:
            tags.append("past 99 without the +6, ones digit not 0")
        if nib:
            tags.append("past 99 through the +6")
        if mid & 0x0F == 9:
            tags.append("hundreds digit 9 (middle byte's +6 after)")
        if mid == 0x99:
            tags.append("middle byte 99 (ten-thousands carry)")
    if hdp > 10:
        tags.append("holdDownPoints above 10")
    if score_before >= 990_000:
        tags.append("score 990 000 or more (the cap near)")
    if not tags:
        tags.append("no fix-up")
    return tags


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--beamtris", required=True)
    ap.add_argument("--other", required=True)
    ap.add_argument("--table")
    ap.add_argument(
        "--cut",
        help="write each path's earliest movie, cut after its update frame, to this folder",
    )
    ap.add_argument("movies", nargs="+")
    args = ap.parse_args()

    rows = []
    total = Counter()
    kinds = Counter()
    lengths = Counter()
    levels = set()
    earliest = {}
    for movie in args.movies:
        name = movie.rsplit("/", 1)[-1]
        o = other_frames(args.other, movie)
        last = max(o)
        b = beamtris_frames(args.beamtris, movie, last)
        c = Counter()
        first = None
        prev = None
        goal = False
        b_type = None
        for f in range(1, last + 1):
            of, bf = o.get(f), b.get(f)
            if bf is not None and bf["lines"] is not None:
                if b_type is None:
                    b_type = bf["lines"] > 0  # a B-type game starts at 25 lines
                if b_type and bf["lines"] == 0:
                    goal = True  # beamtris stops at the B-type goal, meta_nestris plays on
            if goal or of is None or bf is None or bf["score"] is None:
                c["menu"] += 1
                prev = of
                continue
            c["frames"] += 1
            if of["dead"] and bf["dead"] and prev and prev["dead"]:
                c["after top-out"] += 1
            for key in ("score", "lines", "level", "dead"):
                if of[key] != bf[key]:
                    c[key] += 1
                    if first is None:
                        first = (f, key, bf[key], of[key])
            if (
                prev
                and prev["state"] in ("UpdateLinesAndStatistics", "DoNothing")
                and of["state"] == "SpawnNextTetrimino"
            ):
                c["updates"] += 1
                if prev["hdp"] >= 2:
                    c["soft-drop additions"] += 1
                    lengths[prev["hdp"]] += 1
                    levels.add(prev["level"])
                    for t in paths(prev["score"], prev["hdp"]):
                        kinds[t] += 1
                        e = (f, movie, prev["score"], prev["hdp"], of["score"], bf["score"])
                        if t not in earliest or f < earliest[t][0]:
                            earliest[t] = e
            if (
                prev
                and prev["state"] == "MoveTetrimino"
                and of["state"] == "MoveTetrimino"
                and prev["hdp"] > 0
                and of["hdp"] == 0
            ):
                t = "push let go before the lock (points back to 0)"
                kinds[t] += 1
                if t not in earliest or f < earliest[t][0]:
                    earliest[t] = (f, movie, of["score"], prev["hdp"], of["score"], bf["score"])
            prev = of
        total.update(c)
        rows.append((name, c, first))

    lines = [
        "| movie | frames in a game | updates | soft-drop additions | score differs | lines | level | dead | first difference (frame: beamtris / other) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, c, first in rows:
        fd = "" if first is None else f"{first[0]} {first[1]}: {first[2]} / {first[3]}"
        lines.append(
            f"| {name} | {c['frames']} | {c['updates']} | {c['soft-drop additions']} | "
            f"{c['score']} | {c['lines']} | {c['level']} | {c['dead']} | {fd} |"
        )
    lines.append(
        f"| **all {len(rows)}** | {total['frames']} | {total['updates']} | "
        f"{total['soft-drop additions']} | {total['score']} | {total['lines']} | "
        f"{total['level']} | {total['dead']} | |"
    )
    lines.append("")
    lines.append("| soft-drop path (addHoldDownPoints) | additions |")
    lines.append("|---|---:|")
    for k, v in sorted(kinds.items()):
        lines.append(f"| {k} | {v} |")
    lines.append("")
    lines.append(
        "holdDownPoints seen: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(lengths.items()))
        + f"; at levels {', '.join(str(v) for v in sorted(levels))}"
    )
    lines.append("")
    lines.append(
        "| soft-drop path | earliest: movie, frame of the update | score before | holdDownPoints | after: other / beamtris |"
    )
    lines.append("|---|---|---:|---:|---|")
    for k, (f, movie, before, hdp, other, mine) in sorted(earliest.items()):
        name = movie.rsplit("/", 1)[-1]
        lines.append(f"| {k} | {name}, {f} | {before} | {hdp} | {other} / {mine} |")
    if args.cut:
        os.makedirs(args.cut, exist_ok=True)
        for k, (f, movie, *_rest) in sorted(earliest.items()):
            with open(movie) as src:
                text = src.read().splitlines(keepends=True)
            head = [t for t in text if not t.startswith("|")]
            body = [t for t in text if t.startswith("|")][:f]
            name = movie.rsplit("/", 1)[-1].removesuffix(".fm2") + f"_{f}.fm2"
            with open(os.path.join(args.cut, name), "w") as out:
                out.writelines(head + body)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    sys.exit(1 if total["score"] else 0)


if __name__ == "__main__":
    main()

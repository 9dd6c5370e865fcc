#!/usr/bin/env python3
"""An upper bound on the score of a Tencent-rules game, from a relaxation solved exactly.

The relaxed game keeps of a board only its cell count c. Piece k adds 4 cells and may clear
r rows, any r up to the rows its shape spans (I 4, O 2, the others 3), scoring
(c + 4) x {0, 1, 3, 6, 10}[r]; at a lock the rows that are not full hold at most 9 cells each
and there are at most H of them with the full ones (`c + 4 <= 9 (H - r) + 10 r`). The player
may stop at any lock. Every real game is a play of the relaxed game with H = 19:

* every scoring lock adds exactly 4 cells (a cell above the board would come with a cell in
  row 0, and a cell in row 0 tops out before the lock scores);
* row 0 is empty at every scoring lock, so the cells lie in rows 1 to 19, and a row that is
  not full holds at most 9;
* a piece clears no more rows than it spans, and the lock scores the cells counted with the
  piece and the full rows, times 1, 3, 6 or 10;
* the game may end at any lock (the record may stop; a top-out or a blocked spawn ends it).

So the relaxed value from an empty board with H = 19 bounds every record's score. Smaller H
(fractional: 9 H cells) says what a perfect packer that keeps off the top rows could make.
The last piece never scores. Backward dynamic programming over (piece, c), c even, 0 to 200.

Usage: scripts/tencent_bound.py [--sequence FILE] [--queue LETTERS] [--rows H ...]
           [--allow SHAPE:COUNTS ...] [--check TRACE ...] [--self-check]
  --sequence  the game's pieces, one a line `k letter ...` (default
              tests/data/tencent/sequence.txt: the built-in game)
  --queue     the pieces as letters IJLOSTZ instead
  --rows      the row capacities to bound (default 17 17.5 18 18.5 19); each row of the
              table also gives the clears and the mean cells at a clear of one best play
  --allow     restrict a shape's clears (a narrower relaxation, no longer a bound on every
              game): `J:013` lets J clear 0, 1 or 3 rows; 0 is always allowed
  --check     a `beamtris verify RECORD --trace` output: checks that every lock of the record
              is a move of the relaxed game (H = 19) and that its score is within the bound
  --self-check  compares the dynamic program with exhaustive search on short random queues
"""
import argparse
import itertools
import json
import os
import random
import sys

MULT = [0, 1, 3, 6, 10]
SPAN = {"I": 4, "O": 2, "J": 3, "L": 3, "T": 3, "S": 3, "Z": 3}
STATES = 101  # c = 0, 2, ..., 200
ANY = {shape: range(span + 1) for shape, span in SPAN.items()}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    """A bad input: one line on stderr, exit code 2, like beamtris itself."""
    print(f"tencent_bound: {message}", file=sys.stderr)
    sys.exit(2)


def fits(c_after_piece, r, cap):
    """A lock that leaves `c_after_piece` cells with `r` full rows fits `cap` cells of
    rows that are not full (9 a row)."""
    return 10 * r <= c_after_piece and c_after_piece - 10 * r <= cap - 9 * r


def values(pieces, cap, allow):
    """`values[k][c / 2]`: the most the relaxed game still scores from lock k with c cells
    (pieces[:-1] lock and score; the last never scores); at most `cap` cells in rows that are
    not full; `allow[shape]`: the row counts its locks may clear."""
    table = [None] * len(pieces)
    value = [0] * STATES  # after the last scoring lock: nothing more
    table[-1] = value
    for k in range(len(pieces) - 2, -1, -1):
        nxt = value
        value = [0] * STATES  # stopping is always allowed
        for ci in range(STATES):
            c = 2 * ci
            if c > cap:
                continue
            cc = c + 4
            best = 0
            for r in allow[pieces[k]]:
                if fits(cc, r, cap):
                    best = max(best, cc * MULT[r] + nxt[(cc - 10 * r) // 2])
            value[ci] = best
        table[k] = value
    return table


def bound(pieces, cap, allow=None):
    """The relaxed game's value from an empty board."""
    return values(pieces, cap, allow or ANY)[0][0]


def best_play(pieces, cap, allow):
    """The value and, along one best play, the clears of 1 to 4 rows and the mean cells at a
    clear."""
    table = values(pieces, cap, allow)
    c, clears, cells = 0, [0] * 5, []
    for k in range(len(pieces) - 1):
        cc = c + 4
        options = [(cc * MULT[r] + table[k + 1][(cc - 10 * r) // 2], r)
                   for r in allow[pieces[k]] if fits(cc, r, cap)]
        if not options or max(options)[0] == 0:
            break  # the rest scores nothing: stop
        _, r = max(options)
        if r:
            clears[r] += 1
            cells.append(cc)
        c = cc - 10 * r
    return table[0][0], clears[1:], sum(cells) / max(1, len(cells))


def exhaustive(pieces, cap):
    """The same value by trying every sequence of clears (short queues only)."""
    best = 0
    spans = [range(SPAN[s] + 1) for s in pieces[:-1]]
    for choice in itertools.product(*spans):
        c, score = 0, 0
        for r in choice:
            cc = c + 4
            if not fits(cc, r, cap) or c > cap:
                break
            score += cc * MULT[r]
            c = cc - 10 * r
            best = max(best, score)
    return best


def read_sequence(path):
    """The letters of a sequence file (`k letter ...` a line)."""
    try:
        with open(path) as f:
            rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    for n, row in enumerate(rows, 1):
        if len(row) < 2 or row[1] not in SPAN:
            fail(f"{path}: piece {n}: expected `k letter ...`")
    return [row[1] for row in rows]


def check_trace(path, pieces, top):
    """Every lock of a verify trace is a relaxed move with H = 19; the score is within."""
    try:
        with open(path) as f:
            lines = [json.loads(l) for l in f if l.startswith("{")]
    except (OSError, ValueError) as e:
        raise AssertionError(f"{path}: {getattr(e, 'strerror', None) or e}")
    locks = [l for l in lines if "lock" in l]
    assert locks and "score" in lines[-1], f"{path}: not the output of `beamtris verify --trace`"
    summary = lines[-1]
    c, score = 0, 0
    for l in locks:
        if l["lock"] == len(pieces) - 1:  # the last piece locks and never scores
            assert l["points"] == 0, f"{path}: the last lock scores {l['points']}"
            break
        k = l["lock"]
        assert k < len(pieces) and l["piece"] == pieces[k], (
            f"{path}: lock {k} places {l['piece']}, the sequence's piece is "
            f"{pieces[k] if k < len(pieces) else 'none'}"
        )
        cc = c + len(l["cells"])
        r = l["rows"]
        assert len(l["cells"]) == 4, f"{path}: lock {l['lock']} adds {len(l['cells'])} cells"
        assert r <= SPAN[l["piece"]], f"{path}: lock {l['lock']} clears {r} rows"
        assert fits(cc, r, 171), f"{path}: lock {l['lock']}: {cc} cells with {r} full rows"
        assert all(y >= 1 for _, y in l["cells"]), f"{path}: lock {l['lock']} reaches row 0"
        assert l["points"] == cc * MULT[r], f"{path}: lock {l['lock']} scores {l['points']}"
        score += l["points"]
        c = cc - 10 * r
    assert score == summary["score"], f"{path}: the locks add to {score}, the summary says {summary['score']}"
    assert score <= top, f"{path}: {score} is above the bound {top}"
    return score, len(locks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sequence", default=os.path.join(ROOT, "tests/data/tencent/sequence.txt"))
    ap.add_argument("--queue")
    ap.add_argument("--rows", type=float, nargs="*", default=[17, 17.5, 18, 18.5, 19])
    ap.add_argument("--check", nargs="*", default=[])
    ap.add_argument("--allow", nargs="*", default=[])
    ap.add_argument("--self-check", action="store_true")
    args = ap.parse_args()
    if args.self_check:
        rng = random.Random(7)
        for _ in range(200):
            q = [rng.choice("IJLOSTZ") for _ in range(rng.randint(2, 8))]
            cap = rng.choice([20, 36, 54, 90, 171])
            a, b = bound(q, cap), exhaustive(q, cap)
            assert a == b, (q, cap, a, b)
        print("self-check: the dynamic program equals exhaustive search on 200 short queues")
        return
    if args.queue:
        pieces = [ch for ch in args.queue.upper() if not ch.isspace()]
        bad = [ch for ch in pieces if ch not in SPAN]
        if bad:
            fail(f"--queue: {bad[0]!r} is not one of IJLOSTZ")
    else:
        pieces = read_sequence(args.sequence)
    allow = dict(ANY)
    for item in args.allow:
        shape, _, counts = item.partition(":")
        if shape not in SPAN or not counts or any(
            not d.isdigit() or int(d) > SPAN[shape] for d in counts
        ):
            fail(f"--allow {item!r}: write SHAPE:COUNTS, e.g. J:013")
        allow[shape] = sorted({int(d) for d in counts} | {0})
    print(f"{len(pieces)} pieces, {len(pieces) - 1} scoring locks")
    print("| rows H | cells (9 H) | bound | clears of 1, 2, 3, 4 rows | cells a clear |")
    print("|---:|---:|---:|---|---:|")
    for h in args.rows:
        cap = 9 * h
        value, clears, cells = best_play(pieces, cap, allow)
        print(f"| {h:g} | {cap:g} | {value} | {', '.join(map(str, clears))} | {cells:.1f} |")
    top = bound(pieces, 171) if args.check else None  # the bound every record is within
    for path in args.check:
        try:
            score, n = check_trace(path, pieces, top)
        except AssertionError as e:
            fail(f"{e}")
        print(f"{path}: {n} locks, every one a relaxed move; score {score} <= {top}")


if __name__ == "__main__":
    main()

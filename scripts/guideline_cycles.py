#!/usr/bin/env python3
"""Where a guideline record's attack comes from: its perfect-clear cycles and its combo runs.

Reads the lock lines of `beamtris verify RECORD --seed GAME --trace` (one JSON object a lock)
from each TRACE file, or from stdin, and prints a row a record:

* a *cycle* runs from the lock after one perfect clear to the next perfect clear: its length
  in locks and the attack it sends (the perfect clear's 10 included);
* a *run* is a stretch of ten or more consecutive clearing locks (a 4-wide combo);
* the clears by rows and spin (`2F`: a full T-spin double; `1m`: a mini T-spin single).

The last line adds the records up. Bad input (not a trace, a lock line that is not JSON) is
refused in one line with exit code 2.

Usage: scripts/guideline_cycles.py [TRACE ...]
"""

import collections
import json
import sys


def fail(message):
    print(f"guideline_cycles.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_locks(name, lines):
    locks = []
    for number, line in enumerate(lines, 1):
        if not line.startswith('{"lock"'):
            continue
        try:
            lock = json.loads(line)
            lock["rows"], lock["attack"], lock["spin"], lock["perfect_clear"]
        except (json.JSONDecodeError, KeyError) as err:
            fail(f"{name}, line {number}: not a lock of `verify --trace` ({err})")
        locks.append(lock)
    if not locks:
        fail(f"{name}: no lock lines (the output of `beamtris verify RECORD --seed GAME --trace`)")
    return locks


def kind(lock):
    return f'{lock["rows"]}{ {"none": "", "mini": "m", "full": "F"}[lock["spin"]] }'


def anatomy(locks):
    cycles, runs = [], []
    start, attack, run = 0, 0, []
    for lock in locks:
        attack += lock["attack"]
        if lock["rows"] > 0:
            run.append(lock)
        else:
            if len(run) >= 10:
                runs.append(run)
            run = []
        if lock["perfect_clear"]:
            cycles.append((lock["lock"] - start + 1, attack))
            start, attack = lock["lock"] + 1, 0
    if len(run) >= 10:
        runs.append(run)
    clears = collections.Counter(kind(l) for l in locks if l["rows"] > 0)
    return {
        "locks": len(locks),
        "attack": sum(l["attack"] for l in locks),
        "cycles": len(cycles),
        "cycle_lengths": collections.Counter(n for n, _ in cycles),
        "cycle_attack": sum(a for _, a in cycles),
        "runs": len(runs),
        "run_clears": sum(len(r) for r in runs),
        "run_attack": sum(l["attack"] for r in runs for l in r),
        "clears": clears,
    }


def row(name, a):
    lengths = " ".join(f"{n}:{c}" for n, c in sorted(a["cycle_lengths"].items()))
    per_cycle = a["cycle_attack"] / a["cycles"] if a["cycles"] else 0
    clears = " ".join(f"{k}:{v}" for k, v in sorted(a["clears"].items()))
    return (
        f'| {name} | {a["locks"]} | {a["attack"]} | {a["attack"] / a["locks"]:.3f} | '
        f'{a["cycles"]} | {lengths} | {per_cycle:.1f} | {a["runs"]} | {a["run_attack"]} | {clears} |'
    )


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return
    sources = []
    if not args:
        sources.append(("stdin", sys.stdin.read().splitlines()))
    for path in args:
        try:
            with open(path, encoding="utf-8") as f:
                sources.append((path, f.read().splitlines()))
        except OSError as err:
            fail(f"{path}: {err.strerror}")
    rows = [(name, anatomy(read_locks(name, lines))) for name, lines in sources]
    print(
        "| trace | locks | attack | a piece | perfect-clear cycles | cycle lengths | attack a cycle "
        "| runs of 10+ clears | attack in runs | clears (rows, F full / m mini T-spin) |"
    )
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---|")
    for name, a in rows:
        print(row(name, a))
    if len(rows) > 1:
        total = dict(rows[0][1])
        for _, a in rows[1:]:
            for key, value in a.items():
                total[key] = total[key] + value
        print(row("all", total))


if __name__ == "__main__":
    main()

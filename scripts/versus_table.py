#!/usr/bin/env python3
"""The table of results/versus/README.md: one row a match folder (its summary.json), with
the games played, wins, draws, a's win rate and its 95 % Wilson interval (from the summary's
own totals), the reasons games ended, and each player's mean APM and PPS.

    python3 scripts/versus_table.py results/versus/*/summary.json
"""
import collections
import json
import sys


def row(path):
    s = json.load(open(path))
    t = s["totals"]
    games = s["games"]
    reasons = collections.Counter(
        (g["winner"] or "draw") + " by " + g["reason_kind"] for g in games
    )
    mean = lambda side, k: sum(g[side][k] for g in games) / max(1, len(games))
    folder = path.rsplit("/", 2)[-2]
    low, high = t["interval_95_a"]
    return (
        f"| [{folder}]({folder}/summary.json) | {t['games']} | {t['wins']['a']} | {t['wins']['b']} | "
        f"{t['draws']} | {t['win_rate_a']:.3f} | {low:.3f} to {high:.3f} | "
        + ", ".join(f"{n} {k}" for k, n in sorted(reasons.items()))
        + f" | {mean('a', 'apm'):.1f} / {mean('b', 'apm'):.1f} | {mean('a', 'pps'):.2f} / {mean('b', 'pps'):.2f} |"
    )


print("| match | games | a wins | b wins | draws | a's win rate | 95 % interval | how games ended | APM a / b | PPS a / b |")
print("|---|---:|---:|---:|---:|---:|---|---|---|---|")
for p in sys.argv[1:]:
    print(row(p))

#!/usr/bin/env python3
"""Summarise the greedy players' results files into results/players.json.

Reads results/play-standard-*.json (written by `beamtris play --seed seeds/standard.json`) and
results/play-tencent-geek-4-*.json, adds for each capped batch the maximum-likelihood mean of
an exponential distribution of lines per game censored at the cap (Thiery & Scherrer observe
that lines per game are close to exponentially distributed): sum of lines / games lost, with
its 95% confidence interval from the chi-square distribution with 2 x (games lost) degrees of
freedom. With few games lost the interval is very wide; it says that, nothing more.

Usage: scripts/players_summary.py [extra.json ...]   (extra JSON objects are merged in)
"""
import glob
import json
import math
import sys

PUBLISHED = {"dellacherie": 5_000_000, "eltetris": 16_000_000, "bcts": 35_000_000}


def chi2_quantile(p, k):
    """Quantile of the chi-square distribution with an even number k of degrees of freedom
    (exact CDF through the Poisson sum, inverted by bisection)."""
    m = k // 2

    def cdf(x):
        term, total = 1.0, 1.0
        for i in range(1, m):
            term *= (x / 2) / i
            total += term
        return 1 - math.exp(-x / 2) * total

    lo, hi = 0.0, 1e4
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main():
    out = {"standard": [], "tencent": []}
    for path in sorted(glob.glob("results/play-standard-*.json")):
        r = json.load(open(path))
        lines = r["lines_per_game"]
        lost = r["games"] - r["capped_games"]
        row = {
            "file": path,
            "command": r["run"]["command"],
            "commit": r["run"]["commit"],
            "policy": r["policy"],
            "top_out": r["top_out"],
            "games": r["games"],
            "max_lines": r["max_lines"],
            "capped_mean_lines": r["mean_lines"],
            "standard_error": r["standard_error"],
            "min_lines": r["min_lines"],
            "max_lines_reached": r["max_lines_reached"],
            "capped_share": r["capped_games"] / r["games"],
            "games_lost": lost,
            "published_mean_lines": PUBLISHED.get(r["policy"]),
        }
        if lost > 0:
            total = sum(lines)
            row["exponential_mle_mean_lines"] = total / lost
            row["exponential_mle_95ci"] = [
                2 * total / chi2_quantile(0.975, 2 * lost),
                2 * total / chi2_quantile(0.025, 2 * lost),
            ]
        else:
            row["exponential_mle_mean_lines"] = None
            row["note"] = "no game lost before the cap: only a lower bound (the cap)"
        out["standard"].append(row)
    for path in sorted(glob.glob("results/play-tencent-geek-4-*.json")):
        r = json.load(open(path))
        out["tencent"].append(
            {
                "file": path,
                "command": r["run"]["command"],
                "commit": r["run"]["commit"],
                "policy": r["policy"],
                "score": r["score"],
                "replay_score": r["replay_score"],
                "lines": r["lines"],
                "pieces": r["pieces"],
                "end_reason": r["end_reason"],
                "record_file": r["record_file"],
            }
        )
    for extra in sys.argv[1:]:
        out.update(json.load(open(extra)))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

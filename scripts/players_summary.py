#!/usr/bin/env python3
"""Summarise the greedy players' results files into results/players/players.json.

Reads results/players/play-standard-*.json (written by `beamtris play --seed
seeds/standard.json`) and results/players/play-tencent-geek-4-*.json, adds for each capped
batch the maximum-likelihood mean of an exponential distribution of lines per game censored at the cap (Thiery & Scherrer observe
that lines per game are close to exponentially distributed): sum of lines / games lost, with
its 95% confidence interval from the chi-square distribution with 2 x (games lost) degrees of
freedom. With few games lost the interval is very wide; it says that, nothing more.

Usage: scripts/players_summary.py [extra.json ...]   (extra JSON objects are merged in)
       scripts/players_summary.py --uncapped [--markdown]
           uncapped games (results/players/play-standard-<policy>[-strict].json, or the games
           finished so far in their .partial.jsonl while a run is going or after it was
           stopped) into results/players/players-uncapped.json; --markdown prints the table
           of results/players/players.md
       scripts/players_summary.py --compare BASE VARIANT
           a variant run (its results file or .partial.jsonl) against a baseline on the same
           seeds: both on the game indices the variant has finished (game g is seed 1 + g in
           both, so the pairs share their pieces), how many pairs end with the same lines,
           and the variant's own mean and intervals
"""
import glob
import json
import math
import os
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
    for path in sorted(glob.glob("results/players/play-standard-*.json")):
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
    for path in sorted(glob.glob("results/players/play-tencent-geek-4-*.json")):
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


PUBLISHED_UNCAPPED = {
    # mean lines and the 95 % interval the source gives, if any
    "dellacherie": (5_000_000, None, "Thiery & Scherrer's simplified game, as quoted in the literature (about 5 M)"),
    "eltetris": (16_000_000, None, "El-Tetris (Lee 2011), as quoted in the literature (about 16 M)"),
    "bcts": (35_000_000, (0.8, 1.2), "Thiery & Scherrer 2009, 35 M +- 20 %"),
}


def uncapped_games(path):
    """(header, games, complete) of a finished results file or a partial one."""
    if path.endswith(".partial.jsonl"):
        lines = open(path).read().split("\n")
        header = json.loads(lines[0])
        games, seen = [], set()
        for line in lines[1:]:
            if not line.strip():
                continue
            try:
                g = json.loads(line)
            except ValueError:
                break  # a last line cut short by a kill
            if g["game"] not in seen:
                seen.add(g["game"])
                games.append(g)
        return header, games, False
    r = json.load(open(path))
    games = [
        {"game": i, "lines": l, "pieces": p, "capped": False}
        for i, (l, p) in enumerate(zip(r["lines_per_game"], r.get("pieces_per_game", r["lines_per_game"])))
    ]
    return r, games, True


def describe(lines):
    n = len(lines)
    mean = sum(lines) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in lines) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    s = sorted(lines)
    median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    total = sum(lines)
    return {
        "games": n,
        "mean_lines": mean,
        "standard_error": se,
        "ci95_normal": [mean - 1.96 * se, mean + 1.96 * se],
        # lines per game close to exponential (Thiery & Scherrer): the exact interval of an
        # exponential mean from n games, 2 sum / chi2(2n)
        "ci95_exponential": [
            2 * total / chi2_quantile(0.975, 2 * n),
            2 * total / chi2_quantile(0.025, 2 * n),
        ],
        "median_lines": median,
        "min_lines": s[0],
        "max_lines": s[-1],
        "coefficient_of_variation": sd / mean if mean else None,
    }


def uncapped():
    rows = []
    for policy in ("dellacherie", "eltetris", "bcts"):
        for strict in ("", "-strict"):
            final = f"results/players/play-standard-{policy}{strict}.json"
            partial = f"results/players/play-standard-{policy}{strict}.partial.jsonl"
            path = final if os.path.exists(final) else partial if os.path.exists(partial) else None
            if path is None:
                continue
            header, games, complete = uncapped_games(path)
            if not games:
                continue
            row = {
                "policy": policy,
                "top_out": header["top_out"],
                "file": path,
                "complete": complete,
                "command": f"beamtris play --seed seeds/standard.json --policy {policy} --games N --threads 1"
                + (" --top-out strict" if strict else ""),
            }
            row.update(describe([g["lines"] for g in games]))
            row["games_indices"] = [min(g["game"] for g in games), max(g["game"] for g in games)]
            row["capped_games"] = sum(1 for g in games if g["capped"])
            pub, interval, source = PUBLISHED_UNCAPPED[policy]
            row["published_mean_lines"] = pub
            row["published_interval"] = [pub * interval[0], pub * interval[1]] if interval else None
            row["published_source"] = source
            rows.append(row)
    doc = {
        "description": "uncapped games of the one-piece players on seeds/standard.json (game g plays "
        "generator seed 1 + g); a partial file holds the games finished so far, in order "
        "(one thread per run), so it is an unbiased prefix of the run",
        "rows": rows,
    }
    with open("results/players/players-uncapped.json.tmp", "w") as f:
        json.dump(doc, f, indent=2)
    os.replace("results/players/players-uncapped.json.tmp", "results/players/players-uncapped.json")
    return rows


def millions(x):
    return f"{x / 1e6:.2f} M"


def markdown(rows):
    print("| player | game over | games | mean lines | 95 % interval (normal) | 95 % interval (exponential) | median | min | max | published |")
    print("|---|---|---:|---:|---|---|---:|---:|---:|---|")
    for r in rows:
        pub = millions(r["published_mean_lines"])
        if r["published_interval"]:
            a, b = r["published_interval"]
            pub += f" ({millions(a)} – {millions(b)})"
        a, b = r["ci95_normal"]
        c, d = r["ci95_exponential"]
        print(
            f"| {r['policy']} | {r['top_out']} | {r['games']}{'' if r['complete'] else ' (run going)'} | "
            f"{millions(r['mean_lines'])} | {millions(a)} – {millions(b)} | {millions(c)} – {millions(d)} | "
            f"{millions(r['median_lines'])} | {r['min_lines']:,} | {r['max_lines']:,} | {pub} |".replace(",", " ")
        )


def compare(base_path, variant_path):
    """Paired figures of a variant run against a baseline run on the same seeds."""
    _, base, _ = uncapped_games(base_path)
    _, variant, _ = uncapped_games(variant_path)
    by_game = {g["game"]: g["lines"] for g in base}
    pairs = [(by_game[g["game"]], g["lines"]) for g in variant if g["game"] in by_game]
    if not pairs:
        sys.exit(f"{variant_path}: no game in common with {base_path}")
    out = {
        "pairs": len(pairs),
        "same_lines": sum(1 for a, b in pairs if a == b),
        "base": describe([a for a, _ in pairs]),
        "variant": describe([b for _, b in pairs]),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    if "--compare" in sys.argv:
        i = sys.argv.index("--compare")
        compare(sys.argv[i + 1], sys.argv[i + 2])
    elif "--uncapped" in sys.argv:
        rows = uncapped()
        if "--markdown" in sys.argv:
            markdown(rows)
    else:
        main()

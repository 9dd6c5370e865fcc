#!/usr/bin/env python3
"""Cross-entropy tuning of guideline weights over several games (`beamtris tune` takes one).

Every nonzero weight w of START is searched as w0 * exp(z) (its sign kept), z ~ N(m, s) per
weight, from m = 0, s = 0.35; zero weights stay zero. A candidate's score is its objective per
piece (the game's length) averaged over the GAME files, each `beamtris solve --beam BEAM
--threads 1` (two at a time), the score read from the results JSON, which is the replay of its
record. The first candidate of a generation is the mean; the next mean and spread come from
the best ELITE. Generation N is written to OUT/gen-NN.json, the final mean to OUT/tuned.json;
a rerun resumes after the last generation written and reuses finished solves (OUT/work/).

usage: scripts/guideline_cem.py BEAMTRIS OUT START.json GAME.json... [--beam 500]
       [--generations 6] [--population 12] [--elite 4]
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import random
import subprocess

p = argparse.ArgumentParser()
p.add_argument("beamtris")
p.add_argument("out")
p.add_argument("start")
p.add_argument("games", nargs="+")
p.add_argument("--beam", type=int, default=500)
p.add_argument("--generations", type=int, default=6)
p.add_argument("--population", type=int, default=12)
p.add_argument("--elite", type=int, default=4)
a = p.parse_args()
START = json.load(open(a.start))
KEYS = [k for k, v in START.items() if v != 0]
WORK = os.path.join(a.out, "work")


def weights(z):
    return {k: v * math.exp(z[k]) if k in z else v for k, v in START.items()}


def solve(tag, game, w):
    out = os.path.join(WORK, f"{tag}-{os.path.basename(game)}")
    if not os.path.exists(out):
        with open(out[: -len(".json")] + ".weights.json", "w") as f:
            json.dump(w, f, indent=1)
        subprocess.run([a.beamtris, "solve", "--seed", game, "--beam", str(a.beam),
                        "--threads", "1", "--weights", out[: -len(".json")] + ".weights.json",
                        "--out", out], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    j = json.load(open(out))
    return j["score"] / json.load(open(game))["pieces"]


def main():
    os.makedirs(WORK, exist_ok=True)
    m = {k: 0.0 for k in KEYS}
    s = {k: 0.35 for k in KEYS}
    start = 0
    for g in range(a.generations):
        path = os.path.join(a.out, f"gen-{g:02d}.json")
        if os.path.exists(path):
            prev = json.load(open(path))
            m, s, start = prev["next_mean"], prev["next_sigma"], g + 1
    rng = random.Random(1)
    for _ in range(start * (a.population - 1) * len(KEYS)):
        rng.gauss(0, 1)
    with cf.ThreadPoolExecutor(2) as pool:
        for g in range(start, a.generations):
            zs = [dict(m)] + [{k: m[k] + s[k] * rng.gauss(0, 1) for k in KEYS}
                              for _ in range(a.population - 1)]
            jobs = {(i, game): pool.submit(solve, f"g{g:02d}-c{i:02d}", game, weights(z))
                    for i, z in enumerate(zs) for game in a.games}
            scores = [sum(jobs[(i, game)].result() for game in a.games) / len(a.games)
                      for i in range(a.population)]
            order = sorted(range(a.population), key=lambda i: -scores[i])
            elite = [zs[i] for i in order[: a.elite]]
            nm = {k: sum(e[k] for e in elite) / a.elite for k in KEYS}
            ns = {k: max(0.05, math.sqrt(sum((e[k] - nm[k]) ** 2 for e in elite) / a.elite))
                  for k in KEYS}
            record = {"generation": g, "mean": m, "sigma": s,
                      "candidates": [{"z": z, "weights": weights(z), "per_piece": sc}
                                     for z, sc in zip(zs, scores)],
                      "next_mean": nm, "next_sigma": ns, "next_weights": weights(nm)}
            with open(os.path.join(a.out, f"gen-{g:02d}.json"), "w") as f:
                json.dump(record, f, indent=1)
            print(f"gen {g}: mean {scores[0]:.3f}  best {scores[order[0]]:.3f}  elite "
                  f"{[round(scores[i], 3) for i in order[: a.elite]]}", flush=True)
            m, s = nm, ns
    with open(os.path.join(a.out, "tuned.json"), "w") as f:
        json.dump(weights(m), f, indent=1)


main()

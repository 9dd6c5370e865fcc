# 16 weight sets at beam 4 000: candidate 0 is tuned-b6000-i, the others each of its six
# weights times exp(N(0, 0.03)), drawn with Python's random seeded 1.
import json, math, random
base = {"score_weight": 0.0680479001832404, "fade_pieces": 20,
        "i_ahead": {"window": 10, "cells": -0.4},
        "cells": -2.4015935705385214, "column_transitions": 16.278116635891248,
        "holes": 7.102682854081622, "row_transitions": 3.282426812603088}
rng = random.Random(1)
for k in range(16):
    w = json.loads(json.dumps(base))
    if k > 0:
        for name in ["score_weight", "cells", "column_transitions", "holes", "row_transitions"]:
            w[name] *= math.exp(rng.gauss(0, 0.03))
        w["i_ahead"]["cells"] *= math.exp(rng.gauss(0, 0.03))
    json.dump(w, open(f"cand-{k:02}.json", "w"), indent=1)

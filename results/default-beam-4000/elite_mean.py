# The geometric mean of the five best nudges at beam 4 000 (cand-11, -05, -08, -01, -06):
# elite-mean.json, the weights of the `tuned-b4000-i` preset.
import json, math
top = ["cand-11", "cand-05", "cand-08", "cand-01", "cand-06"]
ws = [json.load(open(c + ".json")) for c in top]
m = json.loads(json.dumps(ws[0]))
for k in ["score_weight", "cells", "column_transitions", "holes", "row_transitions"]:
    m[k] = math.copysign(math.exp(sum(math.log(abs(w[k])) for w in ws) / len(ws)), ws[0][k])
m["i_ahead"]["cells"] = -math.exp(sum(math.log(abs(w["i_ahead"]["cells"])) for w in ws) / len(ws))
json.dump(m, open("elite-mean.json", "w"), indent=1)

#!/usr/bin/env python3
"""Rank record pairs that MIGHT be the same story, for a human to review (this is a reading aid,
not a labeller). Score = IDF-weighted shared title words + 0.5 * shared rare persons/organisations
+ 0.3 * shared rare sub-national locations. Pairs with identical normalised titles are skipped
(those are found by sorting); with --unlabelled, pairs already positive or excluded in the labels
file are skipped too, which is how the leftovers were reviewed.

  python3 eval/stories/candidate-pairs.py [--min 9] [--unlabelled] > /tmp/pairs.txt
"""
import argparse, collections, gzip, importlib.util, itertools, json, math, os, re

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ext", os.path.join(HERE, "extract-titles.py"))
ext = importlib.util.module_from_spec(spec); spec.loader.exec_module(ext)
STOP = set("a an the of in on at to for and or is are was were be by with from as after over under into its it his "
           "her their this that these those s says say said new how what why who when will can could about up out off "
           "more than not no vs amid".split())

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", default=os.path.join(HERE, "..", "..", "data/gkg/20230702153000.gkg.csv.gz"))
    ap.add_argument("--min", type=float, default=9.0)
    ap.add_argument("--unlabelled", action="store_true")
    a = ap.parse_args()
    R = []
    with gzip.open(a.file, "rt", encoding="utf-8", newline="\n") as f:
        for line in f:
            c = line.rstrip("\n").split("\t")
            m = re.search(r"<PAGE_TITLE>(.*?)</PAGE_TITLE>", c[26], re.S)
            t = ext.decode(m.group(1)) if m else ""
            ents = set(ext.names(c[14])) | set(ext.names(c[12]))
            locs = {l for l in ext.locs(c[10]) if "," in l}
            R.append((c[0], t, ext.normalise(t), ents, locs))
    T = {r[0]: {w for w in r[2].split() if w not in STOP and len(w) > 2} for r in R}
    N = len(R)
    df = collections.Counter(w for t in T.values() for w in t)
    edf = collections.Counter(x for r in R for x in r[3])
    ldf = collections.Counter(x for r in R for x in r[4])
    skip = set()
    if a.unlabelled:
        lab = json.load(open(os.path.join(HERE, "labels-20230702153000.json"), encoding="utf-8"))
        for ids in [g["ids"] for g in lab["groups"]] + [u["ids"] for u in lab["uncertain"]]:
            skip.update(frozenset(p) for p in itertools.combinations(ids, 2))
    out = []
    for x, y in itertools.combinations(R, 2):
        if x[2] == y[2] or frozenset((x[0], y[0])) in skip:
            continue
        tw = sum(math.log(N / df[w]) for w in T[x[0]] & T[y[0]])
        ew = sum(math.log(N / edf[e]) for e in x[3] & y[3] if edf[e] <= 30)
        lw = sum(math.log(N / ldf[l]) for l in x[4] & y[4] if ldf[l] <= 30)
        s = tw + 0.5 * ew + 0.3 * lw
        if s >= a.min:
            out.append((s, x, y))
    for s, x, y in sorted(out, key=lambda o: -o[0]):
        print(f"{s:6.1f} | {x[0]} {x[1][:80]} || {y[0]} {y[1][:80]}")

if __name__ == "__main__":
    main()

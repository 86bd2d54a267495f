#!/usr/bin/env python3
"""Validate a labels-<batch>.json (default labels-20230702153000.json) against the GKG file and print the counts used in LABELLING.md.

  python3 eval/stories/check-labels.py [labels.json]

Pair semantics for scoring:
  positive pair  = two ids in the same group;
  excluded pair  = two ids that appear together in some "uncertain" entry (no uncertain entry holds two ids
                   of the same group - checked here - so no positive pair is ever excluded);
  negative pair  = every other pair of the 951 records (singletons are their own story).
"""
import collections, csv, gzip, html, itertools, json, os, re, sys, importlib.util

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ext", os.path.join(HERE, "extract-titles.py"))
ext = importlib.util.module_from_spec(spec); spec.loader.exec_module(ext)

def rows(path):
    """The 27 fields of each record: raw GKG TSV, or a BigQuery CSV export (header line, RFC 4180 quoting)."""
    with gzip.open(path, "rt", encoding="utf-8", newline="") as f:
        first = f.readline()
        f.seek(0)
        if first.startswith("GKGRECORDID,"):
            csv.field_size_limit(1 << 30)
            yield from itertools.islice(csv.reader(f), 1, None)
        else:
            for line in f:
                yield line.rstrip("\n").split("\t")

def load_titles(path):
    recs = {}
    for c in rows(path):
        m = re.search(r"<PAGE_TITLE>(.*?)</PAGE_TITLE>", c[26], re.S)
        t = ext.decode(m.group(1)) if m else ""
        recs[c[0]] = (c[3], c[4], t, ext.normalise(t))
    return recs

def pair_sets(lab):
    gid = {}
    for k, g in enumerate(lab["groups"]):
        for i in g["ids"]:
            gid[i] = k
    pos = set()
    for g in lab["groups"]:
        pos.update(frozenset(p) for p in itertools.combinations(g["ids"], 2))
    excl = set()
    for u in lab["uncertain"]:
        for p in itertools.combinations(u["ids"], 2):
            excl.add(frozenset(p))
    return gid, pos, excl

def main():
    lp = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "labels-20230702153000.json")
    lab = json.load(open(lp, encoding="utf-8"))
    root = os.path.dirname(os.path.dirname(HERE))
    recs = load_titles(os.path.join(root, lab["file"]))
    assert len(recs) == lab["records"], (len(recs), lab["records"])
    ok = True
    seen = collections.Counter(i for g in lab["groups"] for i in g["ids"])
    for i, n in seen.items():
        if n > 1: print("ERROR id in >1 group:", i); ok = False
    for g in lab["groups"]:
        if len(g["ids"]) < 2: print("ERROR group < 2 ids:", g["label"]); ok = False
        for i in g["ids"]:
            if i not in recs: print("ERROR unknown id", i); ok = False
    for u in lab["uncertain"]:
        for i in u["ids"]:
            if i not in recs: print("ERROR unknown id", i); ok = False
    gid, pos, excl = pair_sets(lab)
    if pos & excl:
        print(f"ERROR {len(pos & excl)} positive pairs inside uncertain entries"); ok = False
    by_kind = collections.defaultdict(lambda: [0, 0, 0])
    for g in lab["groups"]:
        n = len(g["ids"]); k = by_kind[g["kind"]]
        k[0] += 1; k[1] += n; k[2] += n * (n - 1) // 2
        distinct = {recs[i][3] for i in g["ids"]}
        if g["kind"] == "syndicated" and len(distinct) > 1:
            print(f"note: syndicated group with {len(distinct)} normalised titles: {g['label']}")
    N = len(recs); total = N * (N - 1) // 2
    print(f"records {N}; groups {len(lab['groups'])}; records in groups {len(gid)}; singletons {N - len(gid)}")
    for k, (ng, nr, npairs) in sorted(by_kind.items()):
        print(f"  {k:11s} groups {ng:3d}  records {nr:4d}  positive pairs {npairs}")
    print(f"positive pairs {len(pos)}; uncertain entries {len(lab['uncertain'])}; excluded pairs {len(excl)}; "
          f"negative pairs {total - len(pos) - len(excl)} (of {total})")
    # exact-title collisions that are NOT one story (useful negatives)
    bynorm = collections.defaultdict(list)
    for i, r in recs.items():
        bynorm[r[3]].append(i)
    unc_ids = {i for u in lab["uncertain"] for i in u["ids"]}
    for t, ids in sorted(bynorm.items()):
        if len(ids) > 1 and len({gid.get(i) for i in ids}) > 1:
            tag = "uncertain" if all(i in unc_ids for i in ids) else "kept apart"
            print(f"  same normalised title, different stories ({tag}): {len(ids)} x '{recs[ids[0]][2][:60]}'")
    sys.exit(0 if ok else 1)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Extract id / source / url / title (+ helper fields) from a raw GDELT GKG 2.1 TSV batch.

Usage:
  python3 eval/stories/extract-titles.py data/gkg/20230702153000.gkg.csv.gz > /tmp/titles.tsv

Output: TSV with header
  id  source  url  title  norm  pubts  persons  orgs  locations
where
  title  = PAGE_TITLE from V2ExtrasXML, HTML entities decoded (html.unescape, applied twice
           to catch double-escaped entities such as '&amp;#39;'), whitespace collapsed;
  norm   = normalised title used to find syndicated copies (see normalise());
  persons/orgs = distinct names from V2Persons/V2Organizations (col 13/15, offsets dropped);
  locations    = distinct full location names from V2Locations (col 11).
Only the Python standard library is used.
"""
import gzip, html, re, sys, unicodedata

def decode(s):
    s = html.unescape(html.unescape(s))
    return re.sub(r"\s+", " ", s).strip()

# trailing " - Outlet", " | Outlet" etc. are stripped only when the remaining title is long enough
SUFFIX_SEP = re.compile(r"\s+(?:[-|\u2013\u2014:]|::)\s+[^-|\u2013\u2014]{1,60}$")

# boilerplate prefixes some outlets put in front of every headline
PREFIXES = [
    re.compile(r"^press trust of india:\s*"),
    re.compile(r"^welcome to ians live - [^-]+ - "),
]

def normalise(t):
    """Key for finding syndicated copies (not used for the final labels, which were set by hand)."""
    t = unicodedata.normalize("NFKC", t)
    t = t.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    t = t.casefold()
    for p in PREFIXES:
        t = p.sub("", t)
    # strip one trailing outlet suffix (" - WKRG", " | Fox News"), keep if that would leave < 4 words
    m = SUFFIX_SEP.search(t)
    if m and len(t[:m.start()].split()) >= 4:
        t = t[:m.start()]
    # Latin accents off (Devanagari etc. keep their combining vowel signs)
    t = "".join(c for c in unicodedata.normalize("NFKD", t)
                if not (unicodedata.combining(c) and c < "\u0370"))
    t = unicodedata.normalize("NFC", t)
    # punctuation/symbols -> space; keep letters, digits and combining marks of any script
    t = "".join(c if unicodedata.category(c)[0] in "LNM" else " " for c in t)
    return re.sub(r"\s+", " ", t).strip()

def names(field):
    out = []
    for part in field.split(";"):
        if not part:
            continue
        n = part.rsplit(",", 1)[0]
        if n not in out:
            out.append(n)
    return out

def locs(field):
    out = []
    for part in field.split(";"):
        f = part.split("#")
        if len(f) > 1 and f[1] and f[1] not in out:
            out.append(f[1])
    return out

def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    w = sys.stdout
    w.write("\t".join(["id", "source", "url", "title", "norm", "pubts", "persons", "orgs", "locations"]) + "\n")
    n = 0
    with opener(path, "rt", encoding="utf-8", newline="\n") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line.split("\t")
            if len(c) != 27:
                sys.stderr.write(f"warn: {len(c)} columns in record {c[0]}\n")
            xml = c[26] if len(c) > 26 else ""
            m = re.search(r"<PAGE_TITLE>(.*?)</PAGE_TITLE>", xml, re.S)
            title = decode(m.group(1)) if m else ""
            m = re.search(r"<PAGE_PRECISEPUBTIMESTAMP>(.*?)</PAGE_PRECISEPUBTIMESTAMP>", xml)
            pubts = m.group(1) if m else ""
            persons = names(c[12]) if len(c) > 12 else []   # V2Persons (col 13)
            orgs = names(c[14]) if len(c) > 14 else []      # V2Organizations (col 15)
            loc = locs(c[10]) if len(c) > 10 else []        # V2Locations (col 11)
            row = [c[0], c[3], c[4], title, normalise(title), pubts,
                   "; ".join(persons), "; ".join(orgs), "; ".join(loc)]
            w.write("\t".join(x.replace("\t", " ") for x in row) + "\n")
            n += 1
    sys.stderr.write(f"{n} records\n")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "data/gkg/20230702153000.gkg.csv.gz")

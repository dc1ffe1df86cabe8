#!/usr/bin/env python3
"""Pages one extractor gets right and another gets wrong (issue 30: "no dev
page where today's default scores >= 0.8 may fall below 0.5").

    gleaner eval --data DIR... --metric word --algorithms learned,article \
        --format json --per-page pages.jsonl > /dev/null
    python3 bench/regressions.py pages.jsonl [--old article] [--new learned] [--metric word]

Prints every page where OLD scores at least 0.8 (F1) and NEW below 0.5,
and exits 1 when there is one.
"""
import argparse
import collections
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("per_page")
    ap.add_argument("--old", default="article")
    ap.add_argument("--new", default="learned")
    ap.add_argument("--metric", default="word")
    ap.add_argument("--high", type=float, default=0.8)
    ap.add_argument("--low", type=float, default=0.5)
    a = ap.parse_args()
    f1 = collections.defaultdict(dict)
    with open(a.per_page, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            score = r.get(a.metric)
            if score is None:
                continue
            # word/lcs/edr are [P, R, F1]; shingle is [P, R].
            if len(score) == 3:
                value = score[2]
            else:
                p, rec = score
                value = 2 * p * rec / (p + rec) if p + rec else 0.0
            f1[(r["dataset"], r["id"])][r["algorithm"]] = value
    both = {k: v for k, v in f1.items() if a.old in v and a.new in v}
    bad = sorted(
        (k, v[a.old], v[a.new]) for k, v in both.items() if v[a.old] >= a.high and v[a.new] < a.low
    )
    print(f"{len(both)} pages; {len(bad)} where {a.old} >= {a.high} and {a.new} < {a.low}")
    for (dataset, page), old, new in bad:
        print(f"{dataset}\t{page}\t{old:.3f}\t{new:.3f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

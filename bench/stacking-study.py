#!/usr/bin/env python3
"""Offline study of the learned block model: a stage-1 forest replica in
LightGBM over `gleaner train --dump-features`, then a second stage that
reads each block's neighbours' and its page's stage-1 scores ("blurred"
learned scores, in the spirit of content code blurring).

Run it in a throwaway venv (numpy, lightgbm); gleaner itself never depends
on it. It needs the dump and a `gleaner train --cv --report` file (the
page types' out-of-fold probabilities, the block model's feature columns
that the dump leaves empty, and the chosen thresholds):

    D="--data ../shared/data/wcxb-dev"
    for s in cleaneval-dev cleaneval-final cleanportaleval dragnet l3s-gn1 readability; do
      D="$D --data ../shared/data/wceb/$s"; done
    gleaner train $D --no-seeds --dump-features /tmp/d
    gleaner train $D --no-seeds --cv --report /tmp/cv.json
    python bench/stacking-study.py --dump /tmp/d --report /tmp/cv.json \
        --datasets wcxb-dev,cleaneval-dev,cleaneval-final,cleanportaleval,dragnet,l3s-gn1,readability \
        --context neighbours,page --folds 0,1,2,3,4,9,10

Folds as `gleaner train --cv` makes them: five by domain within the typed
dataset (a hash of the domain; not the trainer's hash, so the folds differ
from its folds but are equally domain-disjoint) and one per other dataset
(5 + its index). Pages are scored by WCXB's word F1 (bag of lower-cased
`\\w+` tokens) with the report's per-type thresholds and the trainer's
fallback to `article`'s text when fewer than 20 words are kept. The
figures are a replica's (LightGBM is not gleaner's booster): compare the
stages with each other, not with `gleaner eval`.
"""
import argparse
import collections
import hashlib
import json
import re
import time

import lightgbm as lgb
import numpy as np

TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"]
STAGE = dict(objective="cross_entropy", learning_rate=0.1, num_leaves=63, max_depth=6,
             min_data_in_leaf=50, feature_fraction=0.5, bagging_fraction=0.8, bagging_freq=1,
             lambda_l2=1.0, min_sum_hessian_in_leaf=1e-3, max_bin=255, seed=32, num_threads=2,
             verbose=-1, deterministic=True)
ROUNDS = 200


def words(text):
    return collections.Counter(re.findall(r"\w+", text.lower()))


def word_f1(out, gold):
    if not gold:
        return 1.0 if not out else 0.0
    overlap = sum((out & gold).values())
    if not out or overlap == 0:
        return 0.0
    p, r = overlap / sum(out.values()), overlap / sum(gold.values())
    return 2 * p * r / (p + r)


def page_f1(page, scores, threshold):
    kept = collections.Counter()
    for bag, s in zip(page["bags"], scores):
        if s >= threshold:
            kept.update(bag)
    if sum(kept.values()) < 20 and sum(page["article_bag"].values()) >= 50:
        kept = page["article_bag"]
    return word_f1(kept, page["gold_bag"])


def context(s, w, with_page):
    """Each block's neighbours' scores (±1, ±2), word-weighted means over
    ±3 and ±10 blocks, and with `with_page` the page's mean, share of words
    at 0.5 or more, maximum, the block's rank, its distance from the mean
    and the share of the page's words scoring above it."""
    n = len(s)
    pad = np.concatenate([np.full(2, np.nan), s, np.full(2, np.nan)])
    cols = [pad[1:n + 1], pad[3:n + 3], pad[0:n], pad[4:n + 4]]
    cs, cw = np.concatenate([[0], np.cumsum(s * w)]), np.concatenate([[0], np.cumsum(w)])
    for k in (3, 10):
        lo, hi = np.maximum(np.arange(n) - k, 0), np.minimum(np.arange(n) + k + 1, n)
        cols.append((cs[hi] - cs[lo]) / (cw[hi] - cw[lo]))
    if with_page:
        total = w.sum()
        mean = (s * w).sum() / total
        order = np.argsort(-s)
        rank = np.empty(n)
        rank[order] = np.arange(n) / max(n - 1, 1)
        above = np.empty(n)
        above[order] = (np.cumsum(w[order]) - w[order]) / total
        cols += [np.full(n, mean), np.full(n, (w * (s >= 0.5)).sum() / total),
                 np.full(n, s.max()), rank, s - mean, above]
    return np.stack(cols, axis=1).astype(np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", required=True, help="the --dump-features PREFIX")
    ap.add_argument("--report", required=True, help="a `gleaner train --cv --report` file")
    ap.add_argument("--datasets", required=True,
                    help="the dataset names in the order given to gleaner train")
    ap.add_argument("--context", default="neighbours,page",
                    help="stage 2's context: neighbours, or neighbours,page")
    ap.add_argument("--folds", default="0,1,2,3,4", help="the folds scored")
    args = ap.parse_args()
    order = args.datasets.split(",")
    names = json.load(open(args.dump + ".names.json"))
    raw = np.fromfile(args.dump + ".rows.f32", dtype="<f4").reshape(-1, len(names) + 1)
    y, x = raw[:, 0], raw[:, 1:]
    report = json.load(open(args.report))
    probs = {(order[h["dataset"]], h["id"]): h["type_probabilities"] for h in report["held_out"]}
    thresholds = {p["page_type"]: p["threshold"] for p in report["policies"]}
    pages = [json.loads(line) for line in open(args.dump + ".pages.jsonl")]
    p_rows = np.zeros((len(y), len(TYPES)), dtype=np.float32)
    weight = np.zeros(len(y), dtype=np.float32)
    fold = np.zeros(len(y), dtype=np.int32)
    for page in pages:
        a, b = page["rows"]
        p = probs.get((page["dataset"], page["id"]), [1 / len(TYPES)] * len(TYPES))
        p_rows[a:b] = p
        page["bags"] = [words(t) for t in page["texts"]]
        page["gold_bag"], page["article_bag"] = words(page["gold"]), words(page["article"])
        page["predicted"] = TYPES[int(np.argmax(p))]
        page["words"] = np.array([sum(c.values()) for c in page["bags"]], dtype=np.float64)
        total = page["words"].sum()
        weight[a:b] = page["words"] / total if total > 0 else 1 / max(b - a, 1)
        if page["dataset"] == order[0]:
            page["fold"] = int(hashlib.md5(page["domain"].encode()).hexdigest(), 16) % 5
        else:
            page["fold"] = 5 + order.index(page["dataset"])
        fold[a:b] = page["fold"]
    weight *= len(weight) / weight.sum()
    x1 = np.hstack([x, p_rows])

    def out_of_fold(features, folds):
        data = lgb.Dataset(features, y, weight=weight, free_raw_data=False)
        scores = np.full(len(y), np.nan, dtype=np.float32)
        for f in folds:
            started = time.time()
            test = np.where(fold == f)[0]
            if len(test) == 0:
                continue
            model = lgb.train(STAGE, data.subset(np.where(fold != f)[0]), num_boost_round=ROUNDS)
            scores[test] = model.predict(features[test])
            print(f"  fold {f}: {time.time() - started:.0f} s", flush=True)
        return scores

    def table(scores, folds, label):
        got = collections.defaultdict(list)
        for page in pages:
            if page["fold"] not in folds:
                continue
            a, b = page["rows"]
            f1 = page_f1(page, scores[a:b], thresholds.get(page["predicted"], 0.5))
            got[page["dataset"]].append(f1)
            if page["page_type"]:
                got[f"{page['dataset']}/{page['page_type']}"].append(f1)
        print(label, json.dumps({k: [round(float(np.mean(v)), 4), len(v)]
                                 for k, v in sorted(got.items())}), flush=True)

    scored = [int(f) for f in args.folds.split(",")]
    print("stage 1 on every fold (stage 2 reads its out-of-fold scores)")
    every = sorted(set(fold.tolist()))
    s1 = out_of_fold(x1, every)
    table(s1, scored, "stage1")
    with_page = "page" in args.context.split(",")
    ctx = np.zeros((len(y), 12 if with_page else 6), dtype=np.float32)
    for page in pages:
        a, b = page["rows"]
        if b > a:
            ctx[a:b] = context(s1[a:b].astype(np.float64), np.maximum(page["words"], 1.0),
                               with_page)
    print("stage 2")
    s2 = out_of_fold(np.hstack([x1, s1[:, None], ctx]), scored)
    table(s2, scored, "stage2")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Offline study of the decisions taken over the learned model's block
scores: which blocks a page keeps, given every block's held-out score.

It replays the extractor's decision (the policies' thresholds blended by
the page's type probabilities, the expected-F1 cut of adaptive policies,
the code in `article`'s container kept, a selection under 20 words taken at
the first lower cut that keeps 50, comment sections set apart on every page
but one taken for a forum thread at 0.65 or more, repeated runs left out, the fallback to `article` under 20 words
and, on documentation, to a rules' body at least as long) on the held-out scores of a
`gleaner train --cv --report` and scores each page with WCXB's word F1
(bag of lower-cased `\\w+` tokens). Then it replays variants of the
decision and prints each one's change per dataset and per WCXB page type:

- `gapfill A`: also keep a dropped block between two kept neighbours
  (the nearest blocks with text) when it scores at least A times the cut;
- `isolate N B`: drop a kept block of at most N words with no kept
  neighbour when it scores below the cut plus B;
- `smooth A`: decide on (1 - A) * score + A * the neighbours' mean score;
- `cut G W`: the expected-F1 cut over scores raised to the power G, and an
  adaptive threshold W of the way to it (the extractor: G = 1, W = 0.5);
- `code beside kept`: keep a code block in `article`'s container that
  scores under the cut only when a block with text next to it is kept;
  `no code`: not at all (the extractor keeps it whatever its score);
- `lowered S L`: a selection under S words taken at the first lower cut
  (0.05 steps down) that keeps L words (the extractor: S = 20, L = 50;
  `lowered 0 0` is none);
- `rules D N`: decide on the score moved by D towards `article`'s own
  decision (the block's `article_selected` column: up where its rules kept
  the block, down where they dropped it) on pages taken for the first N
  types of article, service, listing, then all seven;
- `no reviews L`: on pages taken for products, drop a kept block at most
  L elements below a review cue (`near_name_review`, `near_type_review`);
- `labelled`: every WCXB page routed by its labelled type instead of the
  classifier's probabilities (what a perfect page classifier would give);
- `argmax`: the predicted type's policy alone, no blend;
- `oracle`: each page at the best of 19 fixed thresholds (0.05 to 0.95)
  for it, knowing its gold: what no choice of a page's threshold can pass.

Standard library only; gleaner never depends on it. It needs the dump and
the report of the same pages:

    D="--data ../shared/data/wcxb-dev"
    for s in cleaneval-dev cleaneval-final cleanportaleval dragnet l3s-gn1 readability; do
      D="$D --data ../shared/data/wceb/$s"; done
    gleaner train $D --no-seeds --cv --report /tmp/cv.json --dump-features /tmp/d
    python3 bench/decision-study.py --dump /tmp/d --report /tmp/cv.json

The replay uses the policies the report chose over all folds (the trainer's
routed figure chooses each fold's policies without it), and it leaves out
the product description structured data adds: its baseline is within a few
thousandths of the trainer's routed word F1. Compare the variants with the
baseline, not with `gleaner eval`.
"""
import argparse
import array
import json
import math
import re
from collections import Counter, defaultdict

TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"]
TOKEN = re.compile(r"\w+")
# As the extractor: learned::SHORT_SELECTION_WORDS, RULES_FALLBACK_WORDS,
# LOWERED_SELECTION_WORDS, repeats::MIN_RUN, MIN_CHARS, LONE_MIN_WORDS,
# threshold::MIN_ADAPTIVE_WEIGHT, SURE_THREAD.
SHORT_WORDS, RULES_WORDS, LOWERED_WORDS = 20, 50, 50
MIN_RUN, MIN_CHARS, LONE_MIN_WORDS = 3, 30, 10
MIN_ADAPTIVE_WEIGHT = 0.01
SURE_THREAD = 0.65


def tokens(text):
    return TOKEN.findall(text.lower())


# The feature columns the variants read from the dump's rows.
COLUMNS = ["article_selected", "near_name_review", "near_type_review"]


def columns(dump):
    """COLUMNS of every block of the dump (PREFIX.rows.f32: per block its
    label, then its row of PREFIX.names.json's features, little-endian f32)."""
    names = json.load(open(dump + ".names.json"))
    width = len(names) + 1
    rows = array.array("f")
    with open(dump + ".rows.f32", "rb") as f:
        rows.frombytes(f.read())
    return {c: rows[names.index(c) + 1::width] for c in COLUMNS}


def load(dump, report):
    """The held-out pages: the report's scores joined to the dump's blocks."""
    rep = json.load(open(report))
    pages = [json.loads(line) for line in open(dump + ".pages.jsonl")]
    features = columns(dump)
    names = list(dict.fromkeys(p["dataset"] for p in pages))
    by_key = {(names.index(p["dataset"]), p["id"]): p for p in pages}
    records = []
    for h in rep["held_out"]:
        p = by_key.get((h["dataset"], h["id"]))
        if p is None:
            continue
        records.append(dict(
            id=h["id"], dataset=names[h["dataset"]], type=p["page_type"], predicted=h["predicted_type"],
            probabilities=h["type_probabilities"], scores=h["scores"], words=p["words"],
            in_comments=p["in_comments"], is_code=p["is_code"], texts=p["texts"],
            chosen_code=p["chosen_code"],
            features={c: v[p["rows"][0]:p["rows"][1]] for c, v in features.items()},
            bags=[Counter(tokens(t)) for t in p["texts"]], gold=Counter(tokens(p["gold"])),
            article=Counter(tokens(p["article"]))))
    chosen = {c["page_type"]: c for c in rep["policies"]}
    policies = [(chosen[t]["blocks"], chosen[t]["threshold"], chosen[t]["adaptive"])
                if t in chosen else (True, 0.5, False) for t in TYPES]
    return records, policies


def repeats(texts, lone):
    """The blocks that repeat a run of earlier ones (repeats::repeats)."""
    first, dropped, j = {}, set(), 0
    while j < len(texts):
        text = texts[j]
        if text not in first:
            if text:
                first[text] = j
            j += 1
            continue
        i, run = first[text], 0
        while i + run < j and j + run < len(texts) and texts[j + run] \
                and texts[j + run] == texts[i + run]:
            run += 1
        if run >= MIN_RUN and sum(len(t) for t in texts[j:j + run]) >= MIN_CHARS:
            dropped.update(range(j, j + run))
            j += run
        else:
            if lone and len(tokens(text)) >= LONE_MIN_WORDS:
                dropped.add(j)
            j += 1
    return dropped


def expected_f1_cut(scores, words, gamma=1.0):
    """threshold::expected_f1_cut, over scores raised to `gamma`."""
    n = min(len(scores), len(words))
    p = [min(max(s, 0.0), 1.0) ** gamma for s in scores[:n]]
    expected = sum(p[i] * words[i] for i in range(n))
    if expected <= 0:
        return None
    overlap = kept = 0.0
    best = None
    for i in sorted((i for i in range(n) if words[i] > 0), key=lambda i: (-p[i], i)):
        overlap += p[i] * words[i]
        kept += words[i]
        f1 = 2 * overlap / (kept + expected)
        if best is None or f1 > best[0]:
            best = (f1, p[i])
    return None if best is None else best[1] ** (1 / gamma)


def lowered_cuts(threshold):
    """learned::lowered_cuts: the multiples of 0.05 below `threshold`, highest first."""
    steps = max(0, min(20, math.ceil(threshold / 0.05 - 1e-3) - 1))
    return [k * 0.05 for k in range(steps, 0, -1)]


def prf(predicted, gold):
    n_pred, n_gold = sum(predicted.values()), sum(gold.values())
    if n_gold == 0:
        return (1.0,) * 3 if n_pred == 0 else (0.0,) * 3
    if n_pred == 0:
        return (0.0,) * 3
    overlap = sum(min(c, gold[t]) for t, c in predicted.items() if t in gold)
    p, r = overlap / n_pred, overlap / n_gold
    return p, r, 0.0 if p + r == 0 else 2 * p * r / (p + r)


def neighbours(texts, b):
    """The nearest blocks with text before and after block `b`."""
    lo = b - 1
    while lo >= 0 and not texts[lo].strip():
        lo -= 1
    hi = b + 1
    while hi < len(texts) and not texts[hi].strip():
        hi += 1
    return (lo if lo >= 0 else None), (hi if hi < len(texts) else None)


def gapfill(r, keep, cut, a):
    out = list(keep)
    for b in range(len(keep)):
        if keep[b] or not r["texts"][b].strip():
            continue
        lo, hi = neighbours(r["texts"], b)
        if lo is not None and hi is not None and keep[lo] and keep[hi] \
                and r["scores"][b] >= a * cut:
            out[b] = True
    return out


def code_beside_kept(r, keep, cut):
    out = list(keep)
    for b in range(len(keep)):
        if r["chosen_code"][b] and r["scores"][b] < cut:
            lo, hi = neighbours(r["texts"], b)
            out[b] = (lo is not None and keep[lo]) or (hi is not None and keep[hi])
    return out


def no_code(r, keep, cut):
    return [k and r["scores"][b] >= cut for b, k in enumerate(keep)]


def isolate(r, keep, cut, n, margin):
    out = list(keep)
    for b in range(len(keep)):
        if not keep[b] or r["words"][b] > n:
            continue
        lo, hi = neighbours(r["texts"], b)
        alone = not (lo is not None and keep[lo]) and not (hi is not None and keep[hi])
        if alone and r["scores"][b] < cut + margin:
            out[b] = False
    return out


def rules_blend(r, keep, cut, delta, types):
    """Decide on the score moved by `delta` towards `article`'s decision
    (up where its rules kept the block, down where they dropped it), on
    pages taken for one of `types`."""
    if r["predicted"] not in types:
        return keep
    selected = r["features"]["article_selected"]
    return [(k and r["chosen_code"][b])
            or r["scores"][b] + (delta if selected[b] > 0.5 else -delta) >= cut
            for b, k in enumerate(keep)]


def no_reviews(r, keep, cut, levels):
    """On a page taken for a product, drop a kept block at most `levels`
    elements below a review cue (a `review`/`rating` name, schema.org
    Review): WCXB's product gold leaves user reviews out."""
    if r["predicted"] != "product":
        return keep
    f = r["features"]
    near = [min((x for x in pair if not math.isnan(x)), default=math.inf)
            for pair in zip(f["near_name_review"], f["near_type_review"])]
    return [k and not near[b] <= levels for b, k in enumerate(keep)]


def smooth(r, keep, cut, alpha):
    scores, texts = r["scores"], r["texts"]
    with_text = [b for b in range(len(keep)) if texts[b].strip()]
    out = list(keep)
    for k, b in enumerate(with_text):
        near = [scores[with_text[j]] for j in (k - 1, k + 1) if 0 <= j < len(with_text)]
        mean = sum(near) / len(near) if near else scores[b]
        out[b] = (1 - alpha) * scores[b] + alpha * mean >= cut
    return out


class Replay:
    def __init__(self, records, policies):
        self.records, self.policies = records, policies

    def cut(self, r, probabilities, gamma=1.0, toward=0.5):
        """threshold::blended_threshold."""
        own = sum(p for (blocks, _, adaptive), p in zip(self.policies, probabilities)
                  if blocks and adaptive and p > 0) >= MIN_ADAPTIVE_WEIGHT
        cut = expected_f1_cut(r["scores"], r["words"], gamma) if own else None
        total = weight = 0.0
        for (blocks, threshold, adaptive), p in zip(self.policies, probabilities):
            if not blocks or not p > 0:
                continue
            if adaptive and cut is not None:
                threshold = (1 - toward) * threshold + toward * cut
            total += p * threshold
            weight += p
        return total / weight if weight > 0 else None

    def page(self, r, variant=None, route=None, gamma=1.0, toward=0.5, fixed=None,
             lowered=(SHORT_WORDS, LOWERED_WORDS)):
        predicted, probabilities = r["predicted"], r["probabilities"]
        if route == "labelled" and r["type"]:
            predicted = r["type"]
            probabilities = [float(t == predicted) for t in TYPES]
        elif route == "argmax":
            probabilities = [float(t == predicted) for t in TYPES]
        t = TYPES.index(predicted)
        bag = r["article"]
        if self.policies[t][0]:
            cut = self.cut(r, probabilities, gamma, toward)
            cut = self.policies[t][1] if cut is None else cut
            cut = cut if fixed is None else fixed
            n = min(len(r["scores"]), len(r["texts"]))

            def keep_at(c):
                return [r["scores"][b] >= c or r["chosen_code"][b] for b in range(n)]

            def words(keep):
                return sum(sum(r["bags"][b].values()) for b in range(n) if keep[b])

            keep = keep_at(cut)
            forest_words = words(keep)
            short, enough = lowered
            if forest_words < short and fixed is None:
                for c in lowered_cuts(cut):
                    k = keep_at(c)
                    w = words(k)
                    if w >= enough:
                        keep, cut, forest_words = k, c, w
                        break
            if variant:
                keep = variant(r, keep, cut)
            kept = [b for b in range(n) if keep[b]]
            comments = r["in_comments"]
            sure_thread = predicted == "forum" and probabilities[t] >= SURE_THREAD
            apart = not sure_thread and any(comments[b] for b in kept) \
                and any(not comments[b] and r["texts"][b].strip() for b in kept)
            kept = [b for b in kept if not (apart and comments[b])]
            keys = [""] * n
            for b in kept:
                if not r["is_code"][b]:
                    keys[b] = r["texts"][b]
            dropped = repeats(keys, predicted == "forum")
            selection = Counter()
            for b in kept:
                if b not in dropped:
                    selection.update(r["bags"][b])
            # learned::falls_back
            rules = sum(r["article"].values())
            if forest_words < SHORT_WORDS:
                falls = rules >= RULES_WORDS
            else:
                falls = predicted == "documentation" and rules >= forest_words
            if not falls:
                bag = selection
        return prf(bag, r["gold"])

    def run(self, **how):
        by = defaultdict(list)
        for r in self.records:
            f = self.page(r, **how)
            by[r["dataset"]].append(f)
            if r["type"]:
                by[r["type"]].append(f)
        return {k: [sum(x[i] for x in v) / len(v) for i in range(3)] for k, v in by.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dump", required=True, help="the --dump-features PREFIX")
    ap.add_argument("--report", required=True, help="the --cv --report FILE")
    args = ap.parse_args()
    replay = Replay(*load(args.dump, args.report))
    base = replay.run()
    print("baseline " + " ".join(f"{k}={v[2]:.4f}" for k, v in base.items()))
    variants = [(f"gapfill {a}", dict(variant=lambda r, k, c, a=a: gapfill(r, k, c, a)))
                for a in (0.3, 0.5, 0.7)]
    variants += [("code beside kept", dict(variant=code_beside_kept)),
                 ("no code", dict(variant=no_code))]
    variants += [(f"isolate {n} {m}", dict(variant=lambda r, k, c, n=n, m=m: isolate(r, k, c, n, m)))
                 for n, m in ((5, 0.1), (10, 0.1), (10, 0.3), (20, 0.2))]
    variants += [(f"smooth {a}", dict(variant=lambda r, k, c, a=a: smooth(r, k, c, a)))
                 for a in (0.1, 0.2, 0.3)]
    variants += [(f"cut {g} {w}", dict(gamma=g, toward=w))
                 for g, w in ((1, 0.3), (1, 0.7), (1, 1.0), (0.7, 0.5), (1.5, 0.5), (2, 0.5))]
    variants += [(f"lowered {s} {w}", dict(lowered=(s, w)))
                 for s, w in ((0, 0), (20, 30), (20, 80), (40, 50), (40, 80), (60, 100))]
    variants += [(f"rules {d} {len(ts)}", dict(variant=lambda r, k, c, d=d, ts=ts: rules_blend(r, k, c, d, ts)))
                 for ts in (("article",), ("article", "service", "listing"), tuple(TYPES))
                 for d in (0.05, 0.1, 0.2)]
    variants += [(f"no reviews {n}", dict(variant=lambda r, k, c, n=n: no_reviews(r, k, c, n)))
                 for n in (0, 1, 2)]
    variants += [("labelled", dict(route="labelled")), ("argmax", dict(route="argmax"))]
    for label, how in variants:
        new = replay.run(**how)
        print(f"{label:17}" + " ".join(f"{k}={new[k][2]:.4f}({new[k][2] - v[2]:+.4f})"
                                       for k, v in base.items()))
    oracle = defaultdict(list)
    for r in replay.records:
        best = max((replay.page(r, fixed=k / 20) for k in range(1, 20)), key=lambda f: f[2])
        oracle[r["dataset"]].append(best[2])
        if r["type"]:
            oracle[r["type"]].append(best[2])
    print(f"{'oracle':17}" + " ".join(f"{k}={sum(oracle[k]) / len(oracle[k]):.4f}" for k in base))


if __name__ == "__main__":
    main()

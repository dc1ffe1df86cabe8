#!/usr/bin/env python3
"""Leave-one-dataset-out check of the `article` extractor's rules.

Each candidate is a set of `-p key=value` overrides (a rule on or off, a
parameter value). For every dev dataset D, the candidate with the best
macro shingle F1 on the *other* datasets is chosen, then scored on D.
The table puts the in-sample figure (macro over the five sets it was
chosen on) beside the held-out figure (D alone), for the chosen candidate
and for `today` (every issue-11 rule off). Candidates: today, the
defaults, and the defaults with one rule flipped.

    bench/loo.py [--data-root ../shared/data/wceb] [--metric shingle]

Each candidate is one `gleaner eval --format json` run over all datasets
(about half a minute each on two cores). Prints a Markdown table.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

DATASETS = ["cleaneval-dev", "cleaneval-final", "cleanportaleval", "dragnet", "l3s-gn1", "readability"]
RULES = [
    "article_body_pointer", "slideshows", "embedded_posts", "inner_guard", "teaser_lists",
    "title_match", "header_lead", "end_boilerplate", "unrendered", "captions",
]


def defaults(binary):
    """The rules' default values, from `gleaner algorithms --json`."""
    out = subprocess.run([binary, "algorithms", "--json"], check=True, capture_output=True, text=True).stdout
    for alg in json.loads(out):
        if alg.get("name") == "article":
            params = alg.get("params") or alg.get("parameters") or {}
            if isinstance(params, list):
                params = {p.get("name") or p.get("key"): p.get("default") for p in params}
            return {r: str(params.get(r, "true")).lower() for r in RULES}
    return {r: "true" for r in RULES}


def candidates(binary):
    """`today` (every rule off), the defaults, and the defaults with one
    rule flipped."""
    base = defaults(binary)
    out = {"today": {r: "false" for r in RULES}, "defaults": dict(base)}
    for r in RULES:
        flipped = "false" if base[r] == "true" else "true"
        out[f"defaults, {r}={flipped}"] = {**base, r: flipped}
    return out


def run(binary, root, params, metric):
    args = [binary, "eval", "--algorithms", "article", "--metric", metric, "--format", "json", "--no-progress"]
    for d in DATASETS:
        args += ["--data", str(Path(root) / d)]
    for k, v in params.items():
        args += ["-p", f"{k}={v}"]
    rows = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return {r["dataset"]: r for r in rows if r["dataset"] in DATASETS and r["metric"] == metric}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-root", default="../shared/data/wceb")
    ap.add_argument("--metric", default="shingle")
    ap.add_argument("--binary", default="target/release/gleaner")
    a = ap.parse_args()
    scores = {}
    for name, params in candidates(a.binary).items():
        print(f"running {name} ...", file=sys.stderr)
        scores[name] = run(a.binary, a.data_root, params, a.metric)

    def macro(name, sets, key="f1"):
        return sum(scores[name][d][key] for d in sets) / len(sets)

    print(f"| held-out set | chosen on the other five | in-sample F1 today | in-sample F1 chosen "
          f"| held-out F1 today | held-out F1 chosen | held-out P today → chosen | held-out R today → chosen |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    held = {"today": [], "chosen": []}
    for d in DATASETS:
        rest = [x for x in DATASETS if x != d]
        chosen = max(scores, key=lambda n: macro(n, rest))
        t, c = scores["today"][d], scores[chosen][d]
        held["today"].append(t)
        held["chosen"].append(c)
        print(f"| {d} | {chosen} | {macro('today', rest):.4f} | {macro(chosen, rest):.4f} "
              f"| {t['f1']:.4f} | {c['f1']:.4f} | {t['precision']:.4f} → {c['precision']:.4f} "
              f"| {t['recall']:.4f} → {c['recall']:.4f} |")
    n = len(DATASETS)
    m = {k: {f: sum(r[f] for r in v) / n for f in ("f1", "precision", "recall")} for k, v in held.items()}
    print(f"| **macro, held out** | | | | {m['today']['f1']:.4f} | {m['chosen']['f1']:.4f} "
          f"| {m['today']['precision']:.4f} → {m['chosen']['precision']:.4f} "
          f"| {m['today']['recall']:.4f} → {m['chosen']['recall']:.4f} |")


if __name__ == "__main__":
    main()

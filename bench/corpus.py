#!/usr/bin/env python3
"""Corpus hygiene measured on the dev sets (issue 36).

    python3 bench/corpus.py [--bin target/release/gleaner] DATASET_DIR...

For each dataset (a WCEB set: `input/*.html` + `GoldStandard/*.txt`, or
WCXB: `dev/html/*.html.gz` + `dev/ground-truth/*.json`):

- **--deduplicate**: the share of the extracted text it removes, and how
  much of what it removes the gold counts as content (a removed line whose
  words, lower-cased, appear in the page's gold text).
- **--target-language**: for the pages that declare a language (the
  record's `language`), how often detection from the text agrees: the
  pages of each declared language are extracted with `--target-language
  L`, and a page passes unless its record gets the error `language`.
  (Pages with too little text to detect fall back to the declared
  language and pass.)

Prints one Markdown table per measure.
"""

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TAG = re.compile(r"^\s*<[a-z]+>\s*", re.I)


def words(text):
    return " ".join(re.findall(r"\w+", text.lower()))


def pages_and_gold(folder: Path):
    """(staged page paths, {stem: gold text}) of a dataset."""
    gold = {}
    if (folder / "input").is_dir():
        pages = sorted((folder / "input").glob("*.html"))
        for g in (folder / "GoldStandard").glob("*.txt"):
            lines = g.read_text(encoding="utf-8", errors="replace").splitlines()
            lines = [TAG.sub("", l) for l in lines if not l.startswith("URL:")]
            gold[g.stem] = "\n".join(lines)
        return pages, gold
    dev = folder / "dev" if (folder / "dev").is_dir() else folder
    staged = Path(tempfile.mkdtemp(prefix="gleaner-corpus-"))
    pages = []
    for p in sorted((dev / "html").glob("*.html.gz")):
        out = staged / p.name[: -len(".gz")]
        out.write_bytes(gzip.decompress(p.read_bytes()))
        pages.append(out)
    for g in (dev / "ground-truth").glob("*.json"):
        data = json.loads(g.read_text(encoding="utf-8"))
        gold[g.stem] = data.get("ground_truth", {}).get("main_content") or ""
    return pages, gold


def extract(binary, pages, *flags):
    """Records by source, extracting `pages` in order with `flags`."""
    cmd = [str(binary), "extract", "-f", "jsonl", "--no-progress", *flags, *map(str, pages)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    records = {}
    for line in out.stdout.splitlines():
        r = json.loads(line)
        records[r["source"]] = r
    return records


def stem(source):
    name = Path(source).name
    return name.split(".")[0]


def dedup_row(name, binary, pages, gold):
    plain = extract(binary, pages)
    dedup = extract(binary, pages, "--deduplicate")
    total = removed = removed_gold = 0
    pages_touched = 0
    for source, r in plain.items():
        text = r.get("text") or ""
        total += len(text)
        kept = set((dedup.get(source) or {}).get("text", "").split("\n"))
        gone = [l for l in text.split("\n") if l.strip() and l not in kept]
        if gone:
            pages_touched += 1
        g = words(gold.get(stem(source), ""))
        for line in gone:
            removed += len(line)
            if words(line) and words(line) in g:
                removed_gold += len(line)
    share = removed / total if total else 0
    gold_share = removed_gold / removed if removed else 0
    return f"| {name} | {len(plain)} | {pages_touched} | {share:.2%} | {gold_share:.1%} |"


def language_row(name, binary, pages):
    plain = extract(binary, pages)
    by_lang = defaultdict(list)
    for source, r in plain.items():
        lang = (r.get("language") or "").split("-")[0].split("_")[0].lower()
        if len(lang) == 2 and not r.get("error"):
            by_lang[lang].append(source)
    agree = declared = 0
    worst = []
    for lang, sources in sorted(by_lang.items(), key=lambda kv: -len(kv[1])):
        checked = extract(binary, sources, "--target-language", lang)
        ok = sum(1 for s in sources if not (checked.get(s) or {}).get("error"))
        agree += ok
        declared += len(sources)
        if len(sources) >= 5:
            worst.append(f"{lang} {ok}/{len(sources)}")
    rate = agree / declared if declared else 0
    return f"| {name} | {declared} | {rate:.1%} | {', '.join(worst[:8])} |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "gleaner")
    args = ap.parse_args()
    data = [(d.name if d.name != "dev" else d.parent.name, *pages_and_gold(d)) for d in args.dirs]
    print("| dataset | pages | pages touched | text removed by --deduplicate | of it, gold content |")
    print("|---|---:|---:|---:|---:|")
    for name, pages, gold in data:
        print(dedup_row(name, args.bin, pages, gold))
    print()
    print("| dataset | pages declaring a language | detection agrees | by language (≥ 5 pages) |")
    print("|---|---:|---:|---|")
    for name, pages, _ in data:
        print(language_row(name, args.bin, pages))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Title, author and date against WCXB's gold (issue 30, "metadata
measured"): gleaner's and trafilatura's match rates, side by side.

    python3 bench/wcxb-metadata.py [--data ../shared/data/wcxb-dev] [--bin target/release/gleaner]

gleaner runs as `gleaner extract --input-dir DATA/dev/html -f jsonl`;
trafilatura 2.3.1 (`extract_metadata`, the page's URL given) runs in
bench/peers' virtual environment, which `bench/peers/run.py` sets up
(this script re-runs itself there). Comparison, after normalising both
sides (lower case, every run of non-alphanumerics one space):

* title: equal;
* author: the same set of names (split at `,`, `;`, `&`, `|` and " and ");
* date: the same day (the first ten characters of ISO 8601).

A field counts on pages whose gold has it (`match`), and as `spurious`
on pages whose gold has none but the tool gave one.
"""
import argparse, gzip, json, os, re, subprocess, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / "peers" / ".venv"


def norm(s):
    return " ".join(re.sub(r"[^\w]+", " ", (s or "").lower()).split())


def names(s):
    parts = re.split(r"\s*(?:,|;|&|\||\band\b)\s*", (s or "").lower())
    return {norm(p) for p in parts if norm(p)}


def same(field, gold, got):
    if field == "title":
        return norm(gold) == norm(got)
    if field == "author":
        return names(gold) == names(got)
    return (gold or "")[:10] == (got or "")[:10]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=HERE.parent.parent / "shared/data/wcxb-dev")
    ap.add_argument("--bin", default=str(HERE.parent / "target/release/gleaner"))
    ap.add_argument("--no-venv", action="store_true")
    args = ap.parse_args()
    if not args.no_venv and Path(sys.prefix).resolve() != VENV.resolve():
        py = VENV / "bin" / "python"
        if not py.exists():
            sys.exit("run bench/peers/run.py once first: it sets up bench/peers/.venv")
        os.execv(str(py), [str(py), __file__] + sys.argv[1:])
    import logging
    import trafilatura

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    split = args.data / "dev"
    gold = {}
    for f in sorted((split / "ground-truth").glob("*.json")):
        d = json.loads(f.read_text())
        gt = d.get("ground_truth") or {}
        gold[f.stem] = {
            "url": d.get("url"),
            "title": gt.get("title") or None,
            "author": gt.get("author") or None,
            "date": gt.get("publish_date") or None,
        }
    out = subprocess.run(
        [args.bin, "extract", "--input-dir", str(split / "html"), "-f", "jsonl", "--no-progress"],
        capture_output=True, text=True, check=True,
    ).stdout
    tools = {"gleaner": {}, "trafilatura": {}}
    for line in out.splitlines():
        r = json.loads(line)
        pid = Path(r["source"]).name.split(".")[0]
        tools["gleaner"][pid] = {"title": r.get("title"), "author": r.get("author"), "date": r.get("date")}
    for pid, g in gold.items():
        html = gzip.decompress((split / "html" / f"{pid}.html.gz").read_bytes()).decode("utf-8", "replace")
        try:
            m = trafilatura.extract_metadata(html, default_url=g["url"])
        except Exception:
            m = None
        tools["trafilatura"][pid] = {
            "title": getattr(m, "title", None),
            "author": getattr(m, "author", None),
            "date": getattr(m, "date", None),
        }
    print("| field | pages with gold | gleaner match | trafilatura match | pages without gold | gleaner spurious | trafilatura spurious |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for field in ["title", "author", "date"]:
        have = [p for p, g in gold.items() if g[field]]
        none = [p for p, g in gold.items() if not g[field]]
        row = [field, str(len(have))]
        for t in ["gleaner", "trafilatura"]:
            ok = sum(same(field, gold[p][field], tools[t].get(p, {}).get(field)) for p in have)
            row.append(f"{ok / max(len(have), 1):.3f}")
        row.append(str(len(none)))
        for t in ["gleaner", "trafilatura"]:
            bad = sum(bool(tools[t].get(p, {}).get(field)) for p in none)
            row.append(f"{bad / max(len(none), 1):.3f}")
        print("| " + " | ".join(row) + " |")
    if os.environ.get("MISSES"):
        with open(os.environ["MISSES"], "w") as f:
            for field in ["title", "author", "date"]:
                for p, g in gold.items():
                    got = tools["gleaner"].get(p, {}).get(field)
                    if g[field] and not same(field, g[field], got):
                        f.write(json.dumps({"id": p, "field": field, "gold": g[field], "gleaner": got,
                                            "trafilatura": tools["trafilatura"][p][field]}) + "\n")


if __name__ == "__main__":
    main()

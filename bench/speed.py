#!/usr/bin/env python3
"""gleaner against resiliparse, whole process, one thread (issue 12).

    bench/speed.sh DIR... [--passes 5] [--bin target/release/gleaner]

For each page folder (a WCEB dataset: `input/*.html` or `html/*.html[.gz]`,
or any folder of `.html` files) the pages are staged once, decompressed,
into a temporary folder, so that both tools read the same plain bytes from
disk. Then, for several passes, alternating which goes first:

- gleaner: `gleaner extract --input-dir STAGED -f jsonl --parallel 1`, the
  default extractor, JSONL to a file; timed as the whole process (start,
  read, decode, parse, extract, render, write, exit);
- resiliparse: in the peers' venv, for every page: read the bytes,
  `detect_encoding`, `bytes_to_str`, `HTMLTree.parse`,
  `extract_plain_text(tree, main_content=True)`, one JSON line written;
  timed inside the interpreter around the loop (interpreter start-up and
  imports are not counted: in resiliparse's favour).

Both run on one CPU (`--cpu`, default: the first this process may use;
`--cpu -1` leaves them free): gleaner's `--parallel 1` is one extraction
thread, but its main thread writes the records alongside it, which on a
free machine would take a second core.

Prints the median of each tool per folder: ms/page, MB/s, and the ratio
(resiliparse time / gleaner time; above 1 means gleaner is faster).
The venv is `bench/peers/.venv`, made by `bench/peers/run.py` (created here
when missing, with the pinned `bench/peers/requirements.txt`).
"""

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "peers"))
import run as peers  # noqa: E402  (bench/peers/run.py: venv handling)

RESILIPARSE_LOOP = r"""
import json, sys, time
from resiliparse.parse.encoding import detect_encoding, bytes_to_str
from resiliparse.parse.html import HTMLTree
from resiliparse.extract.html2text import extract_plain_text
paths = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
out = open(sys.argv[2], "w", encoding="utf-8")
start = time.perf_counter()
for path in paths:
    with open(path, "rb") as f:
        raw = f.read()
    html = bytes_to_str(raw, detect_encoding(raw))
    tree = HTMLTree.parse(html)
    text = extract_plain_text(tree, main_content=True)
    out.write(json.dumps({"source": path, "text": text}) + "\n")
out.close()
print(time.perf_counter() - start)
"""


def stage(folder: Path, into: Path) -> list:
    """Copies the folder's pages, decompressed, into `into`; returns paths."""
    pages = []
    for sub in ("input", "html", "."):
        d = folder / sub
        if d.is_dir() and (any(d.glob("*.html")) or any(d.glob("*.html.gz"))):
            break
    else:
        return pages
    for p in sorted(d.iterdir()):
        name = p.name
        if name.endswith(".html.gz"):
            data = gzip.decompress(p.read_bytes())
            name = name[: -len(".gz")]
        elif name.endswith(".html"):
            data = p.read_bytes()
        else:
            continue
        target = into / name
        target.write_bytes(data)
        pages.append(target)
    return pages


def time_gleaner(binary: Path, staged: Path, out: Path) -> float:
    start = time.perf_counter()
    with open(out, "wb") as sink:
        subprocess.run(
            [str(binary), "extract", "--input-dir", str(staged), "-f", "jsonl",
             "--parallel", "1", "--no-progress"],
            stdout=sink, stderr=subprocess.DEVNULL, check=False,
        )
    return time.perf_counter() - start


def time_resiliparse(python: Path, list_file: Path, out: Path) -> float:
    done = subprocess.run(
        [str(python), "-c", RESILIPARSE_LOOP, str(list_file), str(out)],
        capture_output=True, text=True, check=True,
    )
    return float(done.stdout.strip().splitlines()[-1])


def pin(cpu) -> None:
    """Pins this process, and so both tools it starts, to one CPU."""
    if cpu == -1 or not hasattr(os, "sched_setaffinity"):
        print("speed: not pinned", file=sys.stderr)
        return
    if cpu is None:
        cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    print(f"speed: both tools pinned to CPU {cpu}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--bin", type=Path, default=ROOT / "target" / "release" / "gleaner")
    ap.add_argument("--venv", type=Path, default=HERE / "peers" / ".venv")
    ap.add_argument("--cpu", type=int, default=None,
                    help="the one CPU both tools run on (-1: no pinning)")
    args = ap.parse_args()
    pin(args.cpu)
    if not args.bin.exists():
        sys.exit(f"{args.bin}: not built (cargo build --release)")
    peers.ensure_venv(args.venv)
    python = peers.venv_python(args.venv)
    print("| folder | pages | MB | gleaner ms/page | gleaner MB/s | resiliparse ms/page "
          "| resiliparse MB/s | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for folder in args.dirs:
        with tempfile.TemporaryDirectory(prefix="gleaner-speed-") as tmp:
            tmp = Path(tmp)
            staged = tmp / "pages"
            staged.mkdir()
            pages = stage(folder, staged)
            if not pages:
                print(f"{folder}: no pages", file=sys.stderr)
                continue
            list_file = tmp / "pages.txt"
            list_file.write_text("".join(f"{p}\n" for p in pages), encoding="utf-8")
            mb = sum(p.stat().st_size for p in pages) / 1e6
            g, r = [], []
            for i in range(args.passes):
                order = ("g", "r") if i % 2 == 0 else ("r", "g")
                for who in order:
                    if who == "g":
                        g.append(time_gleaner(args.bin, staged, tmp / "g.jsonl"))
                    else:
                        r.append(time_resiliparse(python, list_file, tmp / "r.jsonl"))
            gm, rm = statistics.median(g), statistics.median(r)
            n = len(pages)
            print(f"| {folder.name} | {n} | {mb:.1f} | {gm / n * 1e3:.2f} | {mb / gm:.1f} "
                  f"| {rm / n * 1e3:.2f} | {mb / rm:.1f} | {rm / gm:.2f} |", flush=True)


if __name__ == "__main__":
    main()

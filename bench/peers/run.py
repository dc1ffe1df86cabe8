#!/usr/bin/env python3
"""Run the peers of gleaner over evaluation datasets.

Each peer (trafilatura, readability-lxml, resiliparse, jusText, boilerpy3;
and the Rust ones, rs-trafilatura and dom_smoothie, which bench/peers/rust
runs: `cargo run --release` there, called from here when they are asked
for) extracts the main content of every page of each dataset directory given
with --data. Outputs go to OUT/<dataset-name>/<peer>.json in the
ScrapingHub format {id: {"articleBody": text}}, and the mean extraction
time per page to OUT/<dataset-name>/<peer>.timing.json as
{"ms_per_page": x, "pages": n, "failed": k}.

Dataset layouts are the ones gleaner's `eval::dataset` reads:

* input/ID.html (+ GoldStandard/ID.txt: only ids with both are run);
* html/ID.html.gz (or html/ID.html), the ScrapingHub layout;
* WCXB: DIR/dev/html/ID.html.gz (given DIR or DIR/dev), named after DIR.

CleanEval's `<text id=... title=... encoding=...>` wrapper line and its
closing `</text>` are removed from a page that starts with it, as the
Rust reader does.

The script creates its own virtual environment (default bench/peers/.venv)
with the pinned versions of requirements.txt and re-runs itself there. The
peers are never dependencies of the Rust project.

Timing: single process, one page at a time; the clock covers what a peer
does with the page's raw bytes (decoding them to text where the peer needs
text, parsing, extracting, turning the result into plain text), not
reading files or writing results. One untimed warm-up page per peer and
dataset absorbs lazy imports and caches.
"""

import argparse
import gzip
import hashlib
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REQUIREMENTS = HERE / "requirements.txt"
PEERS = ("trafilatura", "readability", "resiliparse", "justext", "boilerpy3")
# Run by the crate in bench/peers/rust (its own lock file; never a
# dependency of gleaner), with the same layout, outputs and timing.
RUST_PEERS = ("rs-trafilatura", "dom_smoothie")
# A page that takes longer than this counts as failed.
PAGE_TIMEOUT_S = 60


# --------------------------------------------------------------------------
# Virtual environment


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def ensure_venv(venv: Path) -> None:
    """Creates the venv and installs requirements.txt unless a stamp file
    says the same requirements are already installed."""
    stamp = venv / ".requirements.sha256"
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if venv_python(venv).exists() and stamp.exists() and stamp.read_text().strip() == want:
        return
    print(f"setting up {venv} ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = str(venv_python(venv))
    # The pip bundled with older Pythons fails to resolve lxml's extras
    # ("Candidate is not for this requirement lxml[html-clean]"): upgrade it.
    subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)], check=True)
    stamp.write_text(want + "\n")


def in_venv(venv: Path) -> bool:
    return Path(sys.prefix).resolve() == venv.resolve()


# --------------------------------------------------------------------------
# Datasets


def natural_key(s: str):
    """Digit runs compare by value (2 before 10), then plain order."""
    parts = re.split(r"(\d+)", s)
    return ([(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p], s)


TEXT_WRAPPER = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<text(?=[\s>])", re.IGNORECASE)
# Attributes of the wrapper: quoted values may contain '>'.
WRAPPER_ATTRS = re.compile(rb"""\s*(?:[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?)""")
CLOSING = re.compile(rb"</text>\s*\Z", re.IGNORECASE)


def strip_text_wrapper(html: bytes) -> bytes:
    """Removes CleanEval's <text ...> first line and closing </text>."""
    m = TEXT_WRAPPER.match(html)
    if not m:
        return html
    i = m.end()
    limit = i + 64 * 1024
    while i < len(html) and i < limit:
        if html[i : i + 1] == b">":
            body = html[i + 1 :]
            c = CLOSING.search(body)
            return body[: c.start()] if c else body
        a = WRAPPER_ATTRS.match(html, i)
        if not a or a.end() == i:
            if html[i : i + 1].isspace():
                i += 1
                continue
            return html
        i = a.end()
    return html


def list_pages(data: Path):
    """Returns [(id, path)] of the dataset's pages in natural order."""
    inp, gold, sh = data / "input", data / "GoldStandard", data / "html"
    if inp.is_dir():
        ids = {p.name[: -len(".html")]: p for p in inp.iterdir() if p.name.endswith(".html") and p.is_file()}
        if gold.is_dir():
            golds = {p.name[: -len(".txt")] for p in gold.iterdir() if p.name.endswith(".txt")}
            ids = {k: v for k, v in ids.items() if k in golds}
    elif sh.is_dir():
        ids = {}
        for p in sh.iterdir():
            for suffix in (".html.gz", ".html"):
                if p.name.endswith(suffix) and p.is_file():
                    ids.setdefault(p.name[: -len(suffix)], p)
                    break
    else:
        raise SystemExit(f"{data}: no input/ nor html/ folder")
    return [(k, ids[k]) for k in sorted(ids, key=natural_key) if k]


def read_page(path: Path) -> bytes:
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    return strip_text_wrapper(raw)


# --------------------------------------------------------------------------
# Decoding for peers that take text

META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def decode(html: bytes) -> str:
    """BOM, else a <meta> charset in the first 4 KiB, else UTF-8, else
    windows-1252 (which maps almost every byte)."""
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if html.startswith(bom):
            return html[len(bom) :].decode(enc, errors="replace")
    m = META_CHARSET.search(html[:4096])
    if m:
        label = m.group(1).decode("ascii", "ignore").lower()
        # WHATWG: latin1/ascii labels mean windows-1252.
        if label in ("iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii"):
            label = "cp1252"
        try:
            return html.decode(label, errors="replace")
        except LookupError:
            pass
    try:
        return html.decode("utf-8")
    except UnicodeDecodeError:
        return html.decode("cp1252", errors="replace")


def normalise(text: str) -> str:
    """Whitespace collapsed per line, runs of blank lines made one."""
    out, blank = [], False
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            blank = True
            continue
        if out and blank:
            out.append("")
        out.append(line)
        blank = False
    return "\n".join(out)


# --------------------------------------------------------------------------
# Peers: each is a function bytes -> str.

WS = re.compile(r"\s+")
BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
    "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
}


def html_to_text(html: str) -> str:
    """Text of an HTML fragment: whitespace in the source collapsed (except
    in <pre>), and a paragraph break around every block element (lxml's
    text_content alone runs paragraphs together)."""
    import lxml.html

    if not html.strip():
        return ""
    root = lxml.html.fromstring(html)
    for el in root.iter():
        in_pre = any(isinstance(a.tag, str) and a.tag.lower() == "pre" for a in el.iterancestors())
        if isinstance(el.tag, str) and not in_pre and el.tag.lower() != "pre" and el.text:
            el.text = WS.sub(" ", el.text)
        if el.tail and not in_pre:
            el.tail = WS.sub(" ", el.tail)
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.lower() in BLOCK_TAGS:
            el.text = "\n\n" + (el.text or "")
            el.tail = "\n\n" + (el.tail or "")
    return normalise(root.text_content())


def make_peer(name: str):
    if name == "trafilatura":
        import trafilatura

        logging.getLogger("trafilatura").setLevel(logging.CRITICAL)

        def run(html: bytes) -> str:
            out = trafilatura.extract(
                decode(html), include_comments=False, include_tables=True, favor_precision=False
            )
            return out or ""

    elif name == "readability":
        from readability import Document

        logging.getLogger("readability").setLevel(logging.CRITICAL)

        def run(html: bytes) -> str:
            return html_to_text(Document(decode(html)).summary())

    elif name == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree

        def run(html: bytes) -> str:
            tree = HTMLTree.parse_from_bytes(html, detect_encoding(html))
            return extract_plain_text(tree, main_content=True)

    elif name == "justext":
        import justext

        stoplist = justext.get_stoplist("English")

        def run(html: bytes) -> str:
            paragraphs = justext.justext(decode(html), stoplist)
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    elif name == "boilerpy3":
        from boilerpy3 import extractors

        # It logs a traceback for every page it fails on; failures are
        # counted instead.
        logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)

        extractor = extractors.ArticleExtractor(raise_on_failure=True)

        def run(html: bytes) -> str:
            return extractor.get_content(decode(html))

    else:
        raise SystemExit(f"unknown peer {name!r}; known: {', '.join(PEERS)}")
    return run


class PageTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise PageTimeout()


def run_peer(name: str, run, pages, out_dir: Path) -> dict:
    results, failed, total, timed = {}, 0, 0.0, 0
    warm = next((html for _, html in pages if html is not None), None)
    if warm is not None:  # warm-up, untimed and discarded
        try:
            run(warm)
        except Exception:
            pass
    signal.signal(signal.SIGALRM, on_alarm)
    for k, (pid, html) in enumerate(pages):
        text = ""
        if html is None:
            failed += 1
            results[pid] = {"articleBody": text}
            continue
        signal.setitimer(signal.ITIMER_REAL, PAGE_TIMEOUT_S)
        timed += 1
        start = time.perf_counter()
        try:
            text = run(html) or ""
        except BaseException as e:  # noqa: BLE001 - a peer must never abort the run
            if isinstance(e, KeyboardInterrupt):
                raise
            failed += 1
            text = ""
        finally:
            total += time.perf_counter() - start
            signal.setitimer(signal.ITIMER_REAL, 0)
        results[pid] = {"articleBody": text}
        if (k + 1) % 200 == 0:
            print(f"  {name}: {k + 1}/{len(pages)}", file=sys.stderr, flush=True)
    timing = {
        "ms_per_page": round(1000 * total / timed, 3) if timed else 0.0,
        "pages": len(pages),
        "failed": failed,
    }
    with open(out_dir / f"{name}.json", "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=False, indent=0)
    with open(out_dir / f"{name}.timing.json", "w", encoding="utf-8") as f:
        json.dump(timing, f)
        f.write("\n")
    return timing


def run_rust_peers(peers, datasets, out: Path) -> None:
    """Builds and runs bench/peers/rust for the Rust peers asked for."""
    cmd = ["cargo", "run", "--release", "--quiet", "--manifest-path", str(HERE / "rust" / "Cargo.toml"), "--"]
    for d in datasets:
        cmd += ["--data", str(Path(d).resolve())]
    cmd += ["--peers", ",".join(peers), "--out", str(out.resolve())]
    subprocess.run(cmd, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", required=True, type=Path, help="dataset directory (repeatable)")
    ap.add_argument(
        "--peers",
        default=",".join(PEERS),
        help=f"comma-separated subset of {','.join(PEERS + RUST_PEERS)} (default: the Python ones)",
    )
    ap.add_argument("--out", type=Path, default=HERE / "out", help="output root (default bench/peers/out)")
    ap.add_argument("--venv", type=Path, default=HERE / ".venv", help="virtual environment to create and use")
    ap.add_argument("--no-venv", action="store_true", help="run in the current interpreter as it is")
    args = ap.parse_args()

    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = [p for p in peers if p not in PEERS + RUST_PEERS]
    if unknown:
        raise SystemExit(f"unknown peer(s): {', '.join(unknown)}")
    rust = [p for p in peers if p in RUST_PEERS]
    if rust and not os.environ.get("GLEANER_RUST_PEERS_DONE"):
        run_rust_peers(rust, args.data, args.out)
        os.environ["GLEANER_RUST_PEERS_DONE"] = "1"  # not again after the re-exec below
    peers = [p for p in peers if p in PEERS]
    if not peers:
        return

    if not args.no_venv and not in_venv(args.venv):
        ensure_venv(args.venv)
        py = str(venv_python(args.venv))
        os.execv(py, [py, str(Path(__file__).resolve())] + sys.argv[1:])

    runners = {p: make_peer(p) for p in peers}
    for data in args.data:
        data = data.resolve()
        name = data.name
        # WCXB: the benchmark's folder holds its split in dev/ (html/ and
        # ground-truth/), named after the benchmark as gleaner eval names it.
        if (data / "dev" / "html").is_dir() and not (data / "html").is_dir():
            data = data / "dev"
        elif data.name in ("dev", "test") and (data / "ground-truth").is_dir():
            name = data.parent.name
        listing = list_pages(data)
        pages = []
        for pid, path in listing:
            try:
                pages.append((pid, read_page(path)))
            except OSError as e:
                print(f"{name}/{pid}: cannot read: {e}", file=sys.stderr)
                pages.append((pid, None))  # counts as failed for every peer
        out_dir = args.out / name
        out_dir.mkdir(parents=True, exist_ok=True)
        print(f"{name}: {len(pages)} pages", file=sys.stderr, flush=True)
        for peer, run in runners.items():
            timing = run_peer(peer, run, pages, out_dir)
            print(f"  {peer}: {json.dumps(timing)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Structure fidelity of Markdown and HTML outputs against gold structure (issue 35).

For every page of a dataset whose gold is an HTML fragment (the WCEB
`readability` set: Readability.js's expected.html), the block structure of
each output is compared with the gold's:

* gleaner's Markdown (`gleaner extract -f markdown --images`) and HTML
  (`-f html --images`);
* trafilatura's Markdown and HTML (`output_format="markdown"` / `"html"`,
  formatting, tables and images included);
* readability-lxml's HTML (`Document(...).summary(html_partial=True)`).

Markdown is parsed back with markdown-it-py (CommonMark with GFM tables) into
HTML, so every output and the gold go through one reader of HTML blocks:

* heading: (level rank, text) -- the level as its rank among the levels
  the document uses, so `h2 > h3` and `## > ###` agree;
* paragraph: its text (a `<p>`, `<dt>`, `<dd>`, `<figcaption>`, or a run
  of text directly in a container, split at `<br>`);
* list item: (nesting depth, ordered, the item's own text);
* table cell: (row, column, text) in its table, a spanned cell counted at
  its first position (not the table's number: an output that unwraps a
  layout table around a data table numbers its tables otherwise);
* code block: the exact text of a `<pre>` (one trailing line break
  dropped), white space included;
* block quote: its text;
* image: its `alt`.

Text is compared with white space collapsed and case folded. Per kind, the
blocks of an output and of the gold are matched as multisets: precision,
recall and F1 are micro-averaged over the pages. The tree score is a
tree-edit similarity (TEDS: 1 - edit distance / larger tree size, APTED)
of the block trees (root, lists, items, quotes, tables, rows, cells), whose
nodes are labelled with their kind and text; it is averaged over pages.

Readability's gold leaves out the article's headline (Readability.js shows
the title apart and removes a heading that repeats it), so a heading whose
words are the page's `<title>` (or contain it or are contained in it, at
least half as long) is left out of every output and of the gold. Likewise
gleaner's Markdown opens with the page title (`# Title`), which goes with
that rule.

Usage: bench/structure.py [--data DIR] [--gleaner BIN] [--limit N] [--json FILE]

The script creates or reuses the virtual environment of bench/peers
(bench/peers/.venv) with bench/peers/requirements.txt and
bench/structure-requirements.txt, and re-runs itself there.
"""

import argparse
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / "peers" / ".venv"
REQUIREMENTS = [HERE / "peers" / "requirements.txt", HERE / "structure-requirements.txt"]
KINDS = ("heading", "paragraph", "list item", "table cell", "code", "quote", "image")
SYSTEMS = ("gleaner md", "gleaner html", "trafilatura md", "trafilatura html", "readability html")
# Trees larger than this are cut (the edit distance is cubic in the worst case).
MAX_TREE = 1500
WS = re.compile(r"\s+")


# --------------------------------------------------------------------------
# Virtual environment (shared with bench/peers/run.py)


def ensure_venv() -> None:
    want = hashlib.sha256(b"".join(p.read_bytes() for p in REQUIREMENTS)).hexdigest()
    stamp = VENV / ".structure-requirements.sha256"
    py = VENV / "bin" / "python"
    if py.exists() and stamp.exists() and stamp.read_text().strip() == want:
        return
    print(f"setting up {VENV} ...", file=sys.stderr)
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    for req in REQUIREMENTS:
        subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", str(req)], check=True)
    stamp.write_text(want + "\n")


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


# --------------------------------------------------------------------------
# Blocks of an HTML fragment

PARAGRAPH_TAGS = {"p", "dt", "dd", "figcaption", "caption"}
CONTAINERS = {
    "div", "section", "article", "main", "body", "html", "header", "footer", "aside", "nav",
    "figure", "center", "form", "span", "font", "details", "summary", "dl", "tbody", "thead",
    "tfoot",
}
SKIP = {"script", "style", "noscript", "template", "head", "title", "button", "svg", "math"}


def norm(text: str) -> str:
    return WS.sub(" ", text).strip().casefold()


class Node:
    """A block-tree node: kind, text (for leaves), children."""

    __slots__ = ("kind", "text", "children")

    def __init__(self, kind, text="", children=None):
        self.kind, self.text, self.children = kind, text, children or []

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children)


def inline_text(el, stop=()) -> str:
    """The text of `el`, without the subtrees of tags in `stop`."""
    parts = [el.text or ""]
    for c in el:
        tag = c.tag.lower() if isinstance(c.tag, str) else ""
        if tag in SKIP:
            pass
        elif tag in stop:
            pass
        elif tag == "br":
            parts.append(" ")
        elif tag == "img":
            pass
        else:
            parts.append(inline_text(c, stop))
        parts.append(c.tail or "")
    return "".join(parts)


BLOCK_CHILDREN = {"ul", "ol", "pre", "table", "blockquote", "p", "div", "h1", "h2", "h3", "h4",
                  "h5", "h6", "dl", "figure", "section"}


def words(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def is_title(text: str, title: str) -> bool:
    a, b = words(text), words(title)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and short in long and 2 * len(short) >= len(long)


class Reader:
    def __init__(self, title=""):
        self.title = title
        self.blocks = []  # (kind, key)
        self.levels = []  # heading levels, for ranks
        self.tables = 0

    def read(self, html: str) -> Node:
        import lxml.html

        root = Node("root")
        if not html or not html.strip():
            return root
        try:
            frag = lxml.html.fragment_fromstring(html, create_parent="div")
        except Exception:  # noqa: BLE001 - an unreadable output has no blocks
            return root
        self.container(frag, root, list_depth=0)
        # Heading levels as ranks.
        ranks = {lvl: i + 1 for i, lvl in enumerate(sorted(set(self.levels)))}
        for i, (kind, key) in enumerate(self.blocks):
            if kind == "heading":
                self.blocks[i] = (kind, (ranks[key[0]], key[1]))
        relabel(root, ranks)
        return root

    def add(self, parent: Node, kind: str, key, text: str) -> None:
        self.blocks.append((kind, key))
        parent.children.append(Node(kind, text))

    def container(self, el, parent: Node, list_depth: int) -> None:
        """Reads the children of a container: blocks, and runs of inline
        content between them as paragraphs (split at <br>)."""
        run = [el.text or ""]

        def flush():
            text = norm("".join(run))
            if text:
                self.add(parent, "paragraph", text, text)
            run.clear()

        for c in el:
            tag = c.tag.lower() if isinstance(c.tag, str) else ""
            if tag in SKIP or not tag:
                run.append(c.tail or "")
                continue
            if tag == "br":
                flush()
            elif tag == "img":
                flush()
                self.image(c, parent)
            elif self.is_block(c):
                flush()
                self.block(c, parent, list_depth)
            else:
                run.append(inline_text(c))
                for img in c.iter("img"):
                    self.image(img, parent)
            run.append(c.tail or "")
        flush()

    def is_block(self, el) -> bool:
        tag = el.tag.lower()
        if tag in BLOCK_CHILDREN or tag in PARAGRAPH_TAGS or tag in ("li", "hr"):
            return True
        # Any other element holding blocks (a container, an inline element
        # wrapping blocks, a table cell outside a table) is read as a
        # container.
        return any(isinstance(d.tag, str) and d.tag.lower() in BLOCK_CHILDREN for d in el.iterdescendants())

    def image(self, el, parent: Node) -> None:
        alt = norm(el.get("alt") or "")
        self.add(parent, "image", alt, alt)

    def block(self, el, parent: Node, list_depth: int) -> None:
        tag = el.tag.lower()
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = norm(inline_text(el))
            if text and not is_title(text, self.title):
                level = int(tag[1])
                self.levels.append(level)
                self.blocks.append(("heading", (level, text)))
                parent.children.append(Node(f"h{level}", text))
        elif tag in PARAGRAPH_TAGS:
            if any(isinstance(d.tag, str) and d.tag.lower() in BLOCK_CHILDREN for d in el.iterdescendants()):
                self.container(el, parent, list_depth)
            else:
                text = norm(inline_text(el))
                if text:
                    self.add(parent, "paragraph", text, text)
                for img in el.iter("img"):
                    self.image(img, parent)
        elif tag in ("ul", "ol"):
            node = Node(tag)
            parent.children.append(node)
            for li in el:
                if isinstance(li.tag, str) and li.tag.lower() == "li":
                    self.item(li, node, list_depth + 1, tag == "ol")
                elif isinstance(li.tag, str):
                    self.block(li, node, list_depth) if self.is_block(li) else None
        elif tag == "li":
            self.item(el, parent, list_depth + 1, False)
        elif tag == "pre":
            text = el.text_content()
            if text.endswith("\n"):
                text = text[:-1]
            if text.strip():
                self.blocks.append(("code", text))
                parent.children.append(Node("code", text))
        elif tag == "blockquote":
            text = norm(el.text_content())
            node = Node("quote")
            parent.children.append(node)
            if text:
                self.blocks.append(("quote", text))
            self.container(el, node, list_depth)
        elif tag == "table":
            self.table(el, parent)
        elif tag == "hr":
            pass
        else:
            self.container(el, parent, list_depth)

    def item(self, li, parent: Node, depth: int, ordered: bool) -> None:
        own = norm(inline_text(li, stop=BLOCK_CHILDREN | {"li"}))
        node = Node("li", own)
        parent.children.append(node)
        if own:
            self.blocks.append(("list item", (depth, ordered, own)))
        # Nested blocks (lists, code, paragraphs) inside the item.
        inner = Node("root")
        for c in li:
            if isinstance(c.tag, str) and self.is_block(c):
                tag = c.tag.lower()
                if tag == "p":
                    # A loose item's paragraph is its text.
                    text = norm(inline_text(c))
                    if text and not own:
                        self.blocks.append(("list item", (depth, ordered, text)))
                        own = text
                        node.text = text
                    elif text:
                        self.add(inner, "paragraph", text, text)
                    # Its images, as a paragraph's outside a list.
                    for img in c.iter("img"):
                        self.image(img, inner)
                else:
                    self.block(c, inner, depth)
            elif isinstance(c.tag, str) and c.tag.lower() == "img":
                self.image(c, inner)
        node.children.extend(inner.children)

    def table(self, el, parent: Node) -> None:
        self.tables += 1
        node = Node("table")
        parent.children.append(node)
        rows = [r for r in el.iter("tr") if r.getparent() is not None and
                next((a for a in r.iterancestors("table")), None) is el]
        covered = {}
        for r, tr in enumerate(rows):
            row = Node("tr")
            node.children.append(row)
            col = 0
            for cell in tr:
                if not isinstance(cell.tag, str) or cell.tag.lower() not in ("td", "th"):
                    continue
                while covered.get((r, col)):
                    col += 1
                text = norm(inline_text(cell))
                row.children.append(Node("td", text))
                if text:
                    self.blocks.append(("table cell", (r, col, text)))
                try:
                    cs = max(1, min(64, int(cell.get("colspan") or 1)))
                    rs = max(1, min(1000, int(cell.get("rowspan") or 1)))
                except ValueError:
                    cs, rs = 1, 1
                for dr in range(rs):
                    for dc in range(cs):
                        covered[(r + dr, col + dc)] = True
                col += cs


def relabel(node: Node, ranks) -> None:
    if node.kind.startswith("h") and node.kind[1:].isdigit():
        node.kind = f"h{ranks.get(int(node.kind[1:]), 0)}"
    for c in node.children:
        relabel(c, ranks)


def read_blocks(html: str, title: str = ""):
    reader = Reader(title)
    tree = reader.read(html)
    return reader.blocks, tree


# --------------------------------------------------------------------------
# Scores


def tree_similarity(a: Node, b: Node) -> float:
    from apted import APTED, Config

    class Labels(Config):
        def rename(self, x, y):
            if x.kind != y.kind:
                return 1.0
            if x.text == y.text:
                return 0.0
            wa, wb = set(x.text.split()), set(y.text.split())
            union = wa | wb
            return 1.0 - (len(wa & wb) / len(union) if union else 1.0)

        def children(self, n):
            return n.children

    def cut(n: Node, budget):
        out = Node(n.kind, n.text)
        budget[0] -= 1
        for c in n.children:
            if budget[0] <= 0:
                break
            out.children.append(cut(c, budget))
        return out

    a, b = cut(a, [MAX_TREE]), cut(b, [MAX_TREE])
    size = max(a.size(), b.size())
    if size <= 1:
        return 1.0
    distance = APTED(a, b, Labels()).compute_edit_distance()
    return max(0.0, 1.0 - distance / size)


def match_counts(out_blocks, gold_blocks):
    """Per kind: (matched, in output, in gold)."""
    counts = {}
    for kind in KINDS:
        o = Counter(k for kd, k in out_blocks if kd == kind)
        g = Counter(k for kd, k in gold_blocks if kd == kind)
        counts[kind] = (sum((o & g).values()), sum(o.values()), sum(g.values()))
    return counts


# --------------------------------------------------------------------------
# Outputs


def decode(raw: bytes) -> str:
    sys.path.insert(0, str(HERE / "peers"))
    from run import decode as peers_decode  # noqa: E402

    return peers_decode(raw)


def markdown_to_html(md: str) -> str:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    return parser.render(md)


def gleaner_outputs(binary: Path, data: Path, ids):
    """{id: (markdown, html)} from gleaner's CLI over the dataset's pages."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in ("markdown", "html"):
            d = Path(tmp) / fmt
            subprocess.run(
                [str(binary), "extract", "--images", "-f", fmt, "-o", str(d),
                 *[str(data / "input" / f"{i}.html") for i in ids]],
                check=True, stdout=subprocess.DEVNULL,
            )
        for i in ids:
            md = next((p.read_text(errors="replace") for p in (Path(tmp) / "markdown").rglob(f"{i}.md")), "")
            html = next((p.read_text(errors="replace") for p in (Path(tmp) / "html").rglob(f"{i}.html")), "")
            out[i] = (md, html)
    return out


def page_title(raw: bytes) -> str:
    import lxml.html

    try:
        return (lxml.html.fromstring(decode(raw)).findtext(".//title") or "").strip()
    except Exception:  # noqa: BLE001 - a page without a readable title has none
        return ""


def peer_outputs(raw: bytes):
    import trafilatura
    from readability import Document

    text = decode(raw)
    outs = {}
    for fmt, name in (("markdown", "trafilatura md"), ("html", "trafilatura html")):
        try:
            outs[name] = trafilatura.extract(
                text, output_format=fmt, include_formatting=True, include_tables=True,
                include_images=True, include_links=False, include_comments=False,
            ) or ""
        except Exception:  # noqa: BLE001 - a failing peer scores nothing
            outs[name] = ""
    try:
        outs["readability html"] = Document(text).summary(html_partial=True)
    except Exception:  # noqa: BLE001
        outs["readability html"] = ""
    return outs


# --------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "wceb" / "readability")
    ap.add_argument("--gleaner", type=Path, default=None,
                    help="the gleaner binary (default: target/release/gleaner, else target/debug/gleaner)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N pages")
    ap.add_argument("--json", type=Path, help="also write per-page scores here")
    ap.add_argument("--no-venv", action="store_true", help="run in this Python as it is")
    ap.add_argument("--no-tree", action="store_true",
                    help="leave out the tree score (the edit distance of large pages is slow)")
    args = ap.parse_args()

    if not args.no_venv and not in_venv():
        ensure_venv()
        os.execv(str(VENV / "bin" / "python"), [str(VENV / "bin" / "python"), __file__, *sys.argv[1:]])

    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    logging.getLogger("readability").setLevel(logging.CRITICAL)
    binary = args.gleaner or next(
        (p for p in (ROOT / "target" / "release" / "gleaner", ROOT / "target" / "debug" / "gleaner") if p.exists()),
        None,
    )
    if binary is None:
        raise SystemExit("no gleaner binary: build it (cargo build --release) or pass --gleaner")
    gold_dir = args.data / "GoldStandard"
    if not gold_dir.is_dir():
        raise SystemExit(f"{args.data}: no GoldStandard/ (structure.py needs the WCEB readability layout)")
    ids = sorted(p.stem for p in gold_dir.glob("*.txt") if (args.data / "input" / f"{p.stem}.html").exists())
    if args.limit:
        ids = ids[: args.limit]
    print(f"{len(ids)} pages of {args.data}", file=sys.stderr)

    gleaner = gleaner_outputs(binary, args.data, ids)
    totals = {s: {k: [0, 0, 0] for k in KINDS} for s in SYSTEMS}
    trees = {s: [] for s in SYSTEMS}
    per_page = {}
    for n, i in enumerate(ids):
        raw = (args.data / "input" / f"{i}.html").read_bytes()
        title = page_title(raw)
        gold = (gold_dir / f"{i}.txt").read_text(errors="replace")
        gold_blocks, gold_tree = read_blocks(gold, title)
        md, html = gleaner[i]
        outs = {"gleaner md": markdown_to_html(md)}
        outs["gleaner html"] = html
        for name, out in peer_outputs(raw).items():
            outs[name] = markdown_to_html(out) if name.endswith(" md") else out
        page = {}
        for s in SYSTEMS:
            blocks, tree = read_blocks(outs[s], title)
            for kind, (m, o, g) in match_counts(blocks, gold_blocks).items():
                t = totals[s][kind]
                t[0] += m
                t[1] += o
                t[2] += g
            if not args.no_tree:
                score = tree_similarity(tree, gold_tree)
                trees[s].append(score)
                page[s] = round(score, 4)
        per_page[i] = page
        if (n + 1) % 20 == 0:
            print(f"  {n + 1}/{len(ids)}", file=sys.stderr, flush=True)

    def f1(m, o, g):
        p = m / o if o else 0.0
        r = m / g if g else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    print(f"Structure fidelity on {args.data.name} ({len(ids)} pages): F1 per element kind "
          f"(precision/recall), tree similarity (TEDS) averaged over pages.\n")
    header = "| output | " + " | ".join(KINDS) + " | tree (TEDS) |"
    print(header)
    print("|" + "---|" * (len(KINDS) + 2))
    for s in SYSTEMS:
        cells = []
        for kind in KINDS:
            p, r, f = f1(*totals[s][kind])
            cells.append(f"{f:.3f} ({p:.2f}/{r:.2f})")
        teds = f"{sum(trees[s]) / len(trees[s]):.3f}" if trees[s] else "–"
        print(f"| {s} | " + " | ".join(cells) + f" | {teds} |")
    gold_counts = {k: totals[SYSTEMS[0]][k][2] for k in KINDS}
    print("\nGold blocks: " + ", ".join(f"{k} {v}" for k, v in gold_counts.items()))
    if args.json:
        args.json.write_text(json.dumps({"totals": totals, "pages": per_page}, indent=1) + "\n")


if __name__ == "__main__":
    main()

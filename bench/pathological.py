#!/usr/bin/env python3
"""The pathological corpus of issue 13: inputs that once stalled or exhausted
gleaner, and the classic ways to stress an HTML parser.

    bench/pathological.py [--big] [--run] [--bin target/release/gleaner]
                          [--factor F] [DIR]

Writes one file per case into DIR (default: a new temporary directory) and
prints the directory. With --run, extracts each file with `gleaner extract
-a article` in a child process and prints a table: case, size, wall time,
peak RSS (from the child's rusage), peak above the empty page's process as
a multiple of the size, whether that is within the issue's bound (10 times
the size + 24 MiB above the empty page's process), and the exit status
(1: the page failed, e.g. refused as too dense). --factor passes
--max-memory-factor F (0: no limit, to measure what the structures cost).
--big adds the 200 MB page of issue 13 item 3 (it needs --max-bytes, which
--run passes).

Cases (issue 13): item 1 (quadratic tree building past the nesting cap),
item 2 (reconstructed formatting elements), item 3 (memory on big pages of
`<p>x</p>`), then 1e6-deep nesting of every element kind, 1e6 siblings, a
10 MB attribute, entity floods, NUL bytes, every WHATWG charset label with
bytes that are wrong for it, a truncated gzip and a PDF named `.html`.

The bounds (issue 13, "What users get"): no input of <= 1 MB may take more
than 1 s or 200 MB; no page may peak above 10x its size plus a small
constant. `crates/gleaner-cli/tests/pathological.rs` runs the cases of at
most 1 MB (and one big page) against those bounds.
"""

import gzip
import os
import subprocess
import sys
import tempfile

NESTING_KINDS = [
    "div", "span", "table", "tr", "td", "li", "ul", "p", "a", "b", "font",
    "select", "option", "svg", "math", "template", "iframe", "noscript",
    "textarea", "plaintext",
]

# The WHATWG Encoding Standard's encodings, one label each.
CHARSET_LABELS = [
    "utf-8", "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4",
    "iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8", "iso-8859-8-i",
    "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
    "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253",
    "windows-1254", "windows-1255", "windows-1256", "windows-1257",
    "windows-1258", "x-mac-cyrillic", "gbk", "gb18030", "big5", "euc-jp",
    "iso-2022-jp", "shift_jis", "euc-kr", "replacement", "utf-16be",
    "utf-16le", "x-user-defined", "bogus-label",
]


def cases(big=False):
    """Yields (name, bytes)."""
    # Issue 13 item 1: the depth counter fell on any end tag and missed
    # elements the tree builder leaves open.
    yield "i1-div-stray-end-1e5.html", b"<div></x>" * 100_000
    yield "i1-div-stray-end-1e6.html", b"<div></x>" * 1_000_000
    yield "i1-optgroup-1e5.html", b"<optgroup>" * 100_000
    yield "i1-rb-1e5.html", b"<rb>" * 100_000
    yield "i1-b-class-stray-end-1e5.html", b"<b class=c></x>x" * 100_000
    # Issue 13 item 2: every <p> reconstructs 500 formatting elements (the
    # first <p> holds them, the next closes them, its text re-creates them).
    bs = b"".join(b"<b id=%d>" % i for i in range(500))
    yield "i2-b500-p30000.html", b"<p>" + bs + b"<p>x</p>" * 30_000
    yield "i2-b500-p100000.html", b"<p>" + bs + b"<p>x</p>" * 100_000
    # Issue 13 item 3: memory is a multiple of the input.
    yield "i3-p-64mb.html", b"<p>x</p>" * (64_000_000 // 8)
    if big:
        yield "i3-p-200mb.html", b"<p>x</p>" * (200_000_000 // 8)
    # Text foster-parented before a table, between cells: one text node
    # that grows after each cell's text node is made.
    yield "foster-text-between-cells-1e5.html", b"<table>" + b"x<td>y</td>" * 100_000
    for mb in (4, 16):
        yield (f"foster-text-between-cells-{mb}mb.html",
               b"<table>" + b"x<td>y</td>" * (mb * 1_000_000 // 11))
    # 1e6-deep nesting of each element kind.
    for kind in NESTING_KINDS:
        k = kind.encode()
        yield f"nest-{kind}-1e6.html", (b"<%s>" % k) * 1_000_000 + b"deep"
    # 1e6 siblings.
    yield "siblings-p-1e6.html", b"<p>x</p>" * 1_000_000
    yield "siblings-br-1e6.html", b"<br>" * 1_000_000
    yield "siblings-span-1e6.html", b"<span>x</span>" * 1_000_000
    # The densest markup: a node every two to four bytes, at 1, 4 and 16 MB.
    for mb in (1, 4, 16):
        n = mb * 1_000_000
        yield f"dense-a-x-{mb}mb.html", b"<a>x" * (n // 4)
        yield f"dense-a-{mb}mb.html", b"<a>" * (n // 3)
        yield f"dense-td-x-{mb}mb.html", b"<table>" + b"<td>x" * (n // 5)
        yield f"dense-p-x-{mb}mb.html", b"<p>x</p>" * (n // 8)
        yield f"dense-rows-{mb}mb.html", b"<table>" + (
            b"<tr><td>123</td><td>456</td></tr>" * (n // 33))
        yield f"dense-li-{mb}mb.html", b"<ul>" + b"<li>item" * (n // 8)
    # Text in paragraphs: what real pages are made of.
    yield "text-16mb.html", b"<p>" + b"lorem ipsum dolor sit amet, " * 600_000
    # 10 MB attributes, kept (class, href) and dropped (data-x), and one
    # that never ends.
    ten = b"a" * 10_000_000
    yield "attr-class-10mb.html", b'<div class="' + ten + b'">x</div>'
    yield "attr-href-10mb.html", b'<a href="' + ten + b'">x</a>'
    yield "attr-data-10mb.html", b"<p data-x='" + ten + b"'>x</p>"
    yield "attr-unterminated-10mb.html", b'<p class="' + ten
    yield "attrs-many-1e5.html", b"<p " + b" ".join(
        b"a%d=1" % i for i in range(100_000)) + b">x</p>"
    # Entity floods.
    yield "entity-amp-1e6.html", b"<p>" + b"&amp;" * 1_000_000
    yield "entity-emoji-1e6.html", b"<p>" + b"&#x1F600;" * 1_000_000
    yield "entity-unterminated-amp-1e6.html", b"<p>" + b"&amp" * 1_000_000
    yield "entity-unterminated-num-1e6.html", b"<p>" + b"&#x1F600" * 1_000_000
    yield "entity-bare-1e6.html", b"<p>" + b"&" * 1_000_000
    yield "entity-long-name-1e6.html", b"<p>&" + b"a" * 1_000_000 + b";"
    yield "entity-huge-number.html", b"<p>&#" + b"9" * 1_000_000 + b";"
    # NUL bytes.
    yield "nul-1e6.html", b"<p>" + b"\0" * 1_000_000
    yield "nul-mixed-1e5.html", b"<p>a\0b</p>" * 100_000
    yield "nul-in-tags-1e5.html", b"<p\0 cl\0ass=\0>x</p\0>" * 50_000
    # Every charset label with bytes that are wrong for it.
    wrong = bytes(range(0x80, 0x100)) * 2000
    for label in CHARSET_LABELS:
        head = b'<meta charset="%s"><p>' % label.encode()
        yield f"charset-{label}.html", head + wrong
    # A truncated gzip, as .gz and named .html, and a PDF named .html.
    page = gzip.compress(b"<p>text</p>" * 100_000)
    yield "truncated.html.gz", page[: len(page) // 2]
    yield "gzip-named-html.html", page[: len(page) // 2]
    yield "pdf-named.html", b"%PDF-1.4\n" + b"1 0 obj << /Type /Catalog >>\n" * 10_000


def peak_rss_child(cmd):
    """Runs `cmd` under `/usr/bin/time`, which reports the child's own
    rusage (a child forked from this script would count the script's
    pages until it execs); returns (seconds, peak RSS in MB, exit status).
    """
    proc = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    last = proc.stderr.decode(errors="replace").strip().splitlines()[-1]
    seconds, kb = last.split()[-2:]
    return float(seconds), int(kb) / 1024, proc.returncode


def main():
    args = sys.argv[1:]
    big = "--big" in args
    run = "--run" in args
    binary = "target/release/gleaner"
    if "--bin" in args:
        binary = args[args.index("--bin") + 1]
    factor = []
    if "--factor" in args:
        factor = ["--max-memory-factor", args[args.index("--factor") + 1]]
    rest = [a for i, a in enumerate(args)
            if not a.startswith("--")
            and (i == 0 or args[i - 1] not in ("--bin", "--factor"))]
    out = rest[0] if rest else tempfile.mkdtemp(prefix="gleaner-pathological-")
    os.makedirs(out, exist_ok=True)
    names = []
    for name, data in cases(big):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        names.append((name, len(data)))
    del data
    print(out)
    if not run:
        return
    empty = os.path.join(out, "empty.html")
    open(empty, "wb").close()
    _, floor, _ = peak_rss_child([binary, "extract", "--no-progress", empty])
    print(f"empty page: {floor:.1f} MB")
    print(f"{'case':40} {'MB':>7} {'s':>7} {'peak MB':>8} {'x size':>7} "
          f"{'10x+24':>6} exit")
    for name, size in names:
        cmd = [binary, "extract", "-a", "article", "--no-progress",
               "--max-bytes", str(1 << 30)] + factor + [os.path.join(out, name)]
        seconds, mb, code = peak_rss_child(cmd)
        times = (mb - floor) * (1 << 20) / max(size, 1)
        within = (mb - floor) <= 10 * size / (1 << 20) + 24
        print(f"{name:40} {size / 1e6:7.2f} {seconds:7.2f} {mb:8.0f} "
              f"{times:7.1f} {'yes' if within else 'NO':>6} {code}")


if __name__ == "__main__":
    main()

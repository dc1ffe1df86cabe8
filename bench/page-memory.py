#!/usr/bin/env python3
"""Peak memory of `gleaner extract PAGE -f txt` for every dev page (issue 12:
at most 10x the page's size plus a small constant).

    bench/page-memory.py [--bin target/release/gleaner] [--data ../shared/data/wceb]

Runs the binary once per page (gzipped pages decompressed into a temporary
folder first) and reads each process's peak RSS from wait4. Prints the
empty page's peak (the constant every process pays), the largest ratios of
(peak - empty) / size, and the constant each page needs beyond 10x its size.
"""

import argparse
import gzip
import os
import pathlib
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def peak_rss(binary, page):
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execv(binary, [binary, "extract", str(page), "-f", "txt"])
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_maxrss * 1024


def pages(data, staging):
    for dataset in sorted(p for p in data.iterdir() if p.is_dir()):
        for sub in ("input", "html", "."):
            folder = dataset / sub
            if folder.is_dir() and (any(folder.glob("*.html")) or any(folder.glob("*.html.gz"))):
                break
        else:
            continue
        for page in sorted(folder.iterdir()):
            if page.name.endswith(".html.gz"):
                plain = staging / f"{dataset.name}-{page.name[:-3]}"
                plain.write_bytes(gzip.decompress(page.read_bytes()))
                yield dataset.name, plain
            elif page.name.endswith(".html"):
                yield dataset.name, page


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "gleaner"))
    ap.add_argument("--data", type=pathlib.Path, default=ROOT.parent / "shared" / "data" / "wceb")
    args = ap.parse_args()
    mib = 2**20
    with tempfile.TemporaryDirectory() as tmp:
        staging = pathlib.Path(tmp)
        empty = staging / "empty.html"
        empty.write_bytes(b"")
        base = min(peak_rss(args.bin, empty) for _ in range(5))
        rows = [(ds, page.name, page.stat().st_size, peak_rss(args.bin, page))
                for ds, page in pages(args.data, staging)]
    print(f"empty page: {base / mib:.1f} MiB; {len(rows)} pages; largest peak "
          f"{max(r[3] for r in rows) / mib:.1f} MiB")
    big = sorted(((peak - base) / size, ds, name, size, peak)
                 for ds, name, size, peak in rows if size >= 100 * 1024)
    print(f"pages of 100 KiB or more: {len(big)}; largest (peak - empty) / size:")
    for ratio, ds, name, size, peak in big[-5:]:
        print(f"  {ratio:5.2f}x  {ds}/{name}  {size / 1024:.0f} KiB  peak {peak / mib:.1f} MiB")
    need = max((peak - base - 10 * size, ds, name) for ds, name, size, peak in rows)
    print(f"constant needed beyond 10x the size (over the empty page): {need[0] / mib:.2f} MiB "
          f"({need[1]}/{need[2]})")


if __name__ == "__main__":
    main()

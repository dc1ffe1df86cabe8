#!/usr/bin/env python3
"""Checks that every relative link of the documentation resolves.

- README.md and every Markdown file under docs/: each link and image
  `[text](target)` and each reference definition `[name]: target` whose target
  is not a URL must name a file or folder of the repository, and its
  `#anchor`, if any, a heading of that Markdown file (GitHub's and mdBook's
  anchor rule: lower case, punctuation dropped, spaces as hyphens, `-1`,
  `-2` … for repeated headings).
- The code's citations of the book, `docs/NAME.md#anchor` in any file under
  crates/, must name a chapter and one of its headings.

Links inside code spans and fenced code blocks are not links. Prints each
broken link with its file and line, and exits 1 if there is any.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CITATION = re.compile(r"docs/([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_-]+)")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def anchor_of(heading):
    """The anchor GitHub and mdBook give a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = text.strip().lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


def prose_lines(path):
    """(line number, text) of a Markdown file outside fenced code, with
    code spans blanked out."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
                continue
            if stripped.startswith(fence):
                fence = None
                continue
        if fence is not None:
            continue
        yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)


_anchors = {}


def anchors(path):
    """Every anchor of a Markdown file's headings."""
    if path not in _anchors:
        seen = {}
        found = set()
        for _, line in prose_lines(path):
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not heading:
                continue
            base = anchor_of(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        # Headings whose text held a code span were blanked above: read them raw.
        for line in path.read_text(encoding="utf-8").split("\n"):
            heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if heading and "`" in heading.group(1):
                found.add(anchor_of(heading.group(1).replace("`", "")))
        _anchors[path] = found
    return _anchors[path]


def check(source, number, target, problems):
    if EXTERNAL.match(target) or target.startswith("//"):
        return
    path_part, _, anchor = target.partition("#")
    if path_part:
        resolved = (source.parent / path_part).resolve()
        if not resolved.exists():
            problems.append(f"{source.relative_to(ROOT)}:{number}: {target}: no such file")
            return
    else:
        resolved = source
    if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
        problems.append(f"{source.relative_to(ROOT)}:{number}: {target}: no such heading")


def main():
    problems = []
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    links = 0
    for page in pages:
        for number, line in prose_lines(page):
            targets = [m.group(1) for m in LINK.finditer(line)]
            definition = DEFINITION.match(line)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                links += 1
                check(page, number, target, problems)
    citations = 0
    for code in sorted((ROOT / "crates").rglob("*")):
        if code.suffix not in {".rs", ".py", ".md", ".toml"} or not code.is_file():
            continue
        for number, line in enumerate(code.read_text(encoding="utf-8").split("\n"), 1):
            for chapter, anchor in CITATION.findall(line):
                citations += 1
                page = ROOT / "docs" / chapter
                where = f"{code.relative_to(ROOT)}:{number}: docs/{chapter}#{anchor}"
                if not page.is_file():
                    problems.append(f"{where}: no such chapter")
                elif anchor not in anchors(page):
                    problems.append(f"{where}: no such heading")
    for problem in problems:
        print(problem)
    print(
        f"links: {links} in {len(pages)} pages, {citations} citations in the code; "
        f"{len(problems)} broken"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

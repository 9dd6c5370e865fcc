#!/usr/bin/env python3
"""Checks the markdown links of README.md, docs/*.md and results/**/*.md: every relative link
must name a file or folder that exists (links into results/ counted apart), and every
#anchor into a markdown file must name one of its headings. Exits 1 if any is broken.
Usage: scripts/check_results_links.py   (from the repository's root)"""
import glob
import os
import re
import sys

FILES = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("results/**/*.md", recursive=True))
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?")


def lines(path):
    """(number, line) outside fenced code, with inline code blanked."""
    fence = False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            yield n, line


def headings(path):
    out = set()
    for _, line in lines(path):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            base, k = slug, 1
            while slug in out:
                slug, k = f"{base}-{k}", k + 1
            out.add(slug)
    return out


into_results = broken_results = broken_other = broken_anchors = 0
for f in FILES:
    for n, line in lines(f):
        for m in LINK.finditer(re.sub(r"`[^`]*`", "``", line)):
            t = m.group(1)
            if re.match(r"^[a-z]+:", t):
                continue
            target, _, anchor = t.partition("#")
            p = os.path.normpath(os.path.join(os.path.dirname(f), target)) if target else f
            in_results = p == "results" or p.startswith("results/")
            into_results += in_results
            if not os.path.exists(p):
                if in_results:
                    broken_results += 1
                else:
                    broken_other += 1
                print(f"{f}:{n}: {t}: {p} is not there")
            elif anchor and p.endswith(".md") and anchor not in headings(p):
                broken_anchors += 1
                print(f"{f}:{n}: {t}: no heading #{anchor} in {p}")
print(f"{len(FILES)} files, {into_results} links into results/: {broken_results} broken; "
      f"other relative links broken: {broken_other}; anchors broken: {broken_anchors}")
sys.exit(1 if broken_results + broken_other + broken_anchors else 0)

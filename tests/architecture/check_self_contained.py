#!/usr/bin/env python3
"""The repository stands alone: no file refers to a folder beside the checkout.

A fresh clone has nothing next to it, so a build, test, script or doc that reads the development
machines' sibling folder of fixtures works only where that folder happens to be. This check reads
every text file of the tree (build folders and installed node modules aside) and reports each
reference to that sibling folder, written as a relative path or assembled from parts in a
path-joining call (the two spellings in PATTERNS).

Usage: check_self_contained.py <checkout>. Prints every offending file:line and exits 1, or one
summary line and exits 0.
"""
import pathlib
import re
import sys

from tree_walk import source_files
# The folder name is built here from two parts so that this file does not report itself.
SIBLING = "sha" + "red"
PATTERNS = [
    re.compile(r"\.\./+" + SIBLING + r"\b"),
    re.compile(r"""["']\.\.["']\s*,\s*["']""" + SIBLING + r"""["']"""),
]


def text_files(root: pathlib.Path):
    for path in source_files(root):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary (GGUF, images)
        yield path, data.decode("utf-8", errors="replace")


def problems(root: pathlib.Path) -> list[str]:
    found = []
    for path, text in text_files(root):
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(text.splitlines(), start=1):
            if any(p.search(line) for p in PATTERNS):
                found.append(f"{rel}:{number}: refers to a folder beside the repository: {line.strip()[:120]}")
    return found


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: check_self_contained.py <checkout>", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    found = problems(root)
    for line in found:
        print(line)
    if found:
        print(f"self-contained: {len(found)} reference(s) to a folder outside the repository")
        return 1
    count = sum(1 for _ in text_files(root))
    print(f"self-contained: {count} text files, none refers to a folder beside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())

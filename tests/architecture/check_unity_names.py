#!/usr/bin/env python3
"""No two sources of one library define a file-local function of the same name (docs/development.md).

Library sources are compiled in unity batches (PERFGATE_UNITY_BUILD): several .cpp files become one
translation unit. Two file-local helpers with the same name and parameters then fail to compile,
but two with the same name and different parameters silently become overloads of each other, and a
call in one file may bind to the other file's helper. This check finds both before a compiler
does: functions in an anonymous namespace, or `static` outside a class, read with the
function-length checker's scanner, grouped by library.

Usage: check_unity_names.py <checkout>. Prints each name defined in more than one file of a library
with those files, and exits 1; else prints one summary line.
"""
import pathlib
import sys
from collections import defaultdict

from check_function_lengths import functions

# The unity-built targets and their sources (test files are compiled one by one).
LIBRARIES = {
    "core": ["core/src"], "probes": ["probes/src"], "forge": ["forge/src"], "serving": ["serving/src"], "perf": ["perf/src"],
    "gates": ["gates/src"], "report": ["report/src"], "runner": ["runner/src"], "cli": ["cli"],
    "test_support": ["tests/support/src"],
}


def clashes(root: pathlib.Path, libraries=LIBRARIES):
    """{library: {name: [files]}} for file-local function names defined in more than one file."""
    found = {}
    for library, folders in libraries.items():
        where = defaultdict(set)
        for folder in folders:
            for path in sorted((root / folder).rglob("*.cpp")):
                for name, _, _, file_local in functions(path.read_text(encoding="utf-8", errors="replace"),
                                                        with_linkage=True):
                    if file_local:
                        where[name.split("::")[-1]].add(path.relative_to(root).as_posix())
        shared = {name: sorted(files) for name, files in where.items() if len(files) > 1}
        if shared:
            found[library] = shared
    return found


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    found = clashes(root)
    if found:
        print("unity name check failed: file-local functions that a unity batch would merge "
              "(rename one, or share one helper from a header):")
        for library, names in sorted(found.items()):
            for name, files in sorted(names.items()):
                print(f"  {library}: {name} in {', '.join(files)}")
        return 1
    print(f"unity names: no file-local function name repeats within {', '.join(LIBRARIES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

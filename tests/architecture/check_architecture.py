#!/usr/bin/env python3
"""The folder tree is the architecture (docs/development.md); this test keeps it so.

1. A library includes only its own headers and those of libraries earlier in the flow, and only
   tests include tests/support.
2. Each cli/*.cpp stays small: it declares options and calls one library function.
3. docs/development.md's ```tree picture lists exactly the CMakeLists.txt files of the tree.
4. No Catch2 TEST_CASE name holds a ';': catch_discover_tests passes the name through a CMake
   list, which cuts it there, and the test registered under the cut name matches no test case, so
   it runs nothing and passes (twelve tests did so unseen).

Usage: check_architecture.py <checkout> [--cli-max-lines N]. Prints every offending file:line and
exits 1, or prints one summary line and exits 0.
"""
import argparse
import pathlib
import re
import sys

# Earliest first. forge/ sits beside perf/ (perf forges a suite's models), so it comes before it;
# serving/ (the load generator and the servers' lifecycle) is what perf/ drives a serving pair with;
# report/ publishes what gates/ judged; runner/ drives them; cli/ only calls.
LAYERS = ["core", "probes", "forge", "serving", "perf", "gates", "report", "runner", "cli"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]perfgate/([a-z_]+)/')
from tree_walk import source_files


def layer_problems(root: pathlib.Path) -> list[str]:
    problems = []
    for index, lib in enumerate(LAYERS):
        allowed = set(LAYERS[: index + 1])
        for path in sorted((root / lib).rglob("*")):
            if path.suffix not in (".cpp", ".hpp") or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                used = match.group(1)
                if used == "test":
                    if "/tests/" not in rel:
                        problems.append(f"{rel}:{number}: includes tests/support outside a tests/ folder")
                elif used not in allowed:
                    problems.append(f"{rel}:{number}: {lib}/ includes perfgate/{used}/, which comes later "
                                    f"in the flow ({' -> '.join(LAYERS)})")
    return problems


def cli_problems(root: pathlib.Path, max_lines: int) -> list[str]:
    problems = []
    for path in sorted((root / "cli").glob("*.cpp")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > max_lines:
            problems.append(f"cli/{path.name}: {lines} lines; a command file declares options and calls a "
                            f"library (at most {max_lines})")
    return problems


def pictured_lists(doc: pathlib.Path) -> list[str]:
    pictured, inside = [], False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.strip() == "```tree":
            inside = True
        elif inside and line.startswith("```"):
            inside = False
        elif inside:
            match = re.match(r"^(\S*CMakeLists\.txt)\b", line)
            if match:
                pictured.append(match.group(1))
    return pictured


def actual_lists(root: pathlib.Path) -> list[str]:
    found = []
    for path in source_files(root, "CMakeLists.txt"):
        found.append(path.relative_to(root).as_posix())
    return sorted(found)


def picture_problems(root: pathlib.Path) -> tuple[list[str], int]:
    doc = root / "docs/development.md"
    pictured = pictured_lists(doc)
    if not pictured:
        return ["docs/development.md: no ```tree block listing the CMakeLists.txt files"], 0
    actual = actual_lists(root)
    problems = [f"docs/development.md: the picture lacks {p}" for p in actual if p not in pictured]
    problems += [f"docs/development.md: the picture shows {p}, which the tree does not have"
                 for p in pictured if p not in actual]
    return problems, len(actual)


TEST_CASE_NAME = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"')


def test_name_problems(root: pathlib.Path) -> list[str]:
    problems = []
    for path in source_files(root, "*.cpp"):
        rel = path.relative_to(root)
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            match = TEST_CASE_NAME.search(line)
            if match and ";" in match.group(1):
                problems.append(f"{rel.as_posix()}:{number}: the test name holds ';', where CTest cuts it "
                                "(the cut name runs no test): use ',' instead")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--cli-max-lines", type=int, default=120)
    args = parser.parse_args()
    root = args.root.resolve()
    problems = layer_problems(root) + cli_problems(root, args.cli_max_lines) + test_name_problems(root)
    pictured, count = picture_problems(root)
    problems += pictured
    if problems:
        print("architecture check failed:", *problems, sep="\n")
        return 1
    print(f"architecture: {' -> '.join(LAYERS)} respected; cli/*.cpp <= {args.cli_max_lines} lines; "
          f"{count} CMakeLists.txt pictured in docs/development.md; no test name holds ';'")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""No function on the run and gate paths is longer than about 60 lines (docs/development.md, "Rules").

A long function on those paths mixed concerns (fit check, forge, contention guard, launch loop,
parsing, classification and recording in one 208-line function): each function does one job, so a
new runtime, metric or rule changes one small function. The check reads the sources with a scanner
of its own (no compiler is needed): comments, string and character literals and preprocessor lines
are blanked, then braces are matched; a brace block at namespace or class level whose head ends with
a parameter list (and its qualifiers) is a function, counted from the first line of its head to its
closing brace, lambdas and nested blocks included.

Usage: check_function_lengths.py <checkout> [--max-lines N] [--paths P ...]. Prints every function
over the limit as file:line, name and length, and exits 1; else prints one summary line.
"""
import argparse
import pathlib
import re
import sys

# The paths a run and its verdict go through: launching and recording (perf/, core's process runner),
# judging (gates/), the loops (runner/).
RUN_GATE_PATHS = ["core/src/process.cpp", "serving/src", "perf/src", "gates/src", "runner/src"]

FUNCTION_HEAD = re.compile(
    r"\)(?:\s*(?:const\b|noexcept\b|override\b|final\b|mutable\b|&|->\s*[\w:<>,*&]+))*\s*$", re.S)
NAME_BEFORE_PARAMS = re.compile(r"([~\w:]+|operator\s*[^\s(]+)\s*\($")


def blank(text: str) -> str:
    """The source with comments, literals and preprocessor lines replaced by spaces, newlines kept."""
    out, i, n = [], 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        raw = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" and (i == 0 or not text[i - 1].isalnum()) else None
        if raw:
            end = text.find(")" + raw.group(1) + '"', i)
            j = n if end < 0 else end + len(raw.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 is a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
            continue
        out.append(c)
        at_line_start = c == "\n" or (at_line_start and c in " \t")
        i += 1
    return "".join(out)


def functions(text: str, with_linkage: bool = False):
    """(name, first line, last line) of each function defined at namespace or class level; with
    with_linkage, a fourth field says whether the function is file-local (in an anonymous namespace,
    or `static` outside a class)."""
    code = blank(text)
    stack = []  # (kind, name, first line, in an anonymous namespace or file-local)
    head_start = 0
    found = []
    in_function = lambda: any(entry[0] == "function" for entry in stack)
    for i, c in enumerate(code):
        if c == ";" and not in_function():
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            anonymous = any(entry[3] for entry in stack if entry[0] == "namespace")
            if in_function():
                kind, name = "block", ""
            elif re.search(r"\bnamespace\b|\bextern\s*$", head):
                kind, name = "namespace", ""
                anonymous = anonymous or bool(re.search(r"\bnamespace\s*$", head))
            elif re.search(r"(^|\s)(class|struct|union|enum)\b[^()]*$", head):
                kind, name = "class", ""
            elif FUNCTION_HEAD.search(head) and not re.search(r"=\s*$", head.split(")")[0]):
                params = head[: head.rfind(")") + 1]
                depth, k = 0, len(params) - 1
                while k >= 0:  # the '(' that opens the parameter list
                    depth += params[k] == ")"
                    depth -= params[k] == "("
                    if depth == 0:
                        break
                    k -= 1
                match = NAME_BEFORE_PARAMS.search(params[: k + 1])
                kind, name = "function", match.group(1) if match else "?"
                in_class = any(entry[0] == "class" for entry in stack)
                anonymous = not in_class and (anonymous or bool(re.search(r"(^|\s)static\s", head)))
            else:
                kind, name = "block", ""
            stripped = len(head) - len(head.lstrip())
            first = code.count("\n", 0, head_start + stripped) + 1
            stack.append((kind, name, first, anonymous))
            if kind != "function":
                head_start = i + 1
        elif c == "}":
            if not stack:
                continue
            kind, name, first, file_local = stack.pop()
            if kind == "function":
                last = code.count("\n", 0, i) + 1
                found.append((name, first, last, file_local) if with_linkage else (name, first, last))
            if not in_function():
                head_start = i + 1
    return found


def sources(root: pathlib.Path, paths: list[str]):
    for p in paths:
        path = root / p
        files = [path] if path.is_file() else sorted(path.rglob("*.[ch]pp")) if path.is_dir() else []
        yield from files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("--max-lines", type=int, default=60)
    parser.add_argument("--paths", nargs="+", default=RUN_GATE_PATHS)
    args = parser.parse_args()
    root = args.root.resolve()
    problems, count = [], 0
    for path in sources(root, args.paths):
        for name, first, last in functions(path.read_text(encoding="utf-8", errors="replace")):
            count += 1
            if last - first + 1 > args.max_lines:
                problems.append(f"{path.relative_to(root).as_posix()}:{first}: {name} is {last - first + 1} lines "
                                f"(at most {args.max_lines}: split it into functions that each do one job)")
    if problems:
        print("function length check failed:", *problems, sep="\n")
        return 1
    print(f"function lengths: {count} functions in {', '.join(args.paths)}, none over {args.max_lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

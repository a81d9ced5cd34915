#!/usr/bin/env python3
"""Golden files of what perfgate must keep through a redesign (issue 50): every committed CSV and
fixture reads and writes back field for field, and every gate and compare verdict on the committed
histories and fixtures stays what it is. Through the command line only, so that no internal
rearrangement can pass it by changing the test with the code.

    golden.py --perfgate BIN --source ROOT            # check against tests/golden/verdicts.txt
    golden.py --perfgate BIN --source ROOT --update   # write it again (a deliberate change: say why)

The cases:
- roundtrip: each perfgate-schema CSV (its header has run_id) merged into an empty folder
  (`perfgate merge`, which parses the rows and formats them again) holds every field of every row
  unchanged, and a file in today's layout comes back byte for byte;
- gate: each CSV judged against the other CSVs of its folder (`perfgate gate --format json`);
- compare: each CSV of a folder against the one before it in name order (`perfgate compare`).
A verdict line holds the exit code and, per pair and metric, the verdict, the rule, the change, the
MDE, the floor and the p-value to six decimals: no path, time or wording, which may change freely.
"""
import argparse
import csv
import difflib
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "architecture"))
from tree_walk import source_files  # noqa: E402  (the checkout's files, build trees left out)

GOLDEN = HERE / "verdicts.txt"
# Folders whose CSVs are recordings that change on purpose (a record that grows every session).
GROWING = ("docs/measurements/longitudinal-",)


def candidate_csvs(root):
    """The committed CSVs where the checkout is a git repository (a stray local results file is no
    case), else every CSV outside build trees (a copy of the repository without .git)."""
    if (root / ".git").exists():
        p = subprocess.run(["git", "ls-files", "*.csv"], cwd=root, capture_output=True, text=True)
        if p.returncode == 0:
            return [root / line for line in sorted(p.stdout.split("\n")) if line]
    return source_files(root, "*.csv")


def committed_csvs(root):
    out = []
    for path in candidate_csvs(root):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("tests/golden/") or any(rel.startswith(g) for g in GROWING):
            continue
        if path.name.startswith("nvidia-smi"):  # the device's own listing beside a run, no result file
            continue
        out.append(rel)
    return sorted(out)  # one order whether git listed them or the tree was walked


def run(perfgate, root, args):
    p = subprocess.run([perfgate] + args, cwd=root, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def is_perfgate_schema(root, rel):
    with open(root / rel, newline="", encoding="utf-8", errors="replace") as f:
        return "run_id" in next(csv.reader(f), [])


def roundtrip(perfgate, root, rel, tmp):
    """'' when the merged copy holds every field of the original, else what differs."""
    into = pathlib.Path(tempfile.mkdtemp(dir=tmp))
    rc, _, err = run(perfgate, root, ["merge", "--into", str(into), rel])
    if rc != 0:
        return "merge exit %d: %s" % (rc, err.strip()[:300])
    original = (root / rel).read_bytes()
    copy = (into / pathlib.Path(rel).name).read_bytes()
    a = list(csv.reader(io.StringIO(original.decode("utf-8"), newline="")))
    b = list(csv.reader(io.StringIO(copy.decode("utf-8"), newline="")))
    if a[0] == b[0] and original != copy:
        return "today's layout, and the bytes differ"
    if len(a) != len(b):
        return "%d records, %d after the merge" % (len(a) - 1, len(b) - 1)
    at = {c: i for i, c in enumerate(b[0])}
    missing = [c for c in a[0] if c not in at]
    if missing:
        return "columns lost: %s" % ", ".join(missing)
    for n, (ra, rb) in enumerate(zip(a[1:], b[1:]), start=2):
        for i, c in enumerate(a[0]):
            if ra[i] != rb[at[c]]:
                return "line %d column %s: %r became %r" % (n, c, ra[i], rb[at[c]])
        for c in b[0]:
            if c not in a[0] and rb[at[c]] != "":
                return "line %d: the new column %s holds %r" % (n, c, rb[at[c]])
    return ""


def number(x):
    return "-" if x is None else "%.6f" % x


def signature(report):
    lines = []
    for p in sorted(report.get("pairs", []), key=lambda p: (p.get("runtime", ""), p.get("model", ""),
                                                           p.get("harness", ""), str(p.get("batch")))):
        metrics = " | ".join("%s %s %s %s %s %s %s" % (m.get("metric"), m.get("verdict"), m.get("test", ""),
                                                       number(m.get("change")), number(m.get("min_detectable_effect")),
                                                       number(m.get("max_drop")), number(m.get("p_value")))
                             for m in sorted(p.get("metrics", []), key=lambda m: m.get("metric", "")))
        lines.append("  %s/%s/%s/b%s %s%s" % (p.get("runtime"), p.get("model"), p.get("harness"), p.get("batch"),
                                            p.get("verdict"), (" | " + metrics) if metrics else ""))
    return lines


def judged(perfgate, root, args):
    rc, out, err = run(perfgate, root, args + ["--format", "json", "--color", "never"])
    head = "exit %d" % rc
    if rc == 2 or not out.strip():
        return [head + ": " + (err.strip().splitlines() or [""])[-1][:200]]
    return [head] + signature(json.loads(out))


def collect(perfgate, root):
    lines = []
    csvs = committed_csvs(root)
    with tempfile.TemporaryDirectory() as tmp:
        for rel in csvs:
            if is_perfgate_schema(root, rel):
                lines.append("roundtrip %s: %s" % (rel, roundtrip(perfgate, root, rel, tmp) or "same"))
    folders = {}
    for rel in csvs:
        folders.setdefault(str(pathlib.PurePosixPath(rel).parent), []).append(rel)
    for folder, files in sorted(folders.items()):
        for k, rel in enumerate(files):
            lines.append("gate %s" % rel)
            lines += judged(perfgate, root, ["gate", "--results", rel, "--benchmarks-dir", folder,
                                             "--thresholds-dir", "thresholds"])
            if k > 0:
                lines.append("compare %s %s" % (files[k - 1], rel))
                lines += judged(perfgate, root, ["compare", files[k - 1], rel, "--thresholds-dir", "thresholds"])
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--perfgate", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    root = pathlib.Path(a.source).resolve()
    lines = collect(os.path.abspath(a.perfgate), root)
    text = "\n".join(lines) + "\n"
    if a.update:
        GOLDEN.write_text(text, encoding="utf-8")
        print("golden: %s written (%d lines)" % (GOLDEN.relative_to(root), len(lines)))
        return 0
    want = GOLDEN.read_text(encoding="utf-8")
    if want == text:
        print("golden: %d lines as recorded" % len(lines))
        return 0
    diff = list(difflib.unified_diff(want.splitlines(), lines, "recorded", "now", lineterm="", n=1))
    print("golden: perfgate's output differs from tests/golden/verdicts.txt (%d lines of diff; the first 60):"
          % len(diff))
    print("\n".join(diff[:60]))
    print("A deliberate change: tests/golden/golden.py --update, and say why in the commit.")
    return 1


if __name__ == "__main__":
    sys.exit(main())

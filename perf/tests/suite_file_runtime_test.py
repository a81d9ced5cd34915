#!/usr/bin/env python3
"""A runtime added by a suite file alone (issue 49 item 3): data/mlx-style/ holds an MLX-style
engine perfgate has no adapter for and the suite that describes it with the generic `command`
kind. Through perfgate's command line, with no C++ or CMake of its own, the engine is measured,
recorded with its version, commit and the peak memory of its own process (not the wrapper's), and
gated: three unchanged runs pass, the same engine three times slower fails.

    suite_file_runtime_test.py PERFGATE SOURCE_DIR WORK_DIR
"""
import csv
import glob
import os
import shutil
import subprocess
import sys

perfgate, source, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(os.path.join(source, "perf/tests/data/mlx-style"), work)
results = os.path.join(work, "results")


def run(expect):
    cmd = [perfgate, "run", "--suite", "suite.json", "--results-dir", results, "--history-dir", results,
           "--gate", "--contention", "off", "--thresholds-dir", os.path.join(source, "thresholds")]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit("perfgate run exited %d, expected %d:\n%s%s" % (p.returncode, expect, p.stdout, p.stderr))
    return p.stdout + p.stderr


def rows():
    # One file a day: a run across UTC midnight writes two.
    out = []
    for name in sorted(glob.glob(os.path.join(results, "*.csv"))):
        out += list(csv.DictReader(open(name, newline="")))
    return sorted(out, key=lambda r: (r["timestamp"], r["run_id"]))


failures = []
def check(what, ok):
    if not ok:
        failures.append(what)


outputs = [run(0) for _ in range(3)]
# The third run has two before it: judged against them, not `new`.
check("the third unchanged run is judged and passes",
      "new" not in outputs[2].split("VERDICT", 1)[-1].split("\n", 2)[1]
      and any(word in outputs[2] for word in ("within noise", "unchanged")))
first = rows()
check("three rows recorded", len(first) == 3)
for r in first:
    check("the version the engine printed", r["mlxcel_version"] == "0.7.2")
    check("the commit the engine printed", r["mlxcel_commit"] == "9f8e7d6c5b4a")
    check("decode as printed", abs(float(r["decode_tok_s"]) - 55.25) < 1e-6)
    check("prefill as printed", abs(float(r["prefill_tok_s"]) - 812.5) < 1e-6)
    # The engine's worker holds 96 MiB; the engine process itself (an interpreter) is far smaller:
    # the peak is the measured process tree's.
    check("peak memory of the engine, not a wrapper", int(r["peak_memory_bytes"]) > 96 * 1024 * 1024)
    check("status ok", r["status"] == "ok")

with open(os.path.join(work, "slowdown"), "w") as f:
    f.write("3")
out = run(1)
check("the slower run is regressed", "regressed" in out)
slow = rows()[3:]
# The run and the reruns that confirm a regression (docs/gate.md, "Reruns"), each recorded, each at
# a third of the rate (the file keeps two decimals).
check("the slower run and its confirming reruns recorded", len(slow) == 3)
check("the slower run recorded at a third of the rate", all(abs(float(r["decode_tok_s"]) - 55.25 / 3) < 0.01 for r in slow))

if failures:
    sys.exit("suite_file_runtime_test: " + "; ".join(failures))
print("suite_file_runtime_test: measured, recorded (version, commit, peak memory) and gated")

#!/usr/bin/env python3
"""Checks what cdash_receiver.py recorded from one `ctest -S cmake/perf-dashboard.cmake` run:

- CTest sent Configure.xml, Build.xml and Test.xml to submit.php with the project, site and MD5;
- the received Test.xml holds the expected test, Passed, with a numeric decode_tok_s
  NamedMeasurement (from the runner's <CTestMeasurement> lines);
- that number is the one the same run recorded in its CSV row (two decimals there).

    check_submission.py --record-dir DIR --results-dir DIR --test NAME --project P --site S
"""
import argparse
import csv
import glob
import hashlib
import json
import os
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("check_submission: FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--record-dir", required=True)
    ap.add_argument("--results-dir", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--site", required=True)
    a = ap.parse_args()

    received = {}
    for meta_path in sorted(glob.glob(os.path.join(a.record_dir, "*.json"))):
        with open(meta_path) as f:
            meta = json.load(f)
        with open(meta_path[:-5] + ".body", "rb") as f:
            body = f.read()
        q = meta["query"]
        name = q.get("FileName", [""])[0]
        print("received %s %s FileName=%s (%d bytes)" % (meta["method"], meta["path"], name, len(body)))
        if meta["method"] not in ("PUT", "POST") or not meta["path"].endswith("submit.php"):
            continue
        if q.get("project", [""])[0] != a.project:
            fail("%s was sent for project %r, expected %r" % (name, q.get("project"), a.project))
        if q.get("site", [""])[0] != a.site:
            fail("%s was sent for site %r, expected %r" % (name, q.get("site"), a.site))
        md5 = q.get("MD5", [""])[0]
        if md5 and md5 != hashlib.md5(body).hexdigest():
            fail("%s arrived damaged (MD5 mismatch)" % name)
        for part in ("Configure.xml", "Build.xml", "Test.xml"):
            if name.endswith(part):
                received[part] = body
    for part in ("Configure.xml", "Build.xml", "Test.xml"):
        if part not in received:
            fail("no %s was submitted (got: %s)" % (part, ", ".join(sorted(received)) or "nothing"))

    root = ET.fromstring(received["Test.xml"])
    tests = {t.findtext("Name"): t for t in root.iter("Test") if t.get("Status") is not None}
    test = tests.get(a.test)
    if test is None:
        fail("Test.xml has no test %s (has: %s)" % (a.test, ", ".join(sorted(tests))))
    if test.get("Status") != "passed":
        fail("%s was submitted with status %s" % (a.test, test.get("Status")))
    measured = {}
    for m in test.iter("NamedMeasurement"):
        measured[m.get("name")] = (m.get("type"), m.findtext("Value"))
    if "decode_tok_s" not in measured:
        fail("%s carries no decode_tok_s measurement (has: %s)" % (a.test, ", ".join(sorted(measured))))
    kind, value = measured["decode_tok_s"]
    if kind != "numeric/double":
        fail("decode_tok_s has type %s, CDash plots numeric/double only" % kind)
    decode = float(value)
    print("Test.xml: %s %s, decode_tok_s=%s, measurements: %s"
          % (a.test, test.get("Status"), value, ", ".join(sorted(measured))))

    rows = []
    for path in glob.glob(os.path.join(a.results_dir, "*.csv")):
        with open(path, newline="") as f:
            rows += [(path, r) for r in csv.DictReader(f)]
    runtime, model = a.test.split(".", 2)[1:]
    mine = [(p, r) for p, r in rows if r.get("runtime") == runtime and r.get("model") == model]
    if len(mine) != 1:
        fail("expected one CSV row for %s/%s in %s, found %d" % (runtime, model, a.results_dir, len(mine)))
    path, row = mine[0]
    csv_decode = float(row["decode_tok_s"])
    if row.get("status") != "ok" or abs(csv_decode - decode) > 0.0051:
        fail("CSV row (%s, %s) says decode_tok_s=%s, the submission %s"
             % (os.path.basename(path), row.get("status"), row["decode_tok_s"], value))
    print("CSV %s: decode_tok_s=%s status=%s: matches the submitted measurement"
          % (os.path.basename(path), row["decode_tok_s"], row["status"]))


if __name__ == "__main__":
    main()

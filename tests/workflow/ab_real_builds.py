#!/usr/bin/env python3
"""The reusable A/B workflow (.github/workflows/perfgate-ab.yml) on two real builds of the embedded
llama.cpp (docs/ci.md, "The A/B workflow on real builds").

Like ab_dry_run.py, the workflow's `run:` steps are executed as written in a workspace shaped like
the runner's, with a fake `gh` that keeps the comment. The runtime repository is the pinned
llama.cpp source that perfgate fetched (a git repository made of it: `main`), with two pull
requests:
  same:   a commit that changes no code; the A/B of the two builds must pass;
  slower: a real build regression, ggml's GGML_AVX2 default turned OFF in ggml/CMakeLists.txt (as a
          careless edit of a default would): the kernels fall back to their AVX paths. The counted
          A/B must find it regressed, the verdict fail, and the comment say so.
Both builds are configured alike with GGML_NATIVE=OFF and no instruction set named, so each side's
defaults decide, and no AVX-512 (valgrind 3.19 cannot run it): the counted A/B counts the same
builds (count-configure-args empty). perfgate's own suites: cpu.json (wall time) and
cpu-instructions.json (instructions per token), on tiny-llama-ci. The contention guard is on.

Not part of the test command: four builds of llama-bench and both A/Bs took 25 minutes on 2 cores
(2026-12-03: 12.8 and 12.0 per pull request). The comments, the verdict steps' output and the times are written to WORK/report/.
usage: ab_real_builds.py PERFGATE_EXECUTABLE LLAMA_SOURCE WORK_DIR
  LLAMA_SOURCE: the fetched source, <build>/llama.cpp/src of any build of perfgate
"""
import os
import shutil
import sys
import time

import yaml

from workflow_support import check, finish, git, run_ab_job, sh

PERFGATE, LLAMA_SOURCE, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKFLOW = os.path.join(SOURCE, ".github", "workflows", "perfgate-ab.yml")
HARNESS_STEPS = {"git", "tools"}
AVX2_DEFAULT = 'option(GGML_AVX2             "ggml: enable AVX2"             ${INS_ENB})'
CONFIGURE = ("-G Ninja -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF "
             "-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DGGML_CCACHE=OFF")


def make_origin():
    """llama.cpp's pinned source as a repository: main, and the branches `same` and `slower`."""
    origin = os.path.join(WORK, "origin")
    shutil.copytree(LLAMA_SOURCE, origin, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "user.email", "real@builds")
    git(origin, "config", "user.name", "real builds")
    git(origin, "add", "-A", "-f")
    git(origin, "commit", "-q", "-m", "llama.cpp at perfgate's pin")
    git(origin, "checkout", "-q", "-b", "same", "main")
    open(os.path.join(origin, "PERFGATE-NOTES"), "w").write("a change that touches no code\n")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "notes only")
    git(origin, "checkout", "-q", "-b", "slower", "main")
    cmake = os.path.join(origin, "ggml", "CMakeLists.txt")
    text = open(cmake).read()
    if AVX2_DEFAULT not in text:
        sys.exit(f"ab_real_builds: {cmake} has no line '{AVX2_DEFAULT}' (another llama.cpp?)")
    open(cmake, "w").write(text.replace(AVX2_DEFAULT, AVX2_DEFAULT.replace("${INS_ENB}", "OFF")))
    git(origin, "commit", "-q", "-am", "ggml: AVX2 off by default")
    git(origin, "checkout", "-q", "main")
    return origin


def workspace(origin, branch):
    ws = os.path.join(WORK, branch)
    head = os.path.join(ws, "runtime", "head")
    os.makedirs(os.path.dirname(head))
    sh(["git", "clone", "-q", "--no-local", "-b", branch, origin, head], cwd=ws)
    cli = os.path.join(ws, "perfgate", "build", "cli")
    os.makedirs(cli)
    os.symlink(PERFGATE, os.path.join(cli, "perfgate"))
    for part in ("thresholds", "perf", "scripts"):
        os.symlink(os.path.join(SOURCE, part), os.path.join(ws, "perfgate", part))
    return ws


def run(job, branch, origin, report):
    inputs = {"perfgate-repository": "o/perfgate", "perfgate-ref": "v1", "suite": "perfgate/perf/suites/cpu.json",
              "runtime": "llama-bench", "binary": "bin/llama-bench", "build-target": "llama-bench",
              "configure-args": CONFIGURE, "models": "tiny-llama-ci", "vocab-dir": "runtime/head/models",
              "thresholds-dir": "perfgate/thresholds", "min-rounds": 5, "max-rounds": 10, "launch-reading": "median",
              "count-suite": "perfgate/perf/suites/cpu-instructions.json", "count-runtime": "llama-bench-instructions",
              "count-configure-args": "", "count-min-rounds": 3, "count-max-rounds": 5,
              "runs-on": '"ubuntu-latest"', "comment": True}
    start = time.monotonic()
    out, summary, calls, body = run_ab_job(job, workspace(origin, branch), WORK, inputs, "pull_request", False,
                                           HARNESS_STEPS, {})
    minutes = (time.monotonic() - start) / 60
    with open(os.path.join(report, f"{branch}.comment.md"), "w") as f:
        f.write(body)
    with open(os.path.join(report, f"{branch}.verdict.txt"), "w") as f:
        f.write(f"{minutes:.1f} minutes; outputs {out['ab']['outputs']}\n{out['Verdict']['stdout']}")
    print(f"{branch}: {minutes:.1f} minutes, {out['ab']['outputs']}")
    return out, body


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    report = os.path.join(WORK, "report")
    os.makedirs(report)
    os.environ.pop("SOURCE_DATE_EPOCH", None)  # ggml would default to SSE only
    job = yaml.safe_load(open(WORKFLOW))["jobs"]["ab"]
    origin = make_origin()

    out, body = run(job, "same", origin, report)
    check(out["ab"]["outputs"].get("count_rc") == "0", "same: the counted A/B finds no regression")
    check(out["ab"]["outputs"].get("rc") == "0", "same: the timed A/B finds no regression")
    check(out["Verdict"]["outcome"] == "success", "same: the verdict passes")
    check("Instructions per token" in body and "unchanged" in body.split("Instructions per token", 1)[1],
          "same: the comment's counted section says unchanged")

    out, body = run(job, "slower", origin, report)
    check(out["ab"]["outputs"].get("count_rc") == "1", "slower: the counted A/B exits 1")
    check(out["Verdict"]["outcome"] == "failure"
          and "perfgate ab (instructions): a metric regressed" in out["Verdict"]["stdout"],
          "slower: the verdict fails on instructions")
    check("regressed" in body.split("Instructions per token", 1)[-1],
          "slower: the comment's counted section names the regression")
    check(body.startswith("## perfgate ab: llama-bench, base "), "slower: the comment names both commits")

    finish()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Dry run of .github/workflows/perfgate-ab.yml, the reusable A/B workflow (docs/ci.md).

The `run:` steps are taken from the workflow as they are and executed with bash in a scratch
workspace shaped like the runner's: runtime/head is a clone of a little runtime repository (a CMake
project whose build writes a stub runtime printing mlxcel's output line at a rate set in its
CMakeLists.txt), perfgate/build/cli/perfgate is the perfgate under test. The steps that install
Debian packages and build perfgate, and GitHub's own actions (checkout, upload), are the runner's:
the harness does their work. `gh` is a fake that records the comment it was asked to post.
Scenarios, each a pull request of the runtime repository against main:
  1. an unchanged head: base and head are built, `perfgate ab` measures both, the report goes to
     the job summary and the comment, and the verdict passes;
  2. a head whose runtime is 3x slower: the same report names the regression and the verdict fails;
  3. the same from a fork: measured and failed alike, but no comment (a fork's token cannot write);
  4. a head with no merge base with main: nothing is measured and the verdict fails closed;
  5. a push (no pull request): the merge-base step refuses, the verdict fails closed;
  6. a head whose build does not produce the binary: perfgate ab refuses before anything runs
     (exit 2), the verdict fails.
usage: ab_dry_run.py WORKFLOW PERFGATE_EXECUTABLE WORK_DIR
"""
import os
import shutil
import sys

import yaml

from workflow_support import FAILURES, check, evaluate, run_steps, sh, substitute

WORKFLOW, PERFGATE, WORK = sys.argv[1:4]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The runner's own steps, done by the harness instead (see the module's help).
HARNESS_STEPS = {"git", "tools"}

RUNTIME_CMAKE = """cmake_minimum_required(VERSION 3.25)
project(stubruntime NONE)
set(RATE {rate})
configure_file(runtime.sh.in "${{CMAKE_BINARY_DIR}}/{binary}" @ONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE)
add_custom_target(stub-runtime ALL)
"""
# mlxcel's output: a decode rate within about 1% of RATE, so rounds are never identical.
RUNTIME_SCRIPT = """#!/bin/sh
rate=$(awk -v r=@RATE@ -v s="$$" 'BEGIN {{ srand(s); printf "%.2f", r * (0.995 + 0.01 * rand()) }}')
echo "Runtime device: CPU"
echo "Generating..."
echo "[Generated 64 tokens in 1.00s = $rate tok/s]"
"""
SUITE = """{
  "suite": "stubab",
  "description": "The A/B workflow's dry run: a stub runtime whose rate its CMakeLists.txt sets.",
  "backend": "cpu",
  "workload": {"prompt_tokens": 64, "generated_tokens": 64, "warmup": 0, "repetitions": 1, "timeout_s": 5},
  "models": [{"name": "small", "checkpoint": "models/small", "format": "4bit", "weight_gb": 0.1}],
  "runtimes": [{"name": "stubrt", "kind": "mlxcel", "binary": "stub-runtime"}]
}
"""


def git(repo, *args):
    return sh(["git", "-C", repo, *args], cwd=repo).stdout.strip()


def commit_runtime(repo, rate, binary="bin/stub-runtime", message="runtime"):
    os.makedirs(os.path.join(repo, "perf"), exist_ok=True)
    open(os.path.join(repo, "CMakeLists.txt"), "w").write(RUNTIME_CMAKE.format(rate=rate, binary=binary))
    open(os.path.join(repo, "runtime.sh.in"), "w").write(RUNTIME_SCRIPT.format())
    open(os.path.join(repo, "perf", "ab-suite.json"), "w").write(SUITE)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def make_origin():
    """The runtime's repository: main at rate 60, and branches for each scenario's head."""
    origin = os.path.join(WORK, "origin")
    os.makedirs(origin)
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "user.email", "dry@run")
    git(origin, "config", "user.name", "dry run")
    commit_runtime(origin, 60.0, message="base")
    for branch, rate, binary in (("same", 60.0, "bin/stub-runtime"), ("slower", 20.0, "bin/stub-runtime"),
                                 ("unbuilt", 60.0, "bin/other-name")):
        git(origin, "checkout", "-q", "-b", branch, "main")
        open(os.path.join(origin, "NOTES"), "w").write(branch + "\n")
        commit_runtime(origin, rate, binary, message=branch)
    git(origin, "checkout", "-q", "--orphan", "unrelated")
    commit_runtime(origin, 60.0, message="no common history")
    git(origin, "checkout", "-q", "main")
    return origin


def workspace(origin, name, branch):
    """The runner's workspace after the checkouts: runtime/head at the branch, origin as its remote."""
    ws = os.path.join(WORK, name)
    head = os.path.join(ws, "runtime", "head")
    os.makedirs(os.path.dirname(head))
    sh(["git", "clone", "-q", "--no-local", "-b", branch, origin, head], cwd=ws)
    cli = os.path.join(ws, "perfgate", "build", "cli")
    os.makedirs(cli)
    os.symlink(os.path.abspath(PERFGATE), os.path.join(cli, "perfgate"))
    os.symlink(os.path.join(SOURCE, "thresholds"), os.path.join(ws, "perfgate", "thresholds"))
    return ws


def fake_gh():
    """A `gh` that keeps the body of the comment it is asked to post."""
    fake = os.path.join(WORK, "fake-bin")
    os.makedirs(fake, exist_ok=True)
    script = os.path.join(fake, "gh")
    open(script, "w").write('#!/bin/sh\n'
                            'echo "$*" >> "$GH_CALLS"\n'
                            'while [ $# -gt 0 ]; do [ "$1" = "--body-file" ] && cp "$2" "$GH_CALLS.body"; shift; done\n')
    os.chmod(script, 0o755)
    return fake


def run(job, ws, event_name, fork=False):
    """Runs the job's steps like the runner does; returns (outcomes, summary, gh calls, comment body)."""
    name = os.path.basename(ws)
    summary = os.path.join(WORK, f"summary-{name}.md")
    calls = os.path.join(WORK, f"gh-{name}")
    open(summary, "w").close()
    inputs = {"perfgate-repository": "o/perfgate", "perfgate-ref": "v1", "suite": "runtime/head/perf/ab-suite.json",
              "runtime": "stubrt", "binary": "bin/stub-runtime", "build-target": "stub-runtime",
              "configure-args": "", "models": "small", "vocab-dir": "", "thresholds-dir": "perfgate/thresholds", "min-rounds": 3, "max-rounds": 4,
              "runs-on": '"ubuntu-latest"', "comment": True}
    head_repo = "someone/runtime" if fork else "o/runtime"
    ctx = {"inputs": inputs, "steps": {},
           "github": {"workspace": ws, "event_name": event_name, "base_ref": "main" if event_name == "pull_request" else "",
                      "repository": "o/runtime", "token": "dry",
                      "event": {"pull_request": {"number": 7, "head": {"repo": {"full_name": head_repo}}}}}}
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=ws, GH_CALLS=calls,
               PATH=fake_gh() + os.pathsep + os.environ["PATH"],
               # The guard is the subject of other tests; a busy build machine must not skip the rounds.
               PERFGATE_CONTENTION="off")
    for k, v in job["env"].items():
        env[k] = substitute(v, ctx)
    outcomes = run_steps(job["steps"], ctx, ws, env, WORK, skip=HARNESS_STEPS, expect={"Verdict": "failure"})
    body = open(calls + ".body").read() if os.path.exists(calls + ".body") else ""
    gh_calls = open(calls).read() if os.path.exists(calls) else ""
    return outcomes, open(summary).read(), gh_calls, body


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    workflow = yaml.safe_load(open(WORKFLOW))
    check("workflow_call" in workflow[True], "the workflow is reusable (on: workflow_call)")
    job = workflow["jobs"]["ab"]
    check(job.get("container") == "debian:12", "ab: perfgate is built in a Debian 12 container")
    origin = make_origin()

    # 1. An unchanged head passes, with the report in the summary and the comment.
    out, summary, calls, body = run(job, workspace(origin, "same", "same"), "pull_request")
    check(out["ab"]["outputs"].get("rc") == "0", f"unchanged: perfgate ab exits 0 ({out['ab']['outputs']})")
    check(out["Verdict"]["outcome"] == "success", "unchanged: the verdict passes")
    check("perfgate ab: stubrt" in summary and "small" in summary, "unchanged: the report is in the job summary")
    check("pr comment 7 --repo o/runtime" in calls and body == open(os.path.join(WORK, "same", "perfgate-ab",
                                                                               "comment.md")).read(),
          "unchanged: the report is posted as the pull request's comment")
    check("no thresholds/default.json" not in body, "unchanged: the floors come from perfgate's thresholds")
    artifact = os.listdir(os.path.join(WORK, "same", "perfgate-ab"))
    check(any(f.endswith(".csv") for f in artifact), "unchanged: the A/B rows are recorded for the artifact")
    check({"ab.md", "ab.junit.xml", "ab.json"} <= set(artifact),
          f"unchanged: the report's markdown, JUnit and JSON are in the artifact ({sorted(artifact)})")

    # 2. A 3x slower head fails, and says so.
    out, summary, calls, body = run(job, workspace(origin, "slower", "slower"), "pull_request")
    check(out["ab"]["outputs"].get("rc") == "1", "slower: perfgate ab exits 1")
    check(out["Verdict"]["outcome"] == "failure" and "regressed" in out["Verdict"]["stdout"],
          "slower: the verdict fails with the regression")
    check("regressed" in body and "regressed" in summary, "slower: the comment and the summary name the regression")
    junit = open(os.path.join(WORK, "slower", "perfgate-ab", "ab.junit.xml")).read()
    check('<failure type="regressed"' in junit, "slower: the JUnit file carries the regression as a failure")

    # 3. From a fork: measured and judged alike, no comment.
    out, summary, calls, body = run(job, workspace(origin, "fork", "slower"), "pull_request", fork=True)
    check(out["Verdict"]["outcome"] == "failure", "fork: measured, and the regression fails it")
    check(out["Report as a pull-request comment"]["outcome"] == "skipped" and calls == "",
          "fork: no comment (its token cannot write); the report is in the summary")
    check("regressed" in summary, "fork: the summary names the regression")

    # 4. No merge base: nothing measured, fails closed.
    out, summary, calls, body = run(job, workspace(origin, "unrelated", "unrelated"), "pull_request")
    check(out["base"]["outcome"] == "failure" and "no merge base" in out["base"]["stdout"],
          "no merge base: the merge-base step fails with the reason")
    check(out["ab"]["outcome"] == "skipped" and out["Verdict"]["outcome"] == "failure"
          and "did not run" in out["Verdict"]["stdout"], "no merge base: nothing is measured and the verdict fails")

    # 5. A push has no pull request to compare: refused, fails closed.
    out, summary, calls, body = run(job, workspace(origin, "push", "same"), "push")
    check(out["base"]["outcome"] == "failure" and "compares a pull request" in out["base"]["stdout"],
          "push: the merge-base step refuses")
    check(out["Verdict"]["outcome"] == "failure", "push: the verdict fails")

    # 6. The head's build does not make the binary: perfgate ab refuses before measuring.
    out, summary, calls, body = run(job, workspace(origin, "unbuilt", "unbuilt"), "pull_request")
    check(out["ab"]["outputs"].get("rc") == "2", f"unbuilt: perfgate ab exits 2 ({out['ab']['outputs']})")
    check(out["Verdict"]["outcome"] == "failure" and "usage or input error" in out["Verdict"]["stdout"],
          "unbuilt: the verdict fails")

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        sys.exit(1)
    print("every check passed")


if __name__ == "__main__":
    main()

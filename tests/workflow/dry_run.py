#!/usr/bin/env python3
"""Dry run of .github/workflows/perf-gate.yml's perf job on the cpu-perf preset logic.

The `run:` steps of the job are taken from the workflow file as they are and executed with bash,
in a scratch git project that has the repository's shape (CMakePresets.json with a cpu-perf preset,
benchmarks/, a perfgate under build/cpu-perf/cli/) but a tiny measured stub suite instead of
llama.cpp, so it takes seconds. ${{ }} expressions and `if:` conditions are evaluated from a
context built like GitHub's (matrix, github, steps). Scenarios:
  1. push to main: configure/build/test pass, the job summary holds the gate report, the results
     folder (passed to CMake) holds the CSV, the JUnit files and a baseline page; the
     propose-baseline job's steps (its Debian tool and build steps aside) then commit the CSV on
     the bot's branch with a fake `gh`, and the branch is merged. A second proposal of the same day
     (a new run and the committed one again, in a file of the committed file's name) must keep
     every committed row and add the new run once.
  2. pull request, same numbers: the merge base is found, the pair is gated against benchmarks/
     at that ref (within noise), exit 0.
The pull-request bypasses of issue 26 run on the same project in pull_request_bypasses.py.
  3. pull request whose runtime got 3x slower: the test step fails (ctest's exit code is the
     verdict) and the summary names the regression.
  4. pull request without a merge base: the merge-base step fails, nothing is measured.
  5. pull request that renames the pair in its own suite and is 3x slower: the renamed pair is
     new, but the baseline pair is missing while the suite at the merge base runs it: the test
     step fails (the pull-request guard, docs/gate.md).
  6. an empty base ref (a failed merge-base step whose output was used anyway): configuring fails
     with a message instead of gating against the working tree; PERFGATE_BASELINE_REF in the
     environment (where a test preset could set it) makes the perf tests fail.
  7. a run that recorded nothing: perf.gate.<suite> fails at a ref (skipped without one).
  8. the `verdict` job, the check branch protection requires: it passes only when the perf jobs
     succeeded; a fork's pull request (perf skipped) fails closed with the reason, and so do perf
     jobs that failed, were cancelled or skipped.
usage: dry_run.py WORKFLOW PERFGATE_EXECUTABLE PERFGATE_SOURCE_DIR WORK_DIR
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

from workflow_support import FAILURES, check, evaluate, run_steps, sh, substitute

WORKFLOW, PERFGATE, SOURCE, WORK = sys.argv[1:5]
# The stub's host is probed live (a measured suite), and this machine may be busy with other work:
# the contention guard would skip every pair. What is tested here is the gate, not the guard.
os.environ["PERFGATE_CONTENTION"] = "off"


def run_job(job, project, event, expect):
    """Runs the job's steps like the runner does; returns (step outcomes, summary text)."""
    summary = os.path.join(WORK, f"summary-{event['name']}.md")
    open(summary, "w").close()
    ctx = {"matrix": {"backend": "cpu"},
           "github": {"workspace": project, "event_name": event["event_name"], "base_ref": event.get("base_ref", ""),
                      "ref": event["ref"], "workflow": "perf-gate", "repository": "o/perfgate",
                      "event": {"pull_request": {"head": {"repo": {"full_name": "o/perfgate"}}}}},
           "steps": {}}
    check(evaluate(job["if"], ctx), f"{event['name']}: the job runs for a pull request from this repository")
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=project)
    for k, v in job["env"].items():
        env[k] = substitute(v, ctx)
    # Actions (checkout, upload) are GitHub's; the checkout is the scratch project.
    outcomes = run_steps(job["steps"], ctx, project, env, WORK, expect=expect)
    return outcomes, open(summary).read()


def run_verdict(job, result, fork):
    """Runs the verdict job's steps as written for a perf result (success, failure, cancelled,
    skipped) and a pull request from this repository or a fork; returns (exit code, output)."""
    head = "fork/perfgate" if fork else "o/perfgate"
    ctx = {"needs": {"perf": {"result": result}},
           "github": {"event_name": "pull_request", "repository": "o/perfgate",
                      "event": {"pull_request": {"head": {"repo": {"full_name": head}}}}}}
    check(evaluate(job["if"], ctx), f"verdict ({result}, fork={fork}): the job runs whatever the perf jobs did")
    rc, out = 0, ""
    for step in job["steps"]:
        env = dict(os.environ, **{k: substitute(v, ctx) for k, v in step.get("env", {}).items()})
        r = subprocess.run(["bash", "-e", "-c", substitute(step["run"], ctx)], env=env, capture_output=True, text=True)
        rc, out = rc or r.returncode, out + r.stdout + r.stderr
    return rc, out


def check_verdict(workflow):
    """8. The required check fails closed: only measured, passing perf jobs make it pass."""
    job = workflow["jobs"]["verdict"]
    check(job.get("needs") == "perf" and job.get("if") == "always()" and "self-hosted" not in str(job["runs-on"]),
          "verdict: after the perf jobs whatever their result, on a GitHub-hosted runner")
    check(not any("uses" in s for s in job["steps"]), "verdict: checks out and runs no code of the pull request")
    rc, out = run_verdict(job, "success", fork=False)
    check(rc == 0, "verdict: measured and passed -> the required check passes")
    rc, out = run_verdict(job, "skipped", fork=True)
    check(rc != 0 and "fork's pull request is not measured" in out,
          "verdict: a fork's pull request (perf skipped) fails closed, with the reason")
    for result in ("failure", "cancelled", "skipped"):
        rc, out = run_verdict(job, result, fork=False)
        check(rc != 0 and f"ended '{result}'" in out, f"verdict: perf {result} -> the required check fails")


def run_propose(job, project, run_id):
    """Runs the propose-baseline job's `run:` steps as written, from incoming/ in `project`, with a
    `gh` that records its arguments; returns them. The container's tool and build steps are
    GitHub's to run: the dry run has perfgate built already."""
    check(job.get("container") == "debian:12" and "refs/heads/{0}" in job["if"],
          "propose: a Debian 12 container, on pushes to the default branch only")
    fake = os.path.join(WORK, "fake-bin")
    os.makedirs(fake, exist_ok=True)
    calls = os.path.join(WORK, f"gh-calls-{run_id}")
    open(os.path.join(fake, "gh"), "w").write(f'#!/bin/sh\necho "$*" >> "{calls}"\n')
    os.chmod(os.path.join(fake, "gh"), 0o755)
    ctx = {"github": {"token": "dry", "run_id": run_id, "sha": sh("git rev-parse HEAD", project).stdout.strip(),
                      "event": {"repository": {"default_branch": "main"}}}}
    env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"], PERFGATE=PERFGATE)
    check(job["env"].get("PERFGATE", "").endswith("cli/perfgate"), "propose: the job runs the perfgate it built")
    ran = []
    for step in job["steps"]:
        if "run" not in step or step.get("id") in ("tools", "build"):
            continue
        step_env = dict(env, **{k: substitute(v, ctx) for k, v in step.get("env", {}).items()})
        r = subprocess.run(["bash", "-e", "-c", substitute(step["run"], ctx)], cwd=project, env=step_env,
                           capture_output=True, text=True)
        print(f"   step {'success' if r.returncode == 0 else 'failure'}: {step.get('name')} (exit {r.returncode})")
        check(r.returncode == 0, f"propose {run_id}: step '{step.get('name')}' succeeded\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        ran.append(step.get("name"))
    check(any("merge --into benchmarks" in s.get("run", "") for s in job["steps"]),
          "propose: the readings are merged into benchmarks/ (perfgate merge), never copied over it")
    return open(calls).read().splitlines() if os.path.exists(calls) else []


def make_project(root):
    """A scratch repository shaped like perfgate's for the workflow's purposes."""
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(os.path.join(root, "benchmarks"))
    data = os.path.join(SOURCE, "perf", "tests", "data")
    suite = json.load(open(os.path.join(data, "stub-measured-suite.json")))
    suite["runtimes"][0]["binary"] = os.path.join(data, "stub-runtime.sh")
    # The stub prints RECORDINGS/run.txt ($PERFGATE_FIXTURES): what the "runtime" measures is
    # changed there (set_recording), never in the suite, whose workload is the pull request's.
    suite["runtimes"][0]["args"] = ["print", "run.txt"]
    suite["runtimes"][0]["env"] = {"PERFGATE_FIXTURES": RECORDINGS}
    os.makedirs(os.path.join(root, "perf", "suites"))
    json.dump(suite, open(os.path.join(root, "perf", "suites", "cpu.json"), "w"), indent=2)
    shutil.copytree(os.path.join(SOURCE, "thresholds"), os.path.join(root, "thresholds"))
    with open(os.path.join(root, "CMakeLists.txt"), "w") as f:
        f.write(f"""cmake_minimum_required(VERSION 3.25)
project(workflow_dry_run NONE)
enable_testing()
list(APPEND CMAKE_MODULE_PATH "{SOURCE}/cmake")
include(PerfgatePerfSuite)
file(MAKE_DIRECTORY "${{CMAKE_BINARY_DIR}}/no-tools" "${{CMAKE_BINARY_DIR}}/cli")
file(CREATE_LINK "{PERFGATE}" "${{CMAKE_BINARY_DIR}}/cli/perfgate" SYMBOLIC)
# As the real presets: rows to PERFGATE_RESULTS_DIR (the workflow passes it), history benchmarks/,
# the host probed live (a measured suite; a recorded machine is refused at a base ref).
perfgate_add_perf_suite(SUITE "${{CMAKE_SOURCE_DIR}}/perf/suites/cpu.json" BACKEND cpu GATE
  RESULTS_DIR "${{PERFGATE_RESULTS_DIR}}" HISTORY_DIR "${{CMAKE_SOURCE_DIR}}/benchmarks")
""")
    presets = {"version": 6,
               "configurePresets": [{"name": "cpu-perf", "generator": "Unix Makefiles",
                                     "binaryDir": "${sourceDir}/build/cpu-perf",
                                     "cacheVariables": {"PERFGATE_EXECUTABLE": PERFGATE}}],
               "buildPresets": [{"name": "cpu-perf", "configurePreset": "cpu-perf"}],
               "testPresets": [{"name": "cpu-perf", "configurePreset": "cpu-perf",
                                "filter": {"include": {"label": "^cpu$"}}, "execution": {"noTestsAction": "error"}}]}
    json.dump(presets, open(os.path.join(root, "CMakePresets.json"), "w"), indent=2)
    open(os.path.join(root, ".gitignore"), "w").write("/build/\n")
    git = "git -c user.name=dry -c user.email=dry@example.invalid"
    sh(f"git init -q -b main && {git} add -A && {git} commit -qm initial", root)
    sh(f"git clone -q --bare {root} {root}.origin.git && git remote add origin {root}.origin.git && git fetch -q origin", root)
    return git


RECORDINGS = os.path.join(WORK, "recordings")
NORMAL_RECORDING = os.path.join(SOURCE, "tests", "fixtures", "probe-outputs",
                                "mlxcel-generate_m1max_kubesimplify-blog.txt")


def set_recording(slower=1.0, generated=None):
    """What the stub runtime prints next: the recorded mlxcel output, `slower` times slower, with
    `generated` tokens instead of the recording's 200 when given."""
    text = open(NORMAL_RECORDING).read()
    text = re.sub(r"= (\d+\.\d+) tok/s", lambda m: "= %.2f tok/s" % (float(m.group(1)) / slower), text)
    text = re.sub(r"in (\d+\.\d+)s", lambda m: "in %.2fs" % (float(m.group(1)) * slower), text)
    if generated is not None:
        text = re.sub(r"Generated \d+ tokens", f"Generated {generated} tokens", text)
    os.makedirs(RECORDINGS, exist_ok=True)
    open(os.path.join(RECORDINGS, "run.txt"), "w").write(text)


def edit_suite(suite_file, edit):
    suite = json.load(open(suite_file))
    edit(suite)
    json.dump(suite, open(suite_file, "w"), indent=2)


def main():
    if os.path.exists(WORK):
        shutil.rmtree(WORK)
    os.makedirs(WORK)
    workflow = yaml.safe_load(open(WORKFLOW))
    job = workflow["jobs"]["perf"]
    # Static facts the dry run relies on.
    check("${{ matrix.backend }}" in job["runs-on"] and "self-hosted" in job["runs-on"], "runs-on: self-hosted + backend label")
    check("runner." not in json.dumps(job["concurrency"]), "concurrency uses no runner.* context")
    check("head.repo.full_name == github.repository" in job["if"], "fork pull requests never reach a self-hosted runner")
    ctx_fork = {"github": {"event_name": "pull_request", "repository": "o/perfgate",
                           "event": {"pull_request": {"head": {"repo": {"full_name": "fork/perfgate"}}}}}}
    check(not evaluate(job["if"], ctx_fork), "a fork's pull request does not run the job")
    configure = next(s["run"] for s in job["steps"] if s.get("name") == "Configure")
    check("-DPERFGATE_RESULTS_DIR=" in configure, "the results folder is passed to CMake")
    check("-DPERFGATE_BASELINE_REF=" in configure, "the base ref is passed on the configure command line")
    check("PERFGATE_BASELINE_REF" not in json.dumps([s.get("env", {}) for s in job["steps"]] + [job["env"]]),
          "no step hands the base ref on through the environment (a test preset could override it)")
    check_verdict(workflow)

    project = os.path.join(WORK, "project")
    set_recording()
    git = make_project(project)

    # 1. push to main: the first readings of this host.
    push = {"name": "push", "event_name": "push", "ref": "refs/heads/main"}
    outcomes, summary = run_job(job, project, push, {})
    check(all(o["outcome"] == "success" for o in outcomes.values()), "push: every step succeeded")
    results = os.path.join(project, "build", "cpu-perf", "perf-results")
    csvs = [f for f in os.listdir(results) if f.endswith(".csv")] if os.path.isdir(results) else []
    check(len(csvs) == 1, f"push: one CSV in the results folder ({csvs})")
    check(not os.listdir(os.path.join(project, "benchmarks")), "push: nothing written to benchmarks/")
    check("perfgate" in summary and "small" in summary, "push: the gate's markdown report is in the job summary")
    for f in ("ctest.junit.xml", "stubmeasured.perf-gate.junit.xml", "stubmeasured.perf-gate.md"):
        check(os.path.exists(os.path.join(results, f)), f"push: {f} is in the results folder for upload")
    pages = os.path.join(results, "pages")
    check(os.path.isdir(pages) and any(p.endswith(".md") for p in os.listdir(pages)), "push: a baseline page was written")
    check(outcomes.get("history", {}).get("outcome") == "success"
          and "perfgate history --check: no worsening step without an acknowledgement" in summary,
          "push: the change-point scan of the committed history plus this run ran and is in the summary")
    # The propose-baseline job on the run's artifact, then merging the bot's pull request.
    propose = workflow["jobs"]["propose-baseline"]
    incoming = os.path.join(project, "incoming", "perf-cpu")
    shutil.copytree(results, incoming, ignore=shutil.ignore_patterns("*.xml", "*.json", "*.md", "pages"))
    shutil.copytree(pages, os.path.join(incoming, "pages"))
    gh_calls = run_propose(propose, project, "101")
    baseline = os.path.join(project, "benchmarks", csvs[0])
    check(sh("git branch --show-current", project).stdout.strip() == "baseline/run-101" and os.path.exists(baseline)
          and open(baseline).read() == open(os.path.join(results, csvs[0])).read(),
          "propose: the run's CSV is committed to benchmarks/ on the bot's branch")
    check(len(gh_calls) == 1 and "--head baseline/run-101" in gh_calls[0], "propose: one pull request is opened")
    sh("git switch -q main && git merge -q --ff-only baseline/run-101 && git push -q origin main", project)
    # A second run of the same day: its file has the name of the committed baseline and holds a
    # new run (and one row of the committed run, as a rerun of the job could). The baseline file
    # must keep every row it had and gain the new run's rows, once (a copy over it lost them).
    committed = open(baseline).read()
    header, *rows = committed.splitlines(keepends=True)
    first_run = next(csv.DictReader(io.StringIO(committed)))["run_id"]
    new_rows = [r.replace(first_run, "dry-run-second") for r in rows]
    shutil.rmtree(os.path.join(project, "incoming"))
    os.makedirs(incoming)
    # The committed row last: a copy would then differ from the committed file plus the new rows.
    open(os.path.join(incoming, csvs[0]), "w").write(header + "".join(new_rows) + rows[0])
    gh_calls = run_propose(propose, project, "102")
    check(open(baseline).read() == committed + "".join(new_rows),
          "propose, same-day file: every committed row kept, the new run added once (merged, not replaced)")
    check(len(gh_calls) == 1, "propose, same-day file: one pull request is opened")
    sh("git switch -q main", project)
    shutil.rmtree(os.path.join(project, "incoming"))

    # 2. pull request with the same numbers: gated at the merge base, within noise (one run of
    # history cannot bound a change within the floor; nothing regressed).
    # (A change of its own: a commit with the base's very files is refused as the base ref's twin.)
    sh("git switch -q -c feature && rm -rf build && echo change > CHANGE", project)
    sh(f"{git} add CHANGE && {git} commit -q -m change", project)
    pr = {"name": "pr", "event_name": "pull_request", "ref": "refs/pull/1/merge", "base_ref": "main"}
    outcomes, summary = run_job(job, project, pr, {})
    base = outcomes["base"]["outputs"].get("ref", "")
    main_sha = sh("git rev-parse main", project).stdout.strip()
    check(base == main_sha, "pr: the merge base is the target branch's commit")
    check(outcomes["perf"]["outcome"] == "success", "pr: same numbers pass")
    check(re.search(r"\| (unchanged|within noise) \| small .*\| decode_tok_s \|", summary) is not None
          and "perfgate: pass" in summary, "pr: the summary shows the pair judged against the baseline, not regressed")

    # 3. pull request whose runtime is 3x slower: ctest fails, so the job fails.
    set_recording(slower=3)
    suite_file = os.path.join(project, "perf", "suites", "cpu.json")
    sh("rm -rf build", project)
    slow_pr = dict(pr, name="pr-slow")
    outcomes, summary = run_job(job, project, slow_pr, {"perf": "failure"})
    check(outcomes["perf"]["outcome"] == "failure", "regressed pr: the test step fails (ctest's exit code is the verdict)")
    check(re.search(r"\| regressed \| small .*\| decode_tok_s \|", summary) is not None,
          "regressed pr: the summary names the regressed pair and metric")
    check(outcomes.get("Gate report in the job summary", {}).get("outcome") == "success",
          "regressed pr: the summary step still ran")

    # 4. no merge base: an unrelated target branch.
    sh(f"git switch -q --orphan unrelated && {git} commit -q --allow-empty -m other && git push -q origin unrelated", project)
    sh("git switch -q feature", project)
    nobase = {"name": "nobase", "event_name": "pull_request", "ref": "refs/pull/2/merge", "base_ref": "unrelated"}
    outcomes, summary = run_job(job, project, nobase, {"base": "failure"})
    check(outcomes["base"]["outcome"] == "failure", "no merge base: the job fails at the merge-base step")
    check(outcomes["perf"]["outcome"] == "skipped", "no merge base: nothing is measured")

    # 5. pull request that renames the pair (and is slower): the baseline pair must not vanish.
    sh("git switch -q main && git switch -q -c rename && rm -rf build", project)
    edit_suite(suite_file, lambda suite: suite["models"][0].update(name="small-renamed"))
    sh(f"{git} commit -qam 'rename the pair'", project)
    rename_pr = dict(pr, name="pr-rename")
    outcomes, summary = run_job(job, project, rename_pr, {"perf": "failure"})
    check(outcomes["perf"]["outcome"] == "failure", "renaming pr: the test step fails")
    check(re.search(r"\| failed \| small \(", summary) is not None and "not run now" in summary,
          "renaming pr: the summary shows the baseline pair failed as not run now")

    # 6. an empty base ref (a failed merge-base step whose output was used anyway): configuring
    # fails and says why; PERFGATE_BASELINE_REF in the environment makes the perf tests fail.
    plain = {k: v for k, v in os.environ.items() if k != "PERFGATE_BASELINE_REF"}
    r = subprocess.run(["bash", "-c", "cmake --preset cpu-perf -DPERFGATE_RESULTS_DIR=$PWD/build/empty-ref "
                        "-DPERFGATE_BASELINE_REF="], cwd=project, env=plain, capture_output=True, text=True)
    check(r.returncode != 0 and "PERFGATE_BASELINE_REF is empty" in r.stdout + r.stderr,
          "empty base ref: configuring fails with a message")
    r = subprocess.run(["bash", "-c", "rm -rf build/cpu-perf && cmake --preset cpu-perf -DPERFGATE_BASELINE_REF=main "
                        "-DPERFGATE_RESULTS_DIR=$PWD/build/env-ref >/dev/null && "
                        "ctest --preset cpu-perf -L perf --output-on-failure"], cwd=project,
                       env=dict(plain, PERFGATE_BASELINE_REF="main"), capture_output=True, text=True)
    check(r.returncode != 0 and "PERFGATE_BASELINE_REF is set in the environment" in r.stdout + r.stderr,
          "PERFGATE_BASELINE_REF in the environment: the perf tests fail with a message")

    # 7. a run that recorded nothing (no results file): at a ref the suite summary fails; without
    # one it is skipped, as before. The host facts of scenario 6's probe are reused.
    def gate_only(ref_option):
        return (f"cmake --preset cpu-perf -DPERFGATE_RESULTS_DIR=$PWD/build/none-recorded {ref_option} >/dev/null && "
                "ctest --preset cpu-perf -R perf.gate --output-on-failure")
    r = subprocess.run(["bash", "-c", gate_only("-DPERFGATE_BASELINE_REF=main")], cwd=project, env=plain,
                       capture_output=True, text=True)
    check(r.returncode != 0 and "nothing was recorded: FAIL" in r.stdout + r.stderr,
          "nothing recorded at a ref: the suite summary fails")
    r = subprocess.run(["bash", "-c", gate_only("-UPERFGATE_BASELINE_REF")], cwd=project, env=plain,
                       capture_output=True, text=True)
    check(r.returncode == 0 and "Skipped" in r.stdout, "nothing recorded without a ref: the suite summary is skipped")

    print(f"workflow dry run: {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The pull-request bypasses of issue 26, each tried against the CI job as the workflow runs it.

Every scenario is a pull request whose stub runtime is 3x slower than the baseline recorded on main
(plus the trick under test). The perf job's `run:` steps are executed as written in
.github/workflows/perf-gate.yml by dry_run.py's machinery (probe, each pair with --gate, then
--summary, the base ref at the merge base), in the same kind of scratch repository. Each must end
with the job failed, for the reason named:
  workload-tokens     the suite's generated_tokens 200 -> 199 (every pair "not comparable")
  workload-prompt     the suite's prompt_tokens 512 -> 256
  workload-flags      the runtime's flags ["-n", "1"], the runtime then generating 1 token
  symlinked-benchmarks  benchmarks/ replaced by a link to another folder (every pair "new")
  preset-environment  the pull request's test preset sets PERFGATE_BASELINE_REF=HEAD, with loosened
                      thresholds (the ref became the change itself)
  preset-cache        the pull request's configure preset sets PERFGATE_BASELINE_REF=HEAD
  replay-host         a measured suite names a recorded machine (replay_host): another host tag
  sysroot-environment the test preset sets PERFGATE_SYSROOT to a fake machine in the pull request
usage: pull_request_bypasses.py WORKFLOW PERFGATE_EXECUTABLE PERFGATE_SOURCE_DIR WORK_DIR
"""
import html
import json
import os
import shutil
import sys

import yaml

import dry_run as ci

LOOSE_THRESHOLDS = '{ "metrics": { "*": { "max_drop": 0.9, "alpha": 0.05 } } }\n'


def record_baseline(job, project, git):
    """A push to main records the host's first readings; merging the proposed pull request commits them."""
    ci.set_recording()
    outcomes, _ = ci.run_job(job, project, {"name": "push", "event_name": "push", "ref": "refs/heads/main"}, {})
    ci.check(all(o["outcome"] == "success" for o in outcomes.values()), "push: every step succeeded")
    results = os.path.join(project, "build", "cpu-perf", "perf-results")
    csvs = [f for f in os.listdir(results) if f.endswith(".csv")]
    ci.check(len(csvs) == 1, f"push: one CSV recorded ({csvs})")
    shutil.copy(os.path.join(results, csvs[0]), os.path.join(project, "benchmarks"))
    ci.sh(f"{git} add benchmarks && {git} commit -qm 'benchmarks: baseline' && git push -q origin main", project)


def pull_request(job, project, git, name, change, expected):
    """Branches from main, applies `change` (edits of the tree) with a 3x slower runtime, commits and
    runs the job; the job must fail and its output name `expected`."""
    ci.sh(f"git switch -q main && git switch -q -c {name} && rm -rf build", project)
    ci.set_recording(slower=3)
    change(project)
    ci.sh(f"{git} add -A && {git} commit -qm '{name}'", project)
    event = {"name": name, "event_name": "pull_request", "ref": f"refs/pull/{name}/merge", "base_ref": "main"}
    outcomes, summary = ci.run_job(job, project, event, {"perf": "failure", "Configure": "failure"})
    failed = [k for k, o in outcomes.items() if o["outcome"] == "failure"]
    junit = os.path.join(project, "build", "cpu-perf", "perf-results", "ctest.junit.xml")
    said = summary + "".join(o["stdout"] for o in outcomes.values())
    said += html.unescape(open(junit).read()) if os.path.exists(junit) else ""  # ctest's JUnit escapes '>' 
    ci.check(bool(failed), f"{name}: the job fails (failed steps: {failed})")
    ci.check(expected in said, f"{name}: the output says '{expected}'")
    if expected not in said:
        print(said[-4000:])


def edit_json(path, edit):
    data = json.load(open(path))
    edit(data)
    json.dump(data, open(path, "w"), indent=2)


def suite(project):
    return os.path.join(project, "perf", "suites", "cpu.json")


def workload(**values):
    return lambda project: edit_json(suite(project), lambda s: s["workload"].update(values))


def flags(project):
    ci.set_recording(slower=3, generated=1)
    edit_json(suite(project), lambda s: s["runtimes"][0].update(flags=["-n", "1"]))


def symlinked_benchmarks(project):
    ci.sh("git rm -r -q benchmarks && ln -s perf/suites benchmarks", project)


def test_preset_environment(variables):
    def change(project):
        open(os.path.join(project, "thresholds", "default.json"), "w").write(LOOSE_THRESHOLDS)
        edit_json(os.path.join(project, "CMakePresets.json"),
                  lambda p: p["testPresets"][0].update(environment=variables(project)))
    return change


def preset_cache(project):
    open(os.path.join(project, "thresholds", "default.json"), "w").write(LOOSE_THRESHOLDS)
    edit_json(os.path.join(project, "CMakePresets.json"),
              lambda p: p["configurePresets"][0]["cacheVariables"].update(PERFGATE_BASELINE_REF="HEAD"))


def fake_machine(project):
    """A recorded machine inside the pull request: another CPU, so another host tag."""
    target = os.path.join(project, "fake-machine")
    shutil.copytree(os.path.join(ci.SOURCE, "probes", "tests", "data", "machines", "h200"), target)
    return os.path.join(target, "root")


def replay_host(project):
    fake_machine(project)
    edit_json(suite(project), lambda s: s.update(replay_host={"machine": "../../fake-machine"}))


def main():
    if os.path.exists(ci.WORK):
        shutil.rmtree(ci.WORK)
    os.makedirs(ci.WORK)
    job = yaml.safe_load(open(ci.WORKFLOW))["jobs"]["perf"]
    project = os.path.join(ci.WORK, "project")
    ci.set_recording()
    git = ci.make_project(project)
    record_baseline(job, project, git)

    cases = [
        ("workload-tokens", workload(generated_tokens=199), "generated_tokens 200 -> 199"),
        ("workload-prompt", workload(prompt_tokens=256), "prompt_tokens 512 -> 256"),
        ("workload-flags", flags, "flags [] -> [-n 1]"),
        ("symlinked-benchmarks", symlinked_benchmarks, "that the working tree no longer has"),
        ("preset-environment", test_preset_environment(lambda project: {"PERFGATE_BASELINE_REF": "HEAD"}),
         "PERFGATE_BASELINE_REF is set in the environment"),
        ("preset-cache", preset_cache, "regressed"),
        ("replay-host", replay_host, "replay_host is only for replay suites"),
        ("sysroot-environment", test_preset_environment(lambda project: {"PERFGATE_SYSROOT": fake_machine(project)}),
         "recorded machines are for replay suites only"),
    ]
    for name, change, expected in cases:
        pull_request(job, project, git, name, change, expected)

    print(f"pull-request bypasses: {len(ci.FAILURES)} failed")
    return 1 if ci.FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())

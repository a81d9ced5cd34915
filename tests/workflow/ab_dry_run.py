#!/usr/bin/env python3
"""Dry run of .github/workflows/perfgate-ab.yml, the reusable A/B workflow (docs/ci.md).

The `run:` steps are taken from the workflow as they are and executed with bash in a scratch
workspace shaped like the runner's: runtime/head is a clone of a little runtime repository (a CMake
project whose build writes a stub runtime printing mlxcel's output line at a rate set in its
CMakeLists.txt; configured with -DCOUNTED=ON, the workflow's count-configure-args, it is instead a
llama-bench whose work per token, counted under the real valgrind, its CMakeLists.txt sets),
perfgate/build/cli/perfgate is the perfgate under test. Every scenario counts instructions too. The steps that install
Debian packages and build perfgate, and GitHub's own actions (checkout, upload), are the runner's:
the harness does their work. `gh` is a fake that records the comment it was asked to post.
Scenarios, each a pull request of the runtime repository against main:
  1. an unchanged head: base and head are built, `perfgate ab` measures both, the report goes to
     the job summary and the comment, and the verdict passes;
  2. a head whose runtime is 3x slower: the same report names the regression and the verdict fails;
     pushed to the same pull request, it edits the comment scenario 1 posted (one comment per pull
     request and runtime, found by its marker);
     its instructions per token are unchanged, and the counted A/B says so;
  2b. a head doing 10% more work per token at the same wall-time rate: the counted A/B regresses and
     the verdict fails, naming instructions;
  3. the same from a fork: measured and failed alike, but no comment (a fork's token cannot write);
  4. a head with no merge base with main: nothing is measured and the verdict fails closed;
  5. a push (no pull request): the merge-base step refuses, the verdict fails closed;
  5b. a merge queue's group (merge_group) of the slower head: compared with the group's base,
     measured and failed, no comment;
  5c. the slower head built by another build system (build-command, a shell script that does what
     the CMakeLists.txt does): measured and failed, its counted twin built with the count arguments;
  5d. a runtime with a submodule its build needs, and a configure argument holding a space given in
     a list: with submodules true the base worktree gets it too, both build and the slower head
     fails as measured; without it the base's build fails, and the job;
  6. a head whose build does not produce the binary: perfgate ab refuses before anything runs
     (exit 2), the verdict fails;
  7. measure auto (the default) on a CPU runner: only the counted A/B runs and decides; without a
     count suite, wall time;
  8. measure instructions without a count suite, or an unknown measure: refused, fails closed;
  9. a head whose build copies its binary over the base's, and one whose binary does so when run:
     the head's build, another user's when the job is root, cannot write there, and the seal of
     the base build and perfgate (scripts/ab-seal) fails the job after the build or after the A/B.
Scenarios 1-6 set measure both.
And perf-gate.yml's `ab` job, which calls this workflow for perfgate's own pull requests: every
input it passes is declared, the measuring perfgate is the target branch's, and the binary, target,
vocabulary and suites it names are those perfgate's CMake and suites make.
usage: ab_dry_run.py WORKFLOW PERFGATE_EXECUTABLE WORK_DIR
"""
import json
import os
import shutil
import sys

import yaml

from workflow_support import check, finish, git, run_ab_job, sh

WORKFLOW, PERFGATE, WORK = sys.argv[1:4]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The runner's own steps, done by the harness instead (see the module's help).
HARNESS_STEPS = {"git", "tools"}

RUNTIME_CMAKE = """cmake_minimum_required(VERSION 3.25)
project(stubruntime NONE)
set(RATE {rate})
set(WORK {work})
option(COUNTED "a llama-bench whose work per token is counted" OFF)
configure_file(runtime.sh.in "${{CMAKE_BINARY_DIR}}/{binary}" @ONLY
               FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
add_custom_target(stub-runtime ALL)
{cmake_extra}
"""
# mlxcel's output: a decode rate within about 1% of RATE, so rounds are never identical.
# Counted: a llama-bench that loops WORK times 30 per prompt token and WORK times 70 per generated
# token (-p, -n), then prints a recorded llama-bench -o json document.
RUNTIME_SCRIPT = """#!/bin/sh
{script_extra}
if [ "@COUNTED@" = "ON" ]; then
  p=0; n=0
  while [ $# -gt 0 ]; do case "$1" in -p) p=$2; shift ;; -n) n=$2; shift ;; esac; shift; done
  i=0; end=$(( (p * 30 + n * 70) * @WORK@ ))
  while [ "$i" -lt "$end" ]; do i=$((i + 1)); done
  cat "@CMAKE_SOURCE_DIR@/llama-bench.json"
  exit 0
fi
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
COUNT_SUITE = """{
  "suite": "stubcount",
  "description": "The A/B workflow's dry run, counted: the stub runtime's instructions per token.",
  "backend": "cpu",
  "results_suffix": "instructions",
  "workload": {"prompt_tokens": 16, "generated_tokens": 8, "warmup": 0, "repetitions": 1, "timeout_s": 60},
  "models": [{"name": "small", "checkpoint": "models/small", "format": "Q8_0", "weight_gb": 0.1}],
  "runtimes": [{"name": "stubcount", "kind": "llama-bench", "binary": "stub-runtime", "measure": "instructions"}]
}
"""
# The same stub without CMake, for the build-command input: what configure_file does, by sed.
PLAIN_BUILD = """#!/bin/sh
set -e
counted=OFF
case " $PERFGATE_AB_COUNT_ARGS " in *" -DCOUNTED=ON "*) counted=ON ;; esac
mkdir -p "$BUILD_DIR/$(dirname {binary})"
sed -e "s|@RATE@|{rate}|g" -e "s|@WORK@|{work}|g" -e "s|@COUNTED@|$counted|g" -e "s|@CMAKE_SOURCE_DIR@|$PWD|g" \\
  runtime.sh.in > "$BUILD_DIR/{binary}"
chmod 755 "$BUILD_DIR/{binary}"
"""
RECORDED_LLAMA_BENCH = os.path.join(SOURCE, "perf", "tests", "data", "recorded", "llama-bench-tiny-llama-ci.json")


# Heads that attack the A/B (issue 48 item 10): one whose build copies its binary over the base's,
# so the A/B would compare the head with itself; one whose binary, once run, does the same.
OVERWRITE_AT_BUILD = ('file(COPY_FILE "${CMAKE_BINARY_DIR}/bin/stub-runtime" '
                      '"${CMAKE_BINARY_DIR}/../base/bin/stub-runtime")')
OVERWRITE_AT_RUN = 'cp "$0" "$(dirname "$0")/../../base/bin/stub-runtime" 2>/dev/null'


def commit_runtime(repo, rate, binary="bin/stub-runtime", message="runtime", work=10, cmake_extra="", script_extra=""):
    os.makedirs(os.path.join(repo, "perf"), exist_ok=True)
    open(os.path.join(repo, "CMakeLists.txt"), "w").write(
        RUNTIME_CMAKE.format(rate=rate, binary=binary, work=work, cmake_extra=cmake_extra))
    open(os.path.join(repo, "runtime.sh.in"), "w").write(RUNTIME_SCRIPT.format(script_extra=script_extra))
    open(os.path.join(repo, "build.sh"), "w").write(PLAIN_BUILD.format(rate=rate, binary=binary, work=work))
    open(os.path.join(repo, "perf", "ab-suite.json"), "w").write(SUITE)
    open(os.path.join(repo, "perf", "count-suite.json"), "w").write(COUNT_SUITE)
    shutil.copyfile(RECORDED_LLAMA_BENCH, os.path.join(repo, "llama-bench.json"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def new_repo(path):
    """An empty repository at `path` on branch main, with a committer."""
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "dry@run")
    git(path, "config", "user.name", "dry run")


def make_origin():
    """The runtime's repository: main at rate 60 and work 10, and branches for each scenario's head."""
    origin = os.path.join(WORK, "origin")
    new_repo(origin)
    commit_runtime(origin, 60.0, message="base")
    for branch, rate, binary, work in (("same", 60.0, "bin/stub-runtime", 10), ("slower", 20.0, "bin/stub-runtime", 10),
                                       ("heavier", 60.0, "bin/stub-runtime", 11), ("unbuilt", 60.0, "bin/other-name", 10)):
        git(origin, "checkout", "-q", "-b", branch, "main")
        open(os.path.join(origin, "NOTES"), "w").write(branch + "\n")
        commit_runtime(origin, rate, binary, message=branch, work=work)
    for branch, attack in (("overwrite-build", {"cmake_extra": OVERWRITE_AT_BUILD}),
                           ("overwrite-run", {"script_extra": OVERWRITE_AT_RUN})):
        git(origin, "checkout", "-q", "-b", branch, "main")
        commit_runtime(origin, 20.0, message=branch, **attack)
    git(origin, "checkout", "-q", "--orphan", "unrelated")
    commit_runtime(origin, 60.0, message="no common history")
    git(origin, "checkout", "-q", "main")
    return origin


# A runtime whose build needs its submodule `dep`: configuring without it fails.
NEEDS_DEP = ('if(NOT EXISTS "${CMAKE_SOURCE_DIR}/dep/rate")\n'
             '  message(FATAL_ERROR "the submodule dep is not checked out")\nendif()\n'
             # and configure arguments given as a list: one holds a space
             'if(NOT SPACED STREQUAL "two words")\n'
             '  message(FATAL_ERROR "configure argument SPACED is \'${SPACED}\'")\nendif()')
# Local submodule URLs are file paths, which git refuses unless allowed (the runner's are https).
FILE_SUBMODULES = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "protocol.file.allow", "GIT_CONFIG_VALUE_0": "always"}


def make_submodule_origin():
    """A runtime repository with a submodule its build needs: main at rate 60, branch slower at 20."""
    dep = os.path.join(WORK, "dep-origin")
    new_repo(dep)
    open(os.path.join(dep, "rate"), "w").write("60\n")
    git(dep, "add", "-A")
    git(dep, "commit", "-q", "-m", "dep")
    origin = os.path.join(WORK, "sub-origin")
    new_repo(origin)
    git(origin, "-c", "protocol.file.allow=always", "submodule", "add", "-q", dep, "dep")
    commit_runtime(origin, 60.0, message="base", cmake_extra=NEEDS_DEP)
    git(origin, "checkout", "-q", "-b", "slower", "main")
    commit_runtime(origin, 20.0, message="slower", cmake_extra=NEEDS_DEP)
    git(origin, "checkout", "-q", "main")
    return origin


def workspace(origin, name, branch, submodules=False):
    """The runner's workspace after the checkouts: runtime/head at the branch, origin as its remote."""
    ws = os.path.join(WORK, name)
    head = os.path.join(ws, "runtime", "head")
    os.makedirs(os.path.dirname(head))
    sh(["git", "clone", "-q", "--no-local", "-b", branch, origin, head], cwd=ws)
    if submodules:  # what actions/checkout does with submodules: true
        sh(["git", "-c", "protocol.file.allow=always", "-C", head, "submodule", "update", "-q", "--init"], cwd=ws)
    cli = os.path.join(ws, "perfgate", "build", "cli")
    os.makedirs(cli)
    os.symlink(os.path.abspath(PERFGATE), os.path.join(cli, "perfgate"))
    os.symlink(os.path.join(SOURCE, "thresholds"), os.path.join(ws, "perfgate", "thresholds"))
    os.symlink(os.path.join(SOURCE, "scripts"), os.path.join(ws, "perfgate", "scripts"))
    return ws


def searchable_by_others(path):
    """Whether a user other than the owner can reach `path`: every folder on the way searchable."""
    path = os.path.abspath(path)
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


# Run as root, the workflow builds the head as a user of its own, who must be able to reach the
# workspace; a scratch folder under a 0700 parent (scripts/check's copy) cannot be reached, and
# there the head is built by the job's user, as the job lets a runner choose.
SEPARATE_HEAD_USER = os.geteuid() == 0 and searchable_by_others(os.path.dirname(os.path.abspath(WORK)))


def run(job, ws, event_name, fork=False, head_user=None, event=None, env=None, **changed):
    """Runs the job's steps like the runner does; returns (outcomes, summary, gh calls, comment body).
    `changed` overrides inputs (measure="auto", count_suite="")."""
    inputs = {"perfgate-repository": "o/perfgate", "perfgate-ref": "v1", "suite": "runtime/head/perf/ab-suite.json",
              "runtime": "stubrt", "binary": "bin/stub-runtime", "build-target": "stub-runtime",
              "configure-args": "", "build-command": "", "submodules": "false", "models": "small", "vocab-dir": "", "thresholds-dir": "perfgate/thresholds", "min-rounds": 3, "max-rounds": 4,
              "launch-reading": "median", "measure": "both",
              "count-suite": "runtime/head/perf/count-suite.json", "count-runtime": "stubcount",
              "count-configure-args": "-DCOUNTED=ON", "count-min-rounds": 3, "count-max-rounds": 4,
              "runs-on": '"ubuntu-latest"', "comment": True}
    declared = job_inputs()
    for key, value in changed.items():
        key = key.replace("_", "-")
        check(key in declared, f"the dry run sets a declared input ({key})")
        inputs[key] = value
    # The guard is the subject of other tests; a busy build machine must not skip the rounds.
    settings = {"PERFGATE_CONTENTION": "off"}
    if head_user is not None:
        settings["PERFGATE_AB_HEAD_USER"] = head_user
    elif not SEPARATE_HEAD_USER:
        settings["PERFGATE_AB_HEAD_USER"] = ""
    settings.update(env or {})
    return run_ab_job(job, ws, WORK, inputs, event_name, fork, HARNESS_STEPS, settings, event)


def job_inputs():
    return yaml.safe_load(open(WORKFLOW))[True]["workflow_call"]["inputs"]


def check_own_ab_job(reusable):
    """perf-gate.yml's `ab` job against this workflow's inputs and the build it names."""
    caller = yaml.safe_load(open(os.path.join(os.path.dirname(WORKFLOW), "perf-gate.yml")))
    job = caller["jobs"].get("ab", {})
    declared = reusable[True]["workflow_call"]["inputs"]
    given = job.get("with", {})
    check(job.get("uses") == "./.github/workflows/perfgate-ab.yml", "own ab job: calls the reusable workflow")
    check(job.get("if") == "github.event_name == 'pull_request'", "own ab job: runs on pull requests")
    unknown = sorted(set(given) - set(declared))
    check(not unknown, f"own ab job: every input it passes is declared ({unknown})")
    missing = sorted(k for k, v in declared.items() if v.get("required") and k not in given)
    check(not missing, f"own ab job: every required input is given ({missing})")
    check(given.get("perfgate-ref") == "${{ github.event.pull_request.base.sha }}",
          "own ab job: the perfgate that measures is the target branch's, not the pull request's")
    check(job.get("permissions", {}).get("pull-requests") == "write",
          "own ab job: grants what the reusable job asks (pull-requests: write, for the comment)")
    cmake = open(os.path.join(SOURCE, "cmake", "PerfgateLlamaCpp.cmake")).read()
    check('set(_llama_root "${CMAKE_BINARY_DIR}/llama.cpp")' in cmake
          and 'set(_llama_build "${_llama_root}/build-${PERFGATE_LLAMA_BACKEND}")' in cmake
          and "-DPERFGATE_LLAMA_BACKEND=cpu" in given.get("configure-args", "")
          and given.get("binary") == "llama.cpp/build-cpu/bin/llama-bench",
          "own ab job: the binary is where the embedded cpu build puts llama-bench")
    check(f"ExternalProject_Add({given.get('build-target')}\n" in cmake, "own ab job: the build target is the embedded llama.cpp")
    check('set(_llama_src "${_llama_root}/src")' in cmake and given.get("vocab-dir") == "build/head/llama.cpp/src/models",
          "own ab job: the tokenizers are the head build's fetched llama.cpp models/")
    check("-DPERFGATE_LLAMA_NATIVE=OFF" in given.get("count-configure-args", "")
          and "if(NOT PERFGATE_LLAMA_NATIVE)\n    list(APPEND _llama_args ${PERFGATE_LLAMA_X86_PORTABLE_FLAGS})" in cmake,
          "own ab job: the counted builds are not native (no AVX-512 for valgrind) and name their x86 sets")
    for key, runtime in (("suite", given.get("runtime")), ("count-suite", given.get("count-runtime"))):
        path = given.get(key, "")
        check(path.startswith("perfgate/"), f"own ab job: {key} is perfgate's own ({path})")
        suite = yaml.safe_load(open(os.path.join(SOURCE, path[len("perfgate/"):])))
        check(any(r["name"] == runtime for r in suite["runtimes"])
              and all(any(m["name"] == model for m in suite["models"]) for model in given.get("models", "").split()),
              f"own ab job: {path} has runtime {runtime} and the models {given.get('models')}")
    check(suite["runtimes"][0].get("measure") == "instructions", "own ab job: the count suite counts instructions")


def check_comment_search(job):
    """The comment step's jq program, run by the real jq (gh's --jq is gojq, the same language for
    this) on comments a person and the job's bot posted: only the bot's comment under the marker is
    found, so a person who posts the marker first cannot take the report over, and a marker with
    quotes and jq's interpolation syntax stays data."""
    step = next(st for st in job["steps"] if st.get("name") == "Report as a pull-request comment")
    program = step["run"].split("--jq '", 1)[1].split("'", 1)[0]
    marker = '<!-- perfgate-ab: odd"\\(1+1)name -->'
    comments = [{"id": 1, "user": {"type": "User"}, "body": marker + "\nposted by a person"},
                {"id": 2, "user": {"type": "Bot"}, "body": "<!-- perfgate-ab: other -->\nanother runtime"},
                {"id": 3, "user": {"type": "Bot"}, "body": marker + "\nthe report"}]
    found = sh(["jq", "-r", program], cwd=WORK, env=dict(os.environ, PERFGATE_AB_MARKER=marker),
               input_text=json.dumps(comments)).stdout.split()
    check(found == ["3"], f"comment search: only the bot's comment under the marker is found ({found})")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    workflow = yaml.safe_load(open(WORKFLOW))
    check("workflow_call" in workflow[True], "the workflow is reusable (on: workflow_call)")
    job = workflow["jobs"]["ab"]
    check(job.get("container") == "debian:12", "ab: perfgate is built in a Debian 12 container")
    check_own_ab_job(workflow)
    checkouts = [st for st in job["steps"] if str(st.get("uses", "")).startswith("actions/checkout")]
    check(len(checkouts) == 2 and all(st.get("with", {}).get("persist-credentials") is False for st in checkouts),
          "ab: neither checkout leaves the token where the head's build can read it (persist-credentials: false)")
    origin = make_origin()

    # 1. An unchanged head passes, with the report in the summary and the comment.
    out, summary, calls, body = run(job, workspace(origin, "same", "same"), "pull_request")
    check(out["ab"]["outputs"].get("rc") == "0", f"unchanged: perfgate ab exits 0 ({out['ab']['outputs']})")
    check(out["Verdict"]["outcome"] == "success", "unchanged: the verdict passes")
    check("perfgate ab: stubrt" in summary and "small" in summary, "unchanged: the report is in the job summary")
    check("pr comment 7 --repo o/runtime" in calls and body == "<!-- perfgate-ab: stubrt -->\n" + open(
              os.path.join(WORK, "same", "perfgate-ab", "comment.md")).read(),
          "unchanged: the report is posted as the pull request's comment, under its marker")
    check("no thresholds/default.json" not in body, "unchanged: the floors come from perfgate's thresholds")
    check("x 3 metrics" in body.split("Instructions per token", 1)[0],
          "unchanged: the timed A/B splits its false-alarm rate over the 3 metrics it measures")
    artifact = os.listdir(os.path.join(WORK, "same", "perfgate-ab"))
    check(any(f.endswith(".csv") for f in artifact), "unchanged: the A/B rows are recorded for the artifact")
    check({"ab.md", "ab.junit.xml", "ab.json"} <= set(artifact),
          f"unchanged: the report's markdown, JUnit and JSON are in the artifact ({sorted(artifact)})")
    check(json.load(open(os.path.join(WORK, "same", "perfgate-ab", "ab.json"))).get("launch_reading") == "median",
          "unchanged: a launch is read by its median unless launch-reading says otherwise")
    check(out["ab"]["outputs"].get("count_rc") == "0", f"unchanged: the counted A/B exits 0 ({out['ab']['outputs']})")
    counted = os.listdir(os.path.join(WORK, "same", "perfgate-ab", "instructions"))
    check({"ab.md", "ab.junit.xml", "ab.json"} <= set(counted) and any(f.endswith(".csv") for f in counted),
          f"unchanged: the counted A/B's report and rows are in the artifact's instructions/ ({sorted(counted)})")
    check("Instructions per token" in body and "Decode instructions" in body and "x 2 metrics" in body,
          "unchanged: the comment carries the counted A/B beside wall time")
    head_count = os.path.join(WORK, "same", "build", "head-count")
    check(os.path.isdir(head_count) and not os.path.islink(head_count),
          "unchanged: the counted builds have folders of their own")

    # 2. A 3x slower head fails, and says so; read by each launch's best repetition, as asked.
    out, summary, calls, body = run(job, workspace(origin, "slower", "slower"), "pull_request", launch_reading="best")
    check(json.load(open(os.path.join(WORK, "slower", "perfgate-ab", "ab.json"))).get("launch_reading") == "best",
          "slower: launch-reading best reaches perfgate ab")
    check(out["ab"]["outputs"].get("rc") == "1", "slower: perfgate ab exits 1")
    check(out["Verdict"]["outcome"] == "failure" and "regressed" in out["Verdict"]["stdout"],
          "slower: the verdict fails with the regression")
    check("regressed" in body and "regressed" in summary, "slower: the comment and the summary name the regression")
    check("api -X PATCH repos/o/runtime/issues/comments/1000" in calls and "pr comment" not in calls,
          f"slower: a later push to the same pull request edits its comment, no second one ({calls.strip()})")
    check_comment_search(job)
    junit = open(os.path.join(WORK, "slower", "perfgate-ab", "ab.junit.xml")).read()
    check('<failure type="regressed"' in junit, "slower: the JUnit file carries the regression as a failure")
    check(out["ab"]["outputs"].get("count_rc") == "0" and "perfgate ab (instructions): no regression" in out["Verdict"]["stdout"],
          "slower: its work per token did not change, and the counted A/B says so")

    # 2b. 10% more work per token, the same wall-time rate: counted instructions catch it.
    out, summary, calls, body = run(job, workspace(origin, "heavier", "heavier"), "pull_request")
    check(out["ab"]["outputs"].get("count_rc") == "1", f"heavier: the counted A/B exits 1 ({out['ab']['outputs']})")
    check(out["Verdict"]["outcome"] == "failure"
          and "perfgate ab (instructions): a metric regressed" in out["Verdict"]["stdout"],
          "heavier: the verdict fails on instructions")
    check("regressed" in body.split("Instructions per token", 1)[-1],
          "heavier: the comment's counted section names the regression")

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

    # 5b. A merge queue's group of the slower head: compared with the base the group was built on,
    # measured, and failed; no pull request to comment on.
    queue_base = git(origin, "rev-parse", "main")
    out, summary, calls, body = run(job, workspace(origin, "queue", "slower"), "merge_group",
                                    event={"merge_group": {"base_sha": queue_base}})
    check(out["base"]["outcome"] == "success" and out["base"]["outputs"].get("base") == queue_base,
          f"merge queue: the base is the group's base ({out['base']['outputs']})")
    check(out["Verdict"]["outcome"] == "failure" and "regressed" in out["Verdict"]["stdout"],
          "merge queue: the slower group is measured and fails")
    check(out["Report as a pull-request comment"]["outcome"] == "skipped" and calls == "",
          "merge queue: no comment (no pull request)")

    # 5c. Another build system (build-command instead of CMake): the slower head is built by its
    # own script, measured and failed, its counted twin built too.
    out, summary, calls, body = run(job, workspace(origin, "plain", "slower"), "pull_request",
                                    build_command='sh build.sh')
    plain = os.path.join(WORK, "plain", "build")
    check(os.path.isfile(os.path.join(plain, "head", "bin", "stub-runtime"))
          and not os.path.exists(os.path.join(plain, "head", "CMakeCache.txt")),
          "build-command: the head is built by its own command, not CMake")
    check(out["ab"]["outputs"].get("rc") == "1" and out["Verdict"]["outcome"] == "failure",
          f"build-command: the slower head is measured and fails ({out['ab']['outputs']})")
    counted_stub = open(os.path.join(plain, "head-count", "bin", "stub-runtime")).read()
    check(out["ab"]["outputs"].get("count_rc") == "0" and 'if [ "ON" = "ON" ]' in counted_stub,
          "build-command: the counted twin is built with the count arguments and counted")

    # 5d. Submodules: the base is a worktree, and its submodules are checked out as the head's
    # were; without the input the base's build finds its submodule missing and the job fails.
    sub_origin = make_submodule_origin()
    out, summary, calls, body = run(job, workspace(sub_origin, "submodules", "slower", submodules=True),
                                    "pull_request", env=FILE_SUBMODULES, submodules="true", measure="time",
                                    configure_args="-DSPACED=two words\n  -DOTHER=1 \n")
    check(out["Build base"]["outcome"] == "success" and out["ab"]["outputs"].get("rc") == "1",
          f"submodules: base and head build with their submodule and the list of configure arguments, and the slower "
          f"head fails ({out['ab']['outputs']})")
    out, summary, calls, body = run(job, workspace(sub_origin, "no-submodules", "slower", submodules=True),
                                    "pull_request", env=FILE_SUBMODULES, measure="time",
                                    configure_args="-DSPACED=two words\n")
    check(out["Build base"]["outcome"] == "failure" and out["Verdict"]["outcome"] == "failure",
          "submodules: without the input the base has no submodule, its build fails, and so does the job")

    # 6. The head's build does not make the binary: perfgate ab refuses before measuring.
    out, summary, calls, body = run(job, workspace(origin, "unbuilt", "unbuilt"), "pull_request")
    check(out["ab"]["outputs"].get("rc") == "2", f"unbuilt: perfgate ab exits 2 ({out['ab']['outputs']})")
    check(out["Verdict"]["outcome"] == "failure" and "usage or input error" in out["Verdict"]["stdout"],
          "unbuilt: the verdict fails")

    # 7. measure: auto on a CPU runner (this machine has no GPU tool on its PATH): the counted A/B
    #    alone runs and decides; with count-configure-args no timed build is made.
    gpu_tools = [t for t in ("nvidia-smi", "rocminfo") if shutil.which(t)]
    if not gpu_tools:
        out, summary, calls, body = run(job, workspace(origin, "auto-cpu", "heavier"), "pull_request", measure="auto")
        check(out["measure"]["outcome"] == "success" and "measures instructions (a CPU runner" in out["measure"]["stdout"],
              f"auto on a CPU runner: instructions are measured, and a notice says why ({out['measure']['stdout']!r})")
        check(not os.path.exists(os.path.join(WORK, "auto-cpu", "build", "head"))
              and os.path.isdir(os.path.join(WORK, "auto-cpu", "build", "head-count")),
              "auto on a CPU runner: only the counted builds are made")
        check("rc" not in out["ab"]["outputs"] and out["ab"]["outputs"].get("count_rc") == "1",
              f"auto on a CPU runner: no timed A/B, the counted one regresses ({out['ab']['outputs']})")
        check("Wall time not measured (measure: instructions)" in body and "Instructions per token" in body,
              "auto on a CPU runner: the comment says wall time was not measured and carries the counted A/B")
        check(out["Verdict"]["outcome"] == "failure" and "wall time" not in out["Verdict"]["stdout"]
              and "perfgate ab (instructions): a metric regressed" in out["Verdict"]["stdout"],
              "auto on a CPU runner: the verdict is the counted A/B's alone")
        # Without a count suite, auto times.
        out, summary, calls, body = run(job, workspace(origin, "auto-time", "slower"), "pull_request", measure="auto",
                                        count_suite="")
        check("measures time (a CPU runner, and no count-suite" in out["measure"]["stdout"]
              and out["ab"]["outputs"].get("rc") == "1" and "count_rc" not in out["ab"]["outputs"],
              f"auto without count-suite: wall time is measured ({out['ab']['outputs']})")
        check(out["Verdict"]["outcome"] == "failure" and "instructions" not in out["Verdict"]["stdout"],
              "auto without count-suite: the verdict is wall time's")
    else:
        print(f"note: {', '.join(gpu_tools)} on PATH: the CPU-runner default is not exercised here")
    # 9. A head whose build copies its (3x slower) binary over the base's: without the seal, the A/B
    #    compared the head with itself ("unchanged 20.0 -> 20.0", PASS). Run as root, the head's
    #    build is another user's and cannot write there; run as anyone else, the seal sees it.
    out, summary, calls, body = run(job, workspace(origin, "overwrite-build", "overwrite-build"), "pull_request")
    as_root = SEPARATE_HEAD_USER
    if as_root:
        check(out["Build head"]["outcome"] == "failure" and "Permission denied" in out["Build head"]["stdout"],
              "overwrite at build, as root: the head's build, another user's, cannot write the base build")
    else:
        check(out["Check the seal after the head's build"]["outcome"] == "failure"
              and "changed after the head's build" in out["Check the seal after the head's build"]["stdout"]
              and "build/base/bin/stub-runtime" in out["Check the seal after the head's build"]["stdout"],
              "overwrite at build: the seal names the base binary the head's build changed")
    check(out["ab"]["outcome"] == "skipped" and out["Verdict"]["outcome"] == "failure",
          "overwrite at build: nothing is compared and the verdict fails closed")
    # 9b. A head whose binary, run in the A/B, writes itself over the base's: caught after the A/B.
    out, summary, calls, body = run(job, workspace(origin, "overwrite-run", "overwrite-run"), "pull_request")
    check(out["seal_after"]["outcome"] == "failure" and "changed after the A/B" in out["seal_after"]["stdout"],
          "overwrite at run: the seal after the A/B names the changed base binary")
    check(out["Verdict"]["outcome"] == "failure" and "not as sealed after the A/B" in out["Verdict"]["stdout"],
          "overwrite at run: the verdict fails closed, whatever the A/B said")
    # The head is built by a user of its own when the job is root (not when the dry run is not).
    same_head = os.path.join(WORK, "same", "build", "head")
    check((os.stat(same_head).st_uid != os.geteuid()) == as_root,
          f"unchanged: the head's build folder belongs to {'a user of its own' if as_root else 'the job user'}")
    # Root under a folder others cannot search: the head's user cannot reach the workspace, and
    # the build says so instead of failing with "source directory does not exist".
    if os.geteuid() == 0 and not SEPARATE_HEAD_USER:
        out, summary, calls, body = run(job, workspace(origin, "unreachable", "same"), "pull_request",
                                        head_user="perfgate-head")
        check(out["Build head"]["outcome"] == "failure" and "cannot reach" in out["Build head"]["stdout"]
              and out["Verdict"]["outcome"] == "failure",
              "root under an unsearchable folder: the head's user cannot reach it, said plainly, and the job fails")
    else:
        print("note: the workspace's folders are searchable (or this is not root): the unreachable case is not tried")

    # 8. Counting asked for without a count suite: refused before anything is built; fails closed.
    out, summary, calls, body = run(job, workspace(origin, "no-count", "same"), "pull_request", measure="instructions",
                                    count_suite="")
    check(out["measure"]["outcome"] == "failure" and "no count-suite" in out["measure"]["stdout"]
          and out["Verdict"]["outcome"] == "failure", "instructions without count-suite: refused, the verdict fails")
    out, summary, calls, body = run(job, workspace(origin, "bad-measure", "same"), "pull_request", measure="sometimes")
    check(out["measure"]["outcome"] == "failure" and out["Verdict"]["outcome"] == "failure",
          "an unknown measure: refused, the verdict fails")

    finish()


if __name__ == "__main__":
    main()

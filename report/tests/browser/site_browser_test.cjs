// The dashboard in a real browser (Debian's chromium, driven headless by playwright-core from
// tools/site): the page loads with no console error; every chart draws one point per recorded run,
// counted here from the CSVs themselves, not from the page's data; the index lists every series;
// a hover over a run names that run and links its commit; an acknowledged change is drawn where it
// starts and said under its chart; the runtime tables label each model whose two sides loaded other
// weights, read from the CSVs; a screenshot is taken and is not blank.
// usage: node site_browser_test.cjs SITE_DIR BENCHMARKS_DIR TOOLS_DIR SCREENSHOT.png
"use strict";
const fs = require("fs");
const path = require("path");
const [siteDir, benchDir, toolsDir, shot] = process.argv.slice(2);
const { chromium } = require(path.resolve(toolsDir, "node_modules", "playwright-core"));

let failures = 0;
function check(ok, what) {
  console.log((ok ? "ok: " : "FAIL: ") + what);
  if (!ok) failures++;
}

// RFC 4180 records (quoted fields may hold commas, quotes and newlines).
function parseCsv(text) {
  const rows = []; let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field); rows.push(row); row = []; field = "";
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => r.length > 1);
}

// Runs per host/runtime/model with an ok decode reading: distinct run_id (a row without one is a run).
function expectedRuns() {
  const runs = {};
  for (const name of fs.readdirSync(benchDir).filter((f) => f.endsWith(".csv"))) {
    const [header, ...rows] = parseCsv(fs.readFileSync(path.join(benchDir, name), "utf8"));
    const col = (r, k) => r[header.indexOf(k)] || "";
    const host = name.split("_")[1];
    rows.forEach((r, i) => {
      const status = col(r, "status");
      if ((status && status !== "ok") || !col(r, "decode_tok_s") || col(r, "arm")) return;
      const key = [col(r, "host") || host, col(r, "runtime"), col(r, "model")].join(" ");
      (runs[key] = runs[key] || new Set()).add(col(r, "run_id") || name + ":" + i);
    });
  }
  return runs;
}

// The latest h200 file's models measured by both runtimes, with each side's format.
function expectedComparisons() {
  const name = fs.readdirSync(benchDir).filter((f) => f.startsWith("cuda_h200_") && f.endsWith(".csv")).sort().pop();
  const [header, ...rows] = parseCsv(fs.readFileSync(path.join(benchDir, name), "utf8"));
  const col = (r, k) => r[header.indexOf(k)] || "";
  const formats = {};
  for (const r of rows) {
    if ((col(r, "status") && col(r, "status") !== "ok") || !col(r, "decode_tok_s")) continue;
    (formats[col(r, "model")] = formats[col(r, "model")] || {})[col(r, "runtime")] = col(r, "format");
  }
  const out = {};
  for (const [model, f] of Object.entries(formats))
    if (f["llama-bench"] !== undefined && f.transformers !== undefined) out[model] = f["llama-bench"] !== f.transformers;
  return out;
}

(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("file://" + path.resolve(siteDir, "index.html"));
  await page.waitForSelector("body[data-ready='1']", { timeout: 15000 });
  check(errors.length === 0, "no console error" + (errors.length ? ": " + errors.join("; ") : ""));

  const charts = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById("perfgate-data").textContent);
    return data.series.map((s) => {
      const u = window.perfgateCharts[s.id];
      const drawn = u ? u.data.slice(1).reduce((n, col) => n + col.filter((v) => v != null).length, 0) : -1;
      return { id: s.id, key: [s.host, s.runtime, s.model].join(" "), metric: s.metric, drawn, links: document.querySelectorAll("#pairs a[href='#s-" + s.id + "']").length };
    });
  });
  const expected = expectedRuns();
  // A pair's decode runs, over its charts (runs under other runtime flags are a chart of their own).
  const drawn = {};
  for (const c of charts.filter((c) => c.metric === "decode_tok_s")) drawn[c.key] = (drawn[c.key] || 0) + c.drawn;
  check(Object.keys(drawn).length === Object.keys(expected).length,
        `decode charts for every pair with readings (${Object.keys(drawn).length} of ${Object.keys(expected).length})`);
  for (const [key, runs] of Object.entries(expected))
    check(drawn[key] === runs.size, `${key}: ${drawn[key]} points drawn, ${runs.size} runs recorded`);
  check(charts.every((c) => c.links === 1), "the index links every series once");

  // Hover over the middle run of the first chart: the line under it names that run.
  const hovered = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById("perfgate-data").textContent);
    const s = data.series[0], u = window.perfgateCharts[s.id], i = Math.floor(s.runs.length / 2);
    u.over.scrollIntoView({ block: "center" });
    const rect = u.over.getBoundingClientRect();
    // Two pixels inside the plot at its edges: the cursor snaps to the nearest run.
    const x = Math.min(Math.max(u.valToPos(u.data[0][i], "x"), 2), rect.width - 2);
    return { x: rect.left + x, y: rect.top + rect.height / 2, run: s.runs[i].run, id: s.id };
  });
  await page.mouse.move(hovered.x - 5, hovered.y);
  await page.mouse.move(hovered.x, hovered.y);
  // uPlot moves its cursor on the next animation frame.
  await page.waitForFunction((id) => document.querySelector("#s-" + id + " .tip").textContent !== "", hovered.id,
                             { timeout: 5000 }).catch(() => {});
  const tip = await page.evaluate((id) => document.querySelector("#s-" + id + " .tip").textContent, hovered.id);
  check(tip.includes("run " + hovered.run), `hover names the run under the cursor (${hovered.run}): "${tip}"`);
  const link = await page.evaluate((id) => {
    const data = JSON.parse(document.getElementById("perfgate-data").textContent);
    const s = data.series.find((x) => x.id === id), run = document.querySelector("#s-" + id + " .tip").dataset.run;
    const a = document.querySelector("#s-" + id + " .tip a.commit");
    return { href: a ? a.href : "", commit: s.runs.find((r) => r.run === run).commit };
  }, hovered.id);
  check(link.commit !== "" && link.href === "https://github.com/ggml-org/llama.cpp/commit/" + link.commit,
        `the hovered run links its commit (${link.href})`);

  // The acknowledged change: a green vertical line at its first run, and a line of text under the chart.
  const ack = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById("perfgate-data").textContent);
    const s = data.series.find((x) => x.acknowledged.length && x.acknowledged[0].index != null);
    if (!s) return null;
    const u = window.perfgateCharts[s.id];
    const x = Math.round(u.valToPos(s.acknowledged[0].index, "x", true));
    const img = u.ctx.getImageData(x - 1, Math.round(u.bbox.top), 3, Math.round(u.bbox.height)).data;
    let green = 0;
    for (let i = 0; i < img.length; i += 4) if (Math.abs(img[i] - 27) < 12 && Math.abs(img[i + 1] - 127) < 12 && Math.abs(img[i + 2] - 42) < 12 && img[i + 3] > 0) green++;
    const marks = document.querySelector("#s-" + s.id + " .marks");
    return { key: [s.host, s.runtime, s.model, s.metric].join(" "), green, text: marks ? marks.textContent : "" };
  });
  check(ack !== null && ack.key === "h200 llama-bench llama-3.1-8b decode_tok_s", `the acknowledged series is marked (${ack && ack.key})`);
  check(ack !== null && ack.green > 20, `its start is drawn in green (${ack && ack.green} pixels)`);
  check(ack !== null && ack.text.includes("browser test: an acknowledged change"), "and said under its chart");

  // Runtimes side by side: every model both runtimes measured, labelled when the weights differ.
  const tableRows = await page.evaluate(() => Array.from(document.querySelectorAll("table.comparison tr")).slice(1)
    .map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  for (const [model, unlike] of Object.entries(expectedComparisons())) {
    const row = tableRows.find((r) => r[0] === model);
    check(row !== undefined && row[6].startsWith(unlike ? "not like for like" : "yes"),
          `${model}: ${row ? row[6] : "no row"} (${unlike ? "other weights" : "same weights"} in the CSV)`);
  }

  // Not blank: the first chart's canvas holds many colours, and so does the screenshot's file.
  const colours = await page.evaluate(() => {
    const u = Object.values(window.perfgateCharts)[0];
    const ctx = u.ctx, img = ctx.getImageData(0, 0, u.ctx.canvas.width, u.ctx.canvas.height).data;
    const seen = new Set();
    for (let i = 0; i < img.length; i += 4 * 7) if (img[i + 3] > 0) seen.add(img[i] + "," + img[i + 1] + "," + img[i + 2]);
    return seen.size;
  });
  check(colours >= 3, `the first chart drew in ${colours} colours`);
  await page.screenshot({ path: shot, fullPage: false });
  check(fs.statSync(shot).size > 20000, `screenshot ${path.basename(shot)} written (${fs.statSync(shot).size} bytes)`);
  await browser.close();
  if (failures) { console.log(`${failures} check(s) failed`); process.exit(1); }
  console.log("site browser test: all checks passed");
})().catch((e) => { console.error("site browser test:", e); process.exit(1); });

// perfgate site: draws the history charts of index.html from its embedded data (the
// <script id="perfgate-data"> element perfgate writes) with uPlot. No network: every file the page
// needs sits beside it. One uPlot per series; one line per machine, so machines stay apart; a
// dashed line at each change point the history scan found (green when acknowledged), a solid green
// line where an acknowledged change starts; the hovered run named below the chart with a link to
// its commit where the page has the runtime's commit URL.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("perfgate-data").textContent);
  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"];
  window.perfgateCharts = {};

  function runText(s, i) {
    var r = s.runs[i];
    return "run " + r.run + " \u00b7 " + r.when + " \u00b7 " + (r.commit ? "commit " + r.commit.slice(0, 12) : "no commit") +
      " \u00b7 machine " + (r.machine || "not recorded") + " \u00b7 " + r.value.toPrecision(6) + " " + s.unit;
  }

  // The tip's content as nodes, never as markup: names come from the CSVs.
  function showRun(tip, s, i) {
    tip.textContent = runText(s, i);
    tip.dataset.run = s.runs[i].run;
    var commit = s.runs[i].commit;
    if (commit && s.commit_url) {
      var a = document.createElement("a");
      a.href = s.commit_url.replace("{commit}", encodeURIComponent(commit));
      a.textContent = "open the commit";
      a.className = "commit";
      tip.appendChild(document.createTextNode(" \u00b7 "));
      tip.appendChild(a);
    }
  }

  function chart(s, el) {
    var machines = [];
    s.runs.forEach(function (r) { if (machines.indexOf(r.machine) < 0) machines.push(r.machine); });
    // One step per run, in the order recorded: runs come in sessions minutes apart and days between
    // them, so a time axis would pile a session into one column. The ticks name each run's date.
    var xs = s.runs.map(function (r, i) { return i; });
    var columns = [xs];
    var series = [{}];
    machines.forEach(function (m, k) {
      columns.push(s.runs.map(function (r) { return r.machine === m ? r.value : null; }));
      series.push({ label: m ? "machine " + m.slice(0, 8) : "machine not recorded", stroke: palette[k % palette.length],
                    width: 1, spanGaps: true, points: { show: true, size: 6 } });
    });
    var steps = s.steps.map(function (st) { return { index: st.index, acknowledged: !!st.acknowledged_by }; });
    var acknowledged = s.acknowledged.filter(function (a) { return a.index != null; }).map(function (a) { return a.index; });
    var tip = el.parentNode.querySelector(".tip");
    var u = new uPlot({
      width: Math.max(320, el.clientWidth || 640), height: 240, series: series,
      legend: { show: machines.length > 1 },
      scales: { x: { time: false }, y: { range: function (u, lo, hi) {
        if (s.reference != null) { lo = Math.min(lo, s.floor_level); hi = Math.max(hi, s.reference); }
        var pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.05 || 1;
        return [lo - pad, hi + pad];
      } } },
      axes: [{ label: "runs, oldest first", values: function (u, splits) {
                 return splits.map(function (i) { var r = s.runs[i]; return r && i === Math.round(i) ? r.when.slice(0, 10) : ""; });
               } },
             { label: s.label + " (" + s.unit + ")", size: 70 }],
      cursor: { points: { size: 8 } },
      hooks: {
        // The last run hovered stays named (and its commit link reachable) after the cursor leaves.
        setCursor: [function (u) {
          var i = u.cursor.idx;
          if (i != null) showRun(tip, s, i);
        }],
        draw: [function (u) {
          var ctx = u.ctx;
          ctx.save();
          if (s.reference != null) {
            // The gate's reference level (solid) and its floor (the band's far edge): a run beyond
            // the band in the bad direction is beyond the floor.
            var y0 = u.valToPos(s.reference, "y", true), y1 = u.valToPos(s.floor_level, "y", true);
            ctx.fillStyle = "rgba(120, 120, 120, 0.12)";
            ctx.fillRect(u.bbox.left, Math.min(y0, y1), u.bbox.width, Math.abs(y1 - y0));
            ctx.strokeStyle = "#777";
            ctx.beginPath(); ctx.moveTo(u.bbox.left, y0); ctx.lineTo(u.bbox.left + u.bbox.width, y0); ctx.stroke();
          }
          var vertical = function (i) {
            var x = Math.round(u.valToPos(xs[i], "x", true));
            ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
          };
          ctx.strokeStyle = "#1b7f2a";
          acknowledged.forEach(vertical);
          ctx.setLineDash([5, 4]);
          steps.forEach(function (st) { ctx.strokeStyle = st.acknowledged ? "#1b7f2a" : "#555"; vertical(st.index); });
          ctx.restore();
        }]
      }
    }, columns, el);
    window.perfgateCharts[s.id] = u;
  }

  data.series.forEach(function (s) {
    var el = document.getElementById("chart-" + s.id);
    if (el) chart(s, el);
  });
  document.body.dataset.ready = "1";
})();

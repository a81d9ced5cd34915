#pragma once
// perfgate site: a static, self-contained HTML dashboard of a benchmarks folder (docs/report.md,
// "The dashboard"). One index.html lists each host with its machines and the gate's verdict on its
// latest run, then every pair and metric with its latest reading and verdict, and draws each
// series' history (one point per run, machines apart, change points marked) with uPlot. The page
// embeds its data and sits beside the files it needs (uPlot and its licence, copied from the npm
// package perfgate pins in tools/site), so it opens from a file or any static host, offline.
#include <cstddef>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

struct SiteOptions {
    std::string benchmarks_dir = "benchmarks";
    std::string thresholds_dir = "thresholds";
    std::string output_dir;  // created when absent; the files perfgate writes are replaced atomically
    std::string uplot_dir;   // the uplot npm package (its dist/ and LICENSE)
};

struct SiteSummary {
    std::size_t hosts = 0, series = 0, runs = 0;  // runs: points drawn, over every series
    std::vector<std::string> files;               // written, relative to output_dir
};

Expected<SiteSummary> build_site(const SiteOptions& options);

}  // namespace perfgate::report

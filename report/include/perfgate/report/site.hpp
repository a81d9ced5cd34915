#pragma once
// perfgate site: a static, self-contained HTML dashboard of a benchmarks folder (docs/report.md,
// "The dashboard"). One index.html lists each host with its machines and the gate's verdict on its
// latest run, then every pair and metric with its latest reading and verdict, and draws each
// series' history (one point per run, machines apart, change points marked) with uPlot. The page
// embeds its data and sits beside the files it needs (uPlot and its licence, copied from the npm
// package perfgate pins in tools/site), so it opens from a file or any static host, offline.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

struct SiteOptions {
    std::string benchmarks_dir = "benchmarks";
    std::string thresholds_dir = "thresholds";
    std::string output_dir;  // created when absent; the files perfgate writes are replaced atomically
    std::string uplot_dir;   // the uplot npm package (its dist/ and LICENSE)
    // Runtime name -> a URL with "{commit}" where the run's commit goes: each run's commit is a link
    // (rows record the runtime's commit, not where its repository is).
    std::map<std::string, std::string> commit_urls;
};

// "llama-bench=https://github.com/ggml-org/llama.cpp/commit/{commit}" -> {runtime, template}. An
// error unless the runtime is named, the URL is http(s) and holds "{commit}" exactly once.
Expected<std::pair<std::string, std::string>> parse_commit_url(std::string_view text);

struct SiteSummary {
    std::size_t hosts = 0, series = 0, runs = 0;  // runs: points drawn, over every series
    std::vector<std::string> files;               // written, relative to output_dir
};

Expected<SiteSummary> build_site(const SiteOptions& options);

}  // namespace perfgate::report

// `perfgate site`: the static HTML dashboard of a benchmarks folder (report/site.hpp).
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "outcome_exit.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/report/site.hpp"

namespace perfgate::cli {

void add_site_command(CLI::App& app) {
    auto o = std::make_shared<report::SiteOptions>();
    // The uplot package scripts/bootstrap installs into the source tree's tools/site (npm ci).
    o->uplot_dir = PERFGATE_SITE_UPLOT_DIR;
    auto* cmd = app.add_subcommand(
        "site", "Write a static HTML dashboard of a benchmarks folder: hosts, machines, pairs with the gate's verdict on "
                "each host's latest run, and every series' history as an interactive chart (exit 0 written, 2 bad input)");
    cmd->add_option("--benchmarks-dir", o->benchmarks_dir, "Folder of result CSVs")
        ->capture_default_str()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--thresholds-dir", o->thresholds_dir, "Folder with default.json, <host_tag>.json and acknowledgements.json")
        ->capture_default_str()
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--output-dir", o->output_dir, "Folder to write index.html and its files into (created when absent)")
        ->required();
    cmd->add_option("--uplot-dir", o->uplot_dir, "The uplot npm package (dist/ and LICENSE)")->capture_default_str();
    auto urls = std::make_shared<std::vector<std::string>>();
    cmd->add_option("--commit-url", *urls,
                    "RUNTIME=URL with {commit}: link each run of that runtime to its commit (repeatable; e.g. "
                    "llama-bench=https://github.com/ggml-org/llama.cpp/commit/{commit})");
    cmd->callback([o, urls] {
        for (const auto& text : *urls) {
            auto url = report::parse_commit_url(text);
            if (!url) {
                exit_status = usage_error("perfgate site", url.error());
                return;
            }
            o->commit_urls[url->first] = url->second;
        }
        auto summary = report::build_site(*o);
        if (!summary) {
            exit_status = usage_error("perfgate site", summary.error());
            return;
        }
        fmt::print("perfgate site: {}/index.html: {} host(s), {} series, {} runs drawn\n", o->output_dir, summary->hosts,
                   summary->series, summary->runs);
        exit_status = exit_code::success;
    });
}

}  // namespace perfgate::cli

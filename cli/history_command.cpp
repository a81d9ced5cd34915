// perfgate history: the change points of every pair's history in a benchmarks folder, each step
// with its size, interval, first run and commit after it, and whether an acknowledgement accepted
// it; --check fails on a worsening step that none covers (main's job). The work is
// gates::scan_history (gates/history_scan.hpp); this file only parses options.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "outcome_exit.hpp"
#include "perfgate/gates/history_scan.hpp"

namespace perfgate::cli {
namespace {

struct HistoryOptions {
    std::string benchmarks_dir = "benchmarks", thresholds_dir = "thresholds", format = "text";
    gates::HistoryScanOptions scan;
    bool check = false;
};

int history(const HistoryOptions& o) {
    const std::string command = "perfgate history";
    auto acknowledgements = gates::read_acknowledgements(o.thresholds_dir);
    if (!acknowledgements) return usage_error(command, acknowledgements.error());
    gates::HistoryScanOptions scan_options = o.scan;
    scan_options.thresholds_dir = o.thresholds_dir;
    auto scan = gates::scan_history(o.benchmarks_dir, *acknowledgements, scan_options);
    if (!scan) return usage_error(command, scan.error());
    std::cout << (o.format == "json" ? gates::render_history_json(*scan) : gates::render_history_text(*scan));
    if (!o.check) return exit_code::success;
    const auto uncovered = gates::unacknowledged_worsening(*scan);
    // The verdict goes to stderr so that --format json keeps stdout a JSON document.
    std::cerr << gates::render_history_check(uncovered, o.thresholds_dir);
    return uncovered.empty() ? exit_code::success : exit_code::regression;
}

}  // namespace

void add_history_command(CLI::App& app) {
    auto o = std::make_shared<HistoryOptions>();
    auto* cmd = app.add_subcommand(
        "history",
        "List the change points (lasting steps) of each pair's history in the result CSVs: size, 95% interval, "
        "the first run and commit after each, and the acknowledgement that accepted it.\n"
        "Exit: 0 done (with --check: every worsening step acknowledged), 1 with --check: a worsening step "
        "no acknowledgement covers, 2 usage or input error.");
    cmd->add_option("--benchmarks", o->benchmarks_dir, "Folder of result CSVs")->capture_default_str();
    cmd->add_option("--thresholds", o->thresholds_dir,
                    "Folder with acknowledgements.json (absent: none) and the floors: a step counts from half its "
                    "pair's floor, and --check passes one below the floor")
        ->capture_default_str();
    cmd->add_option("--host", o->scan.host, "Only this host tag (default: every host tag in the folder)");
    cmd->add_option("--format", o->format, "text or json")->capture_default_str()->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("--alpha", o->scan.change_points.alpha, "False-step rate of each test, and the false discovery rate (Benjamini-Hochberg) across the series")
        ->capture_default_str()->check(CLI::Range(0.001, 0.2));
    cmd->add_option("--session-gap", o->scan.session_gap_s,
                    "Seconds: runs of one machine less than this apart are one session, the scan's unit (0: every run is one)")
        ->capture_default_str()->check(CLI::Range(0LL, 31LL * 24 * 3600));
    cmd->add_flag("--check", o->check, "Exit 1 when a worsening step is not acknowledged (main's job)");
    cmd->callback([o] { exit_status = history(*o); });
}

}  // namespace perfgate::cli

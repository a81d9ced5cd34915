#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "perfgate/gates/calibrated_file.hpp"
#include "perfgate/gates/host_thresholds.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/suite.hpp"
#include "perfgate/runner/calibrate.hpp"
#include "perfgate/runner/key_value.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::runner {
namespace {

// The policy calibration starts from: default.json alone, never an earlier host file.
Expected<gates::ThresholdSet> calibration_policy(const std::string& thresholds_dir) {
    auto loaded = gates::load_host_thresholds(thresholds_dir, "");
    if (!loaded) return loaded.error();
    return loaded->set;
}

Status check_power(double power) {
    if (!(power > 0.5 && power < 1)) return make_error("--power must be in (0.5, 1)");
    return Ok{};
}

std::filesystem::path output_file(const std::string& output, const std::string& thresholds_dir, const std::string& host) {
    return output.empty() ? std::filesystem::path(thresholds_dir) / (host + ".json") : std::filesystem::path(output);
}

Status check_campaign(const CampaignCalibrationRequest& r) {
    if (r.runs < 3) return make_error("--runs must be at least 3 (noise needs 3 readings per pair)");
    if (!(r.options.target_false_alarm > 0 && r.options.target_false_alarm <= 0.5))
        return make_error("--target-false-alarm must be in (0, 0.5]");
    return check_power(r.options.power);
}

}  // namespace

Expected<std::filesystem::path> calibrate_from_history(const HistoryCalibrationRequest& r, std::ostream& out) {
    if (auto st = check_power(r.options.rule.power); !st) return st.error();
    auto policy = calibration_policy(r.thresholds_dir);
    if (!policy) return policy.error();
    std::string host = r.host;
    if (host.empty()) {
        HostSource source;
        source.thresholds_dir = r.thresholds_dir;
        auto probed = resolve_host(source);
        if (!probed) return probed.error();
        host = probed->host;
    }
    auto pairs = gates::calibrate_from_history(r.benchmarks_dir, host, *policy, r.options);
    if (!pairs) return pairs.error();
    if (pairs->empty()) return make_error(fmt::format("{}: no ok run of host {} to calibrate from", r.benchmarks_dir, host));
    out << gates::render_history_calibration_report(host, *pairs, r.options);
    if (std::none_of(pairs->begin(), pairs->end(), [](const auto& p) { return p.calibrated; }))
        return make_error(fmt::format("host {}: no pair has {} runs yet; run the suite more often (nothing written)", host,
                                      r.options.rule.min_runs));
    const auto file = output_file(r.output, r.thresholds_dir, host);
    const std::string text = gates::render_history_thresholds(host, perf::today(), *pairs, r.options);
    if (auto written = gates::write_calibrated_thresholds(text, file.string()); !written) return written.error();
    return file;
}

Expected<std::filesystem::path> calibrate_by_campaign(const CampaignCalibrationRequest& r, std::ostream& log,
                                                      std::ostream& out) {
    if (auto st = check_campaign(r); !st) return st.error();
    auto suite = perf::load_suite(r.suite);
    if (!suite) return suite.error();
    auto policy = calibration_policy(r.thresholds_dir);
    if (!policy) return policy.error();
    auto host = resolve_host(r.host);
    if (!host) return host.error();
    perf::PairRequest request;
    request.host = *host;
    request.results_dir = r.results_dir;
    request.suffix = r.results_dir.empty() ? "" : "calibration";
    request.forge_dir = r.forge_dir;
    request.vocab_dir = r.vocab_dir;
    for (const auto& b : r.binaries) {
        auto kv = split_key_value(b, "--binary", "RUNTIME=PATH");
        if (!kv) return kv.error();
        request.binaries[kv->first] = kv->second;
    }
    auto chosen = parse_pair_selection(r.pairs);
    if (!chosen) return chosen.error();
    const auto& selected = chosen->empty() ? suite->pairs : *chosen;

    // Runs are interleaved (every pair once per round) so that a slow drift of the host's load
    // spreads over all pairs instead of biasing one.
    std::vector<ResultRow> rows;
    std::vector<bool> skipped(selected.size(), false);
    for (std::size_t run = 1; run <= r.runs; ++run) {
        for (std::size_t i = 0; i < selected.size(); ++i) {
            if (skipped[i]) continue;
            perf::PairRequest req = request;
            req.runtime = selected[i].runtime;
            req.model = selected[i].model;
            std::ostringstream measurements;  // CTest measurement lines are not wanted here
            auto outcome = perf::run_pair(*suite, req, log, measurements);
            if (!outcome) return outcome.error();
            log << fmt::format("perfgate calibrate: run {}/{} {}/{}: {}{}\n", run, r.runs, req.runtime, req.model,
                               outcome->status.text, outcome->reason.empty() ? "" : " (" + outcome->reason + ")");
            if (outcome->status.is_skip()) {
                skipped[i] = true;  // does not fit or no backend: nothing to calibrate
                continue;
            }
            if (outcome->row) rows.push_back(*outcome->row);
        }
    }
    if (rows.empty()) return make_error("no pair of the suite ran on this host; nothing to calibrate");

    gates::CalibrationOptions co = r.options;
    if (co.repetitions == 0) co.repetitions = static_cast<std::size_t>(suite->workload.repetitions);
    auto calibrated = gates::calibrate_rows(rows, *policy, co);
    if (!calibrated) return calibrated.error();
    gates::CalibrationRun info{suite->name, host->host, host->date, r.runs, co};
    const auto file = output_file(r.output, r.thresholds_dir, host->host);
    const std::string text = gates::render_calibrated_thresholds(info, *calibrated);
    if (auto written = gates::write_calibrated_thresholds(text, file.string()); !written) return written.error();
    out << gates::render_calibration_report(info, *calibrated);
    return file;
}

}  // namespace perfgate::runner

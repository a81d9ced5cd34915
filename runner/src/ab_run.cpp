#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <sstream>

#include "perfgate/core/metric.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/runner/ab.hpp"
#include "perfgate/runner/key_value.hpp"
#include "ab_rounds.hpp"
#include "percent_text.hpp"

namespace perfgate::runner {
namespace {

using detail::model_verdict;
using detail::RoundReadings;

using detail::percent;  // capped at +1000%: JSON keeps the numbers

std::string progress_of(const gates::PairedCheck& c) {
    if (!c.change) return c.metric + " -";
    const std::string ci = c.interval ? fmt::format(" [{}, {}]", percent(c.interval->low), percent(c.interval->high)) : "";
    return fmt::format("{} {}{} {}", c.metric, percent(*c.change), ci, gates::to_string(c.verdict));
}

class AbRun {
public:
    AbRun(const perf::Suite& suite, const perf::HostContext& host, const AbRequest& request, std::ostream& log,
          AbReport& report)
        : suite_(suite), host_(host), request_(request), log_(log), report_(report),
          metrics_(ab_metrics(*suite.find_runtime(request.runtime))) {}

    Expected<AbModelResult> run_model(const std::string& model) {
        AbModelResult result;
        result.model = model;
        result.runtime = request_.runtime;
        std::vector<RoundReadings> rounds;
        const auto started = std::chrono::steady_clock::now();
        for (std::size_t round = 0; round < request_.stop.max_rounds; ++round) {
            RoundReadings readings;
            const auto order = arm_order(round);
            for (const Arm arm : order) {
                auto measured = measure(model, arm);
                if (!measured) return measured.error();
                if (!measured->status.ok() || !measured->row) {
                    result.status = measured->status.text;
                    result.reason = fmt::format("{} arm, round {}: {}", to_string(arm), round + 1, measured->reason);
                    result.verdict = model_verdict(result);
                    return result;
                }
                detail::add_readings(*measured->row, metrics_, request_.reading,
                                     arm == Arm::base ? readings.base : readings.head);
            }
            rounds.push_back(std::move(readings));
            const bool stop = detail::look(result, context(model), request_.stop, rounds);
            result.seconds = seconds_since(started);
            const auto progress = mapped(result.checks, progress_of);
            log_ << fmt::format("[ab] {} on {}: round {}/{} ({} first): {}\n", model, request_.runtime, round + 1,
                                request_.stop.max_rounds, to_string(order.front()), fmt::join(progress, ", "))
                 << std::flush;
            if (stop) break;
        }
        result.verdict = model_verdict(result);
        return result;
    }

private:
    Expected<perf::PairOutcome> measure(const std::string& model, Arm arm) {
        perf::PairRequest req;
        req.runtime = request_.runtime;
        req.model = model;
        req.host = host_;
        req.results_dir = request_.results_dir;
        req.suffix = request_.suffix;
        req.binaries[request_.runtime] = arm == Arm::base ? request_.base_binary : request_.head_binary;
        req.forge_dir = request_.forge_dir;
        req.vocab_dir = request_.vocab_dir;
        req.repetitions = request_.repetitions;
        req.arm = to_string(arm);
        req.contention = request_.contention;
        std::ostringstream measurements;  // CTest measurements of single launches mean nothing here
        auto outcome = perf::run_pair(suite_, req, log_, measurements);
        if (outcome && !outcome->csv.empty()) report_.csv = outcome->csv;
        return outcome;
    }

    detail::RoundsContext context(const std::string& model) const {
        return {model, request_.runtime, metrics_, request_.thresholds, report_.levels, request_.stop.max_rounds,
                request_.reading};
    }

    static double seconds_since(std::chrono::steady_clock::time_point start) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    const perf::Suite& suite_;
    const perf::HostContext& host_;
    const AbRequest& request_;
    std::ostream& log_;
    AbReport& report_;
    std::vector<std::string> metrics_;  // the runtime's own (ab_metrics)
};

// "confidence 0.9940 at the last look, 0.9998 at the 5 looks before it"; one look when
// --min-rounds equals --max-rounds.
std::string looks_text(const gates::LookLevels& levels) {
    if (levels.looks <= 1) return fmt::format("confidence {:.4f} at the only look (after the last round)", levels.last);
    return fmt::format("confidence {:.4f} at the last look, {:.4f} at each of the {} look{} before it", levels.last,
                       levels.interim, levels.looks - 1, levels.looks == 2 ? "" : "s");
}

// A binary given as a path must be an executable file; a bare name must be found on PATH.
Status check_binary(const std::string& option, const std::string& runtime, const std::string& binary) {
    const bool is_path = binary.find('/') != std::string::npos;
    if (!is_path && find_on_path(binary)) return Ok{};
    if (is_path && ::access(binary.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(binary)) return Ok{};
    return make_error(fmt::format("{} {}={}: {}", option, runtime, binary,
                                  is_path ? "no executable file there" : "not found on PATH"));
}

}  // namespace

Status set_ab_binaries(AbRequest& request, const std::string& base_option, const std::string& head_option) {
    auto base = split_key_value(base_option, "--base-binary", "RUNTIME=PATH");
    if (!base) return base.error();
    auto head = split_key_value(head_option, "--head-binary", "RUNTIME=PATH");
    if (!head) return head.error();
    if (base->first != head->first)
        return make_error("--base-binary and --head-binary name different runtimes (" + base->first + ", " + head->first +
                          "): an A/B run compares two builds of one runtime");
    request.runtime = base->first;
    request.base_binary = base->second;
    request.head_binary = head->second;
    return Ok{};
}

std::vector<std::string> ab_metrics(const perf::SuiteRuntime& runtime) {
    std::vector<std::string> out;
    const auto measurable = perf::measurable_metrics(runtime);
    for (const auto& key : gated_metric_keys(runtime.measure))
        if (std::find(measurable.begin(), measurable.end(), key) != measurable.end()) out.push_back(key);
    return out;
}

Status check_ab_rounds(const StopRule& stop, double alpha, std::size_t tests) {
    if (stop.min_rounds < 2 || stop.max_rounds < stop.min_rounds)
        return make_error(fmt::format("rounds: want 2 <= --min-rounds <= --max-rounds, got {} and {}", stop.min_rounds,
                                      stop.max_rounds));
    const auto factor_at = [&](std::size_t max_rounds) {
        const auto levels =
            gates::sequential_look_levels(alpha, std::min(stop.min_rounds, max_rounds), max_rounds, tests);
        return gates::interval_half_width_factor(levels.last, max_rounds);
    };
    const double factor = factor_at(stop.max_rounds);
    if (factor <= kMaxIntervalFactor) return Ok{};
    std::size_t enough = stop.max_rounds + 1;
    while (enough < 1000 && factor_at(enough) > kMaxIntervalFactor) ++enough;
    return make_error(fmt::format(
        "rounds: with --max-rounds {} the interval of the last look is +-{:.1f} times the per-round spread (+-{:.0f}% "
        "where rounds scatter by 1%), too wide to decide any change within a floor; use --max-rounds {} or more",
        stop.max_rounds, factor, factor, enough));
}

Expected<AbReport> run_ab(const perf::Suite& manifest, const perf::HostContext& host, const AbRequest& request,
                          std::ostream& log) {
    const perf::SuiteRuntime* runtime = manifest.find_runtime(request.runtime);
    if (!runtime)
        return make_error(manifest.path.string() + ": no runtime named \"" + request.runtime + "\" in this suite");
    // Base and head are two builds that perfgate starts; a running server is one server.
    if (!runtime->serving.url.empty())
        return make_error(fmt::format("{}: runtime \"{}\" is a running server ({}): perfgate ab starts a base and a "
                                      "head build, and cannot start one there",
                                      manifest.path.string(), request.runtime, runtime->serving.url));
    const auto metrics = ab_metrics(*runtime);
    std::vector<std::string> models = request.models;
    if (models.empty())
        for (const auto& p : manifest.pairs)
            if (p.runtime == request.runtime) models.push_back(p.model);
    if (models.empty()) return make_error(manifest.path.string() + ": runtime \"" + request.runtime + "\" has no models");
    if (auto st = check_ab_rounds(request.stop, request.alpha, metrics.size() * models.size()); !st) return st.error();
    if (auto st = check_binary("--base-binary", request.runtime, request.base_binary); !st) return st.error();
    if (auto st = check_binary("--head-binary", request.runtime, request.head_binary); !st) return st.error();

    // The manifest's declared provenance describes its own binary, not the two arms: each arm's row
    // carries what that build printed about itself (llama-bench's build_commit).
    perf::Suite suite = manifest;
    for (auto& rt : suite.runtimes)
        if (rt.name == request.runtime) rt.commit.clear(), rt.version.clear();

    AbReport report;
    report.runtime = request.runtime;
    report.base_binary = request.base_binary;
    report.head_binary = request.head_binary;
    report.host = host.host;
    report.run_id = host.run_id;
    report.stop = request.stop;
    report.alpha = request.alpha;
    report.reading = request.reading;
    if (auto note = detail::launch_reading_note(request.reading); !note.empty()) report.notes.push_back(note);
    report.levels = detail::ab_levels(request.stop, request.alpha, metrics.size(), models.size());
    report.notes.push_back(false_alarm_note(report.levels, request.alpha, metrics.size(), models.size()));
    AbRun run(suite, host, request, log, report);
    for (const auto& model : models) {
        auto result = run.run_model(model);
        if (!result) return result.error();
        report.models.push_back(std::move(*result));
    }
    return report;
}

std::string false_alarm_note(const gates::LookLevels& levels, double alpha, std::size_t metrics, std::size_t models) {
    return fmt::format("{}: false alarms at most {:g}% for the whole run, split over its {} model{} x {} metric{} "
                       "(Haybittle-Peto looks, Bonferroni); `unchanged` by two one-sided tests at the floor, {:.4f} at "
                       "the last look",
                       looks_text(levels), alpha * 100, models, models == 1 ? "" : "s", metrics,
                       metrics == 1 ? "" : "s", levels.equivalence_last);
}

Outcome ab_outcome(const AbReport& report) {
    bool all_skipped = !report.models.empty();
    for (const auto& m : report.models) {
        if (gates::fails_gate(m.verdict)) return Outcome::fail;
        if (m.verdict != gates::Verdict::skipped) all_skipped = false;
    }
    return all_skipped ? Outcome::skip : Outcome::pass;
}

}  // namespace perfgate::runner

#include "pair_launches.hpp"

#include <chrono>
#include <fmt/format.h>

#include "perfgate/core/escape.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "classify.hpp"

namespace perfgate::perf {
namespace {

using Clock = std::chrono::steady_clock;

std::string printable_tail(const std::string& text) {
    const std::size_t keep = 300;
    return perfgate::printable_excerpt(text.size() > keep ? std::string_view(text).substr(text.size() - keep) : text, keep);
}

// Progress on the console while the runtime works: the runtime's own progress lines as they
// arrive (llama-bench's --progress: "benchmark 2/2: generation run 2/3"), and for any runtime a
// line every `quiet_s` seconds in which nothing was shown, so a long repetition is never a silent
// gap. The request's callbacks point at this object: it must outlive the launch.
class LaunchProgress {
public:
    LaunchProgress(const SuiteRuntime& runtime, const std::string& label, std::ostream& log)
        : prefix_(adapter_of(runtime).progress_prefix), label_(label), log_(log) {}
    LaunchProgress(const LaunchProgress&) = delete;
    LaunchProgress& operator=(const LaunchProgress&) = delete;

    void attach(LaunchRequest& request) {
        // A runtime without progress lines has no prefix; its stderr is only captured.
        if (!prefix_.empty()) request.on_stderr_line = [this](std::string_view line) { show_step(line); };
        request.on_tick = [this](double elapsed) { show_still_running(elapsed); };
    }

private:
    void show_step(std::string_view line) {
        if (line.rfind(prefix_, 0) != 0) return;
        last_step_ = console_text(line.substr(prefix_.size()));
        log_ << "  " << label_ << ": " << last_step_ << '\n' << std::flush;
        last_shown_ = Clock::now();
    }

    void show_still_running(double elapsed) {
        constexpr double quiet_s = 15;
        if (std::chrono::duration<double>(Clock::now() - last_shown_).count() < quiet_s) return;
        log_ << fmt::format("  {}: still running, {:.0f} s{}\n", label_, elapsed,
                            last_step_.empty() ? "" : " (" + last_step_ + ")")
             << std::flush;
        last_shown_ = Clock::now();
    }

    std::string prefix_;
    const std::string& label_;
    std::ostream& log_;
    Clock::time_point last_shown_ = Clock::now();
    std::string last_step_;
};

// One launch of the plan. An in-process run does its own warmup run and every repetition in one
// launch, so its time limit is the workload's, repetitions + 1 times.
LaunchRequest launch_request(const LaunchPlan& plan) {
    const SuiteRuntime& rt = plan.runtime;
    const Workload& w = plan.workload;
    LaunchRequest request;
    request.program = rt.binary;
    request.args = plan.args;
    request.env = rt.env;
    const double seconds = rt.in_process_repetitions ? w.timeout_s * static_cast<double>(w.repetitions + 1) : w.timeout_s;
    request.timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    return request;
}

LaunchStop contended(const ContentionGuard& guard) {
    return LaunchStop{StatusToken{StatusToken::contended}, one_line(guard.reason()), std::nullopt};
}

// Why a launch does not count, or nullopt when it does: its classified status, and a rate that is
// no plausible reading makes an otherwise ok launch FAIL:bench (classify.hpp).
std::optional<LaunchStop> failed_launch(const LaunchPlan& plan, const LaunchResult& run,
                                        const Expected<Measurement>& parsed, bool warm) {
    StatusToken status = classify_launch(run, parsed && parsed->decode_tok_s.has_value());
    const auto implausible = status.ok() ? implausible_measurement(*parsed) : std::nullopt;
    if (implausible) status = StatusToken{"FAIL:bench"};
    if (status.ok()) return std::nullopt;
    const std::string during = warm ? " during warmup" : "";
    LaunchStop stop{status, "", std::nullopt};
    stop.reason = implausible ? fmt::format("runtime {} printed no plausible reading: {}{}", plan.runtime.name,
                                            *implausible, during)
                              : describe_launch(run) + during;
    if (status.text == "SKIP:oom") stop.reason += "; treated as out of memory";
    if (status.text == "FAIL:no_output") stop.reason += parsed ? "; no decode tok/s in its output" : "; " + parsed.error().message;
    if (status.text == "FAIL:bench" && run.started) stop.reason += "; output ends: " + printable_tail(run.merged());
    stop.reason = one_line(stop.reason);
    if (parsed && status.text == "FAIL:no_output") stop.partial = *parsed;
    return stop;
}

// Peak memory, for every runtime kind: the kernel's figure for each measured launch (core's
// run_process, wait4's ru_maxrss of the runtime process or the largest descendant it waited for),
// one sample per launch and their largest as the headline. A runtime's own report
// (RuntimeFacts::peak_memory_gb from mlx-lm and mlxcel) is not used for the column, so the column
// means the same thing whichever runtime ran. Device memory: the sampler's largest reading of the
// launch, where it took one.
void note_launch_peaks(PairReadings& readings, const LaunchResult& run, const DeviceMemorySampler& device_memory) {
    if (run.peak_rss_bytes) readings.peaks.push_back(static_cast<double>(*run.peak_rss_bytes));
    if (auto device = device_memory.peak()) readings.device_peaks.push_back(*device);
}

// A measured (not warmup) launch that counted: its readings join the pair's, and the console
// shows them. `elapsed`: seconds since the pair's first launch began.
void add_measured_launch(PairReadings& readings, const LaunchPlan& plan, const Measurement& m, double elapsed,
                         std::ostream& log) {
    if (plan.runtime.in_process_repetitions) {
        const auto& s = m.decode_samples;
        for (std::size_t k = 0; k < s.size(); ++k)
            log << fmt::format("{}: repetition {}/{} decode {:.2f} tok/s, elapsed {:.1f} s\n", plan.label, k + 1,
                               s.size(), s[k], elapsed);
        readings.decode = m.decode_samples;
        readings.prefill = m.prefill_samples;
        return;
    }
    readings.decode.push_back(*m.decode_tok_s);
    if (m.prefill_tok_s) readings.prefill.push_back(*m.prefill_tok_s);
    log << fmt::format("{}: repetition {}/{} decode {:.2f} tok/s (median so far {:.2f}), elapsed {:.1f} s\n", plan.label,
                       readings.decode.size(), plan.workload.repetitions, readings.decode.back(),
                       perfgate::median(readings.decode), elapsed);
}

}  // namespace

std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

std::variant<PairReadings, LaunchStop> run_launches(const LaunchPlan& plan, ContentionGuard& guard,
                                                    DeviceMemorySampler& device_memory, std::ostream& log) {
    const Workload& w = plan.workload;
    const bool in_process = plan.runtime.in_process_repetitions;
    const std::int64_t launches = in_process ? 1 : w.warmup + w.repetitions;
    const auto start = Clock::now();
    PairReadings readings;
    for (std::int64_t i = 0; i < launches; ++i) {
        const bool warm = !in_process && i < w.warmup;
        LaunchRequest request = launch_request(plan);
        LaunchProgress progress(plan.runtime, plan.label, log);
        progress.attach(request);
        device_memory.attach(request);
        // Nothing else may load the machine: wait (bounded) before the launch, account after it.
        if (!guard.wait_until_quiet(log, plan.label)) return contended(guard);
        guard.launch_starting();
        const LaunchResult run = launch(request);
        const bool undisturbed = guard.launch_finished(log, plan.label);
        const auto parsed = parse_runtime_output(plan.runtime, plan.model, run.out, run.merged());
        if (auto stop = failed_launch(plan, run, parsed, warm)) return *std::move(stop);
        // A reading taken while others loaded the machine is no evidence either way: the pair is
        // skipped and the row carries no numbers, so it can never become or fail a baseline.
        if (!undisturbed) {
            log << fmt::format("{}: decode {:.2f} tok/s measured while the machine was busy; discarded\n", plan.label,
                               *parsed->decode_tok_s);
            // The look before it slept nothing (contention_guard.hpp): once per pair, the launch is
            // repeated after a whole quiet window instead of skipping the pair.
            if (guard.relaunch_after_disturbance(log, plan.label)) {
                --i;
                continue;
            }
            return contended(guard);
        }
        readings.last = *parsed;
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (warm) {
            log << fmt::format("{}: warmup {}/{} decode {:.2f} tok/s, elapsed {:.1f} s\n", plan.label, i + 1, w.warmup,
                               *parsed->decode_tok_s, elapsed);
            continue;
        }
        note_launch_peaks(readings, run, device_memory);
        add_measured_launch(readings, plan, *parsed, elapsed, log);
        log.flush();
    }
    return readings;
}

}  // namespace perfgate::perf

#include "perfgate/perf/pair_runner.hpp"

#include "perfgate/core/project_paths.hpp"

#include "perfgate/core/stats.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <thread>

#include "perfgate/core/escape.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/adapters.hpp"
#include "classify.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "cpu_threads.hpp"
#include "perfgate/perf/fit.hpp"
#include "perfgate/perf/launcher.hpp"
#include "model_source.hpp"
#include "perfgate/perf/recorder.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {
namespace {

using Clock = std::chrono::steady_clock;

// The kind's adapter reads the output (runtime_adapter.hpp: its formats, in order).
Expected<Measurement> parse_output(const SuiteRuntime& rt, const SuiteModel& model, const LaunchResult& run) {
    return parse_runtime_output(rt, model, run.out, run.merged());
}

// Lines of the runtime's own progress on stderr start with this ("" for a runtime without any).
std::string_view progress_prefix(const SuiteRuntime& rt) { return adapter_of(rt).progress_prefix; }

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                       tm.tm_min, tm.tm_sec);
}

std::string printable_tail(const std::string& text) {
    const std::size_t keep = 300;
    return perfgate::printable_excerpt(text.size() > keep ? std::string_view(text).substr(text.size() - keep) : text, keep);
}

// Reasons are printed on one line (CTest output, the summary line of perfgate run).
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

std::string join(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
    return s;
}

std::string samples_text(const std::vector<double>& v) { return fmt::format("{:.2f}", fmt::join(v, ", ")); }

ResultRow base_row(const Suite& suite, const SuiteRuntime& rt, const SuiteModel& model, const HostContext& host,
                   const std::string& model_path, const std::vector<std::string>& args) {
    ResultRow row;
    static_cast<HostRecord&>(row) = host;  // every host fact, as the probe found it
    row.model = model.name;
    row.model_path = model_path;
    row.date = host.date.empty() ? today() : host.date;
    row.runtime_version = rt.version;
    row.max_tokens = suite.workload.generated_tokens;
    row.prompt_target_len = suite.workload.prompt_tokens;
    row.runtime_commit = rt.commit;
    row.build_type = rt.build_type;
    row.compiler = rt.compiler;
    row.upstream_commit = rt.upstream_commit;
    row.overlay_commit = rt.overlay_commit;
    row.runtime = rt.name;
    row.backend = suite.backend;
    row.repetitions = suite.workload.repetitions;
    row.warmup = rt.in_process_repetitions ? adapter_of(rt).own_warmups : suite.workload.warmup;
    row.batch = suite.workload.batch;
    row.flags = join(rt.flags);
    row.command = join(args);
    row.format = rt.format.empty() ? model.format : rt.format;
    row.synthetic = !model.forge_spec.empty();
    row.run_id = host.run_id;
    return row;
}

// The headline columns are the median of the repetitions (docs/csv-schema.md): a median is what
// the gate compares, and one slow repetition must not move the published figure.
void set_median(std::optional<double>& tok_s, std::optional<double>& ms, const std::vector<double>& samples,
                const std::optional<std::int64_t>& tokens) {
    if (samples.empty()) return;
    tok_s = perfgate::median(samples);
    if (tokens && *tok_s > 0) ms = static_cast<double>(*tokens) / *tok_s * 1000.0;
}

void apply_measurement(ResultRow& row, const Measurement& m) {
    row.prompt_tokens = m.prompt_tokens;
    row.generated_tokens = m.generated_tokens;
    row.prefill_ms = m.prefill_ms;
    row.prefill_tok_s = m.prefill_tok_s;
    row.decode_ms = m.decode_ms;
    row.decode_tok_s = m.decode_tok_s;
    row.prefill_tok_s_samples = m.prefill_samples;
    row.decode_tok_s_samples = m.decode_samples;
    set_median(row.decode_tok_s, row.decode_ms, row.decode_tok_s_samples, row.generated_tokens);
    set_median(row.prefill_tok_s, row.prefill_ms, row.prefill_tok_s_samples, row.prompt_tokens);
    // What the runtime says about itself wins over nothing, never over a declared full commit.
    // It is text a runtime printed: made printable UTF-8 first, since one invalid byte would make
    // the whole results CSV unreadable (the reader refuses files that are not UTF-8).
    auto printed = [](const std::string& s) { return perfgate::printable_excerpt(s, 256); };
    if (row.runtime_commit.empty()) row.runtime_commit = printed(m.facts.commit);
    if (row.runtime_version.empty()) row.runtime_version = printed(m.facts.version);
    if (row.device.empty()) row.device = printed(m.facts.device);
    if (m.facts.model_size) row.model_bytes = m.facts.model_size;
}

// Peak memory, for every runtime kind: the kernel's figure for each measured launch (core's
// run_process, wait4's ru_maxrss of the runtime process or the largest descendant it waited for),
// one sample per launch and their largest as the headline. A runtime's own report
// (RuntimeFacts::peak_memory_gb from mlx-lm and mlxcel) is not used for the column, so the column
// means the same thing whichever runtime ran; device memory is not measured here.
void note_launch_peak(std::vector<double>& peaks, const LaunchResult& run) {
    if (run.peak_rss_bytes) peaks.push_back(static_cast<double>(*run.peak_rss_bytes));
}

void apply_peak_memory(ResultRow& row, const std::vector<double>& peaks) {
    row.peak_memory_bytes_samples = peaks;
    row.peak_memory_bytes.reset();
    if (!peaks.empty()) row.peak_memory_bytes = *std::max_element(peaks.begin(), peaks.end());
}

std::string peak_memory_text(const ResultRow& row) {
    if (!row.peak_memory_bytes) return "";
    return fmt::format(", peak memory {:.1f} MiB", *row.peak_memory_bytes / (1024.0 * 1024.0));
}

}  // namespace

std::vector<std::string> build_arguments(const SuiteRuntime& rt, const Workload& w, const std::string& model_path,
                                         const std::string& model_name, std::int64_t repetitions,
                                         const std::string& forge_spec) {
    std::vector<std::string> args = rt.args.empty() ? adapter_of(rt).default_args : rt.args;
    args.insert(args.end(), rt.flags.begin(), rt.flags.end());
    const std::pair<std::string, std::string> values[] = {
        {"{model_path}", model_path},
        {"{model}", model_name},
        {"{prompt_tokens}", std::to_string(w.prompt_tokens)},
        {"{generated_tokens}", std::to_string(w.generated_tokens)},
        {"{batch}", std::to_string(w.batch)},
        {"{repetitions}", std::to_string(repetitions)},
        {"{warmup}", std::to_string(w.warmup)},
        // A runtime that builds the model itself from the spec (perf/runtimes/transformers_bench.py).
        {"{forge_spec}", forge_spec},
    };
    for (auto& a : args)
        for (const auto& [key, value] : values)
            for (std::size_t pos; (pos = a.find(key)) != std::string::npos;) a.replace(pos, key.size(), value);
    return args;
}

Expected<PairOutcome> run_pair(const Suite& manifest, const PairRequest& req, std::ostream& log, std::ostream& out) {
    Suite suite_copy;
    if (req.repetitions) {  // one copy only when the workload is overridden
        suite_copy = manifest;
        suite_copy.workload.repetitions = *req.repetitions;
    }
    const Suite& suite = req.repetitions ? suite_copy : manifest;
    const SuiteRuntime* rt_decl = suite.find_runtime(req.runtime);
    const SuiteModel* model = suite.find_model(req.model);
    bool listed = false;
    for (const auto& p : suite.pairs) listed = listed || (p.runtime == req.runtime && p.model == req.model);
    if (!rt_decl || !model || !listed)
        return make_error(suite.path.string() + ": no pair " + req.runtime + "/" + req.model + " in this suite");
    SuiteRuntime rt = *rt_decl;
    if (auto it = req.binaries.find(rt.name); it != req.binaries.end()) rt.binary = it->second;
    const std::string label = console_text(fmt::format("[perf] {} on {}", model->name, rt.name));
    // A cpu suite's llama-bench gets a thread count for this host's size unless the suite set one;
    // as a flag, so the CSV's flags and command columns say what ran.
    if (const auto threads = default_thread_flags(suite, rt, req.host); !threads.empty()) {
        rt.flags.insert(rt.flags.end(), threads.begin(), threads.end());
        log << fmt::format("{}: {} {} (the default for a host with {} usable core{}; the suite sets no -t)\n", label,
                           threads[0], threads[1], *req.host.cpu_cores, *req.host.cpu_cores == 1 ? "" : "s");
    }
    // Replays print recorded output: the live machine's load says nothing about them.
    const bool replayed = suite.replay || rt.replay || !req.host.replay.empty();
    ContentionGuard guard = replayed ? ContentionGuard::disabled("off:replay")
                                     : ContentionGuard(req.contention, suite.workload.contention, suite.backend,
                                                       req.contention_seams);
    if (!req.host.replay.empty()) log << label << ": host facts REPLAYED from " << req.host.replay << '\n';
    if (rt.replay || suite.replay) log << label << ": runtime is a REPLAY stub printing recorded output\n";

    PairOutcome outcome;
    // 1. Backend: nothing to measure or record on a host without it.
    if (!host_has_backend(req.host, suite.backend)) {
        outcome.status = StatusToken{"SKIP:no_backend"};
        outcome.reason = "suite backend " + suite.backend + " is not available on this host (probe: " + req.host.backend + ")";
        return outcome;
    }

    // 2. Memory guard, before anything is forged or launched.
    auto estimate = estimate_memory(*model, suite);
    if (!estimate) return estimate.error();
    const FitDecision fit = check_fit(*estimate, req.host);
    std::string model_path = model->checkpoint.string();
    ResultRow row = base_row(suite, rt, *model, req.host, model_path, {});
    row.model_bytes = estimate->weight_bytes ? std::optional<std::uint64_t>(estimate->weight_bytes) : std::nullopt;
    row.arm = req.arm;

    const std::string suffix = req.suffix.empty() ? suite.results_suffix : req.suffix;
    std::filesystem::path csv;
    if (!req.results_dir.empty()) {
        auto file = results_file(req.results_dir, suite.backend, req.host.host, row.date, suffix);
        if (!file) return file.error();
        csv = *file;
    }
    auto finish = [&](PairOutcome o) -> Expected<PairOutcome> {
        row.status = o.status;
        row.contention = guard.column();
        row.timestamp = utc_timestamp();
        row.model_path = project_relative(row.model_path, req.project_root, req.build_root);
        row.command = project_relative_command(row.command, req.project_root, req.build_root);
        if (!csv.empty()) {
            if (auto st = record_row(csv, row); !st) return st.error();
            o.csv = csv;
        }
        print_ctest_measurements(out, row);
        o.row = row;
        return o;
    };

    if (!fit.fits) {
        outcome.status = StatusToken{"SKIP:oom_estimate"};
        outcome.reason = fit.message + " (weights: " + estimate->weight_source + ")";
        return finish(outcome);
    }
    log << label << ": " << fit.message << '\n';

    // 3. The checkpoint: forged now if the model comes from a spec (only models that fit).
    if (!model->forge_spec.empty()) {
        // The forge's own guard gets the same budget (or, when the probe knows none, the estimate).
        const std::uint64_t budget = req.host.usable_memory_bytes.value_or(estimate->total());
        auto forged = materialize_forged_model(*model, req.forge_dir, req.vocab_dir, budget, log);
        if (!forged) return forged.error();
        model_path = forged->string();
        row.model_path = model_path;
    }

    // 4. Warmup and repetitions.
    const auto& w = suite.workload;
    const std::int64_t launches = rt.in_process_repetitions ? 1 : w.warmup + w.repetitions;
    const auto start = Clock::now();
    std::vector<double> decode, prefill, peaks;
    Measurement last;
    for (std::int64_t i = 0; i < launches; ++i) {
        const bool warm = !rt.in_process_repetitions && i < w.warmup;
        const auto args = build_arguments(rt, w, model_path, model->name, w.repetitions, model->forge_spec.string());
        row.command = rt.binary + " " + join(args);
        LaunchRequest lr;
        lr.program = rt.binary;
        lr.args = args;
        lr.env = rt.env;
        const double seconds = rt.in_process_repetitions ? w.timeout_s * static_cast<double>(w.repetitions + 1) : w.timeout_s;
        lr.timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
        // Progress on the console while the runtime works: llama-bench's --progress lines as they
        // arrive ("benchmark 2/2: generation run 2/3"), and for any runtime a line every
        // `quiet_s` seconds in which nothing was shown, so a long repetition is never a silent gap.
        auto last_shown = Clock::now();
        std::string last_step;
        if (!progress_prefix(rt).empty())
            lr.on_stderr_line = [&](std::string_view line) {
                const std::string_view prefix = progress_prefix(rt);
                if (line.rfind(prefix, 0) != 0) return;
                last_step = console_text(line.substr(prefix.size()));
                log << "  " << label << ": " << last_step << '\n' << std::flush;
                last_shown = Clock::now();
            };
        lr.on_tick = [&](double elapsed) {
            constexpr double quiet_s = 15;
            if (std::chrono::duration<double>(Clock::now() - last_shown).count() < quiet_s) return;
            log << fmt::format("  {}: still running, {:.0f} s{}\n", label, elapsed,
                               last_step.empty() ? "" : " (" + last_step + ")")
                << std::flush;
            last_shown = Clock::now();
        };
        // 4a. Nothing else may load the machine: wait (bounded) before the launch, account after it.
        if (!guard.wait_until_quiet(log, label)) {
            outcome.status = StatusToken{StatusToken::contended};
            outcome.reason = one_line(guard.reason());
            return finish(outcome);
        }
        guard.launch_starting();
        const LaunchResult run = launch(lr);
        const bool undisturbed = guard.launch_finished(log, label);
        auto parsed = parse_output(rt, *model, run);
        const bool have_decode = parsed && parsed->decode_tok_s.has_value();
        StatusToken status = classify_launch(run, have_decode);
        const auto implausible = status.ok() ? implausible_measurement(*parsed) : std::nullopt;
        if (implausible) status = StatusToken{"FAIL:bench"};
        if (!status.ok()) {
            if (parsed && status.text == "FAIL:no_output") apply_measurement(row, *parsed);
            outcome.status = status;
            outcome.reason = implausible ? fmt::format("runtime {} printed no plausible reading: {}{}", rt.name,
                                                       *implausible, warm ? " during warmup" : "")
                                         : describe_launch(run) + (warm ? " during warmup" : "");
            if (status.text == "SKIP:oom") outcome.reason += "; treated as out of memory";
            if (status.text == "FAIL:no_output") outcome.reason += parsed ? "; no decode tok/s in its output" : "; " + parsed.error().message;
            if (status.text == "FAIL:bench" && run.started) outcome.reason += "; output ends: " + printable_tail(run.merged());
            outcome.reason = one_line(outcome.reason);
            return finish(outcome);
        }
        // A reading taken while others loaded the machine is no evidence either way: the pair is
        // skipped and the row carries no numbers, so it can never become or fail a baseline.
        if (!undisturbed) {
            log << fmt::format("{}: decode {:.2f} tok/s measured while the machine was busy; discarded\n", label,
                               *parsed->decode_tok_s);
            outcome.status = StatusToken{StatusToken::contended};
            outcome.reason = one_line(guard.reason());
            return finish(outcome);
        }
        last = *parsed;
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (!warm) note_launch_peak(peaks, run);
        if (warm) {
            log << fmt::format("{}: warmup {}/{} decode {:.2f} tok/s, elapsed {:.1f} s\n", label, i + 1, w.warmup,
                               *parsed->decode_tok_s, elapsed);
            continue;
        }
        if (rt.in_process_repetitions) {
            const auto& s = parsed->decode_samples;
            for (std::size_t k = 0; k < s.size(); ++k)
                log << fmt::format("{}: repetition {}/{} decode {:.2f} tok/s, elapsed {:.1f} s\n", label, k + 1,
                                   s.size(), s[k], elapsed);
            decode = parsed->decode_samples;
            prefill = parsed->prefill_samples;
        } else {
            decode.push_back(*parsed->decode_tok_s);
            if (parsed->prefill_tok_s) prefill.push_back(*parsed->prefill_tok_s);
            log << fmt::format("{}: repetition {}/{} decode {:.2f} tok/s (median so far {:.2f}), elapsed {:.1f} s\n", label,
                               decode.size(), w.repetitions, decode.back(), perfgate::median(decode), elapsed);
        }
        log.flush();
    }

    // 5. The row: per-process runs give one reading each; their median becomes the headline figure
    // (apply_measurement), as an in-process run's own repetitions do.
    Measurement combined = last;
    if (!rt.in_process_repetitions) {
        combined.decode_samples = decode;
        combined.prefill_samples = prefill.size() == decode.size() ? prefill : std::vector<double>{};
        if (!prefill.empty()) {  // also when some repetitions printed no prefill (no samples column then)
            combined.prefill_tok_s = perfgate::median(prefill);
            if (last.prompt_tokens && *combined.prefill_tok_s > 0)
                combined.prefill_ms = static_cast<double>(*last.prompt_tokens) / *combined.prefill_tok_s * 1000.0;
        }
    }
    apply_measurement(row, combined);
    apply_peak_memory(row, peaks);
    log << fmt::format("{}: decode {:.2f} tok/s (median) [{}]{}{}\n", label, *row.decode_tok_s, samples_text(row.decode_tok_s_samples),
                       row.prefill_tok_s ? fmt::format(", prefill {:.2f} tok/s", *row.prefill_tok_s) : "",
                       peak_memory_text(row));

    // 6. Cooldown (longer after big models), so the next pair starts from a cool device.
    const double cool = estimate->weight_bytes > w.big_model_bytes ? std::max(w.cooldown_s, w.big_cooldown_s) : w.cooldown_s;
    if (cool > 0) row.cooldown_s = cool;
    if (cool > 0) {
        log << fmt::format("{}: cooldown {:.0f} s\n", label, cool);
        std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<long long>(cool * 1000)));
    }
    outcome.status = StatusToken{"ok"};
    return finish(outcome);
}

}  // namespace perfgate::perf

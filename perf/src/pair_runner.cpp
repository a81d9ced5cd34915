#include "perfgate/perf/pair_runner.hpp"

#include "perfgate/core/csv_merge.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <thread>
#include <variant>

#include "perfgate/core/escape.hpp"
#include "perfgate/core/method_marks.hpp"
#include "perfgate/core/project_paths.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "device_memory_sampler.hpp"
#include "perfgate/perf/fit.hpp"
#include "perfgate/perf/recorder.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "cpu_threads.hpp"
#include "model_source.hpp"
#include "pair_launches.hpp"
#include "instruction_launches.hpp"
#include "serving_launches.hpp"

namespace perfgate::perf {
namespace {

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                       tm.tm_min, tm.tm_sec);
}

std::string join(const std::vector<std::string>& args) {
    std::string s;
    for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
    return s;
}

std::string samples_text(const std::vector<double>& v) { return fmt::format("{:.2f}", fmt::join(v, ", ")); }

// The runtime's fixed flags and perfgate's marks of how it was measured (method_marks.hpp): a
// serving pair's load, the sweep a point belongs to.
std::string row_flags(const SuiteRuntime& rt) {
    std::string flags = join(rt.flags);
    if (rt.measure == Measure::serving) flags = with_mark(flags, load_mark(rt.serving.requests, serving_output_spread));
    if (rt.sweep) flags = with_mark(flags, sweep_mark(rt.sweep->entry, rt.sweep->axis));
    return flags;
}

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
    // A serving pair's batch is its load's concurrency: pairs at other concurrencies stay apart.
    row.batch = rt.measure == Measure::serving ? rt.serving.concurrency : suite.workload.batch;
    row.flags = row_flags(rt);
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

// A peak metric's column pair: one sample per measured launch, the largest as the headline.
void apply_peaks(std::optional<double>& value, std::vector<double>& samples, const std::vector<double>& peaks) {
    samples = peaks;
    value.reset();
    if (!peaks.empty()) value = *std::max_element(peaks.begin(), peaks.end());
}

std::string peak_memory_text(const ResultRow& row) {
    std::string text;
    if (row.peak_memory_bytes) text += fmt::format(", peak memory {:.1f} MiB", *row.peak_memory_bytes / (1024.0 * 1024.0));
    if (row.peak_device_memory_bytes)
        text += fmt::format(", device memory {:.1f} MiB", *row.peak_device_memory_bytes / (1024.0 * 1024.0));
    return text;
}

// The pair's measurement: per-process runs give one reading each, and their median becomes the
// headline figure (set_median, as apply_measurement does with an in-process run's own
// repetitions). A prefill median is taken also when some repetitions printed no prefill; the row
// then has no prefill samples column.
Measurement combined_measurement(const PairReadings& readings, bool in_process_repetitions) {
    Measurement combined = readings.last;
    if (in_process_repetitions) return combined;
    combined.decode_samples = readings.decode;
    combined.prefill_samples = readings.prefill.size() == readings.decode.size() ? readings.prefill : std::vector<double>{};
    set_median(combined.prefill_tok_s, combined.prefill_ms, readings.prefill, combined.prompt_tokens);
    return combined;
}

// The suite as this pair runs it: the workload with a sweep point's own prompt, output or batch
// (workload_of) and the request's repetitions (perfgate ab --repetitions); none when neither
// applies, so the manifest is copied only then.
std::optional<Suite> suite_for_pair(const Suite& manifest, const PairRequest& req) {
    const SuiteRuntime* runtime = manifest.find_runtime(req.runtime);
    const bool swept = runtime && runtime->sweep && runtime->sweep->axis != SweepAxis::concurrency;
    if (!req.repetitions && !swept) return std::nullopt;
    Suite suite = manifest;
    if (runtime) suite.workload = workload_of(manifest, *runtime);
    if (req.repetitions) suite.workload.repetitions = *req.repetitions;
    return suite;
}

struct DeclaredPair {
    const SuiteRuntime* runtime;
    const SuiteModel* model;
};

// The request's runtime and model, which the suite must declare and pair.
Expected<DeclaredPair> find_pair(const Suite& suite, const PairRequest& req) {
    const SuiteRuntime* runtime = suite.find_runtime(req.runtime);
    const SuiteModel* model = suite.find_model(req.model);
    bool listed = false;
    for (const auto& p : suite.pairs) listed = listed || (p.runtime == req.runtime && p.model == req.model);
    if (!runtime || !model || !listed)
        return make_error(suite.path.string() + ": no pair " + req.runtime + "/" + req.model + " in this suite");
    return DeclaredPair{runtime, model};
}

// The runtime as it runs on this host: the request's binary over the manifest's, and a cpu suite's
// llama-bench gets a thread count for this host's size unless the suite set one; as a flag, so
// the CSV's flags and command columns say what ran.
SuiteRuntime runtime_for_host(const Suite& suite, const SuiteRuntime& declared, const PairRequest& req,
                              const std::string& label, std::ostream& log) {
    SuiteRuntime rt = declared;
    // A sweep's point runs the binary given for it, else the one given for its entry.
    if (auto it = req.binaries.find(rt.name); it != req.binaries.end()) rt.binary = it->second;
    else if (rt.sweep)
        if (auto entry = req.binaries.find(rt.sweep->entry); entry != req.binaries.end()) rt.binary = entry->second;
    if (const auto threads = default_thread_flags(suite, rt, req.host); !threads.empty()) {
        rt.flags.insert(rt.flags.end(), threads.begin(), threads.end());
        if (rt.measure == Measure::instructions)
            log << fmt::format("{}: {} {} (instructions are counted on one thread; the suite sets no -t)\n", label,
                               threads[0], threads[1]);
        else
            log << fmt::format("{}: {} {} (the default for a host with {} usable core{}; the suite sets no -t)\n", label,
                               threads[0], threads[1], *req.host.cpu_cores, *req.host.cpu_cores == 1 ? "" : "s");
    }
    return rt;
}

// Replays print recorded output: the live machine's load and GPU say nothing about them.
bool replayed(const Suite& suite, const SuiteRuntime& rt, const PairRequest& req) {
    return suite.replay || rt.replay || !req.host.replay.empty();
}

// Made when the pair starts, so that it watches the preparation (fit, forge) as well.
ContentionGuard contention_guard(const Suite& suite, const SuiteRuntime& rt, const PairRequest& req,
                                 const std::string& label, std::ostream& log) {
    // Counted instructions do not depend on what else runs (docs/instructions.md): nothing to wait for.
    ContentionGuard guard = replayed(suite, rt, req)                  ? ContentionGuard::disabled(kReplayedContention)
                            : rt.measure == Measure::instructions ? ContentionGuard::disabled("off:instructions")
                                                                   : ContentionGuard(req.contention, suite.workload.contention,
                                                                                     suite.backend, req.contention_seams);
    if (!req.host.replay.empty()) log << label << ": host facts REPLAYED from " << req.host.replay << '\n';
    if (rt.replay || suite.replay) log << label << ": runtime is a REPLAY stub printing recorded output\n";
    return guard;
}

// One pair on its way through run_pair: what the suite and the request resolved to, and the row
// that the steps fill in.
struct PairRun {
    const Suite& suite;
    const PairRequest& req;
    const SuiteModel& model;
    SuiteRuntime runtime;
    std::string label;  // "[perf] <model> on <runtime>", the prefix of every log line
    std::ostream& log;
    std::ostream& out;
    ContentionGuard guard;
    DeviceMemorySampler device_memory;
    std::string model_path;  // the checkpoint the runtime loads: the declared one, or the forged one
    ResultRow row;
    std::filesystem::path csv;  // where the row is recorded; empty: not recorded
};

PairRun start_pair(const Suite& suite, const DeclaredPair& declared, const PairRequest& req, std::ostream& log,
                   std::ostream& out) {
    const SuiteModel& model = *declared.model;
    std::string label = console_text(fmt::format("[perf] {} on {}", model.name, declared.runtime->name));
    SuiteRuntime rt = runtime_for_host(suite, *declared.runtime, req, label, log);
    ContentionGuard guard = contention_guard(suite, rt, req, label, log);
    DeviceMemorySampler device_memory = replayed(suite, rt, req) ? DeviceMemorySampler::none()
                                                                 : DeviceMemorySampler(suite.backend, req.contention_seams);
    return PairRun{suite,          req, model, std::move(rt), std::move(label), log, out, std::move(guard),
                   std::move(device_memory), model.checkpoint.string(), {}, {}};
}

PairOutcome outcome_of(StatusToken status, std::string reason = {}) {
    PairOutcome outcome;
    outcome.status = std::move(status);
    outcome.reason = std::move(reason);
    return outcome;
}

PairOutcome backend_skip(const Suite& suite, const HostContext& host) {
    return outcome_of(StatusToken{"SKIP:no_backend"},
                      "suite backend " + suite.backend + " is not available on this host (probe: " + host.backend + ")");
}

// The row that every outcome after the backend check records (the pair, the host, the estimated
// weights), and the results file it goes to when the run records.
Status start_row(PairRun& pair, const MemoryEstimate& estimate) {
    const PairRequest& req = pair.req;
    pair.row = base_row(pair.suite, pair.runtime, pair.model, req.host, pair.model_path, {});
    pair.row.model_bytes = estimate.weight_bytes ? std::optional<std::uint64_t>(estimate.weight_bytes) : std::nullopt;
    if (estimate.read_per_token_bytes) pair.row.active_model_bytes = estimate.read_per_token_bytes;
    pair.row.arm = req.arm;
    if (req.results_dir.empty()) return Ok{};
    const std::string suffix = req.suffix.empty() ? pair.suite.results_suffix : req.suffix;
    auto file = results_file(req.results_dir, pair.suite.backend, req.host.host, pair.row.date, suffix);
    if (!file) return file.error();
    pair.csv = *file;
    return Ok{};
}

// The checkpoint is forged now when the model comes from a spec (only models that fit). The
// forge's own guard gets the same budget (or, when the probe knows none, the estimate).
Status forge_if_from_spec(PairRun& pair, const MemoryEstimate& estimate) {
    if (pair.model.forge_spec.empty()) return Ok{};
    const std::uint64_t budget = pair.req.host.usable_memory_bytes.value_or(estimate.total());
    auto forged = materialize_forged_model(pair.model, pair.req.forge_dir, pair.req.vocab_dir, budget, pair.log);
    if (!forged) return forged.error();
    pair.model_path = forged->string();
    pair.row.model_path = pair.model_path;
    return Ok{};
}

// What every launch shares; the row's command is the one they run.
LaunchPlan launch_plan(PairRun& pair) {
    const Workload& w = pair.suite.workload;
    auto args = build_arguments(pair.runtime, w, pair.model_path, pair.model.name, w.repetitions,
                                pair.model.forge_spec.string());
    // A server that is already running was not launched: its URL is what was measured.
    pair.row.command = pair.runtime.serving.url.empty() ? pair.runtime.binary + " " + join(args) : pair.runtime.serving.url;
    return LaunchPlan{pair.runtime, pair.model, w, std::move(args), pair.label};
}

// The row's figures from the readings of every launch, and the pair's result on the console.
void apply_readings(PairRun& pair, const PairReadings& readings) {
    ResultRow& row = pair.row;
    apply_measurement(row, combined_measurement(readings, pair.runtime.in_process_repetitions));
    apply_peaks(row.peak_memory_bytes, row.peak_memory_bytes_samples, readings.peaks);
    apply_peaks(row.peak_device_memory_bytes, row.peak_device_memory_bytes_samples, readings.device_peaks);
    // "samples" says what the list is: two readings in brackets read as an interval (issue 49 item 4).
    pair.log << fmt::format("{}: decode {:.2f} tok/s (median of samples {}){}{}\n", pair.label, *row.decode_tok_s,
                            samples_text(row.decode_tok_s_samples),
                            row.prefill_tok_s ? fmt::format(", prefill {:.2f} tok/s", *row.prefill_tok_s) : "",
                            peak_memory_text(row));
}

// Cooldown (longer after big models), so the next pair starts from a cool device.
void cool_down(PairRun& pair, const MemoryEstimate& estimate) {
    const Workload& w = pair.suite.workload;
    const double cool = estimate.weight_bytes > w.big_model_bytes ? std::max(w.cooldown_s, w.big_cooldown_s) : w.cooldown_s;
    if (cool <= 0) return;
    pair.row.cooldown_s = cool;
    pair.log << fmt::format("{}: cooldown {:.0f} s\n", pair.label, cool);
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<long long>(cool * 1000)));
}

// Every outcome with a row ends here: the row gets the status and the guard's column, its paths
// are made project-relative, and it is recorded (when the run records) and printed for CTest.
Expected<PairOutcome> finish(PairRun& pair, PairOutcome outcome) {
    ResultRow& row = pair.row;
    row.status = outcome.status;
    row.contention = pair.guard.column();
    row.timestamp = utc_timestamp();
    row.model_path = project_relative(row.model_path, pair.req.project_root, pair.req.build_root);
    row.command = project_relative_command(row.command, pair.req.project_root, pair.req.build_root);
    if (!pair.csv.empty()) {
        if (auto st = record_row(pair.csv, row); !st) return st.error();
        outcome.csv = pair.csv;
    }
    print_ctest_measurements(pair.out, row);
    outcome.row = row;
    return outcome;
}

// A launch that failed or was disturbed: what its output did hold still goes into the row.
Expected<PairOutcome> finish_stopped(PairRun& pair, const LaunchStop& stop) {
    if (stop.partial) apply_measurement(pair.row, *stop.partial);
    return finish(pair, outcome_of(stop.status, stop.reason));
}

// A counted workload that failed: its row records the status only (rates under valgrind are no
// readings of the runtime).
Expected<PairOutcome> finish_stopped_without_readings(PairRun& pair, const LaunchStop& stop) {
    return finish(pair, outcome_of(stop.status, stop.reason));
}

// A pair measured with "measure": "instructions": the counted workloads under cachegrind, and a
// row with the instructions per token and nothing timed (rates under valgrind say nothing about
// the runtime). The row's command is the base workload's, as valgrind ran it.
Expected<PairOutcome> count_instructions(PairRun& pair) {
    const InstructionPlan plan{pair.suite.path.string(), pair.runtime, pair.model, pair.suite.workload,
                               pair.model_path, pair.model.forge_spec.string(), pair.label};
    ResultRow& row = pair.row;
    // The base workload's command as valgrind runs it, on every row (a failed one too).
    row.command = fmt::format("{} --tool=cachegrind --cache-sim=no {} {}", pair.runtime.valgrind,
                              counted_binary(pair.runtime),
                              join(counted_arguments(plan, pair.suite.workload.prompt_tokens,
                                                     pair.suite.workload.generated_tokens)));
    if (!adapter_of(pair.runtime).counting_flags.empty()) row.warmup = 0;  // turned off: each token runs once
    auto counted = run_instruction_launches(plan, pair.log);
    if (!counted) return counted.error();
    if (const auto* stop = std::get_if<LaunchStop>(&*counted)) return finish_stopped_without_readings(pair, *stop);
    const auto& readings = std::get<InstructionReadings>(*counted);
    row.prompt_tokens = pair.suite.workload.prompt_tokens;
    row.generated_tokens = pair.suite.workload.generated_tokens;
    row.repetitions = 1;
    if (row.runtime_commit.empty()) row.runtime_commit = perfgate::printable_excerpt(readings.base.facts.commit, 256);
    if (row.runtime_version.empty()) row.runtime_version = perfgate::printable_excerpt(readings.base.facts.version, 256);
    if (readings.base.facts.model_size) row.model_bytes = readings.base.facts.model_size;
    row.prefill_instructions_per_token = readings.prefill_per_token;
    row.prefill_instructions_per_token_samples = {readings.prefill_per_token};
    row.decode_instructions_per_token = readings.decode_per_token;
    row.decode_instructions_per_token_samples = {readings.decode_per_token};
    pair.log << fmt::format("{}: prefill {:.4f} M instructions/token, decode {:.4f} M instructions/token\n", pair.label,
                            readings.prefill_per_token / 1e6, readings.decode_per_token / 1e6);
    return finish(pair, outcome_of(StatusToken{"ok"}));
}

// A server measured by perfgate's load generator (docs/serving.md): the row's figures are its
// passes' summaries; a server that could not start, a failed request or a busy machine stops it.
Expected<PairOutcome> serve(PairRun& pair) {
    const auto served = run_serving(launch_plan(pair), pair.guard, pair.log);
    if (const auto* stop = std::get_if<LaunchStop>(&served)) return finish(pair, outcome_of(stop->status, stop->reason));
    const auto& readings = std::get<ServingReadings>(served);
    ResultRow& row = pair.row;
    apply_serving_readings(row, readings);
    row.prompt_tokens = pair.suite.workload.prompt_tokens;
    row.generated_tokens = pair.suite.workload.generated_tokens;
    pair.log << fmt::format("{}: {:.1f} output tok/s, TTFT p50 {:.1f} ms p99 {:.1f} ms, TPOT p50 {:.2f} ms, ITL p50 {:.2f} ms "
                            "p99 {:.2f} ms (medians of {} passes; load generator {:.2f} ms CPU per request{})\n",
                            pair.label, row.serving_output_tok_s.value_or(0), row.ttft_p50_ms.value_or(0),
                            row.ttft_p99_ms.value_or(0), row.tpot_p50_ms.value_or(0), row.itl_p50_ms.value_or(0),
                            row.itl_p99_ms.value_or(0), readings.repetitions.size(), readings.client_cpu_s_per_request * 1000,
                            readings.beyond_server_ms
                                ? fmt::format("; a request took {:.2f} ms beyond the server's own timings (p50)",
                                              *readings.beyond_server_ms)
                                : std::string());
    return finish(pair, outcome_of(StatusToken{"ok"}));
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
        // A server's slots and the context they share: every client's prompt and output, and room
        // for the template a chat endpoint adds.
        {"{concurrency}", std::to_string(rt.serving.concurrency)},
        {"{context}", std::to_string(rt.serving.concurrency * (w.prompt_tokens + w.generated_tokens + 64))},
        // A runtime that builds the model itself from the spec (perf/runtimes/transformers_bench.py).
        {"{forge_spec}", forge_spec},
    };
    for (auto& a : args)
        for (const auto& [key, value] : values)
            for (std::size_t pos; (pos = a.find(key)) != std::string::npos;) a.replace(pos, key.size(), value);
    return args;
}

Expected<PairOutcome> run_pair(const Suite& manifest, const PairRequest& req, std::ostream& log, std::ostream& out) {
    const std::optional<Suite> overridden = suite_for_pair(manifest, req);
    const Suite& suite = overridden ? *overridden : manifest;
    const auto declared = find_pair(suite, req);
    if (!declared) return declared.error();
    PairRun pair = start_pair(suite, *declared, req, log, out);

    // 1. Backend: nothing to measure or record on a host without it.
    if (!host_has_backend(req.host, suite.backend)) return backend_skip(suite, req.host);

    // 2. Memory guard, before anything is forged or launched. A server that is already running (a
    //    "url") holds its model where it runs: nothing to fit or forge on this host.
    if (!pair.runtime.serving.url.empty()) {
        if (auto started = start_row(pair, MemoryEstimate{}); !started) return started.error();
        log << pair.label << ": a running server at " << pair.runtime.serving.url << ", not started by perfgate\n";
        return serve(pair);
    }
    const auto estimate = estimate_memory(pair.model, suite);
    if (!estimate) return estimate.error();
    const FitDecision fit = check_fit(*estimate, req.host);
    if (auto started = start_row(pair, *estimate); !started) return started.error();
    if (!fit.fits)
        return finish(pair, outcome_of(StatusToken{"SKIP:oom_estimate"},
                                       fit.message + " (weights: " + estimate->weight_source + ")"));
    log << pair.label << ": " << fit.message << '\n';

    // 3. The checkpoint.
    if (auto forged = forge_if_from_spec(pair, *estimate); !forged) return forged.error();

    // 4. Warmup and repetitions (or the counted workloads); 5. the row; 6. cooldown.
    if (pair.runtime.measure == Measure::instructions) return count_instructions(pair);
    if (pair.runtime.measure == Measure::serving) return serve(pair);
    const auto launched = run_launches(launch_plan(pair), pair.guard, pair.device_memory, log);
    if (const auto* stop = std::get_if<LaunchStop>(&launched)) return finish_stopped(pair, *stop);
    apply_readings(pair, std::get<PairReadings>(launched));
    cool_down(pair, *estimate);
    return finish(pair, outcome_of(StatusToken{"ok"}));
}

}  // namespace perfgate::perf

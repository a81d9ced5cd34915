#include "perfgate/core/metric.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace perfgate {

const std::vector<Metric>& metrics() {
    static const std::vector<Metric> table = {
        // key                 label     unit     better          samples                    display   negligible required
        {"decode_tok_s",      "decode",  "tok/s", Better::higher, &ResultRow::decode_samples, 1.0, "tok/s", 0.0, true},
        {"prefill_tok_s",     "prefill", "tok/s", Better::higher, &ResultRow::prefill_samples, 1.0, "tok/s", 0.0, true},
        // The kernel's peak resident set of the runtime's largest process (docs/csv-schema.md). Less
        // than 16 MiB never counts: a stub of 2 MiB moved by 6.6% between launches here, and the
        // H200's tiny-llama-ci by 17 MiB (two levels) with nothing changed.
        {"peak_memory_bytes", "peak memory", "bytes", Better::lower, &ResultRow::peak_memory_samples,
         1024.0 * 1024.0, "MiB", 16.0 * 1024.0 * 1024.0, false},
        // The GPU memory the runtime's process group held at its peak (docs/csv-schema.md), sampled
        // once a second from the driver: a runtime that grows its KV cache or workspace is what
        // pushes a model out of a unified-memory machine. Recorded and shown, not gated: sampled
        // once a second, a peak that lasts less (llama-bench's prefill context) is caught in some
        // runs only, so unchanged runs read in two or three levels (H200, 28 runs: qwen3-0.6b 586
        // or 1012 MiB, llama-3.2-1b 1914 or 2124 MiB), and gating it failed 12 of those 28
        // unchanged runs (docs/measurements/h200-device-memory-2026-12-03).
        {"peak_device_memory_bytes", "device memory", "bytes", Better::lower,
         &ResultRow::peak_device_memory_samples, 1024.0 * 1024.0, "MiB", 16.0 * 1024.0 * 1024.0, false, false},
        // Instructions per token under valgrind's cachegrind (docs/instructions.md): the work the
        // runtime's code does for one token, which no other process on a shared machine moves (the
        // same binary and model counted the same to 1e-7 here). Only pairs measured with
        // "measure": "instructions" have them; their floors are in thresholds/default.json.
        {"prefill_instructions_per_token", "prefill instructions", "instructions/token", Better::lower,
         &ResultRow::prefill_instructions_samples, 1e6, "M instr/token", 0.0, false, true, Measure::instructions},
        {"decode_instructions_per_token", "decode instructions", "instructions/token", Better::lower,
         &ResultRow::decode_instructions_samples, 1e6, "M instr/token", 0.0, false, true, Measure::instructions},
        // A prompt followed by generation in one test (llama-bench -pg): its own workload, so its
        // own metric, never folded into prefill or decode. Only llama-bench's output files have it
        // (compare, gate --results); perfgate's runs record prefill and decode apart.
        {"prompt_gen_tok_s", "prompt+gen", "tok/s", Better::higher, &ResultRow::prompt_gen_samples, 1.0, "tok/s", 0.0,
         false},
        // A serving pair's figures (docs/serving.md): perfgate's load generator against the server,
        // one sample per repetition of the load. Latencies under a quarter of a millisecond of
        // change never count: the scheduler's tick and the loopback's jitter on one request are of
        // that order. Requests per second are recorded and shown, not gated: at the pair's fixed
        // output length they are output tokens per second over that length, one decision twice.
        {"serving_output_tok_s", "output", "tok/s", Better::higher, &ResultRow::serving_output_samples, 1.0, "tok/s",
         0.0, false, true, Measure::serving},
        {"ttft_p50_ms", "TTFT p50", "ms", Better::lower, &ResultRow::ttft_p50_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"ttft_p99_ms", "TTFT p99", "ms", Better::lower, &ResultRow::ttft_p99_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"tpot_p50_ms", "TPOT p50", "ms", Better::lower, &ResultRow::tpot_p50_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"tpot_p99_ms", "TPOT p99", "ms", Better::lower, &ResultRow::tpot_p99_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"itl_p50_ms", "ITL p50", "ms", Better::lower, &ResultRow::itl_p50_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"itl_p99_ms", "ITL p99", "ms", Better::lower, &ResultRow::itl_p99_samples, 1.0, "ms", 0.25, false, true,
         Measure::serving},
        {"serving_request_s", "request rate", "req/s", Better::higher, &ResultRow::serving_request_samples, 1.0, "req/s", 0.0,
         false, false, Measure::serving},
    };
    return table;
}

const Metric* find_metric(std::string_view key) {
    for (const auto& m : metrics())
        if (m.key == key) return &m;
    return nullptr;
}

const Metric& metric(std::string_view key) {
    if (const auto* m = find_metric(key)) return *m;
    throw std::logic_error("metric \"" + std::string(key) + "\" is not registered (core/src/metric.cpp)");
}

const std::vector<std::string>& registered_metric_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (const auto& m : metrics()) out.emplace_back(m.key);
        return out;
    }();
    return keys;
}

const std::vector<std::string>& gated_metric_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out;
        for (const auto& m : metrics())
            if (m.gated) out.emplace_back(m.key);
        return out;
    }();
    return keys;
}

std::vector<std::string> gated_metric_keys(Measure measure) {
    std::vector<std::string> out;
    for (const auto& m : metrics())
        if (m.gated && m.measure == measure) out.emplace_back(m.key);
    return out;
}

std::vector<std::string> metric_keys(Measure measure) {
    std::vector<std::string> out;
    for (const auto& m : metrics())
        if (m.measure == measure) out.emplace_back(m.key);
    return out;
}

std::string metric_keys() {
    std::string out;
    for (const auto& m : metrics()) {
        if (!out.empty()) out += ", ";
        out += m.key;
    }
    return out;
}

bool negligible(const Metric& m, double baseline, double current) {
    return std::fabs(current - baseline) < m.negligible_change;
}

double worsening(const Metric& m, double change) { return m.better == Better::higher ? -change : change; }

double worsening_log(const Metric& m, double log_ratio) { return m.better == Better::higher ? -log_ratio : log_ratio; }

std::string_view worse_word(const Metric& m) { return m.better == Better::higher ? "dropped" : "rose"; }

std::string_view better_word(const Metric& m) { return m.better == Better::higher ? "rose" : "fell"; }

std::string limit_text(const Metric& m, double max_drop) {
    return fmt::format("{}{:.1f}%", m.better == Better::higher ? '-' : '+', max_drop * 100);
}

std::string display_value(const Metric& m, double value) {
    return fmt::format("{:.1f} {}", value / m.display_scale, m.display_unit);
}

}  // namespace perfgate

#pragma once
// The results model shared by perf/ (which writes rows), gates/ (which compares them) and the
// report: one benchmark reading of one model on one runtime, with its provenance.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/host_record.hpp"

namespace perfgate {

// The trailing status of a row: "ok", or an mlxcel token such as "SKIP:oom_estimate",
// "SKIP:duplicate_of=gemma-3-1b-it-4bit", "FAIL:bench".
struct StatusToken {
    std::string text = "ok";

    bool ok() const { return text == "ok"; }
    bool is_skip() const { return text.rfind("SKIP:", 0) == 0; }
    bool is_fail() const { return text.rfind("FAIL:", 0) == 0; }
    // The contention guard's skip: the machine was busy, so the row says nothing about the pair.
    static constexpr const char* contended = "SKIP:contended";
    bool is_contended() const { return text == contended; }
    // "oom_estimate" for "SKIP:oom_estimate"; "duplicate_of" for "SKIP:duplicate_of=x".
    std::string reason() const;
    // The value after '=' ("x" for "SKIP:duplicate_of=x"), empty when there is none.
    std::string value() const;
    // True for "ok" and for a well-formed SKIP:/FAIL: token (lowercase reason, optional =value).
    static bool valid(const std::string& text);
};

// Which header generation a file was written in (docs/csv-schema.md).
enum class CsvGeneration {
    A,        // 14 columns, 11th "mlx_version" (hard-coded MLX version)
    A_prime,  // 14 columns, 11th "mlxcel_version"
    B,        // 15 columns, + prompt_target_len
    B_prime,  // 16 columns, + commit
    C,        // 17 columns, + mlxcel_commit, mlx_commit
    C_rocm,   // 19 columns, + mlx_rocm_overlay_commit, hip_version
    P,        // 14 columns, pylm: 11th "baseline_version"
    Perfgate, // perfgate's own schema (mlxcel's 17 + ROCm 2 + perfgate columns)
};
const char* to_string(CsvGeneration g);

// The host facts (hardware, host tag, device, versions, machine id, ...) are the HostRecord base:
// one type from the probe to the row (host_record.hpp).
struct ResultRow : HostRecord {
    // --- mlxcel's 17 named columns, in order ---
    std::string model;
    std::string model_path;
    std::optional<std::int64_t> prompt_tokens;
    std::optional<std::int64_t> generated_tokens;
    std::optional<double> prefill_ms;
    std::optional<double> prefill_tok_s;
    std::optional<double> decode_ms;
    std::optional<double> decode_tok_s;
    std::string date;             // YYYY-MM-DD as written
    std::string runtime_version;  // 11th column: mlx_version / mlxcel_version / baseline_version
    std::string build_type;
    std::optional<std::int64_t> max_tokens;
    std::string prompt;
    std::optional<std::int64_t> prompt_target_len;
    std::string runtime_commit;   // mlxcel_commit (or B' "commit"); perfgate stores it whole
    std::string upstream_commit;  // mlx_commit: the pinned upstream library
    // --- mlxcel ROCm columns ---
    std::string overlay_commit;   // mlx_rocm_overlay_commit
    // --- perfgate's columns ---
    std::string runtime;          // llama-bench, mlxcel, mlx-lm, transformers, catch2, command
    std::string backend;          // rocm, cuda, metal, vulkan, cpu
    std::optional<std::int64_t> repetitions;
    std::optional<std::int64_t> warmup;
    std::optional<std::int64_t> batch;
    std::vector<double> prefill_tok_s_samples;
    std::vector<double> decode_tok_s_samples;
    std::string flags;
    std::string harness = "text"; // text | vlm
    std::string format;           // quantization / checkpoint format, e.g. Q4_0
    std::optional<std::uint64_t> model_bytes;
    // Weight bytes one decoded token reads (a mixture's active experts, one embedding row): the
    // roofline's numerator; empty when unknown (rows before it, checkpoints without a forge spec).
    std::optional<std::uint64_t> active_model_bytes;
    bool synthetic = false;       // forged model with random weights
    std::string contention;       // what else used the machine (docs/runner.md, "Contention"): "idle;load1=..",
                                  // "contended:before;..", "off:replay"; empty = not recorded
    std::string run_id;           // one id per perfgate run, so repeated runs in one file stay apart
    std::string arm;              // perfgate ab: "base" or "head"; empty for a normal run
    std::string timestamp;        // ISO 8601 UTC time the row was recorded
    std::string compiler;              // compiler that built the runtime, when known
    std::string command;               // the exact argument vector, space-joined for reading
    std::optional<double> cooldown_s;
    StatusToken status;
    // (Written after machine_fingerprint.) Peak resident memory of the runtime's largest process,
    // in bytes, per launch (the kernel's account at wait4), and the largest of them. Lower is better.
    std::optional<double> peak_memory_bytes;
    std::vector<double> peak_memory_bytes_samples;
    // (Written after peak_memory_bytes_samples.) Peak device memory the runtime's process group
    // held, in bytes, per launch (sampled about once a second from the GPU driver's per-process
    // account: nvidia-smi, the KFD), and the largest of them. Empty where no source can be read
    // (a CPU run, a replay). Lower is better.
    std::optional<double> peak_device_memory_bytes;
    std::vector<double> peak_device_memory_bytes_samples;
    // (Written after peak_device_memory_bytes_samples.) Instructions the runtime executed per
    // prompt token and per generated token, counted by valgrind's cachegrind (a pair measured with
    // "measure": "instructions", docs/instructions.md): one sample per pair (one counted set of
    // workloads), the median of the samples as the headline. Deterministic where wall time is not; lower is better.
    std::optional<double> prefill_instructions_per_token;
    std::vector<double> prefill_instructions_per_token_samples;
    std::optional<double> decode_instructions_per_token;
    std::vector<double> decode_instructions_per_token_samples;
    // (Written after decode_instructions_per_token_samples.) Tokens per second of a prompt followed
    // by generation in one test (llama-bench -pg P,N: (P + N) / time), one sample per repetition.
    // Read from llama-bench's own output; higher is better.
    std::optional<double> prompt_gen_tok_s;
    std::vector<double> prompt_gen_tok_s_samples;
    // (Written after active_model_bytes.) A serving pair's figures (docs/serving.md): perfgate's
    // load generator against the server at the pair's concurrency (the `batch` column), one sample
    // per repetition of the load, the median as the headline. Output tokens and requests per
    // second (higher is better); the 50th and 99th percentiles of time to first token, time per
    // output token and inter-token latency, in milliseconds (lower is better).
    std::optional<double> serving_output_tok_s;
    std::vector<double> serving_output_tok_s_samples;
    std::optional<double> ttft_p50_ms;
    std::vector<double> ttft_p50_ms_samples;
    std::optional<double> ttft_p99_ms;
    std::vector<double> ttft_p99_ms_samples;
    std::optional<double> tpot_p50_ms;
    std::vector<double> tpot_p50_ms_samples;
    std::optional<double> tpot_p99_ms;
    std::vector<double> tpot_p99_ms_samples;
    std::optional<double> itl_p50_ms;
    std::vector<double> itl_p50_ms_samples;
    std::optional<double> itl_p99_ms;
    std::vector<double> itl_p99_ms_samples;
    std::optional<double> serving_request_s;
    std::vector<double> serving_request_s_samples;

    // Where the row came from, for error messages and reports (not written).
    std::string source_file;
    std::size_t source_line = 0;

    // The samples of a metric: the recorded samples when present, else the single reading.
    std::vector<double> decode_samples() const;
    std::vector<double> prefill_samples() const;
    std::vector<double> peak_memory_samples() const;
    std::vector<double> peak_device_memory_samples() const;
    std::vector<double> prefill_instructions_samples() const;
    std::vector<double> decode_instructions_samples() const;
    std::vector<double> prompt_gen_samples() const;
    std::vector<double> serving_output_samples() const;
    std::vector<double> ttft_p50_samples() const;
    std::vector<double> ttft_p99_samples() const;
    std::vector<double> tpot_p50_samples() const;
    std::vector<double> tpot_p99_samples() const;
    std::vector<double> itl_p50_samples() const;
    std::vector<double> itl_p99_samples() const;
    std::vector<double> serving_request_samples() const;
};

struct ResultFile {
    std::string path;
    CsvGeneration generation = CsvGeneration::Perfgate;
    std::vector<std::string> header;
    std::vector<ResultRow> rows;
    std::vector<std::string> warnings;  // read, but worth saying (an empty file of 0 bytes)
};

}  // namespace perfgate

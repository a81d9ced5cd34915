#include "perfgate/perf/result_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "perfgate/core/backend.hpp"
#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/measure_rules.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/core/file_read.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/serving_result_files.hpp"

namespace perfgate::perf {
namespace {

// llama-bench's "backends" ("CPU", "ROCm", "CUDA", "Metal,BLAS", "Vulkan") as a perfgate backend.
std::string backend_of(const std::string& backends) {
    std::string lower;
    for (char c : backends) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // Any accelerator named wins over the CPU ("CUDA,CPU" is cuda); the first in perfgate's list.
    const std::string_view cpu = to_string(Backend::cpu);
    for (const char* b : backend_names)
        if (b != cpu && lower.find(b) != std::string::npos) return b;
    return std::string(cpu);
}

std::string model_name_of(const LlamaBenchTest& t) {
    std::string name = std::filesystem::path(t.model_filename).filename().string();
    if (name.size() > 5 && name.ends_with(".gguf")) name.resize(name.size() - 5);
    return name.empty() ? t.model_type : name;
}

// A test record read from a file is held to the rules of perfgate's own CSV reader and recorder
// (core/measure_rules.hpp, core/calendar_date.hpp): a file `compare` reads must not pass what a
// results CSV would be refused for.
Status check_test(const LlamaBenchTest& t, const std::string& origin) {
    const auto at = fmt::format("{}:{}: llama-bench", origin, t.line);
    if (!t.not_a_number.empty()) return make_error(fmt::format("{}: {} is not a number", at, t.not_a_number));
    if (t.n_prompt < 0 || t.n_gen < 0)
        return make_error(fmt::format("{}: a negative token count (n_prompt {}, n_gen {})", at, t.n_prompt, t.n_gen));
    if (!t.test_time.empty() && !iso_day_number(std::string_view(t.test_time).substr(0, 10)))
        return make_error(fmt::format("{}: test_time '{}' does not start with a real YYYY-MM-DD date", at,
                                      printable_excerpt(t.test_time, 40)));
    auto bad = [](double v) { return !std::isfinite(v) || v < 0; };
    bool wrong = t.avg_ns && bad(*t.avg_ns);
    for (double v : t.samples_ns) wrong = wrong || bad(v);
    if (wrong) return make_error(fmt::format("{}: a duration that is not a finite, non-negative number", at));
    if (!t.avg_ts) return make_error(fmt::format("{}: a test without avg_ts or samples_ts", at));
    if (auto why = implausible_rate(*t.avg_ts)) return make_error(fmt::format("{}: avg_ts {}: {}", at, *t.avg_ts, *why));
    for (double v : t.samples_ts)
        if (auto why = implausible_rate(v)) return make_error(fmt::format("{}: a samples_ts entry {}: {}", at, v, *why));
    return Ok{};
}

ResultRow row_of_test(const LlamaBenchTest& t, const std::string& origin, const std::string& host) {
    ResultRow r;
    r.model_path = t.model_filename;
    r.runtime = "llama-bench";
    r.backend = backend_of(t.backends);
    r.host = host;
    r.date = t.test_time.substr(0, 10);
    r.timestamp = t.test_time;
    r.runtime_commit = t.build_commit;
    r.runtime_version = t.build_number;
    r.device = !t.gpu_info.empty() ? t.gpu_info : t.cpu_info;
    r.cpu_model = t.cpu_info;
    r.model_bytes = t.model_size;
    if (auto space = t.model_type.find_last_of(' '); space != std::string::npos) r.format = t.model_type.substr(space + 1);
    r.batch = 1;  // llama-bench measures one sequence; n_batch is its logical batch size, kept in flags
    r.flags = fmt::format("{}", fmt::join(t.configuration, " "));
    r.source_file = origin;
    r.source_line = t.line;
    return r;
}

// A model file, the text of a configuration, and whether the group holds -pg tests: a prompt
// followed by generation is a workload of its own, a pair of its own (never one row with pp and tg).
struct TestGroupKey {
    std::string model, configuration;
    bool prompt_gen = false;
    auto operator<=>(const TestGroupKey&) const = default;
};

// The prompt-processing and the text-generation tests of one model and configuration, in file
// order; or its -pg tests.
struct TestGroup {
    std::vector<const LlamaBenchTest*> prefill, decode, prompt_gen;

    std::size_t rows() const { return std::max({prefill.size(), decode.size(), prompt_gen.size()}); }
    const LlamaBenchTest& first() const {
        return !prefill.empty() ? *prefill.front() : !decode.empty() ? *decode.front() : *prompt_gen.front();
    }
};

struct TestGroups {
    std::vector<TestGroupKey> order;  // first-seen order: model file, then the configuration text
    std::map<TestGroupKey, TestGroup> groups;
    std::map<std::string, std::set<std::string>> configurations_of_model;
};

// Every test checked and grouped: prompt processing and text generation by configuration, -pg
// tests by configuration in groups of their own.
Expected<TestGroups> group_tests(const std::vector<LlamaBenchTest>& tests, const std::string& origin) {
    TestGroups grouped;
    for (const auto& t : tests) {
        if (auto st = check_test(t, origin); !st) return st.error();
        if (!t.is_prefill() && !t.is_decode() && !t.is_prompt_gen()) continue;
        const TestGroupKey key{model_name_of(t), fmt::format("{}", fmt::join(t.configuration, " ")), t.is_prompt_gen()};
        if (!grouped.groups.count(key)) grouped.order.push_back(key);
        TestGroup& group = grouped.groups[key];
        (t.is_prompt_gen() ? group.prompt_gen : t.is_prefill() ? group.prefill : group.decode).push_back(&t);
        grouped.configurations_of_model[key.model].insert(key.configuration);
    }
    if (grouped.order.empty())
        return make_error(origin + ":1: llama-bench: no prompt-processing, text-generation or prompt+generation test");
    return grouped;
}

// The model's name, and when the file measured it in several configurations, the parameters that
// tell this configuration from the model's others.
std::string model_label(const TestGroups& grouped, const TestGroupKey& key) {
    if (grouped.configurations_of_model.at(key.model).size() <= 1) return key.model;
    std::map<std::string, std::set<std::string>> values;
    for (const auto& [other, group] : grouped.groups)
        if (other.model == key.model)
            for (const auto& kv : group.first().configuration) values[kv.substr(0, kv.find('='))].insert(kv);
    std::vector<std::string> differing;
    for (const auto& kv : grouped.groups.at(key).first().configuration)
        if (values[kv.substr(0, kv.find('='))].size() > 1) differing.push_back(kv);
    return key.model + fmt::format(" [{}]", fmt::join(differing, ","));
}

// The k-th row of a group of prompt-processing and text-generation tests: its k-th of each,
// whichever the group has.
ResultRow group_row(const TestGroup& group, std::size_t k, const std::string& origin, const std::string& host) {
    const auto& pp = group.prefill;
    const auto& tg = group.decode;
    ResultRow r = row_of_test(k < pp.size() ? *pp[k] : *tg[k], origin, host);
    if (k < pp.size()) {
        r.prompt_tokens = pp[k]->n_prompt;
        r.prompt_target_len = pp[k]->n_prompt;
        r.prefill_tok_s = pp[k]->avg_ts;
        if (pp[k]->avg_ns) r.prefill_ms = *pp[k]->avg_ns / 1e6;
        r.prefill_tok_s_samples = pp[k]->samples_ts;
    }
    if (k < tg.size()) {
        r.generated_tokens = tg[k]->n_gen;
        r.max_tokens = tg[k]->n_gen;
        r.decode_tok_s = tg[k]->avg_ts;
        if (tg[k]->avg_ns) r.decode_ms = *tg[k]->avg_ns / 1e6;
        r.decode_tok_s_samples = tg[k]->samples_ts;
    }
    const auto n = std::max(r.prefill_tok_s_samples.size(), r.decode_tok_s_samples.size());
    if (n > 0) r.repetitions = static_cast<std::int64_t>(n);
    return r;
}

// A -pg test as a row of its own: its prompt and generated tokens are its workload, its tokens
// per second (prompt and generated together) its one metric. The model name says which test it
// is, in llama.cpp's own words ("pp512+tg128").
ResultRow prompt_gen_row(const LlamaBenchTest& t, const std::string& model, const std::string& origin,
                         const std::string& host) {
    ResultRow r = row_of_test(t, origin, host);
    r.model = fmt::format("{} [pp{}+tg{}]", model, t.n_prompt, t.n_gen);
    r.prompt_tokens = t.n_prompt;
    r.prompt_target_len = t.n_prompt;
    r.generated_tokens = t.n_gen;
    r.max_tokens = t.n_gen;
    r.prompt_gen_tok_s = t.avg_ts;
    r.prompt_gen_tok_s_samples = t.samples_ts;
    if (!t.samples_ts.empty()) r.repetitions = static_cast<std::int64_t>(t.samples_ts.size());
    return r;
}

}  // namespace

const char* to_string(ResultFileFormat format) {
    switch (format) {
        case ResultFileFormat::results_csv: return "results CSV";
        case ResultFileFormat::llama_bench_json: return "llama-bench -o json";
        case ResultFileFormat::llama_bench_jsonl: return "llama-bench -o jsonl";
        case ResultFileFormat::llama_bench_csv: return "llama-bench -o csv";
        case ResultFileFormat::llama_bench_sql: return "llama-bench -o sql";
        case ResultFileFormat::vllm_bench_serve: return "vllm bench serve --save-result";
        case ResultFileFormat::sglang_bench_serving: return "sglang bench_serving --output-file";
    }
    return "results CSV";
}

Expected<ResultFileFormat> detect_result_file_format(const std::string& path) {
    // The start decides (the gate reads every results file through here before reading it whole).
    auto text = read_regular_file_prefix(path, 64 * 1024);
    if (!text) return text.error();
    const auto body = trim(*text);
    if (body.starts_with("build_commit,") || body.starts_with("\"build_commit\",")) return ResultFileFormat::llama_bench_csv;
    if (starts_as_llama_bench_sql(body)) return ResultFileFormat::llama_bench_sql;
    if (body.starts_with("[")) return ResultFileFormat::llama_bench_json;
    if (body.starts_with("{")) {
        if (body.find("\"build_commit\"") == std::string_view::npos)
            if (auto serving = detect_serving_result_format(body)) return *serving;
        return ResultFileFormat::llama_bench_jsonl;
    }
    return ResultFileFormat::results_csv;
}

Expected<std::vector<ResultRow>> llama_bench_rows(const std::vector<LlamaBenchTest>& tests, const std::string& origin,
                                                  const std::string& host) {
    const auto grouped = group_tests(tests, origin);
    if (!grouped) return grouped.error();
    std::vector<ResultRow> rows;
    for (const auto& key : grouped->order) {
        const std::string model = model_label(*grouped, key);
        const TestGroup& group = grouped->groups.at(key);
        for (std::size_t k = 0; k < group.rows(); ++k) {
            if (key.prompt_gen) {
                rows.push_back(prompt_gen_row(*group.prompt_gen[k], model, origin, host));
                continue;
            }
            ResultRow r = group_row(group, k, origin, host);
            r.model = model;
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

Expected<ReadResultFile> read_result_file(const std::string& path, const std::string& host) {
    auto format = detect_result_file_format(path);
    if (!format) return format.error();
    ReadResultFile out;
    out.format = *format;
    if (*format == ResultFileFormat::results_csv) {
        auto file = read_results_csv(path);
        if (!file) return file.error();
        out.rows = std::move(file->rows);
        return out;
    }
    auto text = read_regular_file(path);
    if (!text) return text.error();
    if (auto defect = find_binary_or_invalid_utf8(*text))
        return make_error(fmt::format("{}:{}: {}: not text", path, defect->line, defect->what));
    if (*format == ResultFileFormat::vllm_bench_serve || *format == ResultFileFormat::sglang_bench_serving) {
        auto rows = serving_result_rows(*format, *text, path, host);
        if (!rows) return rows.error();
        out.rows = std::move(*rows);
        return out;
    }
    Expected<std::vector<LlamaBenchTest>> tests = make_error("");
    switch (*format) {
        case ResultFileFormat::llama_bench_json: tests = parse_llama_bench_json_tests(*text, path); break;
        case ResultFileFormat::llama_bench_jsonl: tests = parse_llama_bench_jsonl(*text, path); break;
        case ResultFileFormat::llama_bench_sql: tests = parse_llama_bench_sql(*text, path); break;
        default: tests = parse_llama_bench_csv(*text, path); break;
    }
    if (!tests) return tests.error();
    auto rows = llama_bench_rows(*tests, path, host);
    if (!rows) return rows.error();
    out.rows = std::move(*rows);
    return out;
}

}  // namespace perfgate::perf

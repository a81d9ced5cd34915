// vLLM's `vllm bench serve --save-result` and SGLang's `bench_serving --output-file` result files
// as rows. The keys are those of vLLM's vllm/benchmarks/serve.py (and the older
// benchmarks/benchmark_serving.py) and SGLang's bench_serving; perf/tests/data/serving-results/README.md
// lists the versions the fixtures follow.
#include "perfgate/perf/serving_result_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/core/measure_rules.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::perf {
namespace {

using json = nlohmann::json;

// SGLang writes its file with Python's json.dumps defaults, which put bare NaN, Infinity and
// -Infinity in the text (an unbounded request rate is Infinity, the latencies of a run whose
// requests all failed NaN). JSON has no such tokens and nlohmann::json has no option to accept
// them, so they are read as null ("not measured", "unbounded") before parsing. Written here: it is
// a token substitution outside strings, not a parser.
std::string python_tokens_as_null(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        bool replaced = false;
        for (std::string_view token : {"-Infinity", "Infinity", "NaN"})
            if (text.substr(i, token.size()) == token) {
                out += "null";
                i += token.size() - 1;
                replaced = true;
                break;
            }
        if (!replaced) out += c;
    }
    return out;
}

// The figures both tools write under the same keys, and the row's metric each one is.
struct FigureKey {
    const char* key;
    std::optional<double> ResultRow::*field;
};
constexpr FigureKey figure_keys[] = {
    {"output_throughput", &ResultRow::serving_output_tok_s}, {"request_throughput", &ResultRow::serving_request_s},
    {"median_ttft_ms", &ResultRow::ttft_p50_ms},             {"p99_ttft_ms", &ResultRow::ttft_p99_ms},
    {"median_tpot_ms", &ResultRow::tpot_p50_ms},             {"p99_tpot_ms", &ResultRow::tpot_p99_ms},
    {"median_itl_ms", &ResultRow::itl_p50_ms},               {"p99_itl_ms", &ResultRow::itl_p99_ms},
};

// A figure: absent or null (NaN, Infinity) is not measured; anything else must be a finite number
// from 0.
std::optional<double> figure(JsonFields& r, const json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    return r.number_in(object, "", key, 0, kMaxRecordedRate);
}

// A text field that may be null (SGLang's tag, vLLM's label when not given).
std::optional<std::string> nullable_text(JsonFields& r, const json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    return r.string(object, "", key);
}

std::string base_name(std::string id) {
    while (id.size() > 1 && id.back() == '/') id.pop_back();
    if (auto slash = id.find_last_of('/'); slash != std::string::npos && slash + 1 < id.size()) id = id.substr(slash + 1);
    return id;
}

// The model: vLLM's model_id; SGLang names none but in the server's own report (server_info's
// model_path, written by newer versions), else its --tag. A finite request rate is part of the
// workload, so it is part of the pair's name, as llama-bench's differing parameters are.
std::string model_of(JsonFields& r, const json& o, ResultFileFormat format) {
    std::string model;
    if (format == ResultFileFormat::vllm_bench_serve) {
        model = base_name(r.string(o, "", "model_id", JsonFields::Need::required).value_or(""));
    } else {
        auto info = o.find("server_info");
        if (info != o.end() && info->is_object() && info->contains("model_path") && (*info)["model_path"].is_string())
            model = base_name((*info)["model_path"].get<std::string>());
        if (model.empty()) model = nullable_text(r, o, "tag").value_or("");
        if (model.empty()) model = "unnamed model";
    }
    auto rate = o.find("request_rate");
    if (rate != o.end() && rate->is_number()) model += fmt::format(" [request_rate={}]", rate->get<double>());
    if (rate != o.end() && rate->is_string() && rate->get<std::string>() != "inf")
        model += fmt::format(" [request_rate={}]", printable_excerpt(rate->get<std::string>(), 20));
    return model;
}

// vLLM's "date", YYYYMMDD-HHMMSS in the benchmark host's local time: the row's date and a
// timestamp without a zone (none is recorded).
void read_date(JsonFields& r, const json& o, ResultRow& row) {
    auto date = nullable_text(r, o, "date");
    if (!date) return;
    const std::string& d = *date;
    bool shaped = d.size() == 15 && d[8] == '-';
    for (std::size_t i = 0; shaped && i < d.size(); ++i) shaped = i == 8 || (d[i] >= '0' && d[i] <= '9');
    const std::string day = shaped ? fmt::format("{}-{}-{}", d.substr(0, 4), d.substr(4, 2), d.substr(6, 2)) : "";
    if (!shaped || !iso_day_number(day))
        return r.fail("/date", fmt::format("date '{}' is not YYYYMMDD-HHMMSS", printable_excerpt(d, 40)));
    const int hh = std::stoi(d.substr(9, 2)), mm = std::stoi(d.substr(11, 2)), ss = std::stoi(d.substr(13, 2));
    if (hh > 23 || mm > 59 || ss > 60)
        return r.fail("/date", fmt::format("date '{}' holds no time of day (HHMMSS)", printable_excerpt(d, 40)));
    row.date = day;
    row.timestamp = fmt::format("{}T{}:{}:{}", day, d.substr(9, 2), d.substr(11, 2), d.substr(13, 2));
}

// Token counts per completed request, and the requests that failed: vLLM counts them (`failed`,
// from late 2025); SGLang does not, so a file of its can show only a run with none completed.
void read_requests(JsonFields& r, const json& o, ResultRow& row) {
    const auto completed = r.integer(o, "", "completed", 0, JsonFields::Need::required).value_or(0);
    const auto failed = r.integer(o, "", "failed", 0).value_or(0);
    // Rounded to the nearest whole token without overflowing: a total near INT64_MAX turned
    // negative when half the count was added first (issue 48 item 16).
    const auto per_request = [completed](std::int64_t total) {
        const std::int64_t rest = total % completed;
        return total / completed + (rest >= completed - rest ? 1 : 0);
    };
    if (completed > 0) {
        if (auto in = r.integer(o, "", "total_input_tokens", 0)) row.prompt_tokens = per_request(*in);
        if (auto out = r.integer(o, "", "total_output_tokens", 0)) row.generated_tokens = per_request(*out);
        row.prompt_target_len = row.prompt_tokens;
    }
    // As for perfgate's own serving pairs: figures without the failed requests would look faster.
    if (completed == 0 || failed > 0) row.status.text = "FAIL:requests";
}

ResultRow row_of_object(JsonFields& r, const json& o, ResultFileFormat format, const std::string& origin,
                        std::size_t line, const std::string& host) {
    ResultRow row;
    row.runtime = format == ResultFileFormat::vllm_bench_serve ? "vllm" : "sglang";
    row.host = host;
    row.model = model_of(r, o, format);
    if (auto c = o.find("max_concurrency"); c != o.end() && !c->is_null())
        row.batch = r.integer(o, "", "max_concurrency", 1);
    row.repetitions = 1;
    read_date(r, o, row);
    read_requests(r, o, row);
    if (!o.contains("output_throughput")) r.fail("", "a run without output_throughput");
    for (const auto& k : figure_keys) row.*k.field = figure(r, o, k.key);
    // A run whose requests all completed has throughputs and TTFTs: NaN or Infinity there (null
    // once read) is a broken file, not a figure left unmeasured, which the gate would pass as
    // missing (issue 48 item 15). TPOT and ITL stay nullable: a run of one-token outputs has none.
    if (row.status.ok())
        for (const char* key : {"output_throughput", "request_throughput", "median_ttft_ms", "p99_ttft_ms"})
            if (auto it = o.find(key); it != o.end() && it->is_null())
                r.fail(std::string("/") + key, fmt::format("{} is NaN, Infinity or null in a run whose requests all "
                                                           "completed",
                                                           key));
    row.flags = fmt::format("backend={}", nullable_text(r, o, "backend").value_or("?"));
    if (auto dataset = nullable_text(r, o, "dataset_name")) row.flags += " dataset=" + *dataset;
    // One run per object: the gate judges a file's latest run (by its timestamp, else the last).
    row.run_id = fmt::format("{}:{}", std::filesystem::path(origin).filename().string(), line);
    row.source_file = origin;
    row.source_line = line;
    return row;
}

// The run of one parsed JSON value, which must be an object; `line` is where it starts.
Expected<ResultRow> row_of_document(const JsonDocument& doc, ResultFileFormat format, std::size_t line,
                                    const std::string& host) {
    if (!doc.value.is_object())
        return make_error(fmt::format("{}:{}: {}: a run must be one JSON object", doc.origin, line,
                                      format == ResultFileFormat::vllm_bench_serve ? "vllm bench serve" : "bench_serving"));
    JsonFields r(doc);
    auto row = row_of_object(r, doc.value, format, doc.origin, line, host);
    if (r.failed()) return r.error();
    return row;
}

}  // namespace

std::optional<ResultFileFormat> detect_serving_result_format(std::string_view start) {
    if (start.find("\"random_range_ratio\"") != std::string_view::npos ||
        start.find("\"total_output_tokens_retokenized\"") != std::string_view::npos)
        return ResultFileFormat::sglang_bench_serving;
    if (start.find("\"burstiness\"") != std::string_view::npos) return ResultFileFormat::vllm_bench_serve;
    return std::nullopt;
}

Expected<std::vector<ResultRow>> serving_result_rows(ResultFileFormat format, std::string_view text,
                                                     const std::string& origin, const std::string& host) {
    // Python's tokens replaced once for the whole file (the lines stay where they were).
    const std::string strict = python_tokens_as_null(text);
    std::vector<ResultRow> rows;
    // A file that is one JSON value (vLLM's one object, also pretty-printed over several lines) is
    // one run; anything else is read as JSON lines, one run per line.
    if (auto whole = parse_json_document(strict, origin)) {
        auto row = row_of_document(*whole, format, 1, host);
        if (!row) return row.error();
        rows.push_back(std::move(*row));
        return rows;
    }
    for (const auto& [line, content] : nonblank_lines(strict)) {
        auto doc = parse_json_document(content, origin, line);
        if (!doc) return doc.error();
        auto row = row_of_document(*doc, format, line, host);
        if (!row) return row.error();
        rows.push_back(std::move(*row));
    }
    if (rows.empty()) return make_error(origin + ":1: no run in the file");
    return rows;
}

}  // namespace perfgate::perf

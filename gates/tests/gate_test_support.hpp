#pragma once
// Helpers for the gate tests (on top of tests/support): fixture paths and CSV edits done on the text, so
// a copied mlxcel file keeps its exact generation and layout.
#include <boost/filesystem.hpp>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"
#include "perfgate/gates/report.hpp"
#include "perfgate/test/files.hpp"

namespace perfgate::gates::testing {

namespace bfs = boost::filesystem;

inline std::string fixture_dir() { return std::string(PERFGATE_FIXTURES_DIR) + "/mlxcel-benchmarks"; }
inline std::string fixture(const std::string& name) { return perfgate::test::mlxcel_csv(name); }
inline std::string thresholds_dir() { return std::string(PERFGATE_SOURCE_DIR) + "/thresholds"; }

using perfgate::test::TempDir;
// Judged and nothing beyond the noise: "unchanged" when the data bound the change within the floor,
// "within noise" when they cannot (a short or noisy history).
inline bool quiet(Verdict v) { return v == Verdict::unchanged || v == Verdict::within_noise; }

inline std::string slurp(const std::string& path) { return perfgate::test::read_file(path); }
inline void spit(const std::string& path, const std::string& text) { perfgate::test::write_file(path, text); }

// Splits one CSV record of mlxcel's files (only double-quoted fields, no embedded newlines).
inline std::vector<std::string> split_record(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

inline std::string join_record(const std::vector<std::string>& fields) {
    std::string s;
    for (std::size_t i = 0; i < fields.size(); ++i) s += (i ? "," : "") + fields[i];
    return s;
}

// One run's row of qwen3-0.6b on llama-bench, cpu-epyc (pp512/tg128, prefill 4x decode), dated
// 2026-11-<day>: the history rows of the machine and metric tests.
inline ResultRow history_row(double decode, int day, const std::string& run) {
    ResultRow r;
    r.model = "qwen3-0.6b";
    r.runtime = "llama-bench";
    r.backend = "cpu";
    r.host = "cpu-epyc";
    r.prompt_tokens = 512;
    r.generated_tokens = 128;
    r.max_tokens = 128;
    r.prompt_target_len = 512;
    r.prefill_tok_s = decode * 4;
    r.decode_tok_s = decode;
    r.date = fmt::format("2026-11-{:02}", day);
    r.run_id = run;
    r.timestamp = r.date + "T10:00:00Z";
    return r;
}

struct CsvText {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    static CsvText parse(const std::string& text) {
        CsvText t;
        std::istringstream in(text);
        std::string line;
        std::getline(in, line);
        t.header = split_record(line);
        while (std::getline(in, line))
            if (!line.empty()) t.rows.push_back(split_record(line));
        return t;
    }
    std::size_t col(const std::string& name) const {
        for (std::size_t i = 0; i < header.size(); ++i)
            if (header[i] == name) return i;
        throw std::runtime_error("no column " + name);
    }
    std::string str() const {
        std::string s = join_record(header) + "\n";
        for (const auto& r : rows) s += join_record(r) + "\n";
        return s;
    }
    // Rows with numbers (no status token).
    bool ok(const std::vector<std::string>& r) const { return r.size() == header.size() && !r[col("decode_tok_s")].empty(); }
    void edit(const std::function<void(std::vector<std::string>&)>& f) {
        for (auto& r : rows) f(r);
    }
};

}  // namespace perfgate::gates::testing

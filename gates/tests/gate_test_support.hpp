#pragma once
// Helpers for the gate tests: temporary folders, fixture paths and CSV edits done on the text, so
// a copied mlxcel file keeps its exact generation and layout.
#include <boost/filesystem.hpp>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace perfgate::gates::testing {

namespace bfs = boost::filesystem;

inline std::string fixture_dir() { return std::string(PERFGATE_SHARED_DIR) + "/fixtures/mlxcel-benchmarks"; }
inline std::string fixture(const std::string& name) { return fixture_dir() + "/" + name; }
inline std::string thresholds_dir() { return std::string(PERFGATE_SOURCE_DIR) + "/thresholds"; }

struct TempDir {
    bfs::path path;
    TempDir() : path(bfs::temp_directory_path() / bfs::unique_path("perfgate-gates-%%%%-%%%%-%%%%")) {
        bfs::create_directories(path);
    }
    ~TempDir() {
        boost::system::error_code ec;
        bfs::remove_all(path, ec);
    }
    std::string sub(const std::string& name) const {
        auto p = path / name;
        bfs::create_directories(p.parent_path());
        return p.string();
    }
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void spit(const std::string& path, const std::string& text) {
    bfs::create_directories(bfs::path(path).parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
}

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

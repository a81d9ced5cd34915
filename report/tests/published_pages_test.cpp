// Acceptance of what a reader sees: every page under docs/benchmark_results/ as committed. No folder
// of the machine that made it, backslash escapes only in data, and every number of a report page
// equal to the medians of the CSVs it names (the page is rebuilt and compared too, so a committed
// page that no longer matches its CSVs fails here).
#include <algorithm>
#include <map>
#include <set>

#include <catch2/catch.hpp>
#include <boost/filesystem.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/gates/thresholds.hpp"
#include "perfgate/report/make_report.hpp"
#include "report_test_support.hpp"

using namespace perfgate;
using namespace perfgate::report;
namespace fs = boost::filesystem;

namespace {

const fs::path source_dir = PERFGATE_SOURCE_DIR;

std::vector<fs::path> published(const std::string& extension) {
    std::vector<fs::path> out;
    for (fs::directory_iterator it(source_dir / "docs/benchmark_results"), end; it != end; ++it)
        if (it->path().extension() == extension) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Backslash escapes that markdown never needs: '(' ')' '#' '+' '!' '{' '}' '-' '.' inside a line,
// and '_' between two letters or digits (an intraword underscore never opens emphasis).
std::string needless_escape(const std::string& line) {
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
        if (line[i] != '\\') continue;
        const char c = line[i + 1];
        if (std::string("()#+!{}-.").find(c) != std::string::npos) return line.substr(i, 2);
        if (c == '_' && i > 0 && is_word(line[i - 1]) && i + 2 < line.size() && is_word(line[i + 2])) return line.substr(i, 3);
        ++i;  // "\\" escapes the next backslash
    }
    return {};
}

bool has_escape(const std::string& text) {
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '\\' && std::ispunct(static_cast<unsigned char>(text[i + 1]))) return true;
    return false;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A result file named on a page: the project's benchmarks/, else the mlxcel fixtures in tests/fixtures.
fs::path result_file(const std::string& name) {
    const auto committed = source_dir / "benchmarks" / name;
    return fs::exists(committed) ? committed : fs::path(testing::fixture(name));
}

}  // namespace

TEST_CASE("published pages and charts name no folder of the machine that made them", "[report][published]") {
    auto files = published(".md");
    REQUIRE(files.size() >= 3);
    for (const auto& f : published(".svg")) files.push_back(f);
    for (const auto& f : files) {
        const auto text = testing::read_text(f.string());
        for (const char* machine : {"/tmp/", "/work/", "/home/", "/root/"}) {
            INFO(f.filename().string() << " holds " << machine);
            CHECK(text.find(machine) == std::string::npos);
        }
    }
}

TEST_CASE("published pages escape only data, and only what markdown needs", "[report][published]") {
    for (const auto& f : published(".md")) {
        const auto lines = lines_of(testing::read_text(f.string()));
        bool fenced = false, in_environment = false;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const auto& line = lines[i];
            if (line.rfind("```", 0) == 0) fenced = !fenced;
            if (fenced || line.rfind("```", 0) == 0) continue;
            INFO(f.filename().string() << " line " << i + 1 << ": " << line);
            if (line.rfind("## ", 0) == 0) in_environment = line == "## Environment";
            CHECK(needless_escape(line).empty());
            const bool header_row = i + 1 < lines.size() && lines[i + 1].rfind("|---", 0) == 0;
            // The page's own words: headings, table headers, prose paragraphs.
            if (line.rfind("#", 0) == 0 || header_row || (!line.empty() && line[0] != '|' && line.rfind("- ", 0) != 0))
                CHECK_FALSE(has_escape(line));
            // The Environment table: Field and Source are the page's words, Value is data.
            if (in_environment && line.rfind("| ", 0) == 0 && !header_row) {
                const auto cells = testing::table_cells(line);
                REQUIRE(cells.size() == 3);
                CHECK_FALSE(has_escape(cells[0]));
                CHECK_FALSE(has_escape(cells[2]));
            }
        }
    }
}

TEST_CASE("published report pages: every section, and numbers equal the CSVs' medians", "[report][published]") {
    std::size_t checked = 0;
    for (const auto& f : published(".md")) {
        const auto page = testing::read_text(f.string());
        if (page.rfind("# Benchmark results", 0) != 0) continue;  // a gate's verdict page
        INFO(f.filename().string());
        for (const char* s : {"Environment", "Method", "Results", "Comparison", "Charts", "How to reproduce"})
            CHECK_FALSE(testing::section(page, s).empty());

        // The result files the page names, read by hand.
        std::vector<std::string> csvs;
        std::map<std::pair<std::string, std::string>, std::vector<double>> decode, prefill;  // (model, runtime)
        std::map<std::string, std::uint64_t> model_bytes;
        std::map<std::pair<std::string, std::string>, std::string> formats;  // (model, runtime) -> format
        std::string host;
        for (const auto& row : testing::first_table(testing::section(page, "Method").substr(testing::section(page, "Method").find("### Result files"))).rows) {
            const auto path = result_file(row.at(0));
            REQUIRE(fs::exists(path));
            csvs.push_back(path.string());
            auto file = read_results_csv(path.string());
            REQUIRE(file);
            for (const auto& r : file->rows) {
                if (r.status.text != "ok") continue;
                for (double v : r.decode_samples()) decode[{r.model, r.runtime}].push_back(v);
                for (double v : r.prefill_samples()) prefill[{r.model, r.runtime}].push_back(v);
                if (r.model_bytes) model_bytes[r.model] = *r.model_bytes;
                formats.try_emplace({r.model, r.runtime}, r.format);
                if (!r.host.empty()) host = r.host;
            }
        }
        REQUIRE_FALSE(decode.empty());
        std::optional<double> bandwidth;
        if (auto text = fs::path(source_dir / "thresholds" / (host + ".json")); !host.empty() && fs::exists(text)) {
            auto parsed = gates::parse_threshold_file(testing::read_text(text.string()), text.string());
            REQUIRE(parsed);
            if (parsed->memory_bandwidth) bandwidth = parsed->memory_bandwidth->bytes_per_s;
        }

        const auto results = testing::first_table(testing::section(page, "Results"));
        const auto efficiency = results.column("Decode efficiency (share of memory bandwidth)");
        CHECK(efficiency.has_value() == bandwidth.has_value());
        for (const auto& [key, samples] : decode) {
            const auto& [model, runtime] = key;
            INFO(model << " on " << runtime);
            const auto* line = results.row(model);
            REQUIRE(line != nullptr);
            const auto d = results.column(runtime + " decode tok/s");
            const auto p = results.column(runtime + " prefill tok/s");
            REQUIRE(d);
            REQUIRE(p);
            const double decode_median = median_of(samples);
            CHECK(testing::leading_number(line->at(*d)).value() == Approx(decode_median).margin(0.005));
            if (!prefill[key].empty())
                CHECK(testing::leading_number(line->at(*p)).value() == Approx(median_of(prefill[key])).margin(0.005));
            if (efficiency && model_bytes.count(model)) {
                const auto& cell = line->at(*efficiency);
                const auto pos = cell.find(runtime + ": ");
                REQUIRE(pos != std::string::npos);
                auto rest = cell.substr(pos + runtime.size() + 2);
                if (rest.rfind("- (", 0) == 0) {
                    // Not computed: this runtime's weights are not the checkpoint model_bytes measures.
                    bool other = false;
                    for (const auto& [k, f] : formats)
                        if (k.first == model && k.second != runtime && f != formats[key]) other = true;
                    CHECK(other);
                    continue;
                }
                const double share = static_cast<double>(model_bytes[model]) * decode_median / *bandwidth * 100;
                if (rest.rfind("not known (", 0) == 0) {
                    // A mixture's whole-file bound above all of the bandwidth: named, never a share.
                    const auto at = rest.find("bound, ");
                    REQUIRE(at != std::string::npos);
                    CHECK(share > 100);
                    CHECK(testing::leading_number(rest.substr(at + 7)).value() == Approx(share).margin(0.05));
                    continue;
                }
                if (rest.rfind("≤ ", 0) == 0) rest = rest.substr(std::string("≤ ").size());
                CHECK(testing::leading_number(rest).value() == Approx(share).margin(0.05));
            }
        }

        // Rebuilt from the same CSVs now, the Results table is the committed one.
        testing::TempDir dir;
        ReportOptions o;
        o.results = csvs;
        o.output = dir.file("page.md");
        o.thresholds_dir = (source_dir / "thresholds").string();
        o.charts.enabled = false;
        auto rebuilt = make_report(o);
        REQUIRE(rebuilt);
        CHECK(testing::section(testing::read_text(o.output), "Results") == testing::section(page, "Results"));
        ++checked;
    }
    CHECK(checked >= 3);  // the CPU, H200 and gfx1151 pages
}

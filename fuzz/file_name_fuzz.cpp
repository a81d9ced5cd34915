// Benchmark CSV file names: a parsed name, written back in the convention's order, parses to the
// same fields (series, host, harness, date, tags, suffix, single model).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "perfgate/gates/calendar.hpp"
#include "perfgate/gates/file_name.hpp"

using perfgate::fuzz::check;

namespace {
std::string rebuild(const perfgate::gates::BenchmarkFileName& n) {
    std::string s = n.series + "_" + n.host;
    for (const auto& t : n.tags) s += "_" + t;
    if (n.harness == "vlm") s += "_vlm";
    s += "_" + n.date;
    if (!n.suffix.empty()) s += "_" + n.suffix;
    if (!n.single_model.empty()) s += "_single_" + n.single_model;
    return s + ".csv";
}

bool same(const perfgate::gates::BenchmarkFileName& a, const perfgate::gates::BenchmarkFileName& b) {
    return a.series == b.series && a.host == b.host && a.harness == b.harness && a.date == b.date && a.tags == b.tags &&
           a.suffix == b.suffix && a.single_model == b.single_model;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view path(reinterpret_cast<const char*>(data), size);
    if (auto bad = perfgate::gates::impossible_date_in_name(path))
        check(bad->find("not a real calendar date") != std::string::npos, "an impossible date is named as such");
    const auto parsed = perfgate::gates::parse_benchmark_file_name(path);
    if (!parsed) return 0;
    check(!parsed->series.empty() && !parsed->host.empty(), "series and host are present");
    check(parsed->host.find('_') == std::string::npos && parsed->series.find('/') == std::string::npos,
          "host has no '_' and fields no '/'");
    check(perfgate::gates::is_iso_date(parsed->date), "date is YYYY-MM-DD", parsed->date);
    check(parsed->harness == "text" || parsed->harness == "vlm", "harness is text or vlm");
    const std::string again = rebuild(*parsed);
    const auto reparsed = perfgate::gates::parse_benchmark_file_name(again);
    check(reparsed && same(*parsed, *reparsed), "file name round-trips", again);
    return 0;
}

// perf/suites/*.json manifests: an accepted suite has only safe names (they become test names
// and file names), unique models and runtimes, and pairs that reference declared entries exactly
// once; a rejected one names the file and a real line.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "fuzz_check.hpp"
#include "perfgate/perf/suite.hpp"

using perfgate::fuzz::check;
using perfgate::fuzz::names_file_and_line;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::string origin = "perf/suites/fuzz.json";
    auto suite = perfgate::perf::parse_suite(text, origin, "/nonexistent/suites");
    if (!suite) {
        check(names_file_and_line(suite.error().message, origin, text), "suite error names file:line", suite.error().message);
        return 0;
    }
    using perfgate::perf::is_safe_name;
    check(is_safe_name(suite->name), "suite name is safe", suite->name);
    check(suite->results_suffix.empty() || is_safe_name(suite->results_suffix), "results suffix is safe", suite->results_suffix);
    check(!suite->models.empty() && !suite->runtimes.empty(), "a suite has models and runtimes");
    std::set<std::string> models, runtimes;
    for (const auto& m : suite->models) {
        check(is_safe_name(m.name), "model name is safe", m.name);
        check(models.insert(m.name).second, "model names are unique", m.name);
    }
    for (const auto& r : suite->runtimes) {
        check(is_safe_name(r.name), "runtime name is safe", r.name);
        check(runtimes.insert(r.name).second, "runtime names are unique", r.name);
    }
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& p : suite->pairs) {
        check(models.count(p.model) && runtimes.count(p.runtime), "pairs reference declared entries", p.runtime + "/" + p.model);
        check(pairs.emplace(p.runtime, p.model).second, "pairs are unique", p.runtime + "/" + p.model);
    }
    const auto& w = suite->workload;
    check(w.prompt_tokens >= 0 && w.generated_tokens >= 0 && w.batch >= 0 && w.warmup >= 0 && w.repetitions >= 0,
          "workload counts are not negative");
    check(w.cooldown_s >= 0 && w.big_cooldown_s >= 0 && w.timeout_s >= 0, "workload times are not negative");
    return 0;
}

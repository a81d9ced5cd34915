#include "perfgate/runner/suite_run.hpp"

#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include "perfgate/core/json_input.hpp"

#include "pair_loop.hpp"
#include "perfgate/core/escape.hpp"
#include "perfgate/runner/key_value.hpp"

namespace perfgate::runner {
namespace {

Status apply_pin(perf::Suite& suite, const std::string& spec) {
    auto kv = split_key_value(spec, "--runtime-pin", "RUNTIME=FILE");
    if (!kv) return kv.error();
    const auto& [name, file] = *kv;
    perf::SuiteRuntime* rt = nullptr;
    for (auto& r : suite.runtimes)
        if (r.name == name) rt = &r;
    if (!rt) return make_error("--runtime-pin: the suite has no runtime named \"" + name + "\"");
    std::ifstream in(file);
    if (!in) return make_error(file + ": cannot read the runtime pin");
    const auto parsed = parse_json_value(std::string(std::istreambuf_iterator<char>(in), {}));
    if (!parsed || !parsed->is_object()) return make_error(file + ":1: not a JSON object");
    const auto& pin = *parsed;
    auto text = [&](const char* key) { return pin.contains(key) && pin[key].is_string() ? pin[key].get<std::string>() : std::string(); };
    // llama-bench prints a short hash; the pin's full commit is what the row should carry.
    if (rt->commit.empty()) rt->commit = text("commit");
    if (rt->version.empty()) rt->version = text("release");
    // The embedded build's type and options (cmake/PerfgateLlamaCpp.cmake); empty for an external binary.
    if (rt->build_type.empty()) rt->build_type = text("build_type");
    if (rt->compiler.empty()) rt->compiler = text("compiler");
    return Ok{};
}

}  // namespace

Expected<perf::Suite> load_suite_with_pins(const std::filesystem::path& manifest, const std::vector<std::string>& pins) {
    auto suite = perf::load_suite(manifest);
    if (!suite) return suite;
    for (const auto& pin : pins)
        if (auto st = apply_pin(*suite, pin); !st) return st.error();
    return suite;
}

Expected<std::vector<perf::SuitePair>> parse_pair_selection(const std::vector<std::string>& specs) {
    std::vector<perf::SuitePair> selected;
    for (const auto& p : specs) {
        const auto slash = p.find('/');
        if (slash == std::string::npos) return make_error("--pair wants RUNTIME/MODEL, got \"" + p + "\"");
        selected.push_back({p.substr(0, slash), p.substr(slash + 1)});
    }
    return selected;
}

Expected<Outcome> run_suite_pairs(const perf::Suite& suite, const perf::HostContext& host,
                                  const SuiteRunRequest& request, std::ostream& log, std::ostream& out) {
    perf::PairRequest base;
    base.host = host;
    base.results_dir = request.results_dir;
    base.suffix = request.suffix;
    base.forge_dir = request.forge_dir;
    base.vocab_dir = request.vocab_dir;
    base.binaries = request.binaries;
    base.contention = request.contention;
    base.project_root = request.project_root;
    base.build_root = request.build_root;

    const auto& selected = request.pairs.empty() ? suite.pairs : request.pairs;
    Outcome worst = Outcome::pass;
    bool all_skipped = !selected.empty();
    for (const auto& p : selected) {
        perf::PairRequest req = base;
        req.runtime = p.runtime;
        req.model = p.model;
        auto result = detail::run_gated_pair(suite, req, request, log, out);
        if (!result) return result.error();
        const auto& first = result->first;
        const std::string where = first.csv.empty() ? "" : " -> " + first.csv.string();
        // The reason goes to `out` too: CTest keeps it in the test's output (LastTest.log, -V).
        out << console_text(fmt::format("perfgate: {}/{}: {}{}{}", p.runtime, p.model, first.status.text,
                                        first.reason.empty() ? "" : " (" + first.reason + ")", where))
            << '\n';
        if (result->outcome == Outcome::fail) worst = Outcome::fail;
        if (result->outcome != Outcome::skip) all_skipped = false;
    }
    if (worst == Outcome::pass && all_skipped) return Outcome::skip;
    return worst;
}

}  // namespace perfgate::runner

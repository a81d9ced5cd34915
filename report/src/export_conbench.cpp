#include "perfgate/report/export_conbench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fmt/ranges.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "export_pairs.hpp"
#include "perfgate/core/metric.hpp"

namespace perfgate::report {
namespace {

// A recorded unit in the unit Conbench knows for it (KNOWN_UNITS: B/s, s, ns, i/s), with the factor
// from the recorded unit. One row per unit; a metric whose unit is not here is not exported.
struct ConbenchUnit {
    std::string_view recorded, conbench;
    double factor;
};
constexpr ConbenchUnit conbench_units[] = {
    {"tok/s", "i/s", 1.0},  // tokens are the items of "items per second", higher is better in both
    {"s", "s", 1.0},
    {"ms", "s", 1e-3},
    {"ns", "ns", 1.0},
    {"req/s", "i/s", 1.0},  // requests are items too
};

const ConbenchUnit* unit_of(const Metric& m) {
    for (const auto& u : conbench_units)
        if (u.recorded == m.unit) return &u;
    return nullptr;
}

// A JSON object of the non-empty values (Conbench ignores empty tags; context and info alike).
nlohmann::ordered_json strings(std::initializer_list<std::pair<const char*, std::string>> fields) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [key, value] : fields)
        if (!value.empty()) out[key] = value;
    return out;
}

std::string count_text(const std::optional<std::int64_t>& n) { return n ? std::to_string(*n) : std::string(); }

// ISO 8601 UTC: the row's timestamp, else midnight of its date.
std::string timestamp_of(const ResultRow& r) {
    if (!r.timestamp.empty()) return r.timestamp;
    return r.date.empty() ? std::string() : r.date + "T00:00:00Z";
}

// https://github.com/ORG/REPO and nothing else: two path segments of the characters GitHub allows
// in account and repository names (letters, digits, '-', '_', '.'), neither "." nor "..", no query,
// fragment, space or further path. The URL goes into every result Conbench stores and shows as a
// link; "https://github.com/a", "/a/b/../../c" or "?x=<script>" were taken (issue 48 item 20).
bool github_repository(const std::string& url) {
    const std::string prefix = "https://github.com/";
    if (url.rfind(prefix, 0) != 0) return false;
    const std::string path = url.substr(prefix.size());
    const auto slash = path.find('/');
    if (slash == std::string::npos) return false;
    const auto name_ok = [](const std::string& part) {
        return !part.empty() && part != "." && part != ".." && std::all_of(part.begin(), part.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
    };
    return name_ok(path.substr(0, slash)) && name_ok(path.substr(slash + 1));
}

}  // namespace

Expected<ConbenchExport> export_conbench(const ConbenchExportOptions& options) {
    if (!github_repository(options.repository))
        return make_error(fmt::format("--repository \"{}\": Conbench needs the measured runtime's repository as "
                                      "https://github.com/ORG/REPO",
                                      options.repository));
    auto collected = collect_export_pairs(options.results, options.run_id);
    if (!collected) return collected.error();
    const ExportPairs& e = *collected;
    // Conbench assumes every result of a run_id shares its hardware and commit: one run per export.
    if (auto pooled = more_than_one_run(e, "Conbench", "groups results by run")) return *pooled;
    const std::string run_id = e.run_ids.empty()
                                   ? std::filesystem::path(e.data.files.front()->file.path).stem().string()
                                   : e.run_ids.front();
    ConbenchExport out;
    nlohmann::ordered_json doc = nlohmann::ordered_json::array();
    for (const auto* p : e.pairs) {
        const gates::SampleGroup& g = p->first();
        const ResultRow& r = *g.ok_rows.front();
        const std::string pair_name = g.runtime + "/" + g.model;
        for (const Metric& m : metrics()) {
            const std::string key(m.key);
            const auto samples = p->samples(key);
            if (samples.empty()) continue;
            const ConbenchUnit* unit = unit_of(m);
            if (unit == nullptr) {
                out.left_out.push_back(fmt::format("{} {}: Conbench has no unit for {} (it knows B/s, s, ns, i/s)",
                                                   pair_name, key, m.unit));
                continue;
            }
            nlohmann::ordered_json data = nlohmann::ordered_json::array();
            for (double v : samples) data.push_back(v * unit->factor);
            nlohmann::ordered_json github = {{"repository", options.repository}};
            if (!r.runtime_commit.empty()) github["commit"] = r.runtime_commit;
            nlohmann::ordered_json result = {
                {"run_id", run_id},
                {"batch_id", run_id + ":" + pair_name},
                {"timestamp", timestamp_of(r)},
                {"cluster_info",
                 {{"name", g.host},
                  {"info", strings({{"backend", r.backend}, {"device", r.device}, {"device_arch", r.device_arch},
                                    {"cpu_model", r.cpu_model}, {"machine_id", r.machine_id}})},
                  {"optional_info", strings({{"os", r.os}, {"kernel", r.kernel}, {"driver_version", r.driver_version},
                                             {"cuda_version", r.cuda_version}, {"rocm_version", r.rocm_version},
                                             {"hardware", r.hardware}})}}},
                {"stats", {{"data", data}, {"unit", std::string(unit->conbench)}}},
                {"tags", strings({{"name", key}, {"runtime", g.runtime}, {"model", g.model},
                                  {"prompt_tokens", count_text(g.prompt_tokens())}, {"generated_tokens", count_text(g.generated_tokens())},
                                  {"batch", count_text(g.batch)}, {"harness", g.harness}})},
                {"context", strings({{"runtime_flags", r.flags}, {"build_type", r.build_type}, {"compiler", r.compiler},
                                     {"format", r.format}})},
                {"info", strings({{"runtime_version", r.runtime_version},
                                  {"source", std::filesystem::path(g.source()).filename().string()}})},
                {"github", github}};
            if (!options.run_reason.empty()) result["run_reason"] = options.run_reason;
            doc.push_back(std::move(result));
        }
    }
    out.json = doc.dump(2) + "\n";
    return out;
}

}  // namespace perfgate::report

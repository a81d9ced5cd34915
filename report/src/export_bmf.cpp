#include "perfgate/report/export_bmf.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "export_pairs.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/core/stats.hpp"

namespace perfgate::report {
namespace {

std::string short_name(const gates::SampleGroup& g) { return g.runtime + "/" + g.model; }

// The short name when it is unique in the export, else with what tells the pair apart.
std::string benchmark_name(const gates::SampleGroup& g, bool ambiguous) {
    std::string name = short_name(g);
    if (!ambiguous) return name;
    if (!g.harness.empty() && g.harness != "text") name += " [" + g.harness + "]";
    if (g.batch) name += fmt::format(" (batch {})", *g.batch);
    if (g.prompt_target_len) name += fmt::format(" (prompt {})", *g.prompt_target_len);
    return name;
}

nlohmann::ordered_json measures(const ExportPair& pair) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const Metric& m : metrics()) {
        const auto samples = pair.samples(std::string(m.key));
        if (samples.empty()) continue;
        const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
        out[std::string(m.key)] = {{"value", median(samples)}, {"lower_value", *low}, {"upper_value", *high}};
    }
    return out;
}

}  // namespace

Expected<std::string> export_bmf(const BmfExportOptions& options) {
    auto collected = collect_export_pairs(options.results, options.run_id);
    if (!collected) return collected.error();
    const ExportPairs& e = *collected;
    if (e.hosts.size() > 1)
        return make_error(fmt::format("{}: rows of {} hosts ({}); Bencher keeps hosts apart as testbeds, so export one "
                                      "host at a time (its files, or --run-id)",
                                      e.files, e.hosts.size(), fmt::join(e.hosts, ", ")));
    // One point per benchmark and measure: the runs of several days pooled into one would hide the
    // change between them (issue 49 item 5), as Conbench's export refuses too.
    if (auto pooled = more_than_one_run(e, "Bencher", "takes one point per benchmark and report")) return *pooled;
    std::map<std::string, std::size_t> named;
    for (const auto* p : e.pairs) ++named[short_name(p->first())];
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    std::map<std::string, const gates::SampleGroup*> taken;
    for (const auto* p : e.pairs) {
        const std::string name = benchmark_name(p->first(), named[short_name(p->first())] > 1);
        // "runtime/model" is ambiguous when either holds a '/' (runtime llama-bench and model x/y
        // against runtime llama-bench/x and model y): two pairs under one name would lose one.
        if (auto [it, added] = taken.emplace(name, &p->first()); !added)
            return make_error(fmt::format("{}: two pairs export as one Bencher benchmark \"{}\" (runtime {}, model {}; "
                                          "runtime {}, model {}); rename one of them",
                                          e.files, name, it->second->runtime, it->second->model, p->first().runtime,
                                          p->first().model));
        doc[name] = measures(*p);
    }
    return doc.dump(2) + "\n";
}

}  // namespace perfgate::report

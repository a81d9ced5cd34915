#include "suite_sweep.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace perfgate::perf {
namespace {

using nlohmann::json;

// Enough for a chart of a sweep; each point is a test with its own server start or model load.
constexpr std::size_t max_points = 32;

struct Sweep {
    SweepAxis axis;
    std::vector<std::int64_t> values;
};

// The "sweep" object of one runtime declaration at `ptr`: one axis and its values.
std::optional<Sweep> read_sweep(JsonFields& r, const json& obj, const std::string& ptr, const SuiteRuntime& rt) {
    const std::string at = ptr + "/sweep";
    const json& spec = obj.at("sweep");
    if (!spec.is_object() || spec.size() != 1) {
        r.fail(at, "\"sweep\" must be an object of one setting and its values, e.g. {\"concurrency\": [1, 4, 16]}");
        return std::nullopt;
    }
    const auto& name = spec.begin().key();
    const auto axis = sweep_axis_named(name);
    if (!axis) {
        r.fail(at, "a sweep's setting is concurrency, prompt_tokens, generated_tokens or batch (got \"" + name + "\")");
        return std::nullopt;
    }
    const bool serving = rt.measure == Measure::serving;
    if (*axis == SweepAxis::concurrency && !serving)
        r.fail(at, "a concurrency sweep is for a runtime with \"measure\": \"serving\" (a batch sweep sets the batch)");
    if (*axis == SweepAxis::concurrency && obj.contains("concurrency"))
        r.fail(at, "a runtime with a concurrency sweep declares no \"concurrency\" of its own");
    if (*axis == SweepAxis::batch && serving)
        r.fail(at, "a serving runtime's batch is its concurrency: sweep \"concurrency\"");
    auto values = r.integers(spec, at, name.c_str(), 1);
    if (r.failed()) return std::nullopt;
    if (values.empty() || values.size() > max_points)
        r.fail(at + "/" + name, fmt::format("a sweep has 1 to {} values (got {})", max_points, values.size()));
    else if (std::set<std::int64_t>(values.begin(), values.end()).size() != values.size())
        r.fail(at + "/" + name, "a sweep's values must differ (each is a test of its own)");
    if (*axis == SweepAxis::concurrency && !r.failed()) {
        const auto most = *std::max_element(values.begin(), values.end());
        if (most > 1024) r.fail(at + "/" + name, "concurrency must be between 1 and 1024");
        else if (rt.serving.requests_per_client && *rt.serving.requests_per_client * most > 100000)
            r.fail(at + "/" + name, "requests_per_client x the largest concurrency must be at most 100000");
        else if (!rt.serving.requests_per_client && rt.serving.requests < most)
            r.fail(at + "/" + name, fmt::format("requests ({}) must be at least the largest concurrency ({}): every "
                                                "client sends one; or give requests_per_client",
                                                rt.serving.requests, most));
    }
    if (r.failed()) return std::nullopt;
    return Sweep{*axis, std::move(values)};
}

std::vector<SuiteRuntime> points_of(const SuiteRuntime& entry, const Sweep& sweep) {
    std::vector<SuiteRuntime> points;
    for (const auto value : sweep.values) {
        SuiteRuntime point = entry;
        point.name = sweep_point_name(entry.name, sweep.axis, value);
        point.sweep = SweepPoint{entry.name, sweep.axis, value};
        if (sweep.axis == SweepAxis::concurrency) {
            point.serving.concurrency = value;
            if (entry.serving.requests_per_client) point.serving.requests = *entry.serving.requests_per_client * value;
        }
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace

SweptEntries expand_sweeps(JsonFields& r, const json& declared, std::vector<SuiteRuntime>& runtimes,
                           std::unordered_set<std::string>& names) {
    SweptEntries swept;
    std::vector<SuiteRuntime> expanded;
    for (std::size_t i = 0; i < runtimes.size() && i < declared.size() && !r.failed(); ++i) {
        const json& obj = declared[i];
        if (!obj.contains("sweep")) {
            expanded.push_back(std::move(runtimes[i]));
            continue;
        }
        const std::string ptr = "/runtimes/" + std::to_string(i);
        const auto sweep = read_sweep(r, obj, ptr, runtimes[i]);
        if (!sweep) break;
        for (auto& point : points_of(runtimes[i], *sweep)) {
            if (!is_safe_name(point.name))
                r.fail(ptr + "/sweep", "the sweep's point name \"" + point.name + "\" is too long for a test name");
            else if (!names.insert(point.name).second)
                r.fail(ptr + "/sweep", "the sweep's point \"" + point.name + "\" is the name of another runtime");
            swept[runtimes[i].name].push_back(point.name);
            expanded.push_back(std::move(point));
        }
    }
    if (!r.failed()) runtimes = std::move(expanded);
    return swept;
}

}  // namespace perfgate::perf

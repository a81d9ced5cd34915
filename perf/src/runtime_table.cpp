// The runtime table: one row per runtime kind, each defined in its own src/runtimes/<kind>.cpp.
// Everything that depends on the kind reads it from here (include/perfgate/perf/runtime_adapter.hpp).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>

#include "perfgate/core/metric.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {

RuntimeAdapter llama_bench_runtime();  // runtimes/llama_bench.cpp
RuntimeAdapter llama_server_runtime(); // runtimes/llama_server.cpp
RuntimeAdapter mlxcel_runtime();       // runtimes/mlxcel.cpp
RuntimeAdapter mlx_lm_runtime();       // runtimes/mlx_lm.cpp
RuntimeAdapter catch2_runtime();       // runtimes/catch2.cpp
RuntimeAdapter command_runtime();      // runtimes/command.cpp
RuntimeAdapter openai_server_runtime(); // runtimes/openai_server.cpp

namespace {

std::deque<RuntimeAdapter>& table() {
    static std::deque<RuntimeAdapter> rows{
        llama_bench_runtime(),
        llama_server_runtime(),
        mlxcel_runtime(),
        mlx_lm_runtime(),
        catch2_runtime(),
        command_runtime(),
        openai_server_runtime(),
    };
    return rows;
}

// The rows above; registered ones come after them.
std::size_t shipped_rows() {
    static const std::size_t count = table().size();
    return count;
}

}  // namespace

const std::deque<RuntimeAdapter>& runtime_adapters() { return table(); }

const RuntimeAdapter* find_runtime_adapter(std::string_view kind) {
    for (const auto& a : table())
        if (a.name == kind) return &a;
    return nullptr;
}

const RuntimeAdapter& adapter_of(const SuiteRuntime& runtime) {
    if (const auto* a = find_runtime_adapter(runtime.kind)) return *a;
    throw std::logic_error("runtime \"" + runtime.name + "\" has kind \"" + runtime.kind + "\", which is not in the runtime table");
}

std::vector<std::string> measurable_metrics(const SuiteRuntime& runtime) {
    static const std::vector<std::string> timed_launch = {"peak_memory_bytes", "peak_device_memory_bytes"};
    const auto& parsed = adapter_of(runtime).metrics;
    std::vector<std::string> out;
    for (const auto& m : metrics()) {
        if (m.measure != runtime.measure) continue;
        const std::string key(m.key);
        const bool by_launch = runtime.measure == Measure::instructions ||
                               std::find(timed_launch.begin(), timed_launch.end(), key) != timed_launch.end();
        if (by_launch || std::find(parsed.begin(), parsed.end(), key) != parsed.end()) out.push_back(key);
    }
    return out;
}

std::string runtime_kind_names() {
    return fmt::format("{}", fmt::join(mapped(table(), [](const RuntimeAdapter& a) { return a.name; }), ", "));
}

const OutputFormat* find_output_format(std::string_view name) {
    for (const auto& a : table())
        for (const auto& f : a.formats)
            if (f.name == name) return &f;
    return nullptr;
}

Status register_runtime_adapter(RuntimeAdapter adapter) {
    if (adapter.name.empty() || adapter.formats.empty())
        return make_error("a runtime adapter needs a name and at least one output format");
    if (find_runtime_adapter(adapter.name) || find_probe_query(adapter.name))
        return make_error("runtime kind \"" + adapter.name + "\" is already in the runtime table");
    for (const auto& f : adapter.formats)
        if (find_output_format(f.name)) return make_error("output format \"" + f.name + "\" is already in the runtime table");
    shipped_rows();  // counted before the first registered row
    table().push_back(std::move(adapter));
    return Ok{};
}

void unregister_runtime_adapter(std::string_view kind) {
    auto& rows = table();
    for (auto it = rows.begin() + static_cast<std::ptrdiff_t>(shipped_rows()); it != rows.end(); ++it)
        if (it->name == kind) {
            rows.erase(it);
            return;
        }
}

Expected<probes::RuntimeQuery> find_probe_query(std::string_view name) {
    for (const auto& a : table()) {
        if (a.name == name) return a.probe_query;
        for (const auto& alias : a.probe_aliases)
            if (alias == name) return a.probe_query;
    }
    return make_error("unknown runtime kind \"" + std::string(name) + "\"; valid kinds: " + probe_runtime_names());
}

std::string probe_runtime_names() {
    std::vector<std::string> names;
    for (const auto& a : table()) names.push_back(a.name);
    for (const auto& a : table()) names.insert(names.end(), a.probe_aliases.begin(), a.probe_aliases.end());
    return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace perfgate::perf

#include "environment.hpp"

#include <algorithm>
#include <string_view>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "contention_summary.hpp"
#include "distinct.hpp"
#include "perfgate/gates/file_name.hpp"
#include "escape.hpp"
#include "hardware_string.hpp"

namespace perfgate::report {
namespace {

// Whether every row that records a command ran one holding `needle` (and at least one did):
// how the runtime was launched, the one reading both the version's meaning and the build facts use.
bool every_command_holds(const std::vector<const ResultRow*>& rows, std::string_view needle) {
    bool any = false;
    for (const auto* r : rows) {
        if (r->command.empty()) continue;  // skipped rows have none
        if (r->command.find(needle) == std::string::npos) return false;
        any = true;
    }
    return any;
}

// A Python script's rows (transformers_bench.py, mlx-lm): "<script>.py " in every command.
bool launched_as_script(const std::vector<const ResultRow*>& rows) { return every_command_holds(rows, ".py "); }

// What a runtime's version column means, read off how its rows were launched: perfgate's
// llama-bench rows carry the llama.cpp release tag of the build (llama-bench prints no version of
// its own), a Python script's rows the package versions it printed, an imported file its own field.
std::pair<std::string, std::string> version_meaning(const std::vector<const ResultRow*>& rows) {
    if (every_command_holds(rows, "llama-bench"))
        return {"llama.cpp release tag",
                "the release tag of the llama.cpp source it was built from; for perfgate's embedded build, the tag the "
                "pinned node-llama-cpp package names (scripts/llama-cpp.pin)"};
    if (launched_as_script(rows))
        return {"package versions the script printed", "what the script printed as its version line (transformers_bench.py: "
                                                        "torch and transformers)"};
    return {"as recorded", "the runtime's own version field, as its output or file gave it"};
}

using Rows = std::vector<const ResultRow*>;

using detail::distinct;

// One summary of every row's cell (contention_summary.hpp); none when no row recorded one.
std::vector<std::string> contention_values(const Rows& rows) {
    std::vector<std::string> cells;
    for (const auto* r : rows) cells.push_back(r->contention);
    const std::string text = contention_text(summarise_contention(cells));
    return text.empty() ? std::vector<std::string>{} : std::vector<std::string>{text};
}

std::string gib(std::uint64_t bytes) {
    return fmt::format("{:.1f} GiB ({} bytes)", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), bytes);
}

// Labels and sources are written here as markdown (column names in code spans); a data part of a
// label (a runtime's name) is escaped where it is put in. Values stay raw data for the page to escape.
class Table {
public:
    // A fact that does not apply to every page: shown only when some row records it.
    void add_if_recorded(std::string label, const std::vector<std::string>& values, std::string source) {
        if (!values.empty()) add(std::move(label), values, std::move(source));
    }
    void add(std::string label, const std::vector<std::string>& values, std::string source) {
        if (values.empty()) fields_.push_back({std::move(label), not_recorded, ""});
        else {
            if (values.size() > 1) source += " (differs between rows)";
            fields_.push_back({std::move(label), fmt::format("{}", fmt::join(values, "; ")), std::move(source)});
        }
    }
    // The first source that has a value wins.
    void add_first(std::string label, std::vector<std::pair<std::vector<std::string>, std::string>> options) {
        for (auto& [values, source] : options) {
            if (!values.empty()) return add(std::move(label), values, std::move(source));
        }
        fields_.push_back({std::move(label), not_recorded, ""});
    }
    std::vector<EnvField> take() { return std::move(fields_); }

private:
    std::vector<EnvField> fields_;
};

std::string file_series_backend(const ResultRow& r) {
    if (!r.backend.empty()) return r.backend;
    auto name = gates::parse_benchmark_file_name(r.source_file);
    return name && gates::is_backend_name(name->series) ? name->series : std::string();
}

}  // namespace

std::vector<EnvField> describe_environment(const ReportData& data, const std::string& operator_note) {
    const Rows rows = data.all_rows();
    auto hw = [](const ResultRow& r) { return parse_hardware_string(r.hardware); };
    Table t;
    std::vector<std::string> hosts;
    for (const auto& h : data.hosts)
        if (!h.empty()) hosts.push_back(h);
    t.add("Host tag", hosts, "`host` column, else the CSV file name");
    const auto backends = distinct(rows, file_series_backend);
    t.add("Backend", backends, "`backend` column, else the CSV file name");
    const bool only_known = !backends.empty();
    auto has = [&](const char* b) { return std::find(backends.begin(), backends.end(), b) != backends.end(); };
    // A CPU-only page has no GPU: its target, driver, device memory and unified memory cannot apply.
    const bool gpu = !only_known || std::any_of(backends.begin(), backends.end(), [](const std::string& b) { return b != "cpu"; });
    t.add("Hardware string", distinct(rows, [](const ResultRow& r) { return r.hardware; }), "`hardware` column");
    t.add_first("Device", {{distinct(rows, [](const ResultRow& r) { return r.device; }), "`device` column"},
                           {distinct(rows, [&](const ResultRow& r) { return hw(r).device; }), "parsed from the hardware string"}});
    if (gpu)
    t.add_first("GPU target (gfx / sm)",
                {{distinct(rows, [](const ResultRow& r) { return r.device_arch; }), "`device_arch` column"},
                 {distinct(rows, [&](const ResultRow& r) { return hw(r).gpu_target; }), "parsed from the hardware string"}});
    t.add("CPU", distinct(rows, [](const ResultRow& r) { return r.cpu_model; }), "`cpu_model` column");
    if (gpu)
    t.add("Unified memory", distinct(rows, [](const ResultRow& r) {
              return r.uma ? std::string(*r.uma ? "yes (device memory is a carve-out of host RAM)" : "no") : std::string();
          }), "`uma` column");
    if (gpu)
    t.add_first("Device memory (UMA: the carve-out)",
                {{distinct(rows, [](const ResultRow& r) {
                      if (!r.device_memory_bytes) return std::string();
                      return gib(*r.device_memory_bytes) +
                             (r.device_memory_source.empty() ? "" : ", from " + r.device_memory_source);
                  }), "`device_memory_bytes` and `device_memory_source` columns"},
                 {distinct(rows, [&](const ResultRow& r) {
                      auto f = hw(r);
                      return f.memory_kind == HardwareFacts::MemoryKind::device ? fmt::format("{} GiB", *f.memory_gib)
                                                                                : std::string();
                  }), "hardware string: mlxcel writes the ROCm device's memory, rounded to GiB"}});
    t.add_first("Host RAM (what the OS sees)",
                {{distinct(rows, [](const ResultRow& r) { return r.host_memory_bytes ? gib(*r.host_memory_bytes) : std::string(); }),
                  "`host_memory_bytes` column (MemTotal)"},
                 {distinct(rows, [&](const ResultRow& r) {
                      auto f = hw(r);
                      return f.memory_kind == HardwareFacts::MemoryKind::host ? fmt::format("{} GiB", *f.memory_gib)
                                                                              : std::string();
                  }), "hardware string: mlxcel writes host RAM on non-ROCm hosts, rounded to GiB"}});
    t.add("OS", distinct(rows, [](const ResultRow& r) { return r.os; }), "`os` column");
    t.add("Kernel", distinct(rows, [](const ResultRow& r) { return r.kernel; }), "`kernel` column");
    if (!only_known || has("rocm")) {
        t.add_first("ROCm release",
                    {{distinct(rows, [](const ResultRow& r) { return r.rocm_version; }), "`rocm_version` column"},
                     {distinct(rows, [&](const ResultRow& r) { return hw(r).rocm_release; }),
                      "hardware string (ROCm's .info/version)"}});
        t.add("HIP version", distinct(rows, [](const ResultRow& r) { return r.hip_version; }),
              "`hip_version` column (hipconfig; a different numbering from the ROCm release)");
    }
    if (!only_known || has("cuda")) {
        t.add_first("CUDA version",
                    {{distinct(rows, [](const ResultRow& r) { return r.cuda_version; }), "`cuda_version` column"},
                     {distinct(rows, [&](const ResultRow& r) { return hw(r).cuda_release; }), "hardware string (nvcc)"}});
    }
    if (gpu)
    t.add("Driver", distinct(rows, [](const ResultRow& r) { return r.driver_version; }), "`driver_version` column");

    for (const auto& runtime : data.runtimes) {
        const Rows rr = data.rows_of(runtime);
        const std::string rt = markdown_text(runtime);
        // The column holds what each recorder calls a version, which differs by runtime: the label
        // says which, so a package's tag is never read as the binary's own version number.
        const auto [what, source] = version_meaning(rr);
        t.add(rt + " version (" + what + ")", distinct(rr, [](const ResultRow& r) { return r.runtime_version; }),
              "`mlxcel_version` / `baseline_version` column: " + source);
        // A Python script (transformers_bench.py, mlx-lm) is not compiled: no build type or compiler
        // could have been recorded for it, so those rows appear only when something was.
        const bool script = launched_as_script(rr);
        auto add_build_fact = [&](std::string label, const std::vector<std::string>& values, std::string source) {
            if (script) t.add_if_recorded(std::move(label), values, std::move(source));
            else t.add(std::move(label), values, std::move(source));
        };
        add_build_fact(rt + " build type", distinct(rr, [](const ResultRow& r) { return r.build_type; }), "`build_type` column");
        const auto commits = distinct(rr, [](const ResultRow& r) { return r.runtime_commit; });
        const bool short_commit = std::any_of(commits.begin(), commits.end(), [](const std::string& c) {
            return c.size() < 40;
        });
        t.add(rt + " commit", commits,
              short_commit ? "`mlxcel_commit` column; mlxcel's CSVs keep only the first 8 characters"
                           : "`mlxcel_commit` column (whole)");
        // mlxcel's own columns (its pinned MLX and the ROCm overlay): other runtimes have neither.
        t.add_if_recorded(rt + " upstream pin", distinct(rr, [](const ResultRow& r) { return r.upstream_commit; }),
              "`mlx_commit` column (pinned upstream library)");
        t.add_if_recorded(rt + " overlay commit", distinct(rr, [](const ResultRow& r) { return r.overlay_commit; }),
                  "`mlx_rocm_overlay_commit` column");
        add_build_fact(rt + " compiler", distinct(rr, [](const ResultRow& r) { return r.compiler; }), "`compiler` column");
    }
    t.add(gpu ? "Contention (other GPU processes during the run)" : "Contention (other work during the run)",
          contention_values(rows),
          gpu ? "`contention` column, recorded at run time from the device's process list; summarised over the rows"
              : "`contention` column, recorded at run time; summarised over the rows");
    t.add_if_recorded("Operator note", operator_note.empty() ? std::vector<std::string>{} : std::vector<std::string>{operator_note},
          "`--note`");
    return t.take();
}

}  // namespace perfgate::report

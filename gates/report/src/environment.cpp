#include "perfgate/report/environment.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "distinct.hpp"
#include "perfgate/gates/file_name.hpp"
#include "perfgate/report/hardware_string.hpp"

namespace perfgate::report {
namespace {

using Rows = std::vector<const ResultRow*>;

using detail::distinct;

std::string joined(const std::vector<std::string>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : "; ") + v;
    return out;
}

std::string gib(std::uint64_t bytes) {
    return fmt::format("{:.1f} GiB ({} bytes)", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), bytes);
}

class Table {
public:
    void add(std::string label, const std::vector<std::string>& values, std::string source) {
        if (values.empty()) fields_.push_back({std::move(label), not_recorded, ""});
        else {
            if (values.size() > 1) source += " (differs between rows)";
            fields_.push_back({std::move(label), joined(values), std::move(source)});
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
    t.add("Hardware string", distinct(rows, [](const ResultRow& r) { return r.hardware; }), "`hardware` column");
    t.add_first("Device", {{distinct(rows, [](const ResultRow& r) { return r.device; }), "`device` column"},
                           {distinct(rows, [&](const ResultRow& r) { return hw(r).device; }), "parsed from the hardware string"}});
    t.add_first("GPU target (gfx / sm)",
                {{distinct(rows, [](const ResultRow& r) { return r.device_arch; }), "`device_arch` column"},
                 {distinct(rows, [&](const ResultRow& r) { return hw(r).gpu_target; }), "parsed from the hardware string"}});
    t.add("CPU", distinct(rows, [](const ResultRow& r) { return r.cpu_model; }), "`cpu_model` column");
    t.add("Unified memory", distinct(rows, [](const ResultRow& r) {
              return r.uma ? std::string(*r.uma ? "yes (device memory is a carve-out of host RAM)" : "no") : std::string();
          }), "`uma` column");
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

    const bool only_known = !backends.empty();
    auto has = [&](const char* b) { return std::find(backends.begin(), backends.end(), b) != backends.end(); };
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
    t.add("Driver", distinct(rows, [](const ResultRow& r) { return r.driver_version; }), "`driver_version` column");

    for (const auto& rt : data.runtimes) {
        const Rows rr = data.rows_of(rt);
        t.add(rt + " version", distinct(rr, [](const ResultRow& r) { return r.runtime_version; }),
              "`mlxcel_version` / `baseline_version` column");
        t.add(rt + " build type", distinct(rr, [](const ResultRow& r) { return r.build_type; }), "`build_type` column");
        const auto commits = distinct(rr, [](const ResultRow& r) { return r.runtime_commit; });
        const bool short_commit = std::any_of(commits.begin(), commits.end(), [](const std::string& c) {
            return c.size() < 40;
        });
        t.add(rt + " commit", commits,
              short_commit ? "`mlxcel_commit` column; mlxcel's CSVs keep only the first 8 characters"
                           : "`mlxcel_commit` column (whole)");
        t.add(rt + " upstream pin", distinct(rr, [](const ResultRow& r) { return r.upstream_commit; }),
              "`mlx_commit` column (pinned upstream library)");
        if (!only_known || has("rocm"))
            t.add(rt + " overlay commit", distinct(rr, [](const ResultRow& r) { return r.overlay_commit; }),
                  "`mlx_rocm_overlay_commit` column");
        t.add(rt + " compiler", distinct(rr, [](const ResultRow& r) { return r.compiler; }), "`compiler` column");
    }
    t.add("Contention (other GPU processes during the run)",
          distinct(rows, [](const ResultRow& r) {
              return r.contention == "none" ? std::string("none seen") : r.contention;
          }),
          "`contention` column, recorded at run time from the device's process list");
    t.add("Operator note", operator_note.empty() ? std::vector<std::string>{} : std::vector<std::string>{operator_note},
          "--note");
    return t.take();
}

}  // namespace perfgate::report

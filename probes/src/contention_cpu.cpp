#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <unistd.h>

#include "perfgate/probes/contention.hpp"
#include "text.hpp"

namespace perfgate::probes {
namespace {

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::optional<double> number(std::string_view text) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return v;
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

double ticks_per_second() {
    const long t = ::sysconf(_SC_CLK_TCK);
    return t > 0 ? static_cast<double>(t) : 100.0;
}

}  // namespace

std::optional<double> parse_loadavg_1min(std::string_view loadavg) {
    const std::string text = trim(loadavg);  // fields() keeps views into it
    const auto f = fields(text);
    if (f.empty()) return std::nullopt;
    auto v = number(f[0]);
    if (!v || *v < 0) return std::nullopt;
    return v;
}

std::optional<CpuCounters> parse_proc_stat(std::string_view stat, double ticks) {
    CpuCounters c;
    bool total = false;
    for (const auto& line : split_lines(stat)) {
        const auto f = fields(line);
        if (f.empty()) continue;
        if (f[0] == "cpu") {
            // user nice system idle iowait irq softirq steal (guest time is already in user):
            // everything but idle and iowait is busy.
            double busy = 0;
            for (std::size_t i = 1; i < f.size() && i <= 8; ++i) {
                auto v = number(f[i]);
                if (!v) return std::nullopt;
                if (i != 4 && i != 5) busy += *v;
            }
            c.busy_s = busy / ticks;
            total = true;
        } else if (f[0].size() > 3 && f[0].substr(0, 3) == "cpu" && all_digits(f[0].substr(3))) {
            ++c.cpus;
        }
    }
    if (!total) return std::nullopt;
    return c;
}

std::optional<ProcessCpu> parse_pid_stat(std::string_view stat, double ticks) {
    // "pid (comm) state ppid ...": comm is whatever the process named itself, so the fields start
    // after the LAST ')'. pgrp is field 5 (1-based), 3 after comm; utime and stime are fields 14
    // and 15, 12 and 13 after comm.
    const auto open = stat.find('('), close = stat.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
    const auto rest = fields(stat.substr(close + 1));
    if (rest.size() < 13) return std::nullopt;
    auto utime = number(rest[11]), stime = number(rest[12]), group = number(rest[2]);
    if (!utime || !stime || !group) return std::nullopt;
    return ProcessCpu{std::string(stat.substr(open + 1, close - open - 1)), (*utime + *stime) / ticks,
                      static_cast<std::int64_t>(*group)};
}

std::optional<double> read_load_1min(const Sysroot& root) {
    auto text = root.read("proc/loadavg");
    if (!text) return std::nullopt;
    return parse_loadavg_1min(*text);
}

CpuCounters read_cpu_counters(const Sysroot& root) {
    const double ticks = ticks_per_second();
    CpuCounters c;
    if (auto text = root.read("proc/stat"))
        if (auto parsed = parse_proc_stat(*text, ticks)) c = *parsed;
    for (const auto& name : root.list("proc", "")) {
        if (!all_digits(name)) continue;
        // A process may end between the listing and the read: it is simply not counted.
        if (auto text = root.read("proc/" + name + "/stat"))
            if (auto p = parse_pid_stat(*text, ticks)) c.processes[std::strtoll(name.c_str(), nullptr, 10)] = *p;
    }
    return c;
}

std::optional<std::int64_t> process_group_of(const Sysroot& root, std::int64_t pid) {
    const auto text = root.read("proc/" + std::to_string(pid) + "/stat");
    if (!text) return std::nullopt;
    const auto parsed = parse_pid_stat(*text, 1.0);
    if (!parsed) return std::nullopt;
    return parsed->group;
}

std::optional<std::uint64_t> group_device_bytes(const Sysroot& root, const std::vector<OtherProcess>& holders,
                                                std::int64_t group) {
    std::optional<std::uint64_t> total;
    for (const auto& p : holders) {
        if (!p.device_bytes || process_group_of(root, p.pid) != group) continue;
        total = total.value_or(0) + *p.device_bytes;
    }
    return total;
}

std::vector<OtherProcess> busy_processes(const CpuCounters& before, const CpuCounters& after, double window_s,
                                         double min_cpus, const std::set<std::int64_t>& exclude) {
    std::vector<OtherProcess> out;
    if (window_s <= 0) return out;
    for (const auto& [pid, now] : after.processes) {
        if (exclude.count(pid)) continue;
        auto it = before.processes.find(pid);
        // Only processes seen at both ends: a pid reused in between would otherwise count its whole life.
        if (it == before.processes.end() || it->second.name != now.name) continue;
        const double cpus = (now.cpu_s - it->second.cpu_s) / window_s;
        if (cpus >= min_cpus) out.push_back({pid, now.name, cpus});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.cpus > b.cpus; });
    return out;
}

}  // namespace perfgate::probes

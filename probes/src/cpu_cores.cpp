#include "perfgate/probes/cpu_cores.hpp"

#include <sched.h>
#include <set>
#include <string>
#include <utility>

#include "text.hpp"

namespace perfgate::probes {

std::optional<int> parse_physical_cores(std::string_view cpuinfo) {
    std::set<std::pair<std::string, std::string>> cores;
    int processors = 0;
    std::string package, core;
    bool have_core = false;
    auto finish_entry = [&] {
        if (have_core) cores.insert({package, core});
        package.clear();
        core.clear();
        have_core = false;
    };
    for (const auto& line : split_lines(cpuinfo)) {
        if (trim(line).empty()) {
            finish_entry();
            continue;
        }
        auto kv = split_key_value(line);
        if (!kv) continue;
        const auto key = trim(kv->first);
        if (key == "processor") ++processors;
        else if (key == "physical id") package = trim(kv->second);
        else if (key == "core id") {
            core = trim(kv->second);
            have_core = true;
        }
    }
    finish_entry();
    if (!cores.empty()) return static_cast<int>(cores.size());
    if (processors > 0) return processors;
    return std::nullopt;
}

std::optional<int> affinity_cpu_count() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof(set), &set) != 0) return std::nullopt;
    const int n = CPU_COUNT(&set);
    return n > 0 ? std::optional<int>(n) : std::nullopt;
}

}  // namespace perfgate::probes

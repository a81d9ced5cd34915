#pragma once
// The page's one line about contention: the `contention` cells of a page's rows (written by the
// runner's contention guard, docs/runner.md "Contention") summarised — how many rows in each
// state, the range of the 1-minute load, the most CPU others used, what was seen busy, the most
// other GPU processes — instead of every distinct cell, which on a page of 30 runs was 30 cells.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace perfgate::report {

struct ContentionSummary {
    std::size_t rows = 0;                      // cells that were recorded (non-empty)
    std::map<std::string, std::size_t> states;  // "idle", "unsampled", "off:replay", "contended:during", ...
    std::optional<double> load_min, load_max;  // 1-minute load average
    std::set<int> cpus;                        // the CPU counts the load was read against
    std::optional<double> other_cpu_max;       // percent of all CPUs
    std::set<std::string> busy;                // process names seen busy
    std::optional<int> gpu_procs_max;          // other GPU processes
    bool gpu_unknown = false;                  // some cell could not read the GPU source
    std::size_t relaunched = 0;
    std::vector<std::string> unreadable;       // cells not in the guard's format, kept verbatim
};

ContentionSummary summarise_contention(const std::vector<std::string>& cells);
// "30 rows: 29 idle, 1 unsampled; 1-minute load 3.46-12.88 of 16 CPUs; others used at most 1% of
// the CPUs; seen busy: kcompactd0; other GPU processes: none". Empty when no cell was recorded.
std::string contention_text(const ContentionSummary& summary);

}  // namespace perfgate::report

#include "machine_history.hpp"

#include "render_common.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/stats.hpp"
#include "perfgate/core/text.hpp"
#include "perfgate/gates/noise_model.hpp"

namespace perfgate::gates::detail {

namespace {

bool is_counted_row(const ResultRow& row) {
    return (row.decode_instructions_per_token || row.prefill_instructions_per_token) &&
           !(row.runtime_commit.empty() && row.build_type.empty() && row.compiler.empty());
}

// Whether `row` belongs to the history `key` names: a plain comparison of machine ids for timed
// rows, so cutting a group to one machine formats nothing (the gate cuts every group it reads).
bool of_history(const ResultRow& row, const std::string& key) {
    return is_counted_row(row) ? history_key(row) == key : row.machine_id == key;
}

}  // namespace

std::string history_key(const ResultRow& row) {
    if (!is_counted_row(row)) return row.machine_id;
    return fmt::format("build {} {} {}", row.runtime_commit.empty() ? "-" : row.runtime_commit.substr(0, 12),
                       row.build_type.empty() ? "-" : row.build_type, row.compiler.empty() ? "-" : row.compiler);
}

std::string machine_of(const SampleGroup& group) {
    if (!group.ok_rows.empty())
        if (std::string key = history_key(*group.ok_rows.front()); !key.empty()) return key;
    return group.rows.empty() ? std::string() : history_key(group.first());
}

std::string machine_id_of(const SampleGroup& group) {
    if (!group.ok_rows.empty() && !group.ok_rows.front()->machine_id.empty()) return group.ok_rows.front()->machine_id;
    return group.rows.empty() ? std::string() : group.first().machine_id;
}

const SampleGroup* MachineFilter::rows_of(const SampleGroup* group, const std::string& machine) {
    if (!group || machine.empty()) return group;
    if (auto it = cut_.find({group, machine}); it != cut_.end()) return it->second;
    return cut_[{group, machine}] = cut(group, machine);
}

const SampleGroup* MachineFilter::cut(const SampleGroup* group, const std::string& machine) {
    SampleGroup view = *group;
    std::erase_if(view.rows, [&](const ResultRow* r) { return !of_history(*r, machine); });
    std::erase_if(view.ok_rows, [&](const ResultRow* r) { return !of_history(*r, machine); });
    if (view.rows.empty()) return nullptr;
    if (view.rows.size() == group->rows.size()) return group;  // all of it is this machine's
    views_.push_back(std::move(view));
    cut_from_[&views_.back()] = group;
    return &views_.back();
}

const SampleGroup* MachineFilter::original(const SampleGroup* group) const {
    auto it = cut_from_.find(group);
    return it == cut_from_.end() ? group : it->second;
}

void OtherMachines::add(const SampleGroup& group, const std::string& except) {
    for (const ResultRow* r : group.rows) {
        const std::string key = history_key(*r);
        if (key.empty()) ++rows_without_id;
        else if (key != except) ids.insert(key);
    }
    if (latest_source.empty()) latest_source = group.source();  // groups arrive newest first
    groups.push_back(&group);
}

std::vector<MachineLevels> other_machine_levels(const OtherMachines& others, MachineFilter& filter,
                                                const std::string& metric, std::size_t per_machine,
                                                const std::function<bool(const SampleGroup&)>& comparable,
                                                const std::function<std::string(const std::string&)>& level_from) {
    std::vector<MachineLevels> out;
    std::set<std::string> seen;
    for (const auto& id : others.ids) {
        const std::string from = level_from(id);
        std::vector<RunLevel> runs;
        for (auto it = others.groups.rbegin(); it != others.groups.rend(); ++it) {  // oldest file first
            const SampleGroup* view = filter.rows_of(*it, id);
            if (!view || view->ok_rows.empty() || !comparable(*view)) continue;
            for (auto& run : run_levels(*view, metric))
                if (run.when >= from && seen.insert(run.run).second) runs.push_back(std::move(run));
        }
        if (runs.size() > per_machine) runs.erase(runs.begin(), runs.end() - static_cast<long>(per_machine));
        MachineLevels m{id, {}};
        for (const auto& r : runs) m.levels.push_back(r.value);
        if (!m.levels.empty()) out.push_back(std::move(m));
    }
    return out;
}

namespace {
std::string measured(const SampleGroup& now) {
    std::vector<std::string> parts;
    for (const auto& metric : gated_metrics()) {
        const auto samples = now.samples(metric);
        // Rates as recorded ("decode_tok_s 45.00"), bytes in MiB: the exporters' own formatting.
        if (!samples.empty()) parts.push_back(fmt::format("{} {}", metric, number(metric, median(samples))));
    }
    return parts.empty() ? "no reading" : fmt::format("{}", fmt::join(parts, ", "));
}
}  // namespace

std::string new_machine_reason(const SampleGroup& now, const std::string& machine, const OtherMachines& others) {
    std::vector<std::string> from;
    if (!others.ids.empty()) from.push_back(fmt::format("machine {}", fmt::join(others.ids, ", ")));
    if (others.rows_without_id > 0)
        from.push_back(fmt::format("{} without a machine id (recorded before perfgate knew machines)",
                                   counted(others.rows_without_id, "row")));
    return fmt::format(
        "new machine: no verdict. Measured {} on machine {}; the history of this pair on host {} comes from other "
        "machines only ({}; newest {}), and another machine's speed says nothing about a change here. To get a "
        "verdict, record a baseline on this machine (`cmake --workflow --preset cpu-baseline` on a CPU host, "
        "docs/runner.md) or compare two builds on it with `perfgate ab`",
        measured(now), machine, now.host, fmt::join(from, "; "), others.latest_source);
}

}  // namespace perfgate::gates::detail

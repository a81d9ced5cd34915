#pragma once
// History per machine (docs/gate.md, "Machines"). A host tag names a kind of host, and two
// machines with one tag can differ by far more than any threshold. When the current run knows its
// machine_id, only rows of that machine are its history; rows of other machines, and rows without
// an id, are kept out of both the reference and the noise. Without an id on the current run,
// nothing changes: all rows of the host tag are one history, as they always were.
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perfgate/gates/machine_spread.hpp"
#include "perfgate/gates/samples.hpp"

namespace perfgate::gates::detail {

// Whose history a row belongs to: its machine_id, except for a counted row (instructions per
// token, docs/instructions.md), whose counts do not depend on the machine but on the build that
// was counted: "build <commit> <build type> <compiler>", the same on every machine that runs that
// build, so a counted pair on a new machine is judged against the counted history of any machine
// of its host tag (the same portable build on another CPU counted 15,336,379 against 15,335,918
// instructions per token, +0.003%: docs/instructions.md). Empty when unknown.
std::string history_key(const ResultRow& row);

// The history key of a group's rows (the first ok row's, else the first row's); empty when unknown.
std::string machine_of(const SampleGroup& group);
// The machine_id of a group's rows, whatever their history key: what an acknowledgement's
// "machine" names (perfgate history suggests it from the rows), for a counted pair too.
std::string machine_id_of(const SampleGroup& group);

// Views of history groups cut down to one machine's rows. The views live as long as the filter.
class MachineFilter {
public:
    // `group` itself when `machine` is empty; else a view holding only that machine's rows, or
    // nullptr when the group has none.
    const SampleGroup* rows_of(const SampleGroup* group, const std::string& machine);
    // The history group a view was cut from (the group itself when it is no view).
    const SampleGroup* original(const SampleGroup* group) const;

private:
    const SampleGroup* cut(const SampleGroup* group, const std::string& machine);
    std::deque<SampleGroup> views_;
    std::map<const SampleGroup*, const SampleGroup*> cut_from_;
    // Each group is cut once per machine: the gate asks again for every metric of a pair.
    std::map<std::pair<const SampleGroup*, std::string>, const SampleGroup*> cut_;
};

// What the history of a pair holds from machines other than the current one.
struct OtherMachines {
    std::set<std::string> ids;          // known machine ids
    std::vector<const SampleGroup*> groups;  // the history groups they come from, newest file first
    std::size_t rows_without_id = 0;    // rows of files from before machine identity (or mlxcel's)
    std::string latest_source;          // file:line of the newest such reading
    // The group's rows of every machine but `except` (the current one, when its own rows share
    // the file).
    void add(const SampleGroup& group, const std::string& except = {});
    bool empty() const { return ids.empty() && rows_without_id == 0; }
};

// The run levels of `metric` of each other machine (MachineLevels, oldest first, at most
// `per_machine` latest runs each) from `others`' groups whose rows of that machine `comparable`
// accepts (same workload and flags as the current run). A run counted in two files counts once.
// `level_from(machine)` is when the machine's current level began (the newest acknowledgement in
// force for it, as RunLevel::when sorts; empty: none): its runs before that are at a level since
// accepted as changed, and left out, so a machine with no run since has no level to offer.
std::vector<MachineLevels> other_machine_levels(const OtherMachines& others, MachineFilter& filter,
                                                const std::string& metric, std::size_t per_machine,
                                                const std::function<bool(const SampleGroup&)>& comparable,
                                                const std::function<std::string(const std::string&)>& level_from);

// The reason of a `new machine` verdict: what was measured, where the history came from, and how
// to get a verdict on this machine.
std::string new_machine_reason(const SampleGroup& now, const std::string& machine, const OtherMachines& others);

}  // namespace perfgate::gates::detail

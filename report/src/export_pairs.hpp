#pragma once
// What every export reads (export_bmf.hpp, export_conbench.hpp): the ok pairs of one run of the
// given result files, each pair's groups from every file that holds it (a run that crossed midnight
// wrote two day files), merged by the gate's identity of a pair, in order of first appearance.
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/samples.hpp"
#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

struct ExportPair {
    std::vector<const gates::SampleGroup*> groups;
    const gates::SampleGroup& first() const { return *groups.front(); }
    // The pair's ok samples of `metric` over every group, in file order.
    std::vector<double> samples(const std::string& metric) const;
};

struct ExportPairs {
    std::vector<const ExportPair*> pairs;  // in order of first appearance
    std::vector<std::string> hosts;        // distinct, in order of first appearance
    std::vector<std::string> run_ids;      // distinct non-empty run_id of the ok rows
    std::string files;                     // the result files, joined for messages

    // The storage the pointers above point into (moved with the object: std::list and std::map
    // nodes do not move).
    ReportData data;
    std::list<std::vector<ResultRow>> kept;
    std::list<std::vector<gates::SampleGroup>> grouped;
    std::map<std::string, ExportPair> by_key;
};

// An error naming the files when a result file is unreadable, `run_id` matches no row, or no pair
// has an ok reading.
Expected<ExportPairs> collect_export_pairs(const std::vector<std::string>& results, const std::optional<std::string>& run_id);

// An error naming the files and the first runs when the pairs hold more than one run: pooled, the
// runs' samples would read as one point (`tool` and `why` say whose model forbids it). nullopt with
// one run or none recorded (mlxcel's rows carry no run_id).
std::optional<Error> more_than_one_run(const ExportPairs& e, const std::string& tool, const std::string& why);

}  // namespace perfgate::report

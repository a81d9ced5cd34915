#pragma once
// The page's serving pairs that are no sweep's point (docs/serving.md): one table, a row per model
// and server, a column per figure the servers recorded. A server has no prefill or decode rate, and
// as columns of the results table its figures made one column per server and figure (22 for the
// four pairs of cpu-serving.json).
#include <set>
#include <string>
#include <vector>

#include "perfgate/report/report_data.hpp"

namespace perfgate::report {

// The page's runtimes, other than `excluded` (a sweep's points), that measured serving only: some
// cell recorded a serving figure and none an offline rate. In the page's order.
std::vector<std::string> server_runtimes(const ReportData& data, const std::set<std::string>& excluded);

// The markdown of the servers' table, or empty for none.
std::string server_tables(const ReportData& data, const std::vector<std::string>& servers);

}  // namespace perfgate::report

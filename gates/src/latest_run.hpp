#pragma once
// Which run of a results file `perfgate gate --results` judges. A file may hold several runs (a
// day's file gets a run appended by every `perfgate run`); pooling their rows as samples let a slow
// latest run hide among earlier normal ones, so only the file's latest run is the current one.
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::gates::detail {

// Keeps the rows of the latest run of `rows` (the run_id whose rows carry the latest timestamp; on
// a tie, or without timestamps, the one whose rows come last) and returns a note saying which run of
// `file` was judged; empty when the rows carry no run_id (an mlxcel file is one run).
std::string keep_latest_run(std::vector<ResultRow>& rows, const std::string& file);

}  // namespace perfgate::gates::detail

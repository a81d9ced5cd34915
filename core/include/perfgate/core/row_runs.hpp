#pragma once
// What a run is, for every reader of a history: the gate's noise model and reference (gates/),
// calibrate, the change-point scan, and the page's history points and charts (report/). They must
// agree, or the page draws a history the gate never judged (docs/gate.md, "Decision").
//
// The rule: rows that share a non-empty run_id are one run (one `perfgate run`: its pairs and any
// reruns, however far apart in the file). A row without a run_id (mlxcel's files, perfgate files
// written before the column) is a run of its own: nothing says which rows came from one
// invocation, and treating each as a run is what every committed verdict was computed with
// (mlxcel's own tool read each row as one reading too).
#include <string>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate {

// The run a row belongs to: its run_id, else "<file>:<line>" (unique per row, and it names the row
// in a report).
std::string run_key(const ResultRow& row);

struct RowRun {
    std::string run;                     // run_key of its rows
    std::vector<const ResultRow*> rows;  // in the order given
};

// The runs of `rows`, in the order of each run's first row (the file order for rows of one file).
std::vector<RowRun> group_into_runs(const std::vector<const ResultRow*>& rows);

}  // namespace perfgate

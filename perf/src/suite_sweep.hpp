#pragma once
// A runtime entry's "sweep" (docs/serving.md, "Sweeps"): {"concurrency": [1, 4, 16]} or one of
// prompt_tokens, generated_tokens, batch. The entry becomes one runtime per value, in its place in
// the list, each named <entry>-<letter><value>, so that each point is a CTest test, a row and a
// history of its own. cmake/PerfgatePerfSuite.cmake registers the same points (the test
// perf.suite_points checks that both agree on every shipped suite).
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/core/json_fields.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

// A swept entry's name -> its points' names, in the sweep's order.
using SweptEntries = std::map<std::string, std::vector<std::string>>;

// Replaces every runtime of `runtimes` whose declaration (`declared`, the manifest's "runtimes")
// has a "sweep" by its points; the points' names join `names`, where none may be taken already.
// Problems go to `r` with the sweep's file:line.
SweptEntries expand_sweeps(JsonFields& r, const nlohmann::json& declared, std::vector<SuiteRuntime>& runtimes,
                           std::unordered_set<std::string>& names);

}  // namespace perfgate::perf

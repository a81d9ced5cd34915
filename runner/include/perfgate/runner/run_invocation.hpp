#pragma once
// perfgate run, whole: one call for each of its modes (list the pairs, write the host file for a
// ctest session, the suite's summary gate, or measure the selected pairs), so that cli/ only
// declares options.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/runner/host_setup.hpp"
#include "perfgate/runner/outcome.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::runner {

struct RunInvocation {
    std::filesystem::path suite;
    std::vector<std::string> pairs;     // RUNTIME/MODEL; empty: every pair
    std::vector<std::string> binaries;  // RUNTIME=PATH
    std::vector<std::string> pins;      // RUNTIME=FILE
    HostSource host;
    SuiteRunRequest request;            // its pairs, binaries, contention and roots are filled here
    bool list = false;                  // print the pairs and stop
    std::filesystem::path write_host;   // probe, write the host facts here and stop
    bool require_backend = false;       // with write_host: a host without the suite's backend fails
    bool summary = false;               // gate the run's rows as a whole
    std::filesystem::path summary_dir;
    bool no_record = false;             // measure and classify only
    std::string contention;             // on, record, off; empty: PERFGATE_CONTENTION
};

// Bad input (a manifest, a selection, a binary or contention option, the host facts) is an Error;
// a host without the suite's backend under require_backend is a fail, with the reason on `log`.
Expected<Outcome> run_invocation(RunInvocation run, std::ostream& out, std::ostream& log);

}  // namespace perfgate::runner

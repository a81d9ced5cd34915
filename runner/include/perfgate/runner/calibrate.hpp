#pragma once
// perfgate calibrate as a library: thresholds/<host>.json from each pair's noise, either read off
// the host's own runs in benchmarks/ or measured by running a suite K times unchanged (A/A). The
// statistics are gates/ (calibrate.hpp, calibrate_history.hpp); this is the orchestration. Both
// start from thresholds/default.json alone (or the built-in defaults), never an earlier host file,
// so recalibrating does not ratchet on its own output.
#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"
#include "perfgate/gates/calibrate.hpp"
#include "perfgate/gates/calibrate_history.hpp"
#include "perfgate/runner/host_setup.hpp"

namespace perfgate::runner {

struct HistoryCalibrationRequest {
    std::string benchmarks_dir = "benchmarks";
    std::string thresholds_dir = "thresholds";
    std::string host;    // the host tag; empty: this host's, probed
    std::string output;  // empty: <thresholds_dir>/<host>.json
    gates::HistoryCalibrationOptions options;
};

struct CampaignCalibrationRequest {
    std::filesystem::path suite;
    std::vector<std::string> pairs;     // RUNTIME/MODEL; empty: every pair of the suite
    std::vector<std::string> binaries;  // RUNTIME=PATH overrides of the manifest
    std::size_t runs = 8;               // unchanged runs of every pair (at least 3)
    gates::CalibrationOptions options{.repetitions = 0};  // repetitions 0: the suite's workload repetitions
    std::string thresholds_dir = "thresholds";
    std::string output;                 // empty: <thresholds_dir>/<host_tag>.json
    HostSource host;                    // host facts from a file, or probed now
    std::filesystem::path forge_dir = "build/forged", vocab_dir;
    std::filesystem::path results_dir;  // empty: the calibration runs are not recorded
};

// Both return the thresholds file written, after printing the calibration table to `out`. Every
// failure, including "no pair has enough runs" (nothing written), is an Error naming the cause.
Expected<std::filesystem::path> calibrate_from_history(const HistoryCalibrationRequest& request, std::ostream& out);

// `log` gets one line per pair run.
Expected<std::filesystem::path> calibrate_by_campaign(const CampaignCalibrationRequest& request, std::ostream& log,
                                                      std::ostream& out);

}  // namespace perfgate::runner

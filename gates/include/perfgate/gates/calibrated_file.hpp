#pragma once
// Writing thresholds/<host>.json for perfgate calibrate (both the A/A campaign and --from-history).
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate::gates {

// Writes the calibrated thresholds `text` over `output`, keeping the measured memory bandwidth of
// the file it replaces (calibration knows nothing about it). Written only after it parses back,
// since the gate must be able to load what calibrate writes; an unparsable file to be replaced is
// an error (naming it) rather than silently lost.
Status write_calibrated_thresholds(std::string text, const std::string& output);

}  // namespace perfgate::gates

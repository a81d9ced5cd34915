#pragma once
// The one way perfgate replaces a small whole file it owns (the run's host facts, a calibrated
// thresholds file): written to a temporary name in the same folder, then renamed over the old one,
// so a reader sees the old file or the new one, never half of either.
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"

namespace perfgate {

// Creates the folder when missing. Errors name the path and what failed; the old file is then
// left as it was.
Status replace_file(const std::string& path, std::string_view text);

}  // namespace perfgate

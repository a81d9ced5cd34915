#pragma once
// thresholds/default.json and thresholds/<host_tag>.json: the one place where such a file is named,
// read and parsed. The gate builds its thresholds from the document (gates/thresholds.hpp), the
// probe takes the host's memory headroom from it, the report its memory bandwidth (through the
// gate's thresholds); so a file that one of them accepts is read the same way by all.
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"
#include "perfgate/core/json_input.hpp"

namespace perfgate {

// "<stem>.json" when `stem` is "default" or a valid host tag (it becomes part of a path, so nothing
// that could leave the folder passes). The error names the stem and `source` (where it came from).
Expected<std::string> thresholds_file_name(std::string_view stem, std::string_view source);

// The parsed <dir>/<stem>.json; nullopt when there is no such file. Errors: an invalid stem, a path
// that is not a regular file or cannot be read, and invalid JSON ("<dir>/<stem>.json:<line>: ...").
Expected<std::optional<JsonDocument>> read_thresholds_json(const std::string& dir, std::string_view stem);

// The host's "memory_headroom" (0 < x <= 1: the share of device memory a model may use); nullopt
// when the file does not set it. The error names the file and line.
Expected<std::optional<double>> memory_headroom_of(const JsonDocument& thresholds);

}  // namespace perfgate

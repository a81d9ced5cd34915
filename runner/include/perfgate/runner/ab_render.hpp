#pragma once
// The A/B report as a console table, markdown (a pull-request comment), JSON or JUnit XML (a CI's
// test view).
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/runner/ab.hpp"

namespace perfgate::runner {

enum class AbFormat { text, markdown, json, junit };
std::optional<AbFormat> ab_format_from_string(std::string_view name);

// Data (model names, reasons, paths) is escaped for the format (perfgate/core/escape.hpp); `color`
// paints the text format's verdicts (the caller decides, perfgate/core/console.hpp).
std::string render_ab(const AbReport& report, AbFormat format, bool color = false);

}  // namespace perfgate::runner

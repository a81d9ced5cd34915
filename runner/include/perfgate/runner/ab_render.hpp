#pragma once
// The A/B report as a console table, markdown (a pull-request comment), JSON or JUnit XML (a CI's
// test view).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "perfgate/core/expected.hpp"
#include "perfgate/runner/ab.hpp"

namespace perfgate::runner {

enum class AbFormat { text, markdown, json, junit };
std::optional<AbFormat> ab_format_from_string(std::string_view name);

// Data (model names, reasons, paths) is escaped for the format (perfgate/core/escape.hpp); `color`
// paints the text format's verdicts (the caller decides, perfgate/core/console.hpp).
std::string render_ab(const AbReport& report, AbFormat format, bool color = false);

// --summary-dir: the pull-request comment, the CI's test view and the data from one run, as
// ab.md, ab.junit.xml and ab.json in `dir`, each whole or not at all (core's replace_file).
Status write_ab_summary(const AbReport& report, const std::filesystem::path& dir);
// The folder made (or found) before the run starts, since a run takes minutes: an error when it
// cannot be.
Status prepare_ab_summary_dir(const std::filesystem::path& dir);

}  // namespace perfgate::runner

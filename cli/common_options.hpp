#pragma once
// Options that several commands share, declared once so that their names, help and checks cannot
// drift apart: the forge's folders (run, ab, calibrate), --binary (run, calibrate), the report's
// format, file and colour (gate, compare, ab), the gate's rule settings (gate, compare, calibrate)
// and the result files (gate, report, prune).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "color_option.hpp"

namespace perfgate::cli {

// --forge-dir and --vocab-dir; the vocabulary folder defaults to the embedded llama.cpp's models/
// when the build knows it.
inline void add_forge_options(CLI::App* cmd, std::filesystem::path& forge_dir, std::filesystem::path& vocab_dir) {
#ifdef PERFGATE_DEFAULT_VOCAB_DIR
    vocab_dir = PERFGATE_DEFAULT_VOCAB_DIR;
#endif
    cmd->add_option("--forge-dir", forge_dir, "Cache folder of forged models")->capture_default_str();
    cmd->add_option("--vocab-dir", vocab_dir, "llama.cpp's models/ folder (tokenizers for the forge)");
}

inline void add_binary_option(CLI::App* cmd, std::vector<std::string>& binaries) {
    cmd->add_option("--binary", binaries, "RUNTIME=PATH: use this binary for a runtime of the suite (repeatable)");
}

// --format (one of `formats`, checked by the command's own parser), --output and --color.
inline void add_report_options(CLI::App* cmd, std::string& format, std::string& output, std::string& color,
                               const std::string& formats) {
    cmd->add_option("--format", format, formats)->capture_default_str();
    cmd->add_option("--output", output, "Write the report to this file instead of stdout");
    add_color_option(cmd, color);
}

// Which pairs the text report lists (gates::TextStyle::show_all).
inline void add_show_option(CLI::App* cmd, std::string& show) {
    cmd->add_option("--show", show,
                    "text: changed (every judged or failing pair, and one line each counting the pairs missing, new or "
                    "skipped as before) or all (every pair a row)")
        ->capture_default_str()
        ->check(CLI::IsMember({"changed", "all"}));
}

inline void add_prompt_tolerance_option(CLI::App* cmd, double& tolerance) {
    cmd->add_option("--prompt-tolerance", tolerance, "Relative prompt-length difference allowed")
        ->capture_default_str()->check(CLI::Range(0.0, 10.0));
}

// The history rule's power, the same range wherever a minimum detectable effect is stated.
inline void add_power_option(CLI::App* cmd, double& power) {
    cmd->add_option("--power", power, "Detection probability behind each verdict's stated MDE")
        ->capture_default_str()->check(CLI::Range(0.5, 0.999));
}

// Result CSVs that must exist (a typo is a usage error, not an empty run).
inline CLI::Option* add_results_option(CLI::App* cmd, std::vector<std::string>& results, const std::string& help) {
    return cmd->add_option("--results", results, help)->check(CLI::ExistingFile);
}

}  // namespace perfgate::cli

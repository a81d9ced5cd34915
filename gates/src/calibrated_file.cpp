#include "perfgate/gates/calibrated_file.hpp"

#include <filesystem>

#include "perfgate/core/file_read.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

Status write_calibrated_thresholds(std::string text, const std::string& output) {
    if (std::error_code ec; std::filesystem::exists(output, ec)) {
        auto previous = read_regular_file(output);
        if (!previous) return previous.error();
        auto parsed = parse_threshold_file(*previous, output);
        if (!parsed) return make_error(parsed.error().message + " (the file calibrate would replace; fix or remove it)");
        if (parsed->memory_bandwidth) text = with_memory_bandwidth(text, *parsed->memory_bandwidth);
    }
    if (auto check = parse_threshold_file(text, output); !check) return make_error("internal: " + check.error().message);
    return replace_file(output, text);
}

}  // namespace perfgate::gates

#include "perfgate/gates/calibrated_file.hpp"

#include <fstream>
#include <sstream>

#include "perfgate/gates/thresholds.hpp"

namespace perfgate::gates {

Status write_calibrated_thresholds(std::string text, const std::string& output) {
    if (std::ifstream old(output, std::ios::binary); old) {
        std::stringstream previous;
        previous << old.rdbuf();
        auto parsed = parse_threshold_file(previous.str(), output);
        if (!parsed) return make_error(parsed.error().message + " (the file calibrate would replace; fix or remove it)");
        if (parsed->memory_bandwidth) text = with_memory_bandwidth(text, *parsed->memory_bandwidth);
    }
    if (auto check = parse_threshold_file(text, output); !check) return make_error("internal: " + check.error().message);
    std::ofstream out(output, std::ios::trunc);
    out << text;
    if (!out) return make_error(output + ": cannot write");
    return Ok{};
}

}  // namespace perfgate::gates

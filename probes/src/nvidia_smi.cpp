#include "perfgate/probes/nvidia_smi.hpp"

#include <regex>

#include "text.hpp"

namespace perfgate::probes {

namespace {
std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    while (true) {
        const auto comma = line.find(',', start);
        cells.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return cells;
}

// "143771", "143771 MiB"; "[N/A]", "N/A" and "Not Supported" are unknown.
std::optional<std::uint64_t> mib_cell(const std::string& cell) {
    if (auto n = parse_leading_uint(cell)) return checked_multiply(*n, kMiB);
    return std::nullopt;
}
}  // namespace

NvidiaSmiTable parse_nvidia_smi(std::string_view raw) {
    static const std::regex header_re(R"(Driver Version:\s*(\S+)\s+CUDA Version:\s*(\S+))");
    static const std::regex gpu_re(R"(^\|\s+(\d+)\s+(.+?)\s+(On|Off)\s+\|)");
    static const std::regex memory_re(R"(\|\s*(?:(\d+)MiB\s*/\s*(\d+)MiB|Not Supported|N/A)\s*\|)");
    NvidiaSmiTable table;
    bool expect_memory_row = false;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        std::smatch m;
        if (std::regex_search(line, m, header_re)) {
            table.driver_version = m[1].str();
            table.cuda_version = m[2].str();
        } else if (std::regex_search(line, m, gpu_re)) {
            table.gpus.push_back(NvidiaGpu{m[2].str(), std::nullopt, std::nullopt, table.driver_version});
            expect_memory_row = true;
        } else if (expect_memory_row) {
            expect_memory_row = false;
            if (std::regex_search(line, m, memory_re) && m[2].matched)
                if (auto n = parse_leading_uint(m[2].str())) table.gpus.back().memory_total_bytes = checked_multiply(*n, kMiB);
        }
    }
    return table;
}

std::vector<NvidiaGpu> parse_nvidia_smi_csv(std::string_view raw) {
    std::vector<NvidiaGpu> gpus;
    for (const auto& line : split_lines(strip_ansi(raw))) {
        const auto cells = split_csv(line);
        // index, name, memory.total, memory.used, memory.free, compute_cap, driver_version
        if (cells.size() < 3 || !parse_leading_uint(cells[0]) || cells[1].empty()) continue;
        NvidiaGpu gpu{cells[1], mib_cell(cells[2]), std::nullopt, std::nullopt};
        if (cells.size() > 5 && std::regex_match(cells[5], std::regex(R"(\d+\.\d+)"))) gpu.compute_cap = cells[5];
        if (cells.size() > 6 && !cells[6].empty() && cells[6].find("N/A") == std::string::npos) gpu.driver_version = cells[6];
        gpus.push_back(std::move(gpu));
    }
    return gpus;
}

}  // namespace perfgate::probes

#include "perfgate/probes/memory_bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "text.hpp"

namespace perfgate::probes {

std::optional<std::uint64_t> parse_cache_size(std::string_view text) {
    const auto value = parse_leading_uint(trim(text));
    if (!value) return std::nullopt;
    const auto t = trim(text);
    const char unit = t.empty() ? '\0' : t.back();
    if (unit == 'K') return checked_multiply(*value, 1024);
    if (unit == 'M') return checked_multiply(*value, 1024 * 1024);
    if (unit >= '0' && unit <= '9') return value;
    return std::nullopt;
}

std::optional<std::uint64_t> last_level_cache_bytes(const std::string& sysroot) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(sysroot) / "sys/devices/system/cpu/cpu0/cache";
    std::error_code ec;
    std::optional<std::uint64_t> largest;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::ifstream in(it->path() / "size");
        if (!in) continue;
        std::stringstream text;
        text << in.rdbuf();
        if (auto bytes = parse_cache_size(text.str()); bytes && (!largest || *bytes > *largest)) largest = bytes;
    }
    return largest;
}

Expected<BandwidthResult> measure_memory_bandwidth(const BandwidthOptions& options) {
    BandwidthResult result;
    result.last_level_cache_bytes = last_level_cache_bytes();
    constexpr std::uint64_t min_bytes = 256ull << 20;
    // Four times the last-level cache (at least 256 MiB): the cache can hold at most a sliver of it.
    result.array_bytes = options.array_bytes ? options.array_bytes
                                             : std::max(min_bytes, result.last_level_cache_bytes.value_or(0) * 4);
    result.threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    result.passes = std::max(1u, options.passes);
    const std::size_t n = result.array_bytes / sizeof(std::uint64_t);
    if (n < result.threads) return make_error("perfgate probe --bandwidth: the array is smaller than one element per thread");

    std::unique_ptr<std::uint64_t[]> data(new (std::nothrow) std::uint64_t[n]);
    if (!data) return make_error(fmt::format("perfgate probe --bandwidth: cannot allocate {} bytes", result.array_bytes));

    auto parallel = [&](auto&& body) {
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < result.threads; ++t) {
            const std::size_t begin = n * t / result.threads, end = n * (t + 1) / result.threads;
            workers.emplace_back([&body, t, begin, end] { body(t, begin, end); });
        }
        for (auto& w : workers) w.join();
    };
    // Each thread touches its own slice first, so on a NUMA host its pages sit on its node.
    parallel([&](unsigned, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) data[i] = i;
    });
    std::vector<std::uint64_t> sums(result.threads);
    double best = 0;
    for (unsigned pass = 0; pass < result.passes; ++pass) {
        const auto start = std::chrono::steady_clock::now();
        parallel([&](unsigned t, std::size_t begin, std::size_t end) {
            // Eight independent sums keep enough loads in flight that memory, not the adds, is the limit.
            std::uint64_t acc[8] = {};
            std::size_t i = begin;
            for (; i + 8 <= end; i += 8)
                for (std::size_t k = 0; k < 8; ++k) acc[k] += data[i + k];
            for (; i < end; ++i) acc[0] += data[i];
            std::uint64_t sum = 0;
            for (auto a : acc) sum += a;
            sums[t] = sum;
        });
        const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
        if (seconds.count() > 0) best = std::max(best, static_cast<double>(n * sizeof(std::uint64_t)) / seconds.count());
    }
    // Checking the sums keeps the compiler from dropping the passes; a wrong one is a broken build.
    std::uint64_t total = 0;
    for (auto s : sums) total += s;
    if (total != static_cast<std::uint64_t>(n) * (n - 1) / 2) return make_error("perfgate probe --bandwidth: the read pass summed wrongly");
    result.bytes_per_s = best;
    return result;
}

}  // namespace perfgate::probes

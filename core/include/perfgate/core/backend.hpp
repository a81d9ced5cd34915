#pragma once
// The compute backends perfgate knows: what `perfgate probe` detects, what a suite's "backend" may
// name, and the series of a benchmark file written by mlxcel's scripts (cpu_<host>_<date>.csv).
// The one list; probes, perf and gates ask here.
#include <array>
#include <optional>
#include <string_view>

namespace perfgate {

enum class Backend { cpu, rocm, cuda, metal, vulkan };

// The names, in the enum's order (backend_names[int(b)] is b's name), as written in CSVs, file
// names, suites and `perfgate probe --json`.
inline constexpr std::array<const char*, 5> backend_names{"cpu", "rocm", "cuda", "metal", "vulkan"};

const char* to_string(Backend backend);
// Exactly one of backend_names; anything else (other case, aliases such as "hip") is nullopt.
std::optional<Backend> backend_from_string(std::string_view text);

}  // namespace perfgate

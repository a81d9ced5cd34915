#pragma once
// Where a pair's checkpoint comes from when the suite names a forge spec: the forge writes it
// (or reuses the cached file) at test time, and only for models that passed the memory guard.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>

#include "perfgate/core/expected.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

Expected<std::filesystem::path> materialize_forged_model(const SuiteModel& model, const std::filesystem::path& forge_dir,
                                                         const std::filesystem::path& vocab_dir,
                                                         std::uint64_t max_bytes, std::ostream& log);

}  // namespace perfgate::perf

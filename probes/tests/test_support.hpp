#pragma once
// Helpers for the probes tests: real fixtures and recorded machines (tests/data/machines).
#include <optional>
#include <string>

#include "perfgate/probes/probe.hpp"

namespace perfgate::probes::test {

// A fixture from tests/fixtures/probe-outputs without its "# " metadata lines.
std::string fixture_text(const std::string& name);
std::string machine_dir(const std::string& machine);
// Probes a recorded machine: its bin/ is the whole search path, its root/ the sysroot; a runtime
// kind asks its bin/<runtime_tool> ("mlxcel", or any llama.cpp binary for the other kinds).
HostFacts probe_machine(const std::string& machine, std::optional<std::string> runtime_kind = std::nullopt,
                        std::optional<std::string> runtime_tool = std::nullopt);
ProbeOptions machine_options(const std::string& machine);

constexpr std::uint64_t GiB = 1024ULL * 1024 * 1024;
constexpr std::uint64_t MiB = 1024ULL * 1024;

}  // namespace perfgate::probes::test

#pragma once
// The one list of runtime kinds: the names suite manifests use ("kind") and that
// `perfgate probe --runtime` / `perfgate run --probe-runtime KIND=BINARY` accept, with how the
// probe can ask each of them for the device it sees.
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::probes {

enum class RuntimeQuery {
    llama_cpp_devices,  // `<binary> --list-devices` (llama-bench, llama-cli, llama-server)
    mlxcel_generate,    // a one-token `mlxcel generate` with the kernel-backend debug line
    none,               // the runtime cannot name a device: the system tools decide
};

struct RuntimeKind {
    std::string_view name;
    RuntimeQuery query;
    bool suite_kind;  // also a manifest "kind" (llama.cpp is the probe's older spelling only)
};

const std::vector<RuntimeKind>& runtime_kinds();
// "llama-bench, mlxcel, mlx-lm, catch2, command, llama.cpp"
std::string runtime_kind_names();
// The kind, or an error listing the valid names (a usage error: exit 2).
Expected<RuntimeKind> find_runtime_kind(std::string_view name);

}  // namespace perfgate::probes

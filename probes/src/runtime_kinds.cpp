#include "perfgate/core/text.hpp"
#include "perfgate/probes/runtime_kinds.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>


namespace perfgate::probes {

const std::vector<RuntimeKind>& runtime_kinds() {
    static const std::vector<RuntimeKind> kinds{
        {"llama-bench", RuntimeQuery::llama_cpp_devices, true},
        {"mlxcel", RuntimeQuery::mlxcel_generate, true},
        {"mlx-lm", RuntimeQuery::none, true},
        {"catch2", RuntimeQuery::none, true},
        {"command", RuntimeQuery::none, true},
        // Older probe spellings of any llama.cpp binary; kept so existing scripts still work.
        {"llama.cpp", RuntimeQuery::llama_cpp_devices, false},
        {"llama-cpp", RuntimeQuery::llama_cpp_devices, false},
    };
    return kinds;
}

std::string runtime_kind_names() {
    return fmt::format("{}", fmt::join(mapped(runtime_kinds(), [](const RuntimeKind& k) { return k.name; }), ", "));
}

Expected<RuntimeKind> find_runtime_kind(std::string_view name) {
    for (const auto& k : runtime_kinds())
        if (k.name == name) return k;
    return make_error("unknown runtime kind \"" + std::string(name) + "\"; valid kinds: " + runtime_kind_names());
}

}  // namespace perfgate::probes

#pragma once
// The memory guard: before anything is launched (or forged), does the model fit the probe's
// usable memory? Estimate = weights + KV cache + runtime overhead.
#include <cstdint>
#include <string>

#include "perfgate/core/checked_math.hpp"
#include "perfgate/core/expected.hpp"
#include "perfgate/perf/host_context.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::perf {

struct MemoryEstimate {
    std::uint64_t weight_bytes = 0;
    std::uint64_t kv_cache_bytes = 0;
    std::uint64_t overhead_bytes = 0;
    std::string weight_source;  // "declared", "forge spec", "checkpoint files"
    std::uint64_t read_per_token_bytes = 0;  // forge::bytes_read_per_token of a forge spec; 0: unknown
    // Saturating, like the parts: a sum beyond 64 bits never fits, it does not wrap to a small need.
    std::uint64_t total() const { return saturating_add(saturating_add(weight_bytes, kv_cache_bytes), overhead_bytes); }
};

// Weights: declared weight_bytes, else the forge spec's estimate, else the checkpoint's file sizes.
// KV cache: declared, else from the forge spec's shape at the workload's context (f16 K and V).
Expected<MemoryEstimate> estimate_memory(const SuiteModel& model, const Suite& suite);

struct FitDecision {
    bool fits = true;
    bool budget_known = true;
    std::string message;  // "needs 41.2 GiB, device has 27.4 GiB usable"
};

FitDecision check_fit(const MemoryEstimate& estimate, const HostContext& host);

// A host offers the CPU backend always, and the probe's backend.
bool host_has_backend(const HostContext& host, const std::string& backend);

std::string gib(std::uint64_t bytes);  // "41.2 GiB"

}  // namespace perfgate::perf

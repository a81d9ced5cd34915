#include "perfgate/perf/fit.hpp"

#include <fmt/format.h>

#include "perfgate/core/checked_math.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace perfgate::perf {
using forge::ModelSpec;
using forge::load_model_spec;
using forge::estimated_weight_bytes;
using forge::bytes_read_per_token;
namespace {

std::uint64_t bytes_on_disk(const std::filesystem::path& p) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return std::filesystem::file_size(p, ec);
    std::uint64_t sum = 0;
    if (std::filesystem::is_directory(p, ec))
        for (const auto& e : std::filesystem::directory_iterator(p, ec))
            if (e.is_regular_file(ec)) sum += e.file_size(ec);
    return sum;
}

}  // namespace

std::string gib(std::uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / 1073741824.0); }

Expected<MemoryEstimate> estimate_memory(const SuiteModel& model, const Suite& suite) {
    MemoryEstimate e;
    e.overhead_bytes = model.overhead_bytes.value_or(suite.default_overhead_bytes);
    std::optional<ModelSpec> spec;
    if (!model.forge_spec.empty()) {
        auto loaded = load_model_spec(model.forge_spec);
        if (!loaded) return loaded.error();
        spec = *loaded;
    }
    if (model.weight_bytes) {
        e.weight_bytes = *model.weight_bytes;
        e.weight_source = "declared";
    } else if (spec) {
        e.weight_bytes = estimated_weight_bytes(*spec);
        e.weight_source = "forge spec";
    } else if (!model.checkpoint.empty() && std::filesystem::exists(model.checkpoint)) {
        e.weight_bytes = bytes_on_disk(model.checkpoint);
        e.weight_source = "checkpoint files";
    } else if (!model.benchmark.empty()) {
        e.weight_source = "none (benchmark)";
    } else {
        return make_error(suite.path.string() + ":" + std::to_string(model.line) + ": model \"" + model.name +
                          "\": no weight_bytes and the checkpoint " + model.checkpoint.string() +
                          " does not exist, so its memory need is unknown");
    }
    if (spec) e.read_per_token_bytes = bytes_read_per_token(*spec);
    if (model.kv_cache_bytes) {
        e.kv_cache_bytes = *model.kv_cache_bytes;
    } else if (spec) {
        const auto context = static_cast<std::uint64_t>(suite.workload.prompt_tokens + suite.workload.generated_tokens);
        const std::uint64_t head_dim = spec->head_dim ? spec->head_dim : spec->embedding_length / std::max<std::uint64_t>(1, spec->head_count);
        // Saturating: a product too large for 64 bits must read as "does not fit", not wrap small.
        std::uint64_t kv = 2 /*K,V*/ * 2 /*f16*/;
        for (std::uint64_t factor : {spec->block_count, spec->head_count_kv, head_dim, context,
                                     static_cast<std::uint64_t>(suite.workload.batch)})
            kv = saturating_multiply(kv, factor);
        e.kv_cache_bytes = kv;
    }
    return e;
}

FitDecision check_fit(const MemoryEstimate& estimate, const HostContext& host) {
    FitDecision d;
    const char* where = host.memory_is_device ? "device" : "host";
    if (!host.usable_memory_bytes) {
        d.budget_known = false;
        d.message = "needs " + gib(estimate.total()) + "; the probe found no usable-memory figure, so it runs anyway";
        return d;
    }
    d.fits = estimate.total() <= *host.usable_memory_bytes;
    d.message = fmt::format("needs {}, {} has {} usable", gib(estimate.total()), where, gib(*host.usable_memory_bytes));
    return d;
}

bool host_has_backend(const HostContext& host, const std::string& backend) {
    return backend == "cpu" || backend == host.backend;
}

}  // namespace perfgate::perf

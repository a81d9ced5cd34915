#include "model_source.hpp"

#include <fmt/format.h>

#include "perfgate/forge/forge.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace perfgate::perf {
using forge::ModelSpec;
using forge::load_model_spec;
using forge::forge_model;
using forge::ForgeOptions;

Expected<std::filesystem::path> materialize_forged_model(const SuiteModel& model, const std::filesystem::path& forge_dir,
                                                         const std::filesystem::path& vocab_dir,
                                                         std::uint64_t max_bytes, std::ostream& log) {
    auto spec = load_model_spec(model.forge_spec);
    if (!spec) return spec.error();
    if (forge_dir.empty()) return make_error("model \"" + model.name + "\" comes from a forge spec but no --forge-dir was given");
    ForgeOptions options;
    options.out_dir = forge_dir;
    options.vocab_dir = vocab_dir;
    options.max_bytes = max_bytes;
    auto forged = forge_model(*spec, options);
    if (!forged) return make_error("forging " + model.name + ": " + forged.error().message);
    log << fmt::format("[perf] {}: {} {} ({:.1f} MiB, synthetic weights)\n", model.name,
                       forged->reused ? "reusing forged" : fmt::format("forged in {:.1f} s:", forged->seconds),
                       forged->path.string(), static_cast<double>(forged->file_bytes) / 1048576.0);
    return forged->path;
}

}  // namespace perfgate::perf

// `perfgate forge`: writes (or finds cached) a synthetic GGUF checkpoint for a model spec.
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/forge/forge.hpp"
#include "perfgate/forge/model_spec.hpp"
#include "perfgate/probes/probe.hpp"

// The fetched llama.cpp's models/ folder, known at configure time (cmake/PerfgateLlamaCpp.cmake).
#ifndef PERFGATE_DEFAULT_VOCAB_DIR
#define PERFGATE_DEFAULT_VOCAB_DIR ""
#endif

namespace perfgate::cli {
namespace {

struct ForgeArgs {
    std::string spec;
    std::string out;
    std::string vocab_dir;
    std::uint64_t max_bytes = 0;  // 0: the probe's usable memory, capped by the free space of --out
};

double gib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

int run_forge(const ForgeArgs& args) {
    auto spec = forge::load_model_spec(args.spec);
    if (!spec) {
        fmt::print(stderr, "perfgate forge: {}\n", spec.error().message);
        return exit_code::usage;
    }
    forge::ForgeOptions options;
    options.out_dir = args.out;
    options.vocab_dir = args.vocab_dir.empty() ? std::filesystem::path(PERFGATE_DEFAULT_VOCAB_DIR) : std::filesystem::path(args.vocab_dir);
    if (args.max_bytes != 0) {
        options.max_bytes = args.max_bytes;
    } else {
        // Default: what a run on this host could load (the probe's usable memory, the same figure
        // the runner's fit check uses), and never more than the output folder's free disk space.
        const auto facts = probes::probe_host(probes::with_environment_defaults({}));
        if (!facts.usable_memory_bytes) {
            fmt::print(stderr, "perfgate forge: this host's usable memory is unknown; pass --max-bytes\n");
            return exit_code::usage;
        }
        options.max_bytes = *facts.usable_memory_bytes;
        std::error_code ec;
        auto existing = options.out_dir;
        while (!existing.empty() && !std::filesystem::exists(existing, ec)) existing = existing.parent_path();
        const auto space = std::filesystem::space(existing.empty() ? std::filesystem::path(".") : existing, ec);
        if (!ec && space.available < options.max_bytes) options.max_bytes = space.available;
    }

    const std::uint64_t weights = forge::estimated_weight_bytes(*spec);
    fmt::print(stderr, "perfgate forge: {} ({} {}, {:.1f} M parameters, {:.2f} GiB of weights)\n", spec->name,
               forge::architecture_name(spec->architecture), forge::weight_type_name(spec->weight_type),
               static_cast<double>(forge::parameter_count(*spec)) / 1e6, gib(weights));
    auto result = forge::forge_model(*spec, options);
    if (!result) {
        // Not fitting is a skip, not a failure: the model is simply not made on this host.
        const bool too_big = weights > options.max_bytes;
        fmt::print(stderr, "perfgate forge: {}\n", result.error().message);
        return too_big ? exit_code::skipped : exit_code::regression;
    }
    if (result->reused)
        fmt::print(stderr, "perfgate forge: cached, {:.2f} GiB\n", gib(result->file_bytes));
    else
        fmt::print(stderr, "perfgate forge: wrote {:.2f} GiB in {:.1f} s\n", gib(result->file_bytes), result->seconds);
    // The path alone on stdout, so scripts can capture it.
    fmt::print("{}\n", result->path.string());
    return exit_code::success;
}

}  // namespace

void add_forge_command(CLI::App& app) {
    auto args = std::make_shared<ForgeArgs>();
    auto* cmd = app.add_subcommand("forge", "Write a synthetic GGUF model (random weights, real shapes and tokenizer) for a model spec");
    cmd->add_option("--spec", args->spec, "Model spec JSON (perf/models/*.json)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--out", args->out, "Folder of forged models (files are cached there by spec hash)")->required();
    cmd->add_option("--vocab-dir", args->vocab_dir, "llama.cpp's models/ folder with the ggml-vocab-*.gguf tokenizers")
        ->default_str(PERFGATE_DEFAULT_VOCAB_DIR);
    cmd->add_option("--max-bytes", args->max_bytes,
                    "Refuse (exit 77, nothing written) when the model's weights exceed this many bytes; "
                    "default: the probe's usable memory, at most the free disk space");
    cmd->callback([args] { exit_status = run_forge(*args); });
}

}  // namespace perfgate::cli

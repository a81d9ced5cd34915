#pragma once
// The model forge: writes a GGUF checkpoint with random weights and exactly the tensor shapes and
// hyper-parameters of a real model (a ModelSpec), with that model's real tokenizer copied from a
// vocabulary GGUF of llama.cpp's models/ folder.
//
// A dense model's speed in llama.cpp depends on shapes and weight types, not on weight values, so
// a forged checkpoint's tok/s stands for the real one's. Forged files are marked synthetic (the
// GGUF key perfgate.synthetic = true) so that rows measured on them can say so.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "perfgate/core/expected.hpp"
#include "perfgate/forge/model_spec.hpp"

namespace perfgate::forge {

// GGUF metadata key that marks a forged file; its value is the spec hash under "perfgate.spec_hash".
inline constexpr const char* kSyntheticKey = "perfgate.synthetic";
inline constexpr const char* kSpecHashKey = "perfgate.spec_hash";

struct ForgeOptions {
    std::filesystem::path out_dir;    // forged files are cached here, by spec hash
    std::filesystem::path vocab_dir;  // llama.cpp's models/ folder
    // Refuse models whose weights (or file) exceed this many bytes: the runner passes the probe's
    // usable memory, the CLI the smaller of that and the free disk space. Checked before anything
    // is read or written. Required: with the default 0 nothing is forged, so a caller that forgets
    // the guard can never write a 40 GB file by accident.
    std::uint64_t max_bytes = 0;
};

struct ForgeResult {
    std::filesystem::path path;       // <out_dir>/<name>-<type>-<hash>.gguf
    std::uint64_t file_bytes = 0;
    std::uint64_t weight_bytes = 0;
    std::uint64_t parameters = 0;
    bool reused = false;              // the cached file was already there
    bool synthetic = true;            // always true for forged files; see is_synthetic_model
    double seconds = 0.0;             // time spent forging (0 when reused)
};

// Where the forged file for `spec` lives (whether or not it exists yet).
std::filesystem::path forged_model_path(const ModelSpec& spec, const std::filesystem::path& out_dir);

// Forges the model unless its cached file already exists. A model larger than max_bytes is
// refused with an error naming both sizes, and nothing is written.
Expected<ForgeResult> forge_model(const ModelSpec& spec, const ForgeOptions& options);

// True when the GGUF at `path` was written by the forge (reads only the header).
Expected<bool> is_synthetic_model(const std::filesystem::path& path);

}  // namespace perfgate::forge

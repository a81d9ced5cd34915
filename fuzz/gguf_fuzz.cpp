// GGUF headers (perf/src/forge/gguf_reader.cpp reads files, so each input is written to one
// scratch file per process). A header that reads back is written out again with the same metadata
// and read a second time: keys, types and values must survive the round trip unchanged.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_check.hpp"
#include "gguf.hpp"

using perfgate::fuzz::check;
namespace gguf = perfgate::forge::gguf;

namespace {
std::filesystem::path scratch(const char* what) {
    return std::filesystem::temp_directory_path() / ("perfgate-gguf-fuzz-" + std::to_string(::getpid()) + "-" + what + ".gguf");
}

bool same_value(const gguf::Value& a, const gguf::Value& b) {
    if (a.type != b.type || a.u != b.u || a.i != b.i || a.s != b.s || a.items.size() != b.items.size()) return false;
    // Floats compare by bit pattern so that a NaN read from the file is still "the same".
    if (std::memcmp(&a.f, &b.f, sizeof a.f) != 0 && !(std::isnan(a.f) && std::isnan(b.f))) return false;
    if (a.type == gguf::ValueType::Array && a.element_type != b.element_type) return false;
    for (std::size_t i = 0; i < a.items.size(); ++i)
        if (!same_value(a.items[i], b.items[i])) return false;
    return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const auto input = scratch("in");
    static const auto output = scratch("out");
    static const struct Cleanup {
        ~Cleanup() {
            std::error_code ignored;
            std::filesystem::remove(input, ignored);
            std::filesystem::remove(output, ignored);
        }
    } cleanup;
    {
        std::ofstream f(input, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    auto header = gguf::read_header(input);
    if (!header) {
        check(header.error().message.rfind(input.string() + ":", 0) == 0, "GGUF error names the file", header.error().message);
        return 0;
    }
    check(header->version == gguf::kVersion, "only version 3 is accepted");
    check(header->data_offset >= 24 && header->data_offset <= size + 0xFFFFFFFFULL, "data offset is past the fixed header");
    std::uint64_t alignment = gguf::kAlignment;
    if (const auto* a = header->find("general.alignment"); a && a->type == gguf::ValueType::Uint32 && a->u != 0) alignment = a->u;
    check(header->data_offset % alignment == 0, "data section is aligned");
    for (const auto& t : header->tensors) check(t.dims.size() <= 4, "at most 4 dimensions");

    // Round trip of the metadata (the tensors' bytes are not part of what was read).
    if (!gguf::write_file(output, header->metadata, {}, [](std::size_t, std::vector<std::uint8_t>&) {})) return 0;
    auto again = gguf::read_header(output);
    check(static_cast<bool>(again), "a written header reads back", again ? "" : again.error().message);
    check(again->metadata.size() == header->metadata.size(), "metadata count survives");
    for (std::size_t i = 0; i < header->metadata.size(); ++i) {
        check(again->metadata[i].key == header->metadata[i].key, "metadata key survives", header->metadata[i].key);
        check(same_value(again->metadata[i].value, header->metadata[i].value), "metadata value survives", header->metadata[i].key);
    }
    return 0;
}

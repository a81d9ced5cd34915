#pragma once
// A small reader and writer for GGUF version 3, the file format of llama.cpp / ggml.
//
// Written by hand rather than linking ggml's gguf API: ggml is only built as an ExternalProject
// at build time (or not at all when -DPERFGATE_LLAMA_BENCH points at an existing binary), so
// linking perfgate to it would make perfgate's own build wait for, and depend on the exact
// version of, llama.cpp's. The format is small and documented (magic, version, counts, typed
// key/values, tensor infos, aligned data), and the forge needs only the header part plus
// streamed tensor data.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::forge::gguf {

// Value type ids of the GGUF format.
enum class ValueType : std::uint32_t {
    Uint8 = 0, Int8 = 1, Uint16 = 2, Int16 = 3, Uint32 = 4, Int32 = 5, Float32 = 6, Bool = 7,
    String = 8, Array = 9, Uint64 = 10, Int64 = 11, Float64 = 12,
};

// ggml tensor type ids the forge writes or reads back.
enum class TensorType : std::uint32_t { F32 = 0, F16 = 1, Q4_0 = 2, Q8_0 = 8 };

inline constexpr std::uint32_t kVersion = 3;
inline constexpr std::uint64_t kAlignment = 32;

// One metadata value. Scalars keep their declared type so that a copied key/value is written
// back byte-for-byte as it was read.
struct Value {
    ValueType type = ValueType::Uint32;
    ValueType element_type = ValueType::Uint8;  // arrays only
    std::uint64_t u = 0;                        // unsigned ints and bool
    std::int64_t i = 0;                         // signed ints
    double f = 0.0;                             // floats
    std::string s;                              // strings
    std::vector<Value> items;                   // arrays

    static Value uint32(std::uint32_t v);
    static Value float32(float v);
    static Value boolean(bool v);
    static Value string(std::string v);
    static Value string_array(const std::vector<std::string>& v);
};

struct KeyValue {
    std::string key;
    Value value;
};

struct TensorInfo {
    std::string name;
    std::vector<std::uint64_t> dims;  // innermost first, as ggml orders them
    std::uint32_t type = 0;           // ggml type id
    std::uint64_t offset = 0;         // within the data section
};

// The header of a GGUF file (everything but the tensor data).
struct Header {
    std::uint32_t version = 0;
    std::vector<KeyValue> metadata;
    std::vector<TensorInfo> tensors;
    std::uint64_t data_offset = 0;  // where the aligned data section starts in the file

    const Value* find(const std::string& key) const;
};

// Reads the header; errors name the file and the byte offset of the problem.
Expected<Header> read_header(const std::filesystem::path& path);

// Writes a GGUF file: metadata, tensor infos, then each tensor's bytes from `fill`, which is
// called with the tensor's index and a buffer of exactly its size. The file appears atomically:
// it is written to `<path>.tmp-<pid>` and renamed at the end.
struct TensorToWrite {
    std::string name;
    std::vector<std::uint64_t> dims;
    TensorType type = TensorType::F32;
    std::uint64_t bytes = 0;
};
using FillTensor = std::function<void(std::size_t index, std::vector<std::uint8_t>& buffer)>;

// Size of the file write_file would produce, computed without writing anything.
std::uint64_t file_size(const std::vector<KeyValue>& metadata, const std::vector<TensorToWrite>& tensors);

Status write_file(const std::filesystem::path& path, const std::vector<KeyValue>& metadata,
                  const std::vector<TensorToWrite>& tensors, const FillTensor& fill);

}  // namespace perfgate::forge::gguf

// Writes GGUF v3 files: header, aligned tensor data streamed tensor by tensor, atomic rename.
#include <cstdio>
#include <cstring>
#include <system_error>
#include <unistd.h>

#include "gguf.hpp"

namespace perfgate::forge::gguf {
namespace {

std::uint64_t align_up(std::uint64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

// Serialises into a byte vector; the header of even a 150k-token vocabulary is a few MB.
class Bytes {
public:
    template <class T>
    void scalar(T v) { raw(&v, sizeof v); }
    void text(const std::string& s) {
        scalar<std::uint64_t>(s.size());
        raw(s.data(), s.size());
    }
    // resize + memcpy rather than vector::insert, which g++ 12 -O2 flags with a false
    // -Wstringop-overflow.
    void raw(const void* p, std::size_t n) {
        if (n == 0) return;
        const std::size_t at = out.size();
        out.resize(at + n);
        std::memcpy(out.data() + at, p, n);
    }
    void value(const Value& v, bool with_type) {
        if (with_type) scalar<std::uint32_t>(static_cast<std::uint32_t>(v.type));
        switch (v.type) {
            case ValueType::Uint8: scalar<std::uint8_t>(static_cast<std::uint8_t>(v.u)); break;
            case ValueType::Int8: scalar<std::int8_t>(static_cast<std::int8_t>(v.i)); break;
            case ValueType::Uint16: scalar<std::uint16_t>(static_cast<std::uint16_t>(v.u)); break;
            case ValueType::Int16: scalar<std::int16_t>(static_cast<std::int16_t>(v.i)); break;
            case ValueType::Uint32: scalar<std::uint32_t>(static_cast<std::uint32_t>(v.u)); break;
            case ValueType::Int32: scalar<std::int32_t>(static_cast<std::int32_t>(v.i)); break;
            case ValueType::Float32: scalar<float>(static_cast<float>(v.f)); break;
            case ValueType::Bool: scalar<std::uint8_t>(v.u ? 1 : 0); break;
            case ValueType::String: text(v.s); break;
            case ValueType::Uint64: scalar<std::uint64_t>(v.u); break;
            case ValueType::Int64: scalar<std::int64_t>(v.i); break;
            case ValueType::Float64: scalar<double>(v.f); break;
            case ValueType::Array:
                scalar<std::uint32_t>(static_cast<std::uint32_t>(v.element_type));
                scalar<std::uint64_t>(v.items.size());
                for (const auto& item : v.items) value(item, false);
                break;
        }
    }
    std::vector<std::uint8_t> out;
};

// Header bytes plus padding up to the aligned start of the data section.
std::vector<std::uint8_t> header_bytes(const std::vector<KeyValue>& metadata, const std::vector<TensorToWrite>& tensors) {
    Bytes b;
    b.raw("GGUF", 4);
    b.scalar<std::uint32_t>(kVersion);
    b.scalar<std::uint64_t>(tensors.size());
    b.scalar<std::uint64_t>(metadata.size());
    for (const auto& kv : metadata) {
        b.text(kv.key);
        b.value(kv.value, true);
    }
    std::uint64_t offset = 0;
    for (const auto& t : tensors) {
        b.text(t.name);
        b.scalar<std::uint32_t>(static_cast<std::uint32_t>(t.dims.size()));
        for (auto d : t.dims) b.scalar<std::uint64_t>(d);
        b.scalar<std::uint32_t>(static_cast<std::uint32_t>(t.type));
        b.scalar<std::uint64_t>(offset);
        offset += align_up(t.bytes);
    }
    b.out.resize(align_up(b.out.size()), 0);
    return std::move(b.out);
}

std::uint64_t data_bytes(const std::vector<TensorToWrite>& tensors) {
    std::uint64_t n = 0;
    for (const auto& t : tensors) n += align_up(t.bytes);
    return n;
}

}  // namespace

Value Value::uint32(std::uint32_t v) { Value x; x.type = ValueType::Uint32; x.u = v; return x; }
Value Value::float32(float v) { Value x; x.type = ValueType::Float32; x.f = v; return x; }
Value Value::boolean(bool v) { Value x; x.type = ValueType::Bool; x.u = v ? 1 : 0; return x; }
Value Value::string(std::string v) { Value x; x.type = ValueType::String; x.s = std::move(v); return x; }
Value Value::string_array(const std::vector<std::string>& v) {
    Value x;
    x.type = ValueType::Array;
    x.element_type = ValueType::String;
    for (const auto& s : v) x.items.push_back(string(s));
    return x;
}

std::uint64_t file_size(const std::vector<KeyValue>& metadata, const std::vector<TensorToWrite>& tensors) {
    return header_bytes(metadata, tensors).size() + data_bytes(tensors);
}

Status write_file(const std::filesystem::path& path, const std::vector<KeyValue>& metadata,
                  const std::vector<TensorToWrite>& tensors, const FillTensor& fill) {
    // The temporary lives next to the target so that the rename stays on one filesystem.
    const auto tmp = std::filesystem::path(path.string() + ".tmp-" + std::to_string(::getpid()));
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return make_error(tmp.string() + ": cannot create: " + std::strerror(errno));
    auto fail = [&](const std::string& what) -> Status {
        const std::string reason = std::strerror(errno);
        std::fclose(f);
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return make_error(tmp.string() + ": " + what + ": " + reason);
    };

    const auto header = header_bytes(metadata, tensors);
    if (std::fwrite(header.data(), 1, header.size(), f) != header.size()) return fail("write failed");

    std::vector<std::uint8_t> buffer;
    for (std::size_t k = 0; k < tensors.size(); ++k) {
        buffer.assign(tensors[k].bytes, 0);
        fill(k, buffer);
        buffer.resize(align_up(tensors[k].bytes), 0);
        if (std::fwrite(buffer.data(), 1, buffer.size(), f) != buffer.size()) return fail("write failed");
    }
    if (std::fflush(f) != 0 || ::fsync(::fileno(f)) != 0) return fail("flush failed");
    if (std::fclose(f) != 0) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return make_error(tmp.string() + ": close failed");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        return make_error(path.string() + ": rename failed: " + ec.message());
    }
    return Ok{};
}

}  // namespace perfgate::forge::gguf

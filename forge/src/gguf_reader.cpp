// Reads the header of a GGUF v3 file into typed values (see gguf.hpp for the layout).
#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>

#include "gguf.hpp"

namespace perfgate::forge::gguf {
namespace {

// Guards against corrupt counts making us allocate without bound.
constexpr std::uint64_t kMaxCount = 1ULL << 28;
constexpr std::uint64_t kMaxString = 1ULL << 26;

class Cursor {
public:
    Cursor(std::ifstream& in, std::string origin, std::uint64_t start) : in_(in), origin_(std::move(origin)), pos_(start) {}

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    std::uint64_t position() const { return pos_; }

    void fail(const std::string& what) {
        if (error_.empty()) error_ = origin_ + ": byte " + std::to_string(pos_) + ": " + what;
    }

    template <class T>
    T scalar() {
        T v{};
        read_bytes(&v, sizeof v);  // GGUF is little-endian, like every host ggml supports
        return v;
    }

    std::string text() {
        const auto n = scalar<std::uint64_t>();
        if (!ok()) return {};
        if (n > kMaxString) { fail("string of " + std::to_string(n) + " bytes is implausible"); return {}; }
        std::string s(n, '\0');
        read_bytes(s.data(), n);
        return s;
    }

private:
    void read_bytes(void* dst, std::size_t n) {
        if (!ok()) { std::memset(dst, 0, n); return; }
        in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
        if (static_cast<std::size_t>(in_.gcount()) != n) {
            std::memset(dst, 0, n);
            fail("file ends inside the header");
            return;
        }
        pos_ += n;
    }

    std::ifstream& in_;
    std::string origin_;
    std::uint64_t pos_ = 0;
    std::string error_;
};

Value read_value(Cursor& c, ValueType type, int depth) {
    Value v;
    v.type = type;
    switch (type) {
        case ValueType::Uint8: v.u = c.scalar<std::uint8_t>(); break;
        case ValueType::Int8: v.i = c.scalar<std::int8_t>(); break;
        case ValueType::Uint16: v.u = c.scalar<std::uint16_t>(); break;
        case ValueType::Int16: v.i = c.scalar<std::int16_t>(); break;
        case ValueType::Uint32: v.u = c.scalar<std::uint32_t>(); break;
        case ValueType::Int32: v.i = c.scalar<std::int32_t>(); break;
        case ValueType::Float32: v.f = c.scalar<float>(); break;
        case ValueType::Bool: v.u = c.scalar<std::uint8_t>() != 0 ? 1 : 0; break;
        case ValueType::String: v.s = c.text(); break;
        case ValueType::Uint64: v.u = c.scalar<std::uint64_t>(); break;
        case ValueType::Int64: v.i = c.scalar<std::int64_t>(); break;
        case ValueType::Float64: v.f = c.scalar<double>(); break;
        case ValueType::Array: {
            if (depth > 0) { c.fail("nested arrays are not supported"); break; }
            v.element_type = static_cast<ValueType>(c.scalar<std::uint32_t>());
            const auto n = c.scalar<std::uint64_t>();
            if (n > kMaxCount) { c.fail("array of " + std::to_string(n) + " items is implausible"); break; }
            // Reserve no more than a real vocabulary needs: a count is only a claim until the
            // items are read, and a file of a few bytes claiming 2^28 items must not allocate gigabytes.
            v.items.reserve(std::min<std::uint64_t>(n, 1ULL << 18));
            for (std::uint64_t k = 0; k < n && c.ok(); ++k) v.items.push_back(read_value(c, v.element_type, depth + 1));
            break;
        }
        default: c.fail("unknown value type " + std::to_string(static_cast<std::uint32_t>(type)));
    }
    return v;
}

}  // namespace

const Value* Header::find(const std::string& key) const {
    for (const auto& kv : metadata)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

Expected<Header> read_header(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(path.string() + ": cannot open");
    char magic[4] = {};
    in.read(magic, 4);
    if (in.gcount() != 4 || std::memcmp(magic, "GGUF", 4) != 0) return make_error(path.string() + ": not a GGUF file (bad magic)");
    Cursor c(in, path.string(), 4);
    Header h;
    h.version = c.scalar<std::uint32_t>();
    if (c.ok() && h.version != kVersion)
        return make_error(path.string() + ": GGUF version " + std::to_string(h.version) + " (only 3 is supported)");
    const auto n_tensors = c.scalar<std::uint64_t>();
    const auto n_kv = c.scalar<std::uint64_t>();
    if (c.ok() && (n_tensors > kMaxCount || n_kv > kMaxCount)) c.fail("implausible tensor or key count");

    for (std::uint64_t k = 0; k < n_kv && c.ok(); ++k) {
        KeyValue kv;
        kv.key = c.text();
        const auto type = static_cast<ValueType>(c.scalar<std::uint32_t>());
        kv.value = read_value(c, type, 0);
        h.metadata.push_back(std::move(kv));
    }
    for (std::uint64_t k = 0; k < n_tensors && c.ok(); ++k) {
        TensorInfo t;
        t.name = c.text();
        const auto n_dims = c.scalar<std::uint32_t>();
        if (n_dims > 4) { c.fail("tensor " + t.name + " has " + std::to_string(n_dims) + " dimensions"); break; }
        for (std::uint32_t d = 0; d < n_dims; ++d) t.dims.push_back(c.scalar<std::uint64_t>());
        t.type = c.scalar<std::uint32_t>();
        t.offset = c.scalar<std::uint64_t>();
        h.tensors.push_back(std::move(t));
    }
    if (!c.ok()) return make_error(c.error());

    std::uint64_t alignment = kAlignment;
    if (const Value* a = h.find("general.alignment"); a && a->type == ValueType::Uint32 && a->u != 0) alignment = a->u;
    h.data_offset = (c.position() + alignment - 1) / alignment * alignment;
    return h;
}

}  // namespace perfgate::forge::gguf

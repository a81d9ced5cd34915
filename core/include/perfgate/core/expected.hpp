#pragma once
// A minimal expected-like result for errors-as-values at boundaries.
// Written by hand because the project is pinned to C++20 on g++ 12 (std::expected is C++23) and
// Debian 12 ships no well-kept standalone expected library; this is deliberately tiny.
#include <string>
#include <utility>
#include <variant>

namespace perfgate {

// An error message meant for a person: it names the file and line, or the runtime and an excerpt.
struct Error {
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : data_(std::move(value)) {}            // NOLINT(implicit)
    Expected(Error error) : data_(std::move(error)) {}         // NOLINT(implicit)

    bool has_value() const { return data_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & { return std::get<0>(data_); }
    const T& value() const& { return std::get<0>(data_); }
    T&& value() && { return std::get<0>(std::move(data_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(data_); }

private:
    std::variant<T, Error> data_;
};

// For operations that return nothing on success.
struct Ok {};
using Status = Expected<Ok>;

inline Error make_error(std::string message) { return Error{std::move(message)}; }

}  // namespace perfgate

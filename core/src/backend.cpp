#include "perfgate/core/backend.hpp"

#include <cstddef>

namespace perfgate {

const char* to_string(Backend backend) { return backend_names.at(static_cast<std::size_t>(backend)); }

std::optional<Backend> backend_from_string(std::string_view text) {
    for (std::size_t i = 0; i < backend_names.size(); ++i)
        if (text == backend_names[i]) return static_cast<Backend>(i);
    return std::nullopt;
}

}  // namespace perfgate

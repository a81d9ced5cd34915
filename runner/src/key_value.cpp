#include "perfgate/runner/key_value.hpp"

namespace perfgate::runner {

Expected<std::pair<std::string, std::string>> split_key_value(const std::string& text, const std::string& option,
                                                               const std::string& form) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return make_error(option + " wants " + form + ", got \"" + text + "\"");
    return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace perfgate::runner

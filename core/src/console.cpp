#include "perfgate/core/console.hpp"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace perfgate {

std::optional<ColorMode> color_mode_from_string(std::string_view name) {
    if (name == "auto") return ColorMode::automatic;
    if (name == "always") return ColorMode::always;
    if (name == "never") return ColorMode::never;
    return std::nullopt;
}

bool color_wanted(ColorMode mode, bool is_terminal, const char* no_color, const char* term) {
    switch (mode) {
        case ColorMode::always: return true;
        case ColorMode::never: return false;
        case ColorMode::automatic: break;
    }
    if (no_color != nullptr && no_color[0] != '\0') return false;
    if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
    return is_terminal;
}

bool color_for_fd(ColorMode mode, int fd) {
    return color_wanted(mode, ::isatty(fd) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

std::string paint(std::string_view text, Color color, bool on) {
    if (!on) return std::string(text);
    const char* sgr = "";
    switch (color) {
        case Color::red: sgr = "\x1b[31m"; break;
        case Color::green: sgr = "\x1b[32m"; break;
        case Color::yellow: sgr = "\x1b[33m"; break;
        case Color::bold: sgr = "\x1b[1m"; break;
    }
    return sgr + std::string(text) + "\x1b[0m";
}

}  // namespace perfgate

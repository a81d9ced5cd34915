#pragma once
// Colour on the console: when to use it (--color auto|always|never, a terminal, NO_COLOR) and how
// to paint a word. Colour is a reading aid only: every coloured word is also a readable word, so
// logs, pipes and NO_COLOR lose nothing.
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

enum class ColorMode { automatic, always, never };

// "auto", "always", "never"; nullopt for anything else.
std::optional<ColorMode> color_mode_from_string(std::string_view name);

// The rule: always and never are what they say (an explicit option beats the environment); auto
// colours only a terminal, and not when NO_COLOR is set to anything non-empty (no-color.org) or
// TERM is "dumb". `no_color` and `term` are the environment's values (nullptr: unset).
bool color_wanted(ColorMode mode, bool is_terminal, const char* no_color, const char* term);

// The rule applied to a file descriptor (1 stdout, 2 stderr) and this process's environment.
bool color_for_fd(ColorMode mode, int fd);

enum class Color { red, green, yellow, bold };

// `text` wrapped in the ANSI SGR sequence of `color` when `on`; `text` unchanged otherwise.
std::string paint(std::string_view text, Color color, bool on);

}  // namespace perfgate

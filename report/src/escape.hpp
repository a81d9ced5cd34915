#pragma once
// Escaping of data (model names, commands, notes — anything read from a CSV) before it is written
// into markdown, a gnuplot script or a file name, so crafted values stay text.
#include <string>
#include <string_view>

#include "perfgate/core/escape.hpp"

namespace perfgate::report {

// Inline markdown text, also safe inside a table cell: the one rule of perfgate/core/escape.hpp,
// shared with the gate's and the A/B run's reports.
using perfgate::markdown_text;

// A fenced code block holding `text` verbatim: the fence is longer than any backtick run inside.
std::string markdown_code_block(std::string_view text);

// A gnuplot single-quoted string literal (inside single quotes gnuplot expands neither backslash
// escapes, nor backquoted commands, nor macros; a quote is written twice). Control characters
// become spaces. Use with a `noenhanced` terminal so '^', '_' and '{}' are not markup.
std::string gnuplot_string(std::string_view text);

// HTML text, also safe inside a double-quoted attribute: & < > " ' as character references.
std::string html_text(std::string_view text);

// A file-name fragment: [A-Za-z0-9.-] kept, anything else '-', at most 60 characters, never
// starting with '.'.
std::string file_slug(std::string_view text);

}  // namespace perfgate::report

#pragma once
// Escaping of data (model names, runtimes, hosts, reasons — anything read from a CSV, a suite or a
// runtime's output, which a pull request controls) before it is written into a report. One function
// per output format; every reporter (gate, compare, ab, run, report pages) goes through these, so a
// crafted name stays text: no terminal escape sequence, no HTML, no broken table or XML.
#include <cstddef>
#include <string>
#include <string_view>

namespace perfgate {

// Console text: every control character (C0 incl. ESC, newline and tab, DEL, and the C1 range
// U+0080..U+009F that some terminals also obey), every invisible character that changes how text
// reads (zero-width, bidirectional overrides such as U+202E, U+2028/U+2029 line separators, the
// BOM), every noncharacter (U+FFFE, U+FFFF, ...) and every invalid UTF-8 byte becomes '?'.
std::string console_text(std::string_view text);

// Columns `text` takes on a terminal, counted as UTF-8 code points (what console_text leaves).
std::size_t console_width(std::string_view text);

// Inline markdown text, also safe inside a table cell: control and invisible characters (as for
// the console) become spaces, '|' and markdown punctuation are backslash-escaped, '<' '>' '&'
// become entities, and bare URLs and e-mail addresses are kept from becoming links.
std::string markdown_text(std::string_view text);

// Text XML 1.0 can carry, for an XML writer (Boost.PropertyTree's), which escapes the markup
// characters but passes every other byte on: control characters other than tab, newline and
// carriage return (C1 included), invisible characters and noncharacters as for the console
// (U+FFFE and U+FFFF are no XML characters at all), and invalid UTF-8 become '?'.
std::string xml_characters(std::string_view text);

}  // namespace perfgate

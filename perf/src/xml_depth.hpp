#pragma once
// How deep an XML document nests, found before Boost.PropertyTree parses it. Its parser (rapidxml)
// descends one call per level, so a runtime printing a few MiB of "<a>" would exhaust the stack
// (about 5000 levels already do in an ASan build). Not a parser: it follows rapidxml's grammar as
// far as the nesting goes (names, quoted attribute values, "/>", comments, CDATA, declarations,
// DOCTYPE) and stops where rapidxml would stop with an error, so it never counts fewer levels than
// the parse would reach.
#include <cstddef>
#include <string_view>

namespace perfgate::perf::detail {

std::size_t xml_depth(std::string_view text);

}  // namespace perfgate::perf::detail

#pragma once
// The one place for the host-tag rule: lowercase [a-z0-9] words joined by single '-'
// (strixhalo-gfx1151, h200, cpu-epyc). The probe makes tags by it, and every tag read from
// elsewhere (--host, a CSV's `host` column, a file name, a host-facts JSON) is checked by it before
// it becomes part of a path such as thresholds/<host_tag>.json: no '/', '.', '_' or '..' can pass.
// A tag is at most kMaxHostTagLength characters: it is one part of a results file name
// (<backend>_<host>_<date>_<suffix>.csv), which must stay below the 255 bytes a file system allows.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate {

inline constexpr std::size_t kMaxHostTagLength = 64;

bool is_valid_host_tag(std::string_view tag);

// The longest valid tag that `tag` (lowercase words joined by single '-') starts with: cut after
// the last whole word that fits in kMaxHostTagLength, or inside a first word longer than that.
// The probe derives tags from device names, which can be of any length.
std::string cap_host_tag(std::string_view tag);

// nullopt for a valid tag, else a message naming the tag and the rule; `source` says where the tag
// came from ("--host", "the host column of x.csv:3", ...).
std::optional<std::string> host_tag_problem(std::string_view tag, std::string_view source);

}  // namespace perfgate

#pragma once
// The KEY=VALUE option values of the CLI (--binary RUNTIME=PATH, --runtime-pin RUNTIME=FILE,
// --probe-runtime KIND=BINARY, --base-binary/--head-binary RUNTIME=PATH), split in one place.
#include <string>
#include <utility>

#include "perfgate/core/expected.hpp"

namespace perfgate::runner {

// "llama-bench=/x/y" -> {"llama-bench", "/x/y"}. An error names the option and the expected form,
// e.g. `--binary wants RUNTIME=PATH, got "x"`, when there is no '=' or nothing before it.
Expected<std::pair<std::string, std::string>> split_key_value(const std::string& text, const std::string& option,
                                                               const std::string& form);

}  // namespace perfgate::runner

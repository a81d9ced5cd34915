#pragma once
// Running gnuplot: found on a search path, started through core's process runner (an argument
// vector, never a shell) with a time limit.
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate::report {

// Full path of gnuplot on `search_path` (':'-separated; empty means $PATH), or empty.
std::string find_gnuplot(const std::string& search_path);

// Runs `gnuplot script` in `work_dir`; an Error carries an excerpt of gnuplot's stderr.
Status run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& work_dir,
                   int timeout_s = 60);

}  // namespace perfgate::report

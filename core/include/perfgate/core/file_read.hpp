#pragma once
// The one way perfgate reads a whole input file (results CSVs, baselines, llama-bench output
// files): only a regular file, and only up to a size limit, so that `--results /dev/zero`, a FIFO
// or a multi-gigabyte file is refused with a clear message instead of read without bound.
#include <cstdint>
#include <string>

#include "perfgate/core/expected.hpp"

namespace perfgate {

// Largest result file perfgate reads: 256 MiB, about 400,000 rows of perfgate's schema (real
// files hold tens to hundreds of rows).
inline constexpr std::uint64_t kMaxResultFileBytes = 256ULL << 20;

// The bytes of `path`. Errors: "<path>: not a regular file (...)", "<path>: N bytes, more than the
// M a result file may have", "<path>: cannot open ...". Symbolic links to regular files are followed.
Expected<std::string> read_regular_file(const std::string& path, std::uint64_t max_bytes = kMaxResultFileBytes);
// Its first `bytes` at most (the whole of a shorter file), with the same checks: enough to tell a
// format by its start without reading a large file twice.
Expected<std::string> read_regular_file_prefix(const std::string& path, std::uint64_t bytes);

}  // namespace perfgate

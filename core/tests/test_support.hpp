#pragma once
#include <string>

namespace perfgate::test {
inline std::string fixture(const std::string& relative) {
    return std::string(PERFGATE_SHARED_DIR) + "/fixtures/" + relative;
}
inline std::string mlxcel_csv(const std::string& name) { return fixture("mlxcel-benchmarks/" + name); }
}  // namespace perfgate::test

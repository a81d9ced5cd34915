# One place for the compiler flags every perfgate target shares.
add_library(perfgate_warnings INTERFACE)
target_compile_options(perfgate_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>
  # GCC 12 at -O3 reports a memcpy "bound between 2^63+2 and 2^64-1" inside libstdc++'s own
  # `"literal" + std::string&&`: a known false positive of GCC 12 that buried real warnings in the
  # Release build's log. Overflows are what the ASan/UBSan build and the fuzzers look for.
  $<$<CXX_COMPILER_ID:GNU>:-Wno-stringop-overflow>)

# Precompiled headers. Every perfgate source reaches nlohmann/json and fmt through core's public
# headers, and json.hpp alone takes about 2 s to parse in a file of 4-15 s; the test files add
# Catch2 (below). Each target that links perfgate_warnings compiles these once for all its files.
add_library(perfgate_precompiled INTERFACE)
target_precompile_headers(perfgate_precompiled INTERFACE
  <nlohmann/json.hpp> <fmt/format.h> <filesystem> <map> <optional> <string> <vector>)
target_link_libraries(perfgate_warnings INTERFACE $<BUILD_INTERFACE:perfgate_precompiled>)

# Test helper: one Catch2 main shared by every test executable, and the fixture folder.
function(perfgate_add_unit_tests target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE perfgate_catch_main perfgate_warnings perfgate_test_support)
  target_compile_definitions(${target} PRIVATE
    PERFGATE_FIXTURES_DIR="${PERFGATE_FIXTURES_DIR}"
    PERFGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    CATCH_CONFIG_ENABLE_BENCHMARKING)
  target_precompile_headers(${target} PRIVATE <catch2/catch.hpp>)
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)  # see PERFGATE_UNITY_BUILD
  catch_discover_tests(${target} TEST_PREFIX "${target}." PROPERTIES LABELS unit)
endfunction()

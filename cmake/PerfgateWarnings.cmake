# One place for the compiler flags every perfgate target shares.
add_library(perfgate_warnings INTERFACE)
target_compile_options(perfgate_warnings INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor>)

# Test helper: one Catch2 main shared by every test executable, and the fixture folder.
function(perfgate_add_unit_tests target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE perfgate_catch_main perfgate_warnings perfgate_test_support)
  target_compile_definitions(${target} PRIVATE
    PERFGATE_FIXTURES_DIR="${PERFGATE_FIXTURES_DIR}"
    PERFGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    CATCH_CONFIG_ENABLE_BENCHMARKING)
  catch_discover_tests(${target} TEST_PREFIX "${target}." PROPERTIES LABELS unit)
endfunction()

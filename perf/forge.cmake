# The model forge and model specs: a library of its own (perfgate_forge) so that it builds without
# the runner, and the runner, the CLI and tests link it. Included from perf/CMakeLists.txt.
include(PerfgateLlamaCpp)  # PERFGATE_LLAMA_BENCH_EXECUTABLE, PERFGATE_LLAMA_VOCAB_DIR_RESOLVED, ...

add_library(perfgate_forge STATIC
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/model_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/tensor_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/gguf_reader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/gguf_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/random_weights.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/forge/forge.cpp)
add_library(perfgate::forge ALIAS perfgate_forge)
target_include_directories(perfgate_forge PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/include>)
target_link_libraries(perfgate_forge
  PUBLIC perfgate_core
  PRIVATE nlohmann_json::nlohmann_json perfgate_warnings)
# The CLI's default --vocab-dir (the fetched llama.cpp's models/).
target_compile_definitions(perfgate_forge INTERFACE
  PERFGATE_DEFAULT_VOCAB_DIR="${PERFGATE_LLAMA_VOCAB_DIR_RESOLVED}")

if(PERFGATE_BUILD_TESTS)
  perfgate_add_unit_tests(forge_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/forge_spec_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/forge_spec_bounds_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/forge_gguf_test.cpp)
  target_link_libraries(forge_tests PRIVATE perfgate_forge)

  # The llama.cpp test has its own executable: Catch2 2 cannot skip at run time, so the test
  # prints a marker that CTest's SKIP_REGULAR_EXPRESSION turns into "Skipped" when the build has
  # no llama-bench or no models/ folder (it then never passes silently). Same set-up as
  # perfgate_add_unit_tests otherwise.
  add_executable(forge_llama_tests ${CMAKE_CURRENT_LIST_DIR}/tests/forge_llama_bench_test.cpp)
  target_link_libraries(forge_llama_tests PRIVATE perfgate_catch_main perfgate_warnings perfgate_forge nlohmann_json::nlohmann_json)
  target_compile_definitions(forge_llama_tests PRIVATE
    PERFGATE_SHARED_DIR="${PERFGATE_SHARED_DIR}"
    PERFGATE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    PERFGATE_TEST_LLAMA_BENCH="${PERFGATE_LLAMA_BENCH_EXECUTABLE}"
    PERFGATE_TEST_VOCAB_DIR="${PERFGATE_LLAMA_VOCAB_DIR_RESOLVED}")
  add_dependencies(forge_llama_tests ${PERFGATE_LLAMA_TARGET})
  catch_discover_tests(forge_llama_tests TEST_PREFIX "forge_llama_tests."
    PROPERTIES LABELS unit SKIP_REGULAR_EXPRESSION "PERFGATE_TEST_SKIPPED:")
endif()

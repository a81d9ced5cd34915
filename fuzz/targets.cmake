# Fuzz targets for every parser of external input: probe tool outputs, thresholds, the model
# catalog, benchmark file names, model specs, GGUF headers, suite manifests, runtime outputs,
# llama-bench's -o sql and cachegrind's output files.
# Included from fuzz/CMakeLists.txt. Each block is guarded by its library's target so that the fuzz
# build works with whatever libraries the tree has.
#
# The targets link the libraries themselves: the asan preset builds the whole tree with clang-14
# and -fsanitize=fuzzer-no-link,address,undefined, so the unit tests and the fuzzers share one
# build (the CI runner has two cores) and a new parser source needs no list here.
set(_src "${PROJECT_SOURCE_DIR}")

# A fuzzer drives its library's parsers directly, so it also sees the library's private headers.
function(perfgate_fuzz_target name library)
  perfgate_add_fuzzer(${name} ${ARGN})
  string(REPLACE "perfgate_" "" _lib "${library}")
  target_include_directories(${name} PRIVATE "${_src}/${_lib}/src")
  target_link_libraries(${name} PRIVATE ${library} perfgate_core nlohmann_json::nlohmann_json)
endfunction()

set(_fx "${PERFGATE_FIXTURES_DIR}")
set(_regressions "${CMAKE_CURRENT_SOURCE_DIR}/regressions")

if(TARGET perfgate_probes)
  set(_probe_seeds "${_fx}/probe-outputs" "${_src}/probes/tests/data")
  foreach(family rocm nvidia runtime host)
    perfgate_fuzz_target(fuzz_probe_${family} perfgate_probes SOURCES probe_${family}_fuzz.cpp
                         SEEDS ${_probe_seeds} "${_regressions}/fuzz_probe_${family}")
  endforeach()
endif()

if(TARGET perfgate_gates)
  perfgate_fuzz_target(fuzz_thresholds perfgate_gates SOURCES thresholds_fuzz.cpp
                       SEEDS "${_src}/thresholds" "${_regressions}/fuzz_thresholds")
  perfgate_fuzz_target(fuzz_catalog perfgate_gates SOURCES catalog_fuzz.cpp
                       SEEDS "${CMAKE_CURRENT_SOURCE_DIR}/seeds/catalog" "${_regressions}/fuzz_catalog")
  perfgate_fuzz_target(fuzz_file_name perfgate_gates SOURCES file_name_fuzz.cpp
                       SEEDS "${_regressions}/fuzz_file_name" "${CMAKE_CURRENT_BINARY_DIR}/seeds/file_names")
  # The names of the fixture files are the seeds of the file-name parser.
  file(GLOB _csvs "${_fx}/mlxcel-benchmarks/*.csv")
  foreach(csv IN LISTS _csvs)
    get_filename_component(_n "${csv}" NAME)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/seeds/file_names/${_n}" "benchmarks/${_n}")
  endforeach()
endif()

if(TARGET perfgate_forge)
  perfgate_fuzz_target(fuzz_model_spec perfgate_forge SOURCES model_spec_fuzz.cpp
                       SEEDS "${_src}/perf/models" "${_regressions}/fuzz_model_spec")
  perfgate_fuzz_target(fuzz_gguf perfgate_forge SOURCES gguf_fuzz.cpp
                       SEEDS "${CMAKE_CURRENT_SOURCE_DIR}/seeds/gguf" "${_regressions}/fuzz_gguf")
endif()

if(TARGET perfgate_perf)
  perfgate_fuzz_target(fuzz_suite perfgate_perf SOURCES suite_fuzz.cpp
                       SEEDS "${_src}/perf/suites" "${_regressions}/fuzz_suite")
  perfgate_fuzz_target(fuzz_adapters perfgate_perf SOURCES adapters_fuzz.cpp
                       SEEDS "${_src}/perf/tests/data/recorded" "${_fx}/probe-outputs" "${_regressions}/fuzz_adapters")
  perfgate_fuzz_target(fuzz_cachegrind perfgate_perf SOURCES cachegrind_fuzz.cpp
                       SEEDS "${_fx}/cachegrind" "${_regressions}/fuzz_cachegrind")
  # The recorded -o sql files seed it; the folder's json, jsonl and csv start the error paths.
  perfgate_fuzz_target(fuzz_llama_bench_sql perfgate_perf SOURCES llama_bench_sql_fuzz.cpp
                       SEEDS "${_src}/perf/tests/data/recorded/llama-bench-outputs" "${_regressions}/fuzz_llama_bench_sql")
endif()

if(TARGET perfgate_serving)
  # A server's event stream (llama-server's completions and chat chunks, keep-alives, an error event).
  perfgate_fuzz_target(fuzz_sse_stream perfgate_serving SOURCES sse_stream_fuzz.cpp
                       SEEDS "${CMAKE_CURRENT_SOURCE_DIR}/seeds/sse" "${_regressions}/fuzz_sse_stream")
endif()

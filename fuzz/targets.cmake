# Fuzz targets for every parser of external input: probe tool outputs, thresholds, the model
# catalog, benchmark file names, model specs, GGUF headers, suite manifests and runtime outputs.
# Included from fuzz/CMakeLists.txt. Each block is guarded by its library's target so that the fuzz
# build works with whatever libraries the tree has.
#
# The targets compile the parsing sources of a library rather than linking the whole library:
# the fuzz build runs on shared two-core CI runners, and the launcher, reporters and forge
# writer are not reached from these entry points. The sources are the library's own, compiled
# with the preset's sanitizers; -O1 with line tables keeps the ASan+UBSan build cheap while
# crash reports still carry file:line.
set(_src "${PROJECT_SOURCE_DIR}")

function(perfgate_fuzz_parsers name library)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS" ${ARGN})
  list(TRANSFORM P_SOURCES PREPEND "${_src}/")
  add_library(${name} STATIC ${P_SOURCES})
  target_include_directories(${name} PUBLIC $<TARGET_PROPERTY:${library},INTERFACE_INCLUDE_DIRECTORIES>)
  # The library's private headers too (<lib>/src): the fuzzers drive its parsers directly.
  string(REPLACE "perfgate_" "" _lib "${library}")
  target_include_directories(${name} PUBLIC "${_src}/${_lib}/src")
  target_link_libraries(${name} PUBLIC perfgate_core ${P_LIBS})
  target_compile_options(${name} PRIVATE -O1 -gline-tables-only)
endfunction()

function(perfgate_fuzz_target name)
  perfgate_add_fuzzer(${name} ${ARGN})
  target_compile_options(${name} PRIVATE -O1 -gline-tables-only)
endfunction()

set(_fx "${PERFGATE_FIXTURES_DIR}")
set(_regressions "${CMAKE_CURRENT_SOURCE_DIR}/regressions")

if(TARGET perfgate_probes)
  perfgate_fuzz_parsers(perfgate_fuzz_probe_parsers perfgate_probes
    SOURCES probes/src/text.cpp probes/src/rocminfo.cpp probes/src/rocm_smi.cpp probes/src/amd_smi.cpp
            probes/src/nvidia_smi.cpp probes/src/sysctl.cpp probes/src/llama_cpp.cpp probes/src/mlxcel.cpp
            probes/src/metal_init.cpp probes/src/rocm_versions.cpp probes/src/linux_files.cpp
    LIBS nlohmann_json::nlohmann_json)
  set(_probe_seeds "${_fx}/probe-outputs" "${_src}/probes/tests/data")
  foreach(family rocm nvidia runtime host)
    perfgate_fuzz_target(fuzz_probe_${family} SOURCES probe_${family}_fuzz.cpp LIBS perfgate_fuzz_probe_parsers
                         SEEDS ${_probe_seeds} "${_regressions}/fuzz_probe_${family}")
  endforeach()
endif()

if(TARGET perfgate_gates)
  perfgate_fuzz_parsers(perfgate_fuzz_gates_parsers perfgate_gates
    SOURCES gates/src/thresholds.cpp gates/src/catalog.cpp gates/src/file_name.cpp
            gates/src/calendar.cpp
    LIBS nlohmann_json::nlohmann_json)
  perfgate_fuzz_target(fuzz_thresholds SOURCES thresholds_fuzz.cpp LIBS perfgate_fuzz_gates_parsers
                       SEEDS "${_src}/thresholds" "${_regressions}/fuzz_thresholds")
  perfgate_fuzz_target(fuzz_catalog SOURCES catalog_fuzz.cpp LIBS perfgate_fuzz_gates_parsers
                       SEEDS "${CMAKE_CURRENT_SOURCE_DIR}/seeds/catalog" "${_regressions}/fuzz_catalog")
  perfgate_fuzz_target(fuzz_file_name SOURCES file_name_fuzz.cpp LIBS perfgate_fuzz_gates_parsers
                       SEEDS "${_regressions}/fuzz_file_name" "${CMAKE_CURRENT_BINARY_DIR}/seeds/file_names")
  # The names of the fixture files are the seeds of the file-name parser.
  file(GLOB _csvs "${_fx}/mlxcel-benchmarks/*.csv")
  foreach(csv IN LISTS _csvs)
    get_filename_component(_n "${csv}" NAME)
    file(WRITE "${CMAKE_CURRENT_BINARY_DIR}/seeds/file_names/${_n}" "benchmarks/${_n}")
  endforeach()
endif()

if(TARGET perfgate_forge)
  perfgate_fuzz_parsers(perfgate_fuzz_forge_parsers perfgate_forge
    SOURCES forge/src/model_spec.cpp forge/src/tensor_plan.cpp forge/src/gguf_reader.cpp
            forge/src/gguf_writer.cpp
    LIBS nlohmann_json::nlohmann_json)
  perfgate_fuzz_target(fuzz_model_spec SOURCES model_spec_fuzz.cpp LIBS perfgate_fuzz_forge_parsers
                       SEEDS "${_src}/perf/models" "${_regressions}/fuzz_model_spec")
  perfgate_fuzz_target(fuzz_gguf SOURCES gguf_fuzz.cpp LIBS perfgate_fuzz_forge_parsers
                       SEEDS "${CMAKE_CURRENT_SOURCE_DIR}/seeds/gguf" "${_regressions}/fuzz_gguf")
endif()

if(TARGET perfgate_perf)
  perfgate_fuzz_parsers(perfgate_fuzz_perf_parsers perfgate_perf
    SOURCES perf/src/suite.cpp perf/src/adapter_util.cpp perf/src/adapter_llama_bench.cpp
            perf/src/adapter_mlxcel.cpp perf/src/adapter_mlx_lm.cpp perf/src/adapter_catch2.cpp
            perf/src/adapter_command.cpp perf/src/xml_depth.cpp
            # The runtime table the suite reader looks kinds up in, and one adapter file per kind.
            perf/src/runtime_table.cpp perf/src/runtime_output.cpp perf/src/runtimes/catch2.cpp
            perf/src/runtimes/command.cpp perf/src/runtimes/llama_bench.cpp perf/src/runtimes/mlx_lm.cpp
            perf/src/runtimes/mlxcel.cpp
    LIBS nlohmann_json::nlohmann_json Boost::boost)
  perfgate_fuzz_target(fuzz_suite SOURCES suite_fuzz.cpp LIBS perfgate_fuzz_perf_parsers
                       SEEDS "${_src}/perf/suites" "${_regressions}/fuzz_suite")
  perfgate_fuzz_target(fuzz_adapters SOURCES adapters_fuzz.cpp LIBS perfgate_fuzz_perf_parsers
                       SEEDS "${_src}/perf/tests/data/recorded" "${_fx}/probe-outputs" "${_regressions}/fuzz_adapters")
endif()

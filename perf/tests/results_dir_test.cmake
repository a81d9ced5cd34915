# Clean baselines (issue 15 item 3): a perf run records into the committed benchmarks/ only when
# asked (PERFGATE_RECORD_BASELINE=ON); otherwise into <build>/perf-results, still gated against
# benchmarks/. Run as:
#   cmake -DPERFGATE_SOURCE_DIR=.. -DPERFGATE_EXECUTABLE=.. -DWORK_DIR=.. -P results_dir_test.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
set(project "${WORK_DIR}/project")
file(COPY "${PERFGATE_SOURCE_DIR}/perf/tests/results-dir-project/CMakeLists.txt" DESTINATION "${project}")

function(configure_and_test build record)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${project}" -B "${build}" -DPERFGATE_SOURCE_DIR=${PERFGATE_SOURCE_DIR}
                          -DPERFGATE_EXECUTABLE=${PERFGATE_EXECUTABLE} -DPERFGATE_RECORD_BASELINE=${record}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure (record ${record}) failed:\n${out}${err}")
  endif()
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -V
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest (record ${record}) failed:\n${out}${err}")
  endif()
  set(ctest_output "${out}" PARENT_SCOPE)
endfunction()

# 1. A baseline run: rows go to the project's benchmarks/, nothing to the build folder.
configure_and_test("${WORK_DIR}/build-baseline" ON)
file(GLOB committed "${project}/benchmarks/cpu_*.csv")
file(GLOB stray "${WORK_DIR}/build-baseline/perf-results/*.csv")
list(LENGTH committed n_committed)
if(NOT n_committed EQUAL 1 OR stray)
  message(FATAL_ERROR "baseline run: expected one CSV in benchmarks/ and none in the build folder, got '${committed}' and '${stray}'")
endif()
if(NOT ctest_output MATCHES "first run|new")
  message(FATAL_ERROR "baseline run: the first run should report its pair new:\n${ctest_output}")
endif()
file(READ "${committed}" committed_before)

# 2. An ordinary (ad-hoc) run: rows go to <build>/perf-results, benchmarks/ is byte-identical, and
# the pair is gated against the committed baseline (the same recorded numbers: unchanged, not new).
configure_and_test("${WORK_DIR}/build-adhoc" OFF)
file(GLOB adhoc "${WORK_DIR}/build-adhoc/perf-results/cpu_*.csv")
list(LENGTH adhoc n_adhoc)
if(NOT n_adhoc EQUAL 1)
  message(FATAL_ERROR "ad-hoc run: expected one CSV in build-adhoc/perf-results, got '${adhoc}'")
endif()
file(READ "${committed}" committed_after)
if(NOT committed_after STREQUAL committed_before)
  message(FATAL_ERROR "ad-hoc run changed the committed baseline ${committed}")
endif()
get_filename_component(committed_name "${committed}" NAME)
if(NOT ctest_output MATCHES "(unchanged|within noise)[^\n]*stubmeasured-ok" AND NOT ctest_output MATCHES "(unchanged|within noise) +small")
  message(FATAL_ERROR "ad-hoc run: the pair was not compared with benchmarks/${committed_name}:\n${ctest_output}")
endif()
message(STATUS "ok: baseline run recorded ${committed_name} in benchmarks/; the ad-hoc run wrote to the build folder and was gated against it")

# perf.suite_points: CMake registers one test per pair of a suite (cmake/PerfgatePerfSuite.cmake)
# and perfgate runs the pair it is given; both must read a suite's pairs alike, a sweep's points
# included (perf/src/suite_sweep.cpp names them, the CMake macro names them again). For every shipped
# suite and the sweep fixture: the macro's pairs against `perfgate run --suite S --list`.
#   cmake -DPERFGATE_SOURCE_DIR=<root> -DPERFGATE_EXECUTABLE=<perfgate> -P suite_points_test.cmake
include("${PERFGATE_SOURCE_DIR}/cmake/PerfgatePerfSuite.cmake")

# In a function of its own, so that no suite sees another's variables.
function(check_suite suite)
  file(READ "${suite}" _json)
  _perfgate_suite_pairs(_json)
  execute_process(COMMAND "${PERFGATE_EXECUTABLE}" run --suite "${suite}" --list
                  OUTPUT_VARIABLE listed ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${suite}: perfgate run --list failed (${rc}): ${err}")
  endif()
  string(STRIP "${listed}" listed)
  string(REPLACE "\n" ";" listed "${listed}")
  if(NOT "${listed}" STREQUAL "${_pairs}")
    message(FATAL_ERROR "${suite}: CMake registers\n  ${_pairs}\nbut perfgate lists\n  ${listed}")
  endif()
  list(LENGTH _pairs n)
  set(checked_pairs ${n} PARENT_SCOPE)
endfunction()

file(GLOB suites "${PERFGATE_SOURCE_DIR}/perf/suites/*.json")
list(APPEND suites "${PERFGATE_SOURCE_DIR}/perf/tests/data/sweep-suite.json")
set(total 0)
foreach(suite IN LISTS suites)
  check_suite("${suite}")
  math(EXPR total "${total} + ${checked_pairs}")
endforeach()
list(LENGTH suites n_suites)
# The sweep fixture alone has 9 pairs: a test that read no suite would pass on nothing.
if(n_suites LESS 9 OR total LESS 20)
  message(FATAL_ERROR "only ${n_suites} suites and ${total} pairs were checked")
endif()
message(STATUS "${n_suites} suites, ${total} pairs: CMake and perfgate agree")

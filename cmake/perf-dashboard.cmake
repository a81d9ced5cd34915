# CTest dashboard script: configure, build, run the perf suite and submit everything to CDash.
#
#   ctest -S cmake/perf-dashboard.cmake -DPERFGATE_PRESET=rocm-perf \
#         -DCTEST_SUBMIT_URL="https://cdash.example.org/submit.php?project=perfgate" \
#         -DCTEST_SITE=strixhalo-gfx1151 -V
#
# Variables (give them with -D<name>=<value> after -S, or set them in a wrapper script that
# include()s this file):
#   CTEST_SOURCE_DIRECTORY     project to build (default: the perfgate checkout holding this file);
#                              any project that calls perfgate_add_perf_suite works
#   PERFGATE_PRESET            configure preset (cpu-perf, rocm-perf, cuda-perf, metal-perf), or
#   PERFGATE_BACKEND           a backend: configures with -DPERFGATE_PERF_BACKEND=<backend> instead
#   CTEST_BINARY_DIRECTORY     build folder (default <source>/build/dashboard-<preset or backend>)
#   CTEST_CMAKE_GENERATOR      generator when no preset is given (default Ninja)
#   PERFGATE_CONFIGURE_OPTIONS extra configure arguments, a ;-list (e.g. -DPERFGATE_LLAMA_BENCH=...)
#   PERFGATE_BUILD_TARGET      target to build (default perfgate when building perfgate, else all)
#   PERFGATE_TEST_LABEL        label regex of the tests to run (default ^perf$)
#   CTEST_SUBMIT_URL           CDash submit URL; empty: nothing is sent (the XML stays in Testing/)
#   CTEST_SITE                 the site CDash shows (default: this host's name; use the host tag)
#   CTEST_BUILD_NAME           the build name CDash shows (default <preset or backend>-<system>)
#   PERFGATE_DASHBOARD_MODEL   Experimental (default), Nightly or Continuous
#   PERFGATE_FRESH             TRUE: empty the build folder first
#   PERFGATE_PARALLEL          build parallelism (default: the number of cores)
#
# The perf tests print <CTestMeasurement type="numeric/double" name="decode_tok_s">..</...>, which
# ctest turns into NamedMeasurement elements of Test.xml: CDash shows decode_tok_s, prefill_tok_s,
# decode_ms and prefill_ms per test and can plot them over time per site and build name.
# Exit status: non-zero when the configure or build failed, a test failed, or the submission failed
# (the results are submitted first, so a failing run is visible on the dashboard too).
cmake_minimum_required(VERSION 3.25)

if(NOT CTEST_SOURCE_DIRECTORY)
  get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
if(PERFGATE_PRESET)
  set(_flavour "${PERFGATE_PRESET}")
elseif(PERFGATE_BACKEND)
  set(_flavour "${PERFGATE_BACKEND}")
else()
  message(FATAL_ERROR "perf-dashboard: give -DPERFGATE_PRESET=<backend>-perf or -DPERFGATE_BACKEND=<backend>")
endif()
if(NOT CTEST_BINARY_DIRECTORY)
  set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build/dashboard-${_flavour}")
endif()
if(NOT CTEST_CMAKE_GENERATOR)
  set(CTEST_CMAKE_GENERATOR Ninja)
endif()
if(NOT CTEST_SITE)
  cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
endif()
if(NOT CTEST_BUILD_NAME)
  set(CTEST_BUILD_NAME "${_flavour}-${CMAKE_HOST_SYSTEM_NAME}")
endif()
if(NOT PERFGATE_DASHBOARD_MODEL)
  set(PERFGATE_DASHBOARD_MODEL Experimental)
endif()
if(NOT PERFGATE_TEST_LABEL)
  set(PERFGATE_TEST_LABEL "^perf$")
endif()
if(NOT PERFGATE_PARALLEL)
  cmake_host_system_information(RESULT PERFGATE_PARALLEL QUERY NUMBER_OF_LOGICAL_CORES)
endif()
if(NOT DEFINED PERFGATE_BUILD_TARGET)
  # perfgate's perf build only needs the executable (and, through it, the embedded llama.cpp).
  set(PERFGATE_BUILD_TARGET "")
  if(EXISTS "${CTEST_SOURCE_DIRECTORY}/cmake/PerfgatePerfSuite.cmake" AND EXISTS "${CTEST_SOURCE_DIRECTORY}/cli")
    set(PERFGATE_BUILD_TARGET perfgate)
  endif()
endif()

if(PERFGATE_FRESH)
  ctest_empty_binary_directory("${CTEST_BINARY_DIRECTORY}")
endif()
file(MAKE_DIRECTORY "${CTEST_BINARY_DIRECTORY}")

# The configure command line: a preset brings its cache variables; -B keeps this script's folder.
set(_configure "\"${CMAKE_COMMAND}\" -S \"${CTEST_SOURCE_DIRECTORY}\" -B \"${CTEST_BINARY_DIRECTORY}\"")
if(PERFGATE_PRESET)
  string(APPEND _configure " --preset \"${PERFGATE_PRESET}\"")
else()
  string(APPEND _configure " -G \"${CTEST_CMAKE_GENERATOR}\" \"-DPERFGATE_PERF_BACKEND=${PERFGATE_BACKEND}\"")
endif()
foreach(_opt IN LISTS PERFGATE_CONFIGURE_OPTIONS)
  string(APPEND _configure " \"${_opt}\"")
endforeach()
set(CTEST_CONFIGURE_COMMAND "${_configure}")
set(CTEST_BUILD_COMMAND "\"${CMAKE_COMMAND}\" --build \"${CTEST_BINARY_DIRECTORY}\" --parallel ${PERFGATE_PARALLEL}")
if(PERFGATE_BUILD_TARGET)
  string(APPEND CTEST_BUILD_COMMAND " --target ${PERFGATE_BUILD_TARGET}")
endif()

ctest_start(${PERFGATE_DASHBOARD_MODEL})
ctest_configure(RETURN_VALUE _configure_rc)
set(_problems "")
if(NOT _configure_rc EQUAL 0)
  list(APPEND _problems "configure failed (${_configure_rc})")
else()
  ctest_build(NUMBER_ERRORS _build_errors RETURN_VALUE _build_rc)
  if(NOT _build_rc EQUAL 0 OR _build_errors GREATER 0)
    list(APPEND _problems "build failed (${_build_errors} errors)")
  else()
    # Perf pairs are RUN_SERIAL already; one at a time keeps measurements off each other's cores.
    ctest_test(INCLUDE_LABEL "${PERFGATE_TEST_LABEL}" PARALLEL_LEVEL 1 RETURN_VALUE _test_rc)
    if(NOT _test_rc EQUAL 0)
      list(APPEND _problems "perf tests failed")
    endif()
  endif()
endif()

if(CTEST_SUBMIT_URL)
  ctest_submit(RETRY_COUNT 2 RETRY_DELAY 5 RETURN_VALUE _submit_rc)
  if(NOT _submit_rc EQUAL 0)
    list(APPEND _problems "submission to ${CTEST_SUBMIT_URL} failed")
  endif()
else()
  message(STATUS "perf-dashboard: no CTEST_SUBMIT_URL, nothing submitted (XML under ${CTEST_BINARY_DIRECTORY}/Testing)")
endif()

if(_problems)
  list(JOIN _problems "; " _problems)
  message(FATAL_ERROR "perf-dashboard (${CTEST_SITE}, ${CTEST_BUILD_NAME}): ${_problems}")
endif()

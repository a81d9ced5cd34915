# perfgate_add_ab_suite: an interleaved A/B comparison of two builds of one runtime as a CTest test.
#
#   perfgate_add_ab_suite(NAME <name> SUITE <manifest.json> BACKEND <cpu|rocm|cuda|metal>
#                         BASE <runtime>=<path> HEAD <runtime>=<path>
#                         [MODELS <model> ...] [REPETITIONS <n>] [MIN_ROUNDS <n>] [MAX_ROUNDS <n>]
#                         [ALPHA <a>] [RESULTS_DIR <dir>] [TIMEOUT <s>] [LABELS <label> ...])
#
# Registers perf-ab.<name>: `perfgate ab` with both arms, LABELS perf-ab;<backend> (or LABELS), RUN_SERIAL (an A/B
# run wants the machine to itself), SKIP_RETURN_CODE 77. It fails (exit 1) when a metric regressed
# or a run failed. Both arms go to <RESULTS_DIR>/<backend>_<host>_<date>_ab.csv (default
# <build>/perf-ab, never benchmarks/: A/B rows are no baseline); the JSON report to
# <build>/perf-ab/<name>.json, so a follow-up test can check it. docs/ab.md explains the statistics.
include_guard(GLOBAL)

function(perfgate_add_ab_suite)
  cmake_parse_arguments(PARSE_ARGV 0 arg ""
    "NAME;SUITE;BACKEND;BASE;HEAD;REPETITIONS;MIN_ROUNDS;MAX_ROUNDS;ALPHA;RESULTS_DIR;TIMEOUT" "MODELS;LABELS")
  foreach(_required NAME SUITE BACKEND BASE HEAD)
    if(NOT arg_${_required})
      message(FATAL_ERROR "perfgate_add_ab_suite: ${_required} is required")
    endif()
  endforeach()
  if(PERFGATE_EXECUTABLE)
    set(_perfgate "${PERFGATE_EXECUTABLE}")
  else()
    set(_perfgate perfgate)
  endif()
  if(NOT arg_RESULTS_DIR)
    set(arg_RESULTS_DIR "${CMAKE_BINARY_DIR}/perf-ab")
  endif()
  if(NOT arg_LABELS)
    set(arg_LABELS perf-ab ${arg_BACKEND})
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 1800)
  endif()
  get_filename_component(_suite "${arg_SUITE}" ABSOLUTE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_suite}")
  set(_workdir "${PROJECT_SOURCE_DIR}")
  if(PERFGATE_WORKDIR)
    set(_workdir "${PERFGATE_WORKDIR}")
  endif()

  set(_args ab --suite "${_suite}" --base-binary "${arg_BASE}" --head-binary "${arg_HEAD}"
            --results-dir "${arg_RESULTS_DIR}" --forge-dir "${CMAKE_BINARY_DIR}/forged"
            --format json --output "${arg_RESULTS_DIR}/${arg_NAME}.json")
  foreach(_m IN LISTS arg_MODELS)
    list(APPEND _args --model "${_m}")
  endforeach()
  foreach(_opt REPETITIONS MIN_ROUNDS MAX_ROUNDS ALPHA)
    if(arg_${_opt})
      string(TOLOWER "${_opt}" _flag)
      string(REPLACE "_" "-" _flag "${_flag}")
      list(APPEND _args --${_flag} "${arg_${_opt}}")
    endif()
  endforeach()
  if(PERFGATE_LLAMA_VOCAB_DIR_RESOLVED)
    list(APPEND _args --vocab-dir "${PERFGATE_LLAMA_VOCAB_DIR_RESOLVED}")
  endif()

  add_test(NAME perf-ab.${arg_NAME} COMMAND ${_perfgate} ${_args} WORKING_DIRECTORY "${_workdir}")
  set_tests_properties(perf-ab.${arg_NAME} PROPERTIES
    LABELS "${arg_LABELS}"
    RUN_SERIAL TRUE
    SKIP_RETURN_CODE 77
    TIMEOUT ${arg_TIMEOUT})
endfunction()

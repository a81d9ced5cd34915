# perfgate_add_perf_suite: one CTest test per model/runtime pair of a suite manifest.
#
#   perfgate_add_perf_suite(SUITE <manifest.json> BACKEND <cpu|rocm|cuda|metal>
#                           [LABEL <first label, default perf>] [RESULTS_DIR <dir>] [HISTORY_DIR <dir>] [SUFFIX <s>]
#                           [SYSROOT <recorded machine root>] [TOOL_PATH <PATH>] [PROBE_RUNTIME <kind>=<binary>]
#                           [HOST_JSON <recorded host facts>]
#                           [BINARIES <runtime>=<path> ...] [GATE] [REQUIRE_BACKEND])
#
# Registers
#   perf.probe.<suite>       setup test (FIXTURES_SETUP): probes the host when ctest starts, not at
#                            configure time, and writes the facts every pair test reads;
#   perf.<runtime>.<model>   one test per pair: LABELS <label>;<backend>;<runtime> (and instructions for a
#                            runtime with "measure": "instructions"), RUN_SERIAL,
#                            TIMEOUT from the workload, SKIP_RETURN_CODE 77 (perfgate's skip code);
#                            with GATE it ends by gating its own row against the baseline;
#   perf.gate.<suite>        with GATE: after all pairs, the run as a whole against its baselines
#                            (report printed, and perf-gate.md/.junit.xml/.json in <build>/perf-gate/<suite>).
# With GATE and the cache variable PERFGATE_BASELINE_REF (CI passes the merge base on the configure
# command line), the pair and summary tests gate at that ref: --baseline-ref (docs/ci.md).
# Where rows go and what they are gated against (docs/runner.md, "Where results go"):
#   RESULTS_DIR given: rows go there, and it is also the history the gate reads (unless HISTORY_DIR);
#   else PERFGATE_RESULTS_DIR (perfgate's own presets) or, with PERFGATE_RECORD_BASELINE=ON, the
#   project's benchmarks/; else <build>/perf-results, so an ad-hoc `ctest -R <pair>` never touches
#   the committed baselines. The history is then PERFGATE_HISTORY_DIR, else the project's benchmarks/.
# A pair whose model does not fit the probed usable memory, or whose backend the host lacks, exits
# 77 after printing the reason, so CTest lists it as Skipped. With REQUIRE_BACKEND (the
# <backend>-perf presets) a host without the suite's backend makes the probe test FAIL instead, so
# a misconfigured run can never be green; -DPERFGATE_ALLOW_BACKEND_MISMATCH=ON (or the environment
# variable of that name at test time) turns that back into skips. See docs/runner.md for why this
# mechanism (and not TEST_INCLUDE_FILES or SKIP_REGULAR_EXPRESSION) was chosen.
include_guard(GLOBAL)
# The A/B form (perfgate_add_ab_suite) lives beside it and comes with it.
include("${CMAKE_CURRENT_LIST_DIR}/PerfgateAbSuite.cmake")

# _perfgate_suite_pairs(<variable holding the manifest text>): the suite's runtimes, models and pairs, as perfgate reads
# them, into the caller's scope: _runtimes (a sweep's points in place of its entry), per runtime
# _kind_<rt>, _bin_<rt>, _entry_<rt> (the swept entry, else the runtime), _counts_<rt>, _serves_<rt>;
# _models and _forged_<m>; _pairs ("runtime/model"). A sweep's points are named as perfgate names
# them (core's sweep_point_name: <entry>-<letter><value>); the test perf.suite_points checks that
# both read every shipped suite alike. A macro: the variables are the caller's.
macro(_perfgate_suite_pairs _json_var)
  string(JSON _n_rt LENGTH "${${_json_var}}" runtimes)
  math(EXPR _last_rt "${_n_rt} - 1")
  set(_runtimes "")
  foreach(_i RANGE ${_last_rt})
    string(JSON _rt GET "${${_json_var}}" runtimes ${_i} name)
    string(JSON _kind GET "${${_json_var}}" runtimes ${_i} kind)
    string(JSON _bin ERROR_VARIABLE _err GET "${${_json_var}}" runtimes ${_i} binary)
    if(_err)
      set(_bin "")  # a running server given by its "url": nothing to build or start
    endif()
    string(JSON _measure ERROR_VARIABLE _err GET "${${_json_var}}" runtimes ${_i} measure)
    set(_counts FALSE)
    set(_serves FALSE)
    if(NOT _err AND _measure STREQUAL "instructions")
      set(_counts TRUE)
    elseif(NOT _err AND _measure STREQUAL "serving")
      set(_serves TRUE)
    endif()
    set(_points_${_rt} "${_rt}")
    string(JSON _axis ERROR_VARIABLE _err MEMBER "${${_json_var}}" runtimes ${_i} sweep 0)
    if(NOT _err)
      set(_letter_concurrency c)
      set(_letter_prompt_tokens p)
      set(_letter_generated_tokens n)
      set(_letter_batch b)
      set(_points_${_rt} "")
      string(JSON _n_values LENGTH "${${_json_var}}" runtimes ${_i} sweep ${_axis})
      math(EXPR _last_value "${_n_values} - 1")
      foreach(_j RANGE ${_last_value})
        string(JSON _value GET "${${_json_var}}" runtimes ${_i} sweep ${_axis} ${_j})
        list(APPEND _points_${_rt} "${_rt}-${_letter_${_axis}}${_value}")
      endforeach()
    endif()
    foreach(_point IN LISTS _points_${_rt})
      list(APPEND _runtimes "${_point}")
      set(_kind_${_point} "${_kind}")
      set(_bin_${_point} "${_bin}")
      set(_entry_${_point} "${_rt}")
      set(_counts_${_point} ${_counts})
      set(_serves_${_point} ${_serves})
    endforeach()
  endforeach()
  string(JSON _n_models LENGTH "${${_json_var}}" models)
  math(EXPR _last_model "${_n_models} - 1")
  set(_models "")
  foreach(_i RANGE ${_last_model})
    string(JSON _m GET "${${_json_var}}" models ${_i} name)
    list(APPEND _models "${_m}")
    string(JSON _spec ERROR_VARIABLE _err GET "${${_json_var}}" models ${_i} forge_spec)
    set(_forged_${_m} FALSE)
    if(NOT _err)
      set(_forged_${_m} TRUE)
    endif()
  endforeach()

  # The pairs: explicit (a swept entry stands for its points), or every runtime with every model.
  set(_pairs "")
  string(JSON _n_pairs ERROR_VARIABLE _err LENGTH "${${_json_var}}" pairs)
  if(_err)
    foreach(_rt IN LISTS _runtimes)
      foreach(_m IN LISTS _models)
        list(APPEND _pairs "${_rt}/${_m}")
      endforeach()
    endforeach()
  else()
    math(EXPR _last_pair "${_n_pairs} - 1")
    foreach(_i RANGE ${_last_pair})
      string(JSON _rt GET "${${_json_var}}" pairs ${_i} runtime)
      string(JSON _n_pm LENGTH "${${_json_var}}" pairs ${_i} models)
      math(EXPR _last_pm "${_n_pm} - 1")
      foreach(_j RANGE ${_last_pm})
        string(JSON _m GET "${${_json_var}}" pairs ${_i} models ${_j})
        if(DEFINED _points_${_rt})
          foreach(_point IN LISTS _points_${_rt})
            list(APPEND _pairs "${_point}/${_m}")
          endforeach()
        else()
          list(APPEND _pairs "${_rt}/${_m}")  # no such runtime: perfgate says so when the test runs
        endif()
      endforeach()
    endforeach()
  endif()
endmacro()

function(perfgate_add_perf_suite)
  cmake_parse_arguments(PARSE_ARGV 0 arg "GATE;REQUIRE_BACKEND"
    "SUITE;BACKEND;LABEL;RESULTS_DIR;HISTORY_DIR;SUFFIX;SYSROOT;TOOL_PATH;HOST_JSON;PROBE_RUNTIME" "BINARIES")
  if(NOT arg_SUITE OR NOT arg_BACKEND)
    message(FATAL_ERROR "perfgate_add_perf_suite: SUITE and BACKEND are required")
  endif()
  if(NOT arg_LABEL)
    set(arg_LABEL perf)
  endif()
  # The perfgate executable: PERFGATE_EXECUTABLE when set (a project that only uses this
  # function, like the ctest self-test under perf/tests/), else the perfgate target.
  # add_test resolves a target name when the build system is generated, so the cli/ target may be
  # defined after this call.
  if(PERFGATE_EXECUTABLE)
    set(_perfgate "${PERFGATE_EXECUTABLE}")
  else()
    set(_perfgate perfgate)
  endif()
  if(NOT PROJECT_SOURCE_DIR)
    set(PROJECT_SOURCE_DIR "${CMAKE_SOURCE_DIR}")
  endif()
  set(arg_RESULTS_DIR_GIVEN FALSE)
  if(arg_RESULTS_DIR)
    set(arg_RESULTS_DIR_GIVEN TRUE)
    if(NOT arg_HISTORY_DIR)
      set(arg_HISTORY_DIR "${arg_RESULTS_DIR}")
    endif()
  else()
    if(PERFGATE_RESULTS_DIR AND PROJECT_NAME STREQUAL "perfgate")
      set(arg_RESULTS_DIR "${PERFGATE_RESULTS_DIR}")
    elseif(PERFGATE_RECORD_BASELINE)
      set(arg_RESULTS_DIR "${PROJECT_SOURCE_DIR}/benchmarks")
    else()
      set(arg_RESULTS_DIR "${CMAKE_BINARY_DIR}/perf-results")
    endif()
    if(NOT arg_HISTORY_DIR AND PERFGATE_HISTORY_DIR)
      set(arg_HISTORY_DIR "${PERFGATE_HISTORY_DIR}")
    elseif(NOT arg_HISTORY_DIR)
      set(arg_HISTORY_DIR "${PROJECT_SOURCE_DIR}/benchmarks")
    endif()
  endif()
  get_filename_component(_suite "${arg_SUITE}" ABSOLUTE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_suite}")
  file(READ "${_suite}" _json)
  # Tests run from the source root so that relative paths (thresholds/, benchmarks/) mean the same
  # as on the command line.
  set(_workdir "${PROJECT_SOURCE_DIR}")
  if(PERFGATE_WORKDIR)
    set(_workdir "${PERFGATE_WORKDIR}")
  endif()

  # Only the names and the timing are read here; `perfgate run` validates the manifest fully
  # (with file:line messages) every time a test starts.
  string(JSON _name ERROR_VARIABLE _err GET "${_json}" suite)
  if(_err)
    message(FATAL_ERROR "${_suite}: ${_err}")
  endif()
  set(_w_timeout 300)
  set(_w_warmup 1)
  set(_w_reps 3)
  set(_w_cool 0)
  set(_w_wait 120)   # workload.contention.max_wait_s (perf/include/perfgate/perf/suite.hpp)
  set(_w_window 1)   # workload.contention.window_s
  foreach(_key max_wait_s window_s)
    string(JSON _v ERROR_VARIABLE _err GET "${_json}" workload contention ${_key})
    if(NOT _err)
      if(_v MATCHES "^([0-9]+)\\.[0-9]*[1-9]")
        math(EXPR _v "${CMAKE_MATCH_1} + 1")
      elseif(_v MATCHES "^([0-9]+)\\.")
        set(_v ${CMAKE_MATCH_1})
      endif()
      if(_key STREQUAL "max_wait_s")
        set(_w_wait ${_v})
      else()
        set(_w_window ${_v})
      endif()
    endif()
  endforeach()
  foreach(_key timeout_s warmup repetitions big_cooldown_s cooldown_s)
    string(JSON _v ERROR_VARIABLE _err GET "${_json}" workload ${_key})
    if(NOT _err)
      # CMake's math() is integer-only: round fractions up.
      if(_v MATCHES "^([0-9]+)\\.[0-9]*[1-9]")
        math(EXPR _v "${CMAKE_MATCH_1} + 1")
      elseif(_v MATCHES "^([0-9]+)\\.")
        set(_v ${CMAKE_MATCH_1})
      endif()
      if(_key STREQUAL "timeout_s")
        set(_w_timeout ${_v})
      elseif(_key STREQUAL "warmup")
        set(_w_warmup ${_v})
      elseif(_key STREQUAL "repetitions")
        set(_w_reps ${_v})
      elseif(_v GREATER _w_cool)
        set(_w_cool ${_v})
      endif()
    endif()
  endforeach()

  _perfgate_suite_pairs(_json)

  # A replay suite names a recorded machine; its rows never go to the source tree's benchmarks/.
  string(JSON _replay ERROR_VARIABLE _err GET "${_json}" replay)
  if(NOT _err AND _replay AND NOT arg_RESULTS_DIR_GIVEN)
    set(arg_RESULTS_DIR "${CMAKE_BINARY_DIR}/perf-results")
    set(arg_HISTORY_DIR "${arg_RESULTS_DIR}")
  endif()
  string(JSON _machine ERROR_VARIABLE _err GET "${_json}" replay_host machine)
  # A recorded machine names the host of a replay only: in a measured suite it would give the run
  # another host tag (a pull request's fake cpuinfo, every pair "new"), so it is refused there.
  if(NOT _err AND NOT _replay)
    message(FATAL_ERROR "${_suite}: replay_host is only for replay suites (\"replay\": true); a measured suite "
                        "is probed on the machine it runs on")
  endif()
  if(NOT _err AND NOT arg_SYSROOT AND NOT arg_HOST_JSON)
    get_filename_component(_suite_dir "${_suite}" DIRECTORY)
    get_filename_component(_machine "${_machine}" ABSOLUTE BASE_DIR "${_suite_dir}")
    set(arg_SYSROOT "${_machine}/root")
    set(arg_TOOL_PATH "${_machine}/bin")
    string(JSON _probe_rt ERROR_VARIABLE _err GET "${_json}" replay_host probe_runtime)
    if(NOT _err)
      set(arg_PROBE_RUNTIME "${_probe_rt}")
    endif()
  endif()

  # Setup: the probe, once per ctest run, before any pair of this suite.
  set(_host_file "${CMAKE_BINARY_DIR}/perf/${_name}.host.json")
  set(_fixture "perfgate_host_${_name}")
  set(_probe_args run --suite "${_suite}" --write-host "${_host_file}")
  if(arg_HOST_JSON)
    list(APPEND _probe_args --host-json "${arg_HOST_JSON}")
  endif()
  if(arg_SYSROOT)
    list(APPEND _probe_args --sysroot "${arg_SYSROOT}")
  endif()
  if(arg_TOOL_PATH)
    list(APPEND _probe_args --tool-path "${arg_TOOL_PATH}")
  endif()
  if(arg_PROBE_RUNTIME)
    list(APPEND _probe_args --probe-runtime "${arg_PROBE_RUNTIME}")
  endif()
  if(arg_REQUIRE_BACKEND AND NOT PERFGATE_ALLOW_BACKEND_MISMATCH)
    list(APPEND _probe_args --require-backend)
  endif()
  add_test(NAME perf.probe.${_name} COMMAND ${_perfgate} ${_probe_args}
           WORKING_DIRECTORY "${_workdir}")
  set_tests_properties(perf.probe.${_name} PROPERTIES
    FIXTURES_SETUP ${_fixture} LABELS "${arg_LABEL};${arg_BACKEND};probe" TIMEOUT 300 RUN_SERIAL TRUE)

  # Binaries: explicit ones, and the embedded llama-bench for runtimes that ask for "llama-bench".
  set(_binary_args "")
  foreach(_b IN LISTS arg_BINARIES)
    list(APPEND _binary_args --binary "${_b}")
  endforeach()
  set(_unbuilt_runtimes "")
  foreach(_rt IN LISTS _runtimes)
    # A binary given for a sweep's entry is its points' (perfgate falls back on the entry's).
    set(_given FALSE)
    if("${arg_BINARIES}" MATCHES "(^|;)${_rt}=" OR "${arg_BINARIES}" MATCHES "(^|;)${_entry_${_rt}}=")
      set(_given TRUE)
    endif()
    if(_kind_${_rt} STREQUAL "llama-bench" AND _bin_${_rt} STREQUAL "llama-bench"
       AND PERFGATE_LLAMA_BENCH_EXECUTABLE AND NOT _given)
      list(APPEND _binary_args --binary "${_rt}=${PERFGATE_LLAMA_BENCH_EXECUTABLE}")
      if(PERFGATE_LLAMA_PIN_FILE)
        list(APPEND _binary_args --runtime-pin "${_rt}=${PERFGATE_LLAMA_PIN_FILE}")
      endif()
    endif()
    # "llama-server": the embedded llama.cpp's server, for the serving suites (docs/serving.md).
    if(_kind_${_rt} STREQUAL "llama-server" AND _bin_${_rt} STREQUAL "llama-server" AND NOT _given)
      if(PERFGATE_LLAMA_SERVER_EXECUTABLE)
        list(APPEND _binary_args --binary "${_rt}=${PERFGATE_LLAMA_SERVER_EXECUTABLE}")
        if(PERFGATE_LLAMA_PIN_FILE)
          list(APPEND _binary_args --runtime-pin "${_rt}=${PERFGATE_LLAMA_PIN_FILE}")
        endif()
      else()
        list(APPEND _unbuilt_runtimes "${_rt}")
      endif()
    endif()
    # "llama-bench-portable": the embedded llama.cpp built without AVX-512 for counting instructions
    # under valgrind (docs/instructions.md), built only when a suite asks for it.
    if(_kind_${_rt} STREQUAL "llama-bench" AND _bin_${_rt} STREQUAL "llama-bench-portable" AND NOT _given)
      set(_portable "")
      if(COMMAND perfgate_llama_portable_bench)
        perfgate_llama_portable_bench(_portable _portable_pin)
      endif()
      if(_portable)
        list(APPEND _binary_args --binary "${_rt}=${_portable}")
        if(_portable_pin)
          list(APPEND _binary_args --runtime-pin "${_rt}=${_portable_pin}")
        endif()
      else()
        list(APPEND _unbuilt_runtimes "${_rt}")
      endif()
    endif()
  endforeach()
  set(_common --host-json "${_host_file}" --results-dir "${arg_RESULTS_DIR}" --history-dir "${arg_HISTORY_DIR}"
              --forge-dir "${CMAKE_BINARY_DIR}/forged")
  if(PERFGATE_LLAMA_VOCAB_DIR_RESOLVED)
    list(APPEND _common --vocab-dir "${PERFGATE_LLAMA_VOCAB_DIR_RESOLVED}")
  endif()
  if(arg_SUFFIX)
    list(APPEND _common --suffix "${arg_SUFFIX}")
  endif()
  if(arg_GATE)
    list(APPEND _common --gate)
    # The base ref of a pull request, from the configure command line (-D wins over a preset's
    # cacheVariables; a test preset's environment cannot change a test's arguments). Given but
    # empty is a failed merge-base step: refused rather than gating against the change's own files.
    if(DEFINED PERFGATE_BASELINE_REF)
      if(PERFGATE_BASELINE_REF MATCHES "^[ \t\r\n]*$")
        message(FATAL_ERROR "PERFGATE_BASELINE_REF is empty: the base ref to read baselines and thresholds at is "
                            "unknown (did the merge-base step fail?); leave it unset to gate against the working tree")
      endif()
      list(APPEND _common --baseline-ref "${PERFGATE_BASELINE_REF}")
    endif()
  endif()

  set(_enabled_pairs 0)
  foreach(_pair IN LISTS _pairs)
    string(REPLACE "/" ";" _parts "${_pair}")
    list(GET _parts 0 _rt)
    list(GET _parts 1 _m)
    set(_test perf.${_rt}.${_m})
    if(TEST ${_test})
      message(FATAL_ERROR "${_suite}: test ${_test} is already defined by another suite")
    endif()
    # Time limit: every launch at its per-run limit, plus cooldown, plus the contention guard's
    # wait budget and one look per launch, plus forging when it forges.
    if(_counts_${_rt})
      set(_launch_units 3)  # the three counted workloads (docs/instructions.md)
    elseif(_kind_${_rt} STREQUAL "llama-bench" OR _kind_${_rt} STREQUAL "catch2")
      math(EXPR _launch_units "${_w_reps} + 1")
    else()
      math(EXPR _launch_units "${_w_warmup} + ${_w_reps}")
    endif()
    math(EXPR _timeout "${_w_timeout} * ${_launch_units} + ${_w_cool} + ${_w_wait} + ${_w_window} * ${_launch_units} + 60")
    if(_forged_${_m})
      math(EXPR _timeout "${_timeout} + 900")
    endif()
    add_test(NAME ${_test}
             COMMAND ${_perfgate} run --suite "${_suite}" --pair "${_rt}/${_m}" ${_common} ${_binary_args}
             WORKING_DIRECTORY "${_workdir}")
    if(_rt IN_LIST _unbuilt_runtimes)
      # Listed, and shown as not run: this build has no portable llama-bench to count with.
      set_tests_properties(${_test} PROPERTIES DISABLED TRUE)
      message(STATUS "perfgate: ${_test} is disabled: its ${_bin_${_rt}} is not built here (fetch the pinned llama.cpp, or give -DPERFGATE_LLAMA_BENCH_PORTABLE=... / -DPERFGATE_LLAMA_SERVER=...)")
    else()
      math(EXPR _enabled_pairs "${_enabled_pairs} + 1")
    endif()
    set(_labels "${arg_LABEL};${arg_BACKEND};${_rt}")
    if(_counts_${_rt})
      list(APPEND _labels instructions)  # ctest -L instructions: the counted pairs
    endif()
    if(_kind_${_rt} STREQUAL "llama-server" OR _serves_${_rt})
      list(APPEND _labels serving)  # ctest -L serving: the serving pairs (docs/serving.md)
    endif()
    set_tests_properties(${_test} PROPERTIES
      FIXTURES_REQUIRED ${_fixture}
      SKIP_RETURN_CODE 77
      LABELS "${_labels}"
      RUN_SERIAL TRUE
      TIMEOUT ${_timeout})
  endforeach()

  # Summary: after every pair (a fixture cleanup runs after all tests that require the fixture),
  # the whole run against its baselines, printed and written as markdown, JUnit and JSON.
  if(arg_GATE)
    add_test(NAME perf.gate.${_name}
             COMMAND ${_perfgate} run --suite "${_suite}" --summary
                     --summary-dir "${CMAKE_BINARY_DIR}/perf-gate/${_name}" ${_common}
             WORKING_DIRECTORY "${_workdir}")
    set_tests_properties(perf.gate.${_name} PROPERTIES
      FIXTURES_CLEANUP ${_fixture}
      SKIP_RETURN_CODE 77
      LABELS "${arg_LABEL};${arg_BACKEND};gate"
      RUN_SERIAL TRUE
      TIMEOUT 300)
    if(_enabled_pairs EQUAL 0)
      # Every pair is disabled (nothing to count with): no run to gate, rather than a run that
      # recorded nothing (which fails at a base ref).
      set_tests_properties(perf.gate.${_name} PROPERTIES DISABLED TRUE)
    endif()
  endif()
endfunction()

# perfgate_add_backend_suites(<backend> <suites dir>): every <suites dir>/<backend>*.json, as the
# <backend>-perf presets use it. Measured suites gate their rows; replay suites (recorded output,
# results under the build tree) are only recorded.
function(perfgate_add_backend_suites backend suites_dir)
  file(GLOB _suites CONFIGURE_DEPENDS "${suites_dir}/${backend}*.json")
  # At a pull request's base ref, the backend's suites as a whole: a pair that a measured suite ran
  # there must be measured now, so a change cannot delete a suite, rename a runtime or turn a suite
  # into a replay to leave its pairs ungated (perfgate guard; docs/gate.md, "Pull requests").
  if(DEFINED PERFGATE_BASELINE_REF AND NOT PERFGATE_BASELINE_REF MATCHES "^[ \t\r\n]*$")
    if(PERFGATE_EXECUTABLE)
      set(_perfgate "${PERFGATE_EXECUTABLE}")
    else()
      set(_perfgate perfgate)
    endif()
    add_test(NAME perf.guard.${backend}
             COMMAND ${_perfgate} guard --backend "${backend}" --suites-dir "${suites_dir}"
                     --baseline-ref "${PERFGATE_BASELINE_REF}"
             WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
    set_tests_properties(perf.guard.${backend} PROPERTIES LABELS "perf;${backend};gate" TIMEOUT 120)
  endif()
  if(NOT _suites)
    message(FATAL_ERROR "perfgate: no suite ${suites_dir}/${backend}*.json")
  endif()
  foreach(_suite IN LISTS _suites)
    file(READ "${_suite}" _json)
    string(JSON _replay ERROR_VARIABLE _err GET "${_json}" replay)
    if(NOT _err AND _replay)
      perfgate_add_perf_suite(SUITE "${_suite}" BACKEND "${backend}" REQUIRE_BACKEND)
    else()
      perfgate_add_perf_suite(SUITE "${_suite}" BACKEND "${backend}" GATE REQUIRE_BACKEND)
    endif()
  endforeach()
endfunction()

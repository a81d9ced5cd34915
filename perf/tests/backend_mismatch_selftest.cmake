# A rocm suite registered as the rocm-perf preset does (REQUIRE_BACKEND), on a host the probe finds
# without a GPU: ctest must fail, naming both backends; with the mismatch allowed (cache option or
# environment variable) the pair is Skipped and ctest passes. Run as:
#   cmake -DPERFGATE_SOURCE_DIR=.. -DPERFGATE_EXECUTABLE=.. -DWORK_DIR=.. -P backend_mismatch_selftest.cmake
cmake_minimum_required(VERSION 3.25)
set(_errors "")
macro(fail message)
  list(APPEND _errors "${message}")
endmacro()

function(configure allow)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${PERFGATE_SOURCE_DIR}/perf/tests/ctest-selftest" -B "${WORK_DIR}"
                          -DPERFGATE_SOURCE_DIR=${PERFGATE_SOURCE_DIR} -DPERFGATE_EXECUTABLE=${PERFGATE_EXECUTABLE}
                          -DPERFGATE_SELFTEST_MISMATCH=ON -DPERFGATE_ALLOW_BACKEND_MISMATCH=${allow}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the self-test project failed:\n${out}\n${err}")
  endif()
endfunction()

function(run_ctest out_var rc_var)
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK_DIR}" --output-on-failure
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  set(${out_var} "${out}${err}" PARENT_SCOPE)
  set(${rc_var} "${rc}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
unset(ENV{PERFGATE_ALLOW_BACKEND_MISMATCH})

# 1. Not allowed: the probe test fails with the message, the pair is not run, ctest fails.
configure(OFF)
run_ctest(out rc)
message("--- mismatch, not allowed ---\n${out}")
if(rc EQUAL 0)
  fail("ctest passed although the host lacks the suite's backend")
endif()
if(NOT out MATCHES "perf\\.probe\\.stubmismatch \\.+\\*\\*\\*Failed")
  fail("the probe test did not fail")
endif()
if(NOT out MATCHES "backend mismatch: the suite measures backend rocm \\(the rocm-perf preset\\) but the probe found backend cpu")
  fail("no message naming the suite's backend (rocm) and the probed one (cpu)")
endif()
if(out MATCHES "perf\\.stubmismatch-ok\\.small \\.+ +(Passed|\\*\\*\\*Skipped)")
  fail("the pair ran although the probe test failed")
endif()

# 2. Allowed at configure time: the pair is Skipped (SKIP:no_backend) and ctest passes.
configure(ON)
run_ctest(out rc)
message("--- mismatch, allowed by -DPERFGATE_ALLOW_BACKEND_MISMATCH=ON ---\n${out}")
if(NOT rc EQUAL 0)
  fail("with -DPERFGATE_ALLOW_BACKEND_MISMATCH=ON ctest failed (rc ${rc})")
endif()
if(NOT out MATCHES "perf\\.stubmismatch-ok\\.small \\.+\\*\\*\\*Skipped")
  fail("with -DPERFGATE_ALLOW_BACKEND_MISMATCH=ON the pair was not Skipped")
endif()

# 3. Allowed by the environment at test time, in a build configured without the option.
configure(OFF)
set(ENV{PERFGATE_ALLOW_BACKEND_MISMATCH} 1)
run_ctest(out rc)
unset(ENV{PERFGATE_ALLOW_BACKEND_MISMATCH})
message("--- mismatch, allowed by PERFGATE_ALLOW_BACKEND_MISMATCH=1 ---\n${out}")
if(NOT rc EQUAL 0)
  fail("with PERFGATE_ALLOW_BACKEND_MISMATCH=1 ctest failed (rc ${rc})")
endif()
if(NOT out MATCHES "perf\\.stubmismatch-ok\\.small \\.+\\*\\*\\*Skipped")
  fail("with PERFGATE_ALLOW_BACKEND_MISMATCH=1 the pair was not Skipped")
endif()
file(READ "${WORK_DIR}/Testing/Temporary/LastTest.log" log)
if(NOT log MATCHES "SKIP:no_backend")
  fail("no SKIP:no_backend reason in LastTest.log")
endif()

if(_errors)
  list(JOIN _errors "\n  " msg)
  message(FATAL_ERROR "backend-mismatch self-test failed:\n  ${msg}")
endif()
message("backend-mismatch self-test: fails when not allowed, skips when allowed (cache option and environment)")

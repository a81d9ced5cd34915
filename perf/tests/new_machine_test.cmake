# A new machine (docs/gate.md, "Machines"): the project's benchmarks/ holds a baseline recorded on
# machine A; a run on machine B, with the same host tag, reports its pair `new machine` and ctest
# passes (the per-pair test and the suite summary); a later run on A is judged against A's
# baseline. Both machines are sysroots: cpu-vm-ids (B) and a copy of it with other ids (A).
# Run as:
#   cmake -DPERFGATE_SOURCE_DIR=.. -DPERFGATE_EXECUTABLE=.. -DWORK_DIR=.. -P new_machine_test.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK_DIR}")
set(project "${WORK_DIR}/project")
file(COPY "${PERFGATE_SOURCE_DIR}/perf/tests/results-dir-project/CMakeLists.txt" DESTINATION "${project}")

set(machine_b "${PERFGATE_SOURCE_DIR}/probes/tests/data/machines/cpu-vm-ids")
set(machine_a "${WORK_DIR}/machine-a")
file(COPY "${machine_b}/root" DESTINATION "${machine_a}")
set(raw_machine_id "0d3b9c1e7a2f4e5d8c6b1a0f9e8d7c6b")
file(WRITE "${machine_a}/root/etc/machine-id" "${raw_machine_id}\n")
file(WRITE "${machine_a}/root/sys/class/dmi/id/product_uuid" "11111111-2222-3333-4444-555555555555\n")

function(configure_and_test build record machine)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${project}" -B "${build}" -DPERFGATE_SOURCE_DIR=${PERFGATE_SOURCE_DIR}
                          -DPERFGATE_EXECUTABLE=${PERFGATE_EXECUTABLE} -DPERFGATE_RECORD_BASELINE=${record}
                          -DPERFGATE_TEST_MACHINE=${machine}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure (${build}) failed:\n${out}${err}")
  endif()
  # Contention is another test's subject; a busy build machine must not skip the pair here.
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env PERFGATE_CONTENTION=off "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -V
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest (${build}) failed:\n${out}${err}")
  endif()
  set(ctest_output "${out}" PARENT_SCOPE)
endfunction()

# 1. Machine A records the baseline; its rows carry a machine id (a digest, not the raw id).
configure_and_test("${WORK_DIR}/build-a" ON "${machine_a}")
file(GLOB committed "${project}/benchmarks/cpu_*.csv")
list(LENGTH committed n_committed)
if(NOT n_committed EQUAL 1)
  message(FATAL_ERROR "baseline on machine A: expected one CSV in benchmarks/, got '${committed}'")
endif()
file(READ "${committed}" baseline_text)
if(NOT baseline_text MATCHES ",arm,machine_id,machine_fingerprint,peak_memory_bytes,peak_memory_bytes_samples,peak_device_memory_bytes,peak_device_memory_bytes_samples,prefill_instructions_per_token,prefill_instructions_per_token_samples,decode_instructions_per_token,decode_instructions_per_token_samples,prompt_gen_tok_s,prompt_gen_tok_s_samples,active_model_bytes,serving_output_tok_s,serving_output_tok_s_samples,ttft_p50_ms,ttft_p50_ms_samples,ttft_p99_ms,ttft_p99_ms_samples,tpot_p50_ms,tpot_p50_ms_samples,tpot_p99_ms,tpot_p99_ms_samples,itl_p50_ms,itl_p50_ms_samples,itl_p99_ms,itl_p99_ms_samples,serving_request_s,serving_request_s_samples,timestamp,status\n.*,[0-9a-f]+,[0-9a-f]+,[^,]*,[^,]*,,,,,,,,,[0-9]*,,,,,,,,,,,,,,,,,[0-9T:-]+Z,ok\n")
  message(FATAL_ERROR "baseline on machine A: no machine columns with values:\n${baseline_text}")
endif()
if(baseline_text MATCHES "${raw_machine_id}")
  message(FATAL_ERROR "baseline on machine A: the raw machine-id was written:\n${baseline_text}")
endif()

# 2. Machine B, same host tag, other machine: `new machine`, no verdict, and ctest passes.
configure_and_test("${WORK_DIR}/build-b" OFF "${machine_b}")
if(NOT ctest_output MATCHES "new machine: no verdict")
  message(FATAL_ERROR "run on machine B: the pair was not reported as a new machine:\n${ctest_output}")
endif()
if(ctest_output MATCHES "REGRESSED|(unchanged|within noise)[^\n]*stubmeasured-ok")
  message(FATAL_ERROR "run on machine B: judged against machine A's baseline:\n${ctest_output}")
endif()

# 3. Machine A again: judged against its own baseline (the same recorded numbers: unchanged).
configure_and_test("${WORK_DIR}/build-a-again" OFF "${machine_a}")
if(NOT ctest_output MATCHES "(unchanged|within noise)[^\n]*stubmeasured-ok" AND NOT ctest_output MATCHES "(unchanged|within noise) +small")
  message(FATAL_ERROR "run on machine A: the pair was not compared with its own baseline:\n${ctest_output}")
endif()
message(STATUS "ok: machine B reported `new machine` and passed; machine A was judged against its own baseline")

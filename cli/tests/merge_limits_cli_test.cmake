# perfgate merge, and perfgate under a file-size limit, as a user (or the CI job) runs them: exit
# codes, messages and the bytes of the files (issue 26, items 6 and 12).
#   cmake -DPERFGATE=<perfgate> -DSOURCE=<source dir> -DWORK_DIR=<scratch> -P merge_limits_cli_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/benchmarks" "${WORK_DIR}/incoming")

include("${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake")
# perfgate ARGS under a file-size limit of LIMIT blocks ("none": no limit).
function(expect name code regex limit)
  if(limit STREQUAL "none")
    set(prefix "")
  else()
    set(prefix "ulimit -f ${limit} && ")  # no ";": the command passes through a CMake list
  endif()
  perfgate_expect_exit("${name}" "${WORK_DIR}" "${code}" "${regex}" bash -c "${prefix}exec \"$0\" \"$@\"" "${PERFGATE}" ${ARGN})
endfunction()

function(expect_file path expected what)
  file(READ "${path}" actual)
  if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "${what}: ${path} is not as expected:\n${actual}")
  endif()
  message(STATUS "ok: ${what}")
endfunction()

# The committed cpu baseline: a header and two runs of five rows.
set(name "cpu_cpu-epyc_2026-11-29.csv")
file(READ "${SOURCE}/benchmarks/${name}" committed)
string(FIND "${committed}" "\n" header_end)
math(EXPR header_end "${header_end} + 1")
string(SUBSTRING "${committed}" 0 ${header_end} header)
string(SUBSTRING "${committed}" ${header_end} -1 rows)

# merge: a same-day baseline keeps every row; only the run it lacks is added (the CI job copied the
# run's file over it and lost its rows).
file(WRITE "${WORK_DIR}/benchmarks/${name}" "${committed}")
string(REPLACE "20261129T193653-490" "20261129T230000-777" new_run "${rows}")
string(REGEX REPLACE "[^\n]*20261129T193504-32713[^\n]*\n" "" new_run "${new_run}")
file(WRITE "${WORK_DIR}/incoming/${name}" "${header}${rows}${new_run}")
# The committed file has the header from before `arm` (and the machine, peak memory and instruction
# columns after it): adding rows upgrades it in place (docs/csv-schema.md), today's header and
# thirty empty fields before each row's last two (timestamp, status), every other byte of its rows kept.
string(REPLACE ",run_id,timestamp,status\n"
       ",run_id,arm,machine_id,machine_fingerprint,peak_memory_bytes,peak_memory_bytes_samples,peak_device_memory_bytes,peak_device_memory_bytes_samples,prefill_instructions_per_token,prefill_instructions_per_token_samples,decode_instructions_per_token,decode_instructions_per_token_samples,prompt_gen_tok_s,prompt_gen_tok_s_samples,active_model_bytes,serving_output_tok_s,serving_output_tok_s_samples,ttft_p50_ms,ttft_p50_ms_samples,ttft_p99_ms,ttft_p99_ms_samples,tpot_p50_ms,tpot_p50_ms_samples,tpot_p99_ms,tpot_p99_ms_samples,itl_p50_ms,itl_p50_ms_samples,itl_p99_ms,itl_p99_ms_samples,serving_request_s,serving_request_s_samples,timestamp,status\n"
       upgraded_header "${header}")
function(upgraded_rows text out)
  string(REGEX REPLACE ",([^,\n]*,[^,\n]*\n)" ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
upgraded_rows("${rows}" upgraded_committed)
upgraded_rows("${new_run}" upgraded_new_run)
set(merged "${upgraded_header}${upgraded_committed}${upgraded_new_run}")
expect("merge: only the new run" 0 "5 rows added, 10 skipped" none merge --into benchmarks "incoming/${name}")
expect_file("${WORK_DIR}/benchmarks/${name}" "${merged}" "merge upgraded the header, kept every row and added the new run")
expect("merge: again, nothing to add" 0 "0 rows added, 15 skipped" none merge --into benchmarks
       "incoming/${name}")
expect_file("${WORK_DIR}/benchmarks/${name}" "${merged}" "a second merge changed nothing")
expect("merge: an mlxcel file" 2 "not perfgate's schema" none merge --into benchmarks
       "${SOURCE}/tests/fixtures/mlxcel-benchmarks/cuda_gb10_2026-07-12.csv")
expect("merge: no --into" 2 "--into is required" none merge "incoming/${name}")

# Under a file-size limit of 2 KiB (ulimit -f counts 1024-byte blocks) every write past it fails:
# perfgate must answer exit 2 with EFBIG's message, not die of SIGXFSZ mid-row, and leave the file
# as it was and no temporary beside it.
file(WRITE "${WORK_DIR}/big/${name}" "${committed}")
expect("prune under a file-size limit" 2 "File too large" 2 prune --run-id 20261129T193504-32713
       --results "big/${name}")
expect_file("${WORK_DIR}/big/${name}" "${committed}" "prune under a limit left the file as it was")
file(GLOB left "${WORK_DIR}/big/.*")
if(left)
  message(FATAL_ERROR "prune under a limit left a temporary: ${left}")
endif()
file(WRITE "${WORK_DIR}/small/${name}" "${header}")
expect("merge under a file-size limit" 2 "File too large" 2 merge --into small "incoming/${name}")
expect_file("${WORK_DIR}/small/${name}" "${header}" "merge under a limit left the file as it was")

# Runs one libFuzzer target for SECONDS over a corpus seeded from SEEDS ('|'-separated folders,
# searched recursively), and keeps libFuzzer's output (final stats: executions, coverage, corpus)
# in REPORT for docs/reliability.md. A crash or invariant failure leaves its input in ARTIFACTS.
file(MAKE_DIRECTORY "${CORPUS}")
string(REPLACE "|" ";" SEEDS "${SEEDS}")
foreach(dir IN LISTS SEEDS)
  if(IS_DIRECTORY "${dir}")
    file(GLOB_RECURSE seeds LIST_DIRECTORIES false "${dir}/*")
    foreach(s IN LISTS seeds)
      # Named by content, as libFuzzer names corpus files: equal names in different folders
      # (every machine's proc/meminfo) stay separate seeds.
      file(SHA1 "${s}" n)
      configure_file("${s}" "${CORPUS}/${n}" COPYONLY)
    endforeach()
  endif()
endforeach()
if(ARTIFACTS)
  file(MAKE_DIRECTORY "${ARTIFACTS}")
  set(artifact_arg "-artifact_prefix=${ARTIFACTS}")
endif()
# UBSan findings (overflow, bad casts) stop the run like ASan findings do.
set(ENV{UBSAN_OPTIONS} "halt_on_error=1:print_stacktrace=1")
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1
          ${artifact_arg} "${CORPUS}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
get_filename_component(report_dir "${REPORT}" DIRECTORY)
file(MAKE_DIRECTORY "${report_dir}")
file(WRITE "${REPORT}" "${err}")
string(REGEX MATCHALL "stat::number_of_executed_units: *[0-9]+" execs "${err}")
message("${execs}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzzer ${FUZZER} failed (exit ${rc}):\n${err}")
endif()

# Shared by the CLI tests run with `cmake -P`: runs COMMAND... in DIR, then checks its exit code and
# that stdout and stderr together match REGEX; prints "ok: NAME" or stops with what was seen.
function(perfgate_expect_exit name dir code regex)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${dir}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${code}")
    message(FATAL_ERROR "${name}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "${name}: output does not match '${regex}':\n${out}${err}")
  endif()
  message(STATUS "ok: ${name} (exit ${rc})")
endfunction()

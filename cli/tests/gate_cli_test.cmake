# `perfgate gate` misconfigurations (issues 15 and 18): each exits non-zero with a message naming
# what is wrong, and the defaults come from the project root, not the working directory.
#   cmake -DPERFGATE=<perfgate> -DFIXTURES=<source>/tests/fixtures/mlxcel-benchmarks
#         -DTHRESHOLDS=<source>/thresholds -DWORK_DIR=<scratch> -P gate_cli_test.cmake
foreach(v PERFGATE FIXTURES THRESHOLDS WORK_DIR)
  if(NOT ${v})
    message(FATAL_ERROR "gate_cli_test: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs perfgate gate ARGS in DIR; checks the exit code and that stdout+stderr match REGEX.
include("${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake")
function(expect name dir code regex)
  perfgate_expect_exit("${name}" "${dir}" "${code}" "${regex}" "${PERFGATE}" gate ${ARGN})
endfunction()

set(rocm "${FIXTURES}/rocm_strixhalo-gfx1151_2026-09-30.csv")
file(READ "${rocm}" rocm_text)
string(REPLACE "2026-09-30" "2026-10-01" next_day "${rocm_text}")
file(WRITE "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-10-01.csv" "${next_day}")
set(results "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-10-01.csv")

# Folders that do not exist: exit 2 naming the folder (used to be every pair new, PASS).
expect("missing --benchmarks-dir" "${WORK_DIR}" 2 "--benchmarks-dir /nonexistent-perfgate-bench: no such folder"
       --results "${results}" --benchmarks-dir /nonexistent-perfgate-bench --thresholds-dir "${THRESHOLDS}")
expect("missing --thresholds-dir" "${WORK_DIR}" 2 "--thresholds-dir /nonexistent-perfgate-thr: no such folder"
       --results "${results}" --benchmarks-dir "${FIXTURES}" --thresholds-dir /nonexistent-perfgate-thr)

# Every pair new (an empty history): exit 1 unless --allow-empty.
file(MAKE_DIRECTORY "${WORK_DIR}/empty-bench")
expect("every pair new" "${WORK_DIR}" 1 "nothing was compared with a baseline.*--allow-empty"
       --results "${results}" --benchmarks-dir "${WORK_DIR}/empty-bench" --thresholds-dir "${THRESHOLDS}")
expect("every pair new, allowed" "${WORK_DIR}" 0 "accepted by --allow-empty.*gate: PASS"
       --results "${results}" --benchmarks-dir "${WORK_DIR}/empty-bench" --thresholds-dir "${THRESHOLDS}" --allow-empty)

# A header-only results file: no pairs, exit 1.
string(REGEX MATCH "^[^\n]*\n" header "${rocm_text}")
file(WRITE "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-10-02.csv" "${header}")
expect("header-only results" "${WORK_DIR}" 1 "0 pairs: 0 new, 0 skipped"
       --results "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-10-02.csv" --benchmarks-dir "${FIXTURES}"
       --thresholds-dir "${THRESHOLDS}")

# A host tag that would leave the thresholds folder.
expect("--host ../../x" "${WORK_DIR}" 2 "host tag '../../x' from --host is not a valid host tag"
       --results "${results}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${THRESHOLDS}" --host ../../x)

# NaN in a results file: file:line and the column, exit 2 (used to abort in Boost.Math).
string(REPLACE ",35.41," ",nan," nan_text "${next_day}")
file(WRITE "${WORK_DIR}/nan/rocm_strixhalo-gfx1151_2026-10-01.csv" "${nan_text}")
expect("NaN decode" "${WORK_DIR}" 2 "rocm_strixhalo-gfx1151_2026-10-01.csv:3: column 'decode_tok_s'"
       --results "${WORK_DIR}/nan/rocm_strixhalo-gfx1151_2026-10-01.csv" --benchmarks-dir "${FIXTURES}"
       --thresholds-dir "${THRESHOLDS}")

# An impossible date in the results file name.
file(WRITE "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-02-30.csv" "${rocm_text}")
expect("2026-02-30" "${WORK_DIR}" 2 "2026-02-30 in the file name is not a real calendar date"
       --results "${WORK_DIR}/results/rocm_strixhalo-gfx1151_2026-02-30.csv" --benchmarks-dir "${FIXTURES}"
       --thresholds-dir "${THRESHOLDS}")

# Duplicate keys in a thresholds file: file:line.
file(WRITE "${WORK_DIR}/dup-thresholds/default.json"
     "{\n  \"metrics\": {\n    \"decode_tok_s\": {\"max_drop\": 0.05},\n    \"decode_tok_s\": {\"max_drop\": 0.9}\n  }\n}\n")
expect("duplicate thresholds key" "${WORK_DIR}" 2 "dup-thresholds/default.json:4: key \"decode_tok_s\" appears twice"
       --results "${results}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${WORK_DIR}/dup-thresholds")

# An empty --baseline-ref (what a failed merge-base step hands on) is a usage error, never "no ref"
# (hardening issue, item 2b); so is --suite without a ref.
expect("empty --baseline-ref" "${WORK_DIR}" 2 "--baseline-ref is empty"
       --results "${results}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${THRESHOLDS}" --baseline-ref "")
expect("--suite without --baseline-ref" "${WORK_DIR}" 2 "--suite needs --baseline-ref"
       --results "${results}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${THRESHOLDS}" --suite x.json)

# Defaults from the project root: a project with benchmarks/ and thresholds/, gated from a folder
# deep inside it, finds both (the pairs are compared: unchanged, exit 0).
set(project "${WORK_DIR}/project")
file(COPY "${rocm}" DESTINATION "${project}/benchmarks")
file(COPY "${THRESHOLDS}/default.json" DESTINATION "${project}/thresholds")
file(MAKE_DIRECTORY "${project}/build/deep/inside")
expect("defaults from the project root" "${project}/build/deep/inside" 0 "gate: PASS: 5 pairs (unchanged|within noise)"
       --results "${results}")
# Outside any project (no benchmarks/ or thresholds/ above): exit 2 asking for the folders.
file(MAKE_DIRECTORY "${WORK_DIR}/nowhere")
if(NOT EXISTS "${WORK_DIR}/benchmarks" AND NOT EXISTS "${WORK_DIR}/../benchmarks")
  execute_process(COMMAND "${PERFGATE}" gate --results "${results}" WORKING_DIRECTORY /
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT EXISTS /benchmarks AND NOT EXISTS /thresholds)
    if(NOT rc EQUAL 2 OR NOT err MATCHES "pass --benchmarks-dir and --thresholds-dir")
      message(FATAL_ERROR "no project root: exit ${rc}\n${out}${err}")
    endif()
    message(STATUS "ok: no project root (exit 2)")
  endif()
endif()

# One screen of verdict (issue 49 item 4): a single-model mlxcel file against its full sweep lists
# the judged pair and counts the 198 missing ones in one line (425 lines before); --show all lists
# every pair.
set(single "${FIXTURES}/metal_m1ultra_2026-09-08_single_gemma2-2b-4bit.csv")
execute_process(COMMAND "${PERFGATE}" gate --results "${single}" --benchmarks-dir "${FIXTURES}"
                        --thresholds-dir "${THRESHOLDS}" --color never
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCHALL "\n" newlines "${out}${err}")
list(LENGTH newlines lines)
if(NOT rc EQUAL 0 OR lines GREATER 30 OR NOT out MATCHES "198 pairs missing: mlxcel/[^\n]* and [0-9]+ more \\(--show all lists each\\)"
   OR NOT out MATCHES "within noise  mlxcel/gemma2-2b-4bit" OR out MATCHES "\nmissing ")
  message(FATAL_ERROR "single-model file: exit ${rc}, ${lines} lines:\n${out}${err}")
endif()
message(STATUS "ok: single-model file on one screen (${lines} lines)")
expect("--show all lists every pair" "${WORK_DIR}" 0 "\nmissing +mlxcel/afm-4.5b.*\nmissing +mlxcel/all-minilm-l6-v2"
       --results "${single}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${THRESHOLDS}" --color never --show all)
expect("--show takes changed or all" "${WORK_DIR}" 2 "--show"
       --results "${single}" --benchmarks-dir "${FIXTURES}" --thresholds-dir "${THRESHOLDS}" --show some)

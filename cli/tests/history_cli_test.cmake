# perfgate history as a user runs it: the committed unchanged H200 runs have no step; the recorded
# real slowdown of llama-3.1-8b (docs/verdict-quality-data/h200, a model with 4 more blocks)
# appended after them is a worsening step that --check fails on until an acknowledgement covers it.
#   cmake -DPERFGATE=<perfgate> -DSOURCE=<source dir> -DWORK_DIR=<scratch> -P history_cli_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/benchmarks" "${WORK_DIR}/thresholds")
include("${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake")
function(expect name code regex)
  perfgate_expect_exit("${name}" "${WORK_DIR}" "${code}" "${regex}" "${PERFGATE}" ${ARGN})
endfunction()
set(bench "${WORK_DIR}/benchmarks")
set(thresholds "${WORK_DIR}/thresholds")
foreach(name cuda_h200_2026-11-29.csv cuda_h200_2026-12-01.csv)
  configure_file("${SOURCE}/benchmarks/${name}" "${bench}/${name}" COPYONLY)
endforeach()

# Unchanged runs only (19 llama-bench runs per pair in 4 sessions, 2-4 transformers runs in fewer):
# nothing to report.
expect("history: unchanged H200 runs, no step" 0 "perfgate history: 20 series.*\nno step in 10 series; 10 series too short to test \\(fewer than 4 sessions\\).*no worsening step without an acknowledgement"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --check)

# The slowed runs were recorded on 2026-12-01 in two sittings (06:52 and 07:02), after unchanged
# ones. The scan's unit is a session (runs less than 10 minutes apart): moved to the next day as one
# sitting they are one session, too few to be a step yet; the second sitting moved one day further
# makes two, as main would have recorded two merges' runs.
file(READ "${SOURCE}/docs/verdict-quality-data/h200/cuda_h200_2026-12-01_8b-plus10.csv" slowed)
string(REPLACE "2026-12-01" "2026-12-02" slowed "${slowed}")
file(WRITE "${bench}/cuda_h200_2026-12-02_8b-plus10.csv" "${slowed}")
expect("history: one slowed sitting is one session, not yet a step" 0
       "no step in 10 series; 10 series too short"
       history --benchmarks "${bench}" --thresholds "${thresholds}")
expect("history --session-gap 0: every run a session, the step is found" 0
       "llama-3.1-8b decode_tok_s \\(machine unknown, 49 runs\\)\n  step at run 20 of 49: [0-9.]+ tok/s -> [0-9.]+ tok/s, -10\\.[0-9]%.*worse, NOT acknowledged"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --session-gap 0)
file(STRINGS "${SOURCE}/docs/verdict-quality-data/h200/cuda_h200_2026-12-01_8b-plus10.csv" lines)
set(slowed "")
foreach(line IN LISTS lines)
  if(line MATCHES "T07:0[2-4]")
    string(REPLACE "2026-12-01" "2026-12-03" line "${line}")
  else()
    string(REPLACE "2026-12-01" "2026-12-02" line "${line}")
  endif()
  string(APPEND slowed "${line}\n")
endforeach()
file(WRITE "${bench}/cuda_h200_2026-12-02_8b-plus10.csv" "${slowed}")
expect("history: the slowdown is a worsening step at run 20" 0
       "llama-bench llama-3.1-8b decode_tok_s \\(machine unknown, 49 runs in 6 sessions\\)\n  step at run 20 of 49: [0-9.]+ tok/s -> [0-9.]+ tok/s, -10\\.[0-9]%.*worse, NOT acknowledged"
       history --benchmarks "${bench}" --thresholds "${thresholds}")
expect("history --check: fails, says how to acknowledge" 1
       "worsening step\\(s\\) that no acknowledgement covers.*llama-3.1-8b decode_tok_s.*acknowledgements.json.*\"from\":\"2026-12-02T06:52"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --check)
expect("history --host: another host tag has no series" 0 "0 series of pair and metric on 0 host"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --host cpu-epyc --check)
expect("history --format json" 1 "\"direction\": \"worse\".*\"acknowledged_by\": null"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --format json --check)

# Accepted: every worsening step of the pair's decode and prefill acknowledged. The second slowed
# sitting reads about 1.3% slower again: below half the floor, so no step of its own; the entries
# from 07:00 of the first slowed day cover nothing and change nothing.
set(entries "")
foreach(metric decode_tok_s prefill_tok_s)
  foreach(from 2026-12-02 2026-12-02T07:00:00Z)
    string(APPEND entries "{\"host\": \"h200\", \"runtime\": \"llama-bench\", \"model\": \"llama-3.1-8b\", \"metric\": \"${metric}\", \"from\": \"${from}\", \"why\": \"test: 4 more blocks\"},\n")
  endforeach()
endforeach()
string(REGEX REPLACE ",\n$" "\n" entries "${entries}")
file(WRITE "${thresholds}/acknowledgements.json" "{\"acknowledgements\": [\n${entries}]}\n")
expect("history --check: acknowledged steps pass" 0 "worse, acknowledged \\(.*acknowledgements.json:[0-9]+.*no worsening step without an acknowledgement"
       history --benchmarks "${bench}" --thresholds "${thresholds}" --check)

# Input errors: exit 2, naming the file.
file(WRITE "${thresholds}/acknowledgements.json" "{\"acknowledgements\": [{\"host\": \"h200\"}]}\n")
expect("history: a bad acknowledgements file" 2 "acknowledgements.json:1"
       history --benchmarks "${bench}" --thresholds "${thresholds}")
file(REMOVE "${thresholds}/acknowledgements.json")
expect("history: no benchmarks folder" 2 "no-such-folder: no such folder of result CSVs"
       history --benchmarks "${WORK_DIR}/no-such-folder" --thresholds "${thresholds}")
expect("history: bad format" 2 "format" history --benchmarks "${bench}" --format yaml)

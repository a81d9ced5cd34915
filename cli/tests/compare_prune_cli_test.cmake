# perfgate compare, prune, and the runtime-kind / host-tag options as a user runs them: exit codes
# and messages (issue 15 items 3, 4, 5).
#   cmake -DPERFGATE=<perfgate> -DSOURCE=<source dir> -DWORK_DIR=<scratch> -P compare_prune_cli_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(outputs "${SOURCE}/perf/tests/data/recorded/llama-bench-outputs")

include("${CMAKE_CURRENT_LIST_DIR}/expect_exit.cmake")
function(expect name code regex)
  perfgate_expect_exit("${name}" "${WORK_DIR}" "${code}" "${regex}" "${PERFGATE}" ${ARGN})
endfunction()

# compare: the gate's verdicts and exit codes.
expect("compare json with itself" 0 "(unchanged|within noise).*gate: PASS" compare "${outputs}/run-a.json" "${outputs}/run-a.json"
       --thresholds-dir "${SOURCE}/thresholds")
expect("compare csv against jsonl, markdown" 0 "## perfgate" compare "${outputs}/run-a.csv" "${outputs}/run-b.jsonl"
       --thresholds-dir "${SOURCE}/thresholds" --format markdown)
# run-a.json with the tg test's rates (its second test object) divided by ten. CMake has no
# floating point: the decimal point moves one place (22.7607 -> 2.27607).
file(READ "${outputs}/run-a.json" a_json)
set(slow "${a_json}")
foreach(i RANGE 0 2)
  string(JSON s GET "${a_json}" 1 samples_ts ${i})
  string(REGEX REPLACE "^([0-9])([0-9]*)\\.([0-9]*)$" "0.\\1\\2\\3" s10 "${s}")
  string(JSON slow SET "${slow}" 1 samples_ts ${i} "${s10}")
endforeach()
string(JSON tg_avg GET "${a_json}" 1 avg_ts)
string(REGEX REPLACE "^([0-9])([0-9]*)\\.([0-9]*)$" "0.\\1\\2\\3" avg10 "${tg_avg}")
string(JSON slow SET "${slow}" 1 avg_ts "${avg10}")
file(WRITE "${WORK_DIR}/slow.json" "${slow}")
expect("compare: decode fell to a tenth or less" 1 "REGRESSED.*decode_tok_s.*gate: FAIL: 1 pair regressed" compare "${outputs}/run-a.json"
       "${WORK_DIR}/slow.json" --thresholds-dir "${SOURCE}/thresholds")
expect("compare: junit failure with a body" 1 "<failure type=\"regressed\"[^>]*>[^<]+</failure>" compare
       "${outputs}/run-a.json" "${WORK_DIR}/slow.json" --thresholds-dir "${SOURCE}/thresholds" --format junit)
file(WRITE "${WORK_DIR}/garbage.jsonl" "{\"n_prompt\": 32}\nnot json\n")
expect("compare: bad llama-bench line" 2 "garbage.jsonl:2: invalid JSON" compare "${outputs}/run-a.json"
       "${WORK_DIR}/garbage.jsonl")
expect("compare: missing file" 2 "no-such-file" compare "${outputs}/run-a.json" "${WORK_DIR}/no-such-file.json")
expect("compare sql with itself" 0 "(unchanged|within noise).*gate: PASS" compare "${outputs}/run-a.sql" "${outputs}/run-a.sql"
       --thresholds-dir "${SOURCE}/thresholds")
file(WRITE "${WORK_DIR}/cut.sql" "INSERT INTO llama_bench (n_prompt, n_gen) VALUES ('0', '8')\n")
expect("compare: sql statement cut short" 2 "cut.sql:1: llama-bench SQL: the statement ends before its ';'" compare
       "${outputs}/run-a.json" "${WORK_DIR}/cut.sql")

# prune: removes a run, keeps the rest byte for byte; an unknown run id is an error.
set(csv "${WORK_DIR}/cpu_box_2026-12-01.csv")
file(READ "${SOURCE}/benchmarks/cpu_cpu-epyc_2026-11-29.csv" committed)
file(WRITE "${csv}" "${committed}")
expect("prune: unknown run id" 2 "no row of run no-such-run found" prune --run-id no-such-run --results "${csv}")
expect("prune: neither --results nor --benchmarks-dir" 2 "give --results CSV or --benchmarks-dir DIR" prune --run-id x)
file(READ "${csv}" after)
if(NOT after STREQUAL committed)
  message(FATAL_ERROR "prune of an unknown run changed the file")
endif()
# The committed cpu baseline holds two runs of five rows; pruning the second leaves exactly the
# header and the first run's lines.
expect("prune: the second run" 0 "5 rows of run 20261129T193653-490 removed" prune --run-id 20261129T193653-490
       --benchmarks-dir "${WORK_DIR}")
file(STRINGS "${SOURCE}/benchmarks/cpu_cpu-epyc_2026-11-29.csv" lines)
set(expected "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "20261129T193653-490")
    string(APPEND expected "${line}\n")
  endif()
endforeach()
file(READ "${csv}" after)
if(NOT after STREQUAL expected)
  message(FATAL_ERROR "prune: the file is not the original without the run's lines")
endif()
message(STATUS "ok: prune kept every other byte")

# probe and run: the suites' runtime kinds are accepted, unknown kinds and bad host tags are exit 2.
expect("probe --runtime unknown" 2 "unknown runtime kind \"llamabench\"; valid kinds: llama-bench, llama-server, mlxcel"
       probe --runtime llamabench --runtime-binary /bin/true)
expect("probe --runtime llama-bench" 0 "host " probe --runtime llama-bench --runtime-binary /bin/true)
expect("probe --host-tag bad" 2 "--host-tag \"Bad_Tag\" is not a host tag" probe --host-tag Bad_Tag)
expect("probe --host-tag good" 0 "host my-box-2 " probe --host-tag my-box-2)
expect("run --probe-runtime unknown" 2 "unknown runtime kind \"nope\"" run --suite "${SOURCE}/perf/suites/cpu.json"
       --write-host "${WORK_DIR}/host.json" --probe-runtime nope=/bin/true)
expect("run --host-tag" 0 "host my-box-2 " run --suite "${SOURCE}/perf/suites/cpu.json" --write-host "${WORK_DIR}/host.json"
       --host-tag my-box-2)

# gate and report read llama-bench's own output too (issue 25 item 5): with --host, as its rows.
expect("gate json without --host" 2 "run-a.json: llama-bench -o json output names no host.*--host"
       gate --results "${outputs}/run-a.json" --benchmarks-dir "${WORK_DIR}" --thresholds-dir "${SOURCE}/thresholds")
expect("gate jsonl with --host, first run allowed" 0 "perfgate: pass.*run-a.jsonl read as llama-bench -o jsonl"
       gate --results "${outputs}/run-a.jsonl" --host h --benchmarks-dir "${WORK_DIR}" --thresholds-dir "${SOURCE}/thresholds"
       --allow-empty --format markdown)
expect("gate sql with --host, first run allowed" 0 "perfgate: pass.*run-b.sql read as llama-bench -o sql"
       gate --results "${outputs}/run-b.sql" --host h --benchmarks-dir "${WORK_DIR}" --thresholds-dir "${SOURCE}/thresholds"
       --allow-empty --format markdown)
expect("report sql with --host" 0 "wrote .*lb-sql.md"
       report --results "${outputs}/run-a.sql" --host h --output "${WORK_DIR}/lb-sql.md" --no-charts)
file(READ "${WORK_DIR}/lb-sql.md" page)
if(NOT page MATCHES "run-a.sql read as llama-bench -o sql" OR NOT page MATCHES "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4")
  message(FATAL_ERROR "report of a llama-bench sql: the page does not name the file or the model:\n${page}")
endif()
expect("report refuses a page name that promises HTML" 2 "the page is markdown.*perfgate site"
       report --results "${outputs}/run-b.json" --host h --output "${WORK_DIR}/lb.html" --no-charts)
if(EXISTS "${WORK_DIR}/lb.html")
  message(FATAL_ERROR "report wrote ${WORK_DIR}/lb.html after refusing it")
endif()
expect("report json with --host" 0 "wrote .*lb.md"
       report --results "${outputs}/run-b.json" --host h --output "${WORK_DIR}/lb.md" --no-charts)
file(READ "${WORK_DIR}/lb.md" page)
if(NOT page MATCHES "run-b.json read as llama-bench -o json" OR NOT page MATCHES "tiny-llama-ci-Q8_0-0b867dabe9a5bcd4")
  message(FATAL_ERROR "report of a llama-bench json: the page does not name the file or the model:\n${page}")
endif()

# export: a run as Bencher Metric Format JSON; llama-bench's own output exported like a CSV.
expect("export llama-bench json as bmf" 0 "\"decode_tok_s\": \\{[^}]*\"value\"" export --format bmf
       --results "${outputs}/run-a.json" --host cpu-epyc)
expect("export names an unknown run" 2 "no row of run no-such-run" export --format bmf
       --results "${SOURCE}/benchmarks/cpu_cpu-epyc_2026-11-29.csv" --run-id no-such-run)
expect("export refuses an unknown format" 2 "bmf" export --format xml --results "${outputs}/run-a.json")
# export for Conbench: one run, the runtime's GitHub repository required.
expect("export llama-bench json for conbench" 0 "\"unit\": \"i/s\"" export --format conbench
       --results "${outputs}/run-a.json" --host cpu-epyc --repository https://github.com/ggml-org/llama.cpp)
expect("export for conbench needs a github repository" 2 "https://github.com/ORG/REPO" export --format conbench
       --results "${outputs}/run-a.json" --host cpu-epyc --repository https://gitlab.com/x/y)
expect("export for conbench takes one run" 2 "export one run at a time with --run-id" export --format conbench
       --results "${SOURCE}/benchmarks/cpu_cpu-epyc_2026-11-29.csv" --repository https://github.com/ggml-org/llama.cpp)
expect("export for bencher takes one run" 2 "rows of 2 runs.*Bencher.*export one run at a time with --run-id"
       export --format bmf --results "${SOURCE}/benchmarks/cpu_cpu-epyc_2026-11-29.csv")

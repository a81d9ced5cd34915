# perfgate site on the committed benchmarks/, then the page in Debian's chromium
# (site_browser_test.cjs). scripts/bootstrap installs chromium and tools/site (npm ci).
#   cmake -DPERFGATE=<perfgate> -DSOURCE=<source dir> -DWORK_DIR=<scratch> -P site_browser_test.cmake
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(need /usr/bin/chromium "${SOURCE}/tools/site/node_modules/playwright-core/package.json"
             "${SOURCE}/tools/site/node_modules/uplot/dist/uPlot.iife.min.js")
  if(NOT EXISTS "${need}")
    message(FATAL_ERROR "site browser test: ${need} is missing: run scripts/bootstrap (chromium, npm ci in tools/site)")
  endif()
endforeach()
find_program(NODE node REQUIRED)
# The committed thresholds with one acknowledged change (the committed file has none), so the page
# has a mark to draw: llama-3.1-8b decode on the h200 from its second day.
file(COPY "${SOURCE}/thresholds/" DESTINATION "${WORK_DIR}/thresholds")
file(WRITE "${WORK_DIR}/thresholds/acknowledgements.json" [=[
{"acknowledgements": [
  {"host": "h200", "runtime": "llama-bench", "model": "llama-3.1-8b", "metric": "decode_tok_s",
   "from": "2026-12-01", "why": "browser test: an acknowledged change"}]}
]=])
execute_process(
  COMMAND "${PERFGATE}" site --benchmarks-dir "${SOURCE}/benchmarks" --thresholds-dir "${WORK_DIR}/thresholds"
          --output-dir "${WORK_DIR}/site" --uplot-dir "${SOURCE}/tools/site/node_modules/uplot"
          --commit-url "llama-bench=https://github.com/ggml-org/llama.cpp/commit/{commit}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "perfgate site exited ${rc}")
endif()
execute_process(
  COMMAND "${NODE}" "${CMAKE_CURRENT_LIST_DIR}/site_browser_test.cjs" "${WORK_DIR}/site" "${SOURCE}/benchmarks"
          "${SOURCE}/tools/site" "${WORK_DIR}/site-screenshot.png"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the dashboard failed in the browser (exit ${rc})")
endif()

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
execute_process(
  COMMAND "${PERFGATE}" site --benchmarks-dir "${SOURCE}/benchmarks" --thresholds-dir "${SOURCE}/thresholds"
          --output-dir "${WORK_DIR}/site" --uplot-dir "${SOURCE}/tools/site/node_modules/uplot"
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

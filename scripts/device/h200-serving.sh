#!/usr/bin/env bash
# The cuda serving pairs live on a lent H200 (docs/serving.md, "On an H200"): build the pinned
# llama.cpp for CUDA (llama-bench and llama-server), then run the serving pairs of
# perf/suites/cuda-serving.json RUNS times (ctest -L serving; each run gated against the ones
# before it), and copy the CSVs and the logs to $OUT.
# Usage (device): scripts/device/h200-serving.sh RUNS
#   (carry .device-carry: bin/perfgate, lib/, cache/node-llama-cpp-<version>.tgz)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
runs="${1:-2}"
. scripts/device/carried-perfgate.sh
t0=$SECONDS
scripts/device/h200-trust.sh setup || { cp "$OUT"/*.log "$results"/ 2>/dev/null; exit 1; }
echo "h200-serving: setup at $((SECONDS - t0)) s" >&2
export LD_LIBRARY_PATH="$PERFGATE_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for i in $(seq 1 "$runs"); do
  ctest --test-dir build/cuda-perf -L serving -V > "$results/ctest-serving-$i.log" 2>&1
  echo "h200-serving: run $i ended $? at $((SECONDS - t0)) s" >&2
  grep -E "output tok/s, TTFT|^[0-9]+: (regressed|inconclusive|improved|unchanged|within noise|failed|new) " \
    "$results/ctest-serving-$i.log" | cut -c1-220 >&2
  cp build/h200/benchmarks/*.csv "$results"/ 2>/dev/null
done
echo "h200-serving: done at $((SECONDS - t0)) s" >&2

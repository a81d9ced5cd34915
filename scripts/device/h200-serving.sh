#!/usr/bin/env bash
# The cuda serving pairs live on a lent H200 (docs/serving.md, "On an H200"): build the pinned
# llama.cpp for CUDA (llama-bench and llama-server), then run the serving pairs of
# perf/suites/cuda-serving.json once per word of PLAN (ctest -L serving; each run gated against
# the unchanged runs before it), and copy the CSVs and the logs to $OUT.
# Usage (device): scripts/device/h200-serving.sh PLAN
#   PLAN: words run in order: `base` (the suite as committed), or a variant such as `plus10`
#   (each model forged from perf/models/<model>-<variant>.json under its base name: a real
#   slowdown); a number N alone means N base runs. A variant run is gated against the base runs
#   before it, and its rows go to variant-<k>/ only, never into the history the base runs grow.
#   (carry .device-carry: bin/perfgate, lib/, cache/node-llama-cpp-<version>.tgz)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
plan="${1:-2}"
[[ "$plan" =~ ^[0-9]+$ ]] && plan="$(yes base | head -n "$plan" | tr '\n' ' ')"
. scripts/device/carried-perfgate.sh
t0=$SECONDS
scripts/device/h200-trust.sh setup || { cp "$OUT"/*.log "$results"/ 2>/dev/null; exit 1; }
echo "h200-serving: setup at $((SECONDS - t0)) s" >&2
export LD_LIBRARY_PATH="$PERFGATE_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
history=build/h200/benchmarks suite=perf/suites/cuda-serving.json
cp "$suite" build/h200/cuda-serving.committed.json
i=0
for word in $plan; do
  i=$((i + 1)); log="$results/ctest-serving-$i-$word.log"
  cp build/h200/cuda-serving.committed.json "$suite"
  if [ "$word" != base ]; then
    # The suite is read when each test runs: point its models at the variant's forge specs, and
    # let the run append to a copy of the history, kept apart afterwards.
    sed -i -E "s#\"\\.\\./models/([a-z0-9.-]+)\\.json\"#\"../models/\\1-$word.json\"#" "$suite"
    rm -rf "$history.base"; cp -r "$history" "$history.base"
  fi
  ctest --test-dir build/cuda-perf -L serving -V > "$log" 2>&1
  echo "h200-serving: run $i ($word) ended $? at $((SECONDS - t0)) s" >&2
  grep -E "output tok/s, TTFT|^[0-9]+: (regressed|inconclusive|improved|unchanged|within noise|failed|new) " \
    "$log" | cut -c1-220 >&2
  if [ "$word" != base ]; then
    mkdir -p "$results/variant-$i-$word"; cp "$history"/*.csv "$results/variant-$i-$word"/ 2>/dev/null
    rm -rf "$history"; mv "$history.base" "$history"
  else
    cp "$history"/*.csv "$results"/ 2>/dev/null
  fi
done
cp build/h200/cuda-serving.committed.json "$suite"
echo "h200-serving: done at $((SECONDS - t0)) s" >&2

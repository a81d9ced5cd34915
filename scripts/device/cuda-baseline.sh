#!/usr/bin/env bash
# Reproduces the published CUDA baseline (docs/benchmark_results/cuda_<host>_<date>.md) on a
# machine with an NVIDIA GPU, the CUDA toolkit, cmake, ninja and python3 with torch + transformers.
#
#   scripts/device/cuda-baseline.sh build   # pinned llama.cpp for CUDA + configure the cuda-perf suite
#   scripts/device/cuda-baseline.sh run     # ctest --preset cuda-perf -L perf (records/gates the CSV)
#   scripts/device/cuda-baseline.sh all     # build, then run twice: the baseline, then a gated run
# and afterwards, where gnuplot is (the page's charts):
#   perfgate report --results benchmarks/cuda_<host>_<date>.csv --history-dir benchmarks \
#       --output docs/benchmark_results/cuda_<host>_<date>.md --note "<the second run's gate verdict>"
#
# Environment:
#   PERFGATE_EXECUTABLE       a perfgate built elsewhere (the GPU machine then needs no Debian -dev
#                             packages: CMake only registers the suites and builds llama-bench);
#                             default: perfgate is built here by the cuda-perf preset
#   PERFGATE_FETCH_CACHE_DIR  folder holding node-llama-cpp-<version>.tgz (fetched with npm when
#                             missing; verified against the pinned integrity either way)
#   PERFGATE_DEB_DIR          Debian 12 .deb files of perfgate's build dependencies (Boost, fmt, CLI11,
#                             nlohmann_json), unpacked into build/deps for a machine that is not
#                             Debian and cannot install them (an offline GPU box)
#   CUDA_ARCHS                CUDA architectures (default 90: H100/H200)
#   PERFGATE_BUILD_DIR        build folder (default build/cuda-perf)
#   PERFGATE_RESULTS_DIR      where the CSV goes (default benchmarks/)
#   OUT                       folder that receives copies of the logs and outputs (default build/cuda-baseline)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
stage="${1:-all}"
CUDA_ARCHS="${CUDA_ARCHS:-90}"
OUT="${OUT:-$repo/build/cuda-baseline}"
mkdir -p "$OUT"
# Both may live outside the source tree (a machine where the tree is replaced between steps).
build_dir="${PERFGATE_BUILD_DIR:-$repo/build/cuda-perf}"
results_dir="${PERFGATE_RESULTS_DIR:-$repo/benchmarks}"
say() { echo "cuda-baseline: $*" >&2; }

if [ -n "${PERFGATE_DEB_DIR:-}" ]; then
  deps="$repo/build/deps"
  if [ ! -d "$deps/usr" ]; then
    mkdir -p "$deps"
    for deb in "$PERFGATE_DEB_DIR"/*.deb; do dpkg -x "$deb" "$deps"; done
  fi
  export CMAKE_PREFIX_PATH="$deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

perfgate_bin() {
  if [ -n "${PERFGATE_EXECUTABLE:-}" ]; then echo "$PERFGATE_EXECUTABLE"; else echo "$build_dir/cli/perfgate"; fi
}

do_build() {
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv | tee "$OUT/nvidia-smi.csv" >&2
  local args=(--preset cuda-perf -B "$build_dir" -DPERFGATE_CUDA_ARCHITECTURES="$CUDA_ARCHS" -DPERFGATE_BUILD_TESTS=OFF
              -DPERFGATE_RESULTS_DIR="$results_dir")
  [ -z "${PERFGATE_EXECUTABLE:-}" ] || args+=(-DPERFGATE_EXECUTABLE="$PERFGATE_EXECUTABLE")
  [ -z "${PERFGATE_FETCH_CACHE_DIR:-}" ] || args+=(-DPERFGATE_FETCH_CACHE_DIR="$PERFGATE_FETCH_CACHE_DIR")
  say "configure: cmake ${args[*]}"
  cmake "${args[@]}" > "$OUT/configure.log" 2>&1 || { tail -n 40 "$OUT/configure.log" >&2; exit 1; }
  local t0=$SECONDS
  # Without a prebuilt perfgate this builds perfgate too; the embedded llama.cpp is part of "all".
  cmake --build "$build_dir" --parallel "$(nproc)" > "$OUT/build.log" 2>&1 || { tail -n 40 "$OUT/build.log" >&2; exit 1; }
  say "build took $((SECONDS - t0)) s"
  "$build_dir"/llama.cpp/build-cuda/bin/llama-bench --list-devices 2>&1 | tee "$OUT/llama-bench-devices.txt" >&2 || true
}

do_run() {
  local n="$1" pg; pg="$(perfgate_bin)"
  "$pg" probe --json > "$OUT/probe.json"
  "$pg" probe >&2
  say "run $n: ctest -L perf in $build_dir (what ctest --preset cuda-perf -L perf runs)"
  local t0=$SECONDS rc=0
  ctest --test-dir "$build_dir" -L perf -V > "$OUT/ctest-run$n.log" 2>&1 || rc=$?
  say "run $n took $((SECONDS - t0)) s, ctest exit $rc"
  grep -E "Test +#|tests passed|Skipped|perfgate: |regressed|unchanged|improved|inconclusive" "$OUT/ctest-run$n.log" | tail -n 40 >&2 || true
  cp "$build_dir"/perf-gate/cuda/perf-gate.md "$OUT/perf-gate-run$n.md" 2>/dev/null || true
  cp "$build_dir"/perf-gate/cuda/perf-gate.json "$OUT/perf-gate-run$n.json" 2>/dev/null || true
  cp "$results_dir"/cuda_*.csv "$OUT/" 2>/dev/null || true
}

case "$stage" in
  build) do_build ;;
  run) do_run "${2:-1}" ;;
  all) do_build; do_run 1; do_run 2 ;;
  *) echo "usage: $0 build | run [N] | all" >&2; exit 2 ;;
esac

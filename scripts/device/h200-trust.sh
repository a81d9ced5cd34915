#!/usr/bin/env bash
# The H200 runs behind docs/verdict-quality.md ("H200"): unchanged runs of the cuda suite (the
# host's history, A/A) and runs of a real ~10% slowdown (detection), all recorded by perfgate.
# Run from the project root on a machine with an NVIDIA GPU, the CUDA toolkit, cmake, ninja and
# python3 with torch + transformers, and a perfgate built elsewhere (the GPU box needs no -dev
# packages: CMake only registers the suites and builds the pinned llama.cpp):
#
#   scripts/device/h200-trust.sh setup           # pinned llama.cpp for CUDA + the cuda suite's tests
#   scripts/device/h200-trust.sh full SECONDS    # whole cuda suite (ctest -L perf) until SECONDS pass
#   scripts/device/h200-trust.sh lb SECONDS      # llama-bench pairs only, likewise
#   scripts/device/h200-trust.sh detect MODEL VARIANT N  # N runs of MODEL forged as VARIANT
#                                                # (perf/models/MODEL-VARIANT.json) under the base
#                                                # name, llama-bench only
#   scripts/device/h200-trust.sh bandwidth       # device-to-device copy bandwidth (roofline)
#
# Environment: PERFGATE_EXECUTABLE (required), PERFGATE_FETCH_CACHE_DIR (node-llama-cpp tarball),
# PERFGATE_LIB_DIR (shared libraries the carried perfgate needs), CUDA_ARCHS (default 90),
# OUT (where logs and CSVs are copied; default build/h200). Results stay under build/h200/, inside
# the project, so the CSVs record paths relative to it.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
stage="${1:?usage: $0 setup | full SECONDS | lb SECONDS | detect MODEL VARIANT N | bandwidth}"
build=build/cuda-perf
work=build/h200
OUT="${OUT:-$repo/$work/out}"
mkdir -p "$OUT" "$work/benchmarks"
[ -z "${PERFGATE_LIB_DIR:-}" ] || export LD_LIBRARY_PATH="$PERFGATE_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
pg="${PERFGATE_EXECUTABLE:?PERFGATE_EXECUTABLE: a perfgate binary}"
say() { echo "h200-trust: $*" >&2; }
copy_out() {
  cp "$work"/benchmarks/*.csv "$OUT"/ 2>/dev/null || true
  # One folder per model and variant, each holding cuda_h200_<date>_<variant>.csv: keep them apart.
  for f in "$work"/detect-*/*.csv; do [ -e "$f" ] && cp "$f" "$OUT/$(basename "$(dirname "$f")")_$(basename "$f")"; done
  true
}

case "$stage" in
  setup)
    nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv | tee "$OUT/nvidia-smi.csv" >&2
    "$pg" probe >&2
    # The history so far (earlier H200 runs) sits beside the new rows, as benchmarks/ would.
    # Not with H200_FRESH_FILES=1: the rows then go to files of their own, in today's layout with
    # the machine columns (appended to a committed file of the day, written before those columns,
    # they would be written in that file's layout, without them).
    [ "${H200_FRESH_FILES:-0}" = 1 ] || cp benchmarks/cuda_h200_*.csv "$work/benchmarks/" 2>/dev/null || true
    args=(--preset cuda-perf -B "$build" -DPERFGATE_EXECUTABLE="$pg" -DPERFGATE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}"
          -DPERFGATE_RESULTS_DIR="$repo/$work/benchmarks")
    [ -z "${PERFGATE_FETCH_CACHE_DIR:-}" ] || args+=(-DPERFGATE_FETCH_CACHE_DIR="$PERFGATE_FETCH_CACHE_DIR")
    t0=$SECONDS
    cmake "${args[@]}" > "$OUT/configure.log" 2>&1 || { tail -n 30 "$OUT/configure.log" >&2; exit 1; }
    cmake --build "$build" --parallel "$(nproc)" > "$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log" >&2; exit 1; }
    say "configure + build took $((SECONDS - t0)) s"
    ;;
  full|lb)
    limit="${2:?seconds}"; t0=$SECONDS; n=0
    # lb: the cuda suite's llama-bench pairs and its probe and gate; not the serving suite's gate,
    # which fails with no serving row to judge (ctest exit 8 on every lb run before 2026-12-04).
    filter=(); [ "$stage" = lb ] && filter=(-R 'perf\.(probe|gate)\.cuda$|perf\.llama-bench\.')
    while [ $((SECONDS - t0)) -lt "$limit" ]; do
      n=$((n + 1)); t1=$SECONDS; rc=0
      ctest --test-dir "$build" -L perf "${filter[@]}" -V > "$OUT/ctest-$stage-$n-$$.log" 2>&1 || rc=$?
      say "$stage run $n took $((SECONDS - t1)) s, ctest exit $rc"
      grep -E "^[0-9]+: (regressed|inconclusive|improved|unchanged|failed|new) " "$OUT/ctest-$stage-$n-$$.log" | grep -v "unchanged" | head -n 12 >&2 || true
      copy_out  # after every run: a call cut off at its time limit still returns the runs it made
      # A run costs about as long as the last one: stop before overrunning the budget.
      [ $((SECONDS - t0 + SECONDS - t1)) -lt "$limit" ] || break
    done
    copy_out
    ;;
  detect)
    model="${2:?model (tiny-llama-ci, llama-3.2-1b, llama-3.1-8b)}"; variant="${3:?variant (plus5, plus10)}"
    n="${4:?runs}"
    folder="$work/detect-$model-$variant"
    suite="$work/cuda-detect-$model-$variant.json"
    python3 - "$model" "$variant" "$suite" <<'PY'
import json, sys
model, variant, out = sys.argv[1:4]
s = json.load(open("perf/suites/cuda.json"))
s["suite"] = "cuda-detect-%s-%s" % (model, variant)
s["description"] = "%s forged from %s-%s.json under the base name: a real slowdown" % (model, model, variant)
base = [m for m in s["models"] if m["name"] == model][0]
# The suite file lives in build/h200/: spec and runtime paths are relative to it.
s["models"] = [dict(name=model, forge_spec="../../perf/models/%s-%s.json" % (model, variant), format=base["format"])]
s["runtimes"] = [r for r in s["runtimes"] if r["name"] == "llama-bench"]
json.dump(s, open(out, "w"), indent=1)
PY
    mkdir -p "$folder"
    host="$folder/host.json"
    "$pg" run --suite "$suite" --write-host "$host" >&2
    for i in $(seq 1 "$n"); do
      "$pg" run --suite "$suite" --host-json "$host" --results-dir "$folder" --suffix "$variant" \
        --forge-dir "$build/forged" --vocab-dir "$build/llama.cpp/src/models" --binary llama-bench="$build/llama.cpp/build-cuda/bin/llama-bench" \
        --pair "llama-bench/$model" > "$work/detect-$model-$variant-$i.log" 2>&1 || say "detect $model $variant run $i exit $?"
      rm -f "$host"; "$pg" run --suite "$suite" --write-host "$host" > /dev/null  # a new run id per run
    done
    copy_out
    ;;
  bandwidth)
    python3 - <<'PY' | tee "$OUT/bandwidth.txt"
import torch, time
n = 4 << 30  # 4 GiB each way
a = torch.empty(n, dtype=torch.uint8, device="cuda"); b = torch.empty_like(a)
for _ in range(3): b.copy_(a)
torch.cuda.synchronize()
best = 0.0
for _ in range(10):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); b.copy_(a); e.record(); torch.cuda.synchronize()
    best = max(best, 2 * n / (s.elapsed_time(e) / 1e3))
print(f"device_to_device_copy_bytes_per_s={best:.4e} (read+write, best of 10, 4 GiB, torch {torch.__version__})")
PY
    ;;
  *) echo "usage: $0 setup | full SECONDS | lb SECONDS | detect MODEL VARIANT N | bandwidth" >&2; exit 2 ;;
esac

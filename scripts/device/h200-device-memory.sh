#!/usr/bin/env bash
# One device call that shows the device-memory column live (docs/runner.md, "Device memory"): on a
# freshly lent H200, build the pinned llama.cpp for CUDA, run the llama-bench pairs of the cuda
# suite once (every row should carry peak_device_memory_bytes), and record what nvidia-smi's
# per-process query prints while a llama-bench holds the GPU, as evidence of the source's format
# on this machine. The CSVs and the capture go to $OUT.
# Usage (device): scripts/device/h200-device-memory.sh   (carry .device-carry: bin/perfgate, lib/, cache/)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. scripts/device/carried-perfgate.sh
t0=$SECONDS
trust=scripts/device/h200-trust.sh
$trust setup || exit 1
echo "h200-device-memory: setup at $((SECONDS - t0)) s" >&2
$trust lb 1
cp "$OUT"/*.csv "$results"/ 2>/dev/null
echo "h200-device-memory: one llama-bench pass at $((SECONDS - t0)) s" >&2
# The source itself while a runtime holds the GPU: a llama-bench of the forged 1B model.
bench=build/cuda-perf/llama.cpp/build-cuda/bin/llama-bench
model=$(find build -name "*llama-3.2-1b*.gguf" 2>/dev/null | head -n 1)
if [ -x "$bench" ] && [ -n "$model" ]; then
  "$bench" -m "$model" -p 512 -n 256 -r 3 > /dev/null 2>&1 & pid=$!
  for i in 1 2 3 4 5; do
    sleep 1
    echo "t=${i}s llama-bench pid $pid:" >> "$results/compute-apps.txt"
    nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv,noheader,nounits >> "$results/compute-apps.txt" 2>&1
  done
  wait "$pid"
fi
echo "h200-device-memory: done at $((SECONDS - t0)) s" >&2

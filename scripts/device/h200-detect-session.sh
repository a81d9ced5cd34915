#!/usr/bin/env bash
# One device call of the H200 detection runs (docs/verdict-quality.md, "H200 detection"): build,
# a short llama-bench-only A/A run (out of sample for thresholds/h200.json), then N runs each of
# llama-3.2-1b and llama-3.1-8b forged with about 10% more weight traffic under their base names.
# The machine returns at most 8 files, so the logs stay in build/h200/out and only CSVs go to $OUT.
# Usage (device): scripts/device/h200-detect-session.sh N [LB_SECONDS]   (carry .device-carry)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
n="${1:?runs per model}"; lb="${2:-0}"
export PERFGATE_EXECUTABLE="$PWD/.device-carry/bin/perfgate" PERFGATE_LIB_DIR="$PWD/.device-carry/lib" \
       PERFGATE_FETCH_CACHE_DIR="$PWD/.device-carry/cache"
results="${OUT:?OUT}"
export OUT="$PWD/build/h200/out"
trust=scripts/device/h200-trust.sh
t0=$SECONDS
back() { cp "$OUT"/*.csv "$results"/ 2>/dev/null; echo "h200-detect: $1 at $((SECONDS - t0)) s" >&2; }
[ -x build/cuda-perf/llama.cpp/build-cuda/bin/llama-bench ] || { $trust setup || exit 1; }
back setup
[ "$lb" = 0 ] || { $trust lb "$lb"; back "A/A llama-bench runs"; }
$trust detect llama-3.2-1b plus10 "$n"; back "llama-3.2-1b plus10"
$trust detect llama-3.1-8b plus10 "$n"; back "llama-3.1-8b plus10"
tail -n 3 build/h200/detect-*-1.log >&2

#!/usr/bin/env bash
# One device call of the between-machine runs (docs/verdict-quality.md, "H200: runs on several
# machines"): on a freshly lent H200, build the pinned llama.cpp for CUDA, then unchanged
# llama-bench-only runs of the cuda suite for LB_SECONDS. Every row records the machine's id and
# fingerprint (perfgate probe), so the rows of several calls tell the spread between machines from
# the spread between runs on one. The CSVs go to $OUT; the logs stay in build/h200/out.
# With STAGE full, the runs are of the whole cuda suite, transformers pairs included (their
# between-launch spread and its tail were read off 23 launches only: docs/verdict-quality.md).
# Usage (device): scripts/device/h200-machine-session.sh SECONDS [lb|full]   (carry .device-carry)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
lb="${1:?seconds of runs}"
stage="${2:-lb}"
case "$stage" in lb|full) ;; *) echo "h200-machine: STAGE is lb or full, not '$stage'" >&2; exit 2 ;; esac
export PERFGATE_EXECUTABLE="$PWD/.device-carry/bin/perfgate" PERFGATE_LIB_DIR="$PWD/.device-carry/lib" \
       PERFGATE_FETCH_CACHE_DIR="$PWD/.device-carry/cache"
results="${OUT:?OUT}"
export OUT="$PWD/build/h200/out"
trust=scripts/device/h200-trust.sh
export H200_FRESH_FILES=1  # rows keep the machine columns (see h200-trust.sh setup)
t0=$SECONDS
back() { cp "$OUT"/*.csv "$results"/ 2>/dev/null; echo "h200-machine: $1 at $((SECONDS - t0)) s" >&2; }
LD_LIBRARY_PATH="$PERFGATE_LIB_DIR" "$PERFGATE_EXECUTABLE" probe --json > "$results/probe.json" 2>&1
[ -x build/cuda-perf/llama.cpp/build-cuda/bin/llama-bench ] || { $trust setup || exit 1; }
back setup
# The runs' CSVs are copied to $results after every run (h200-trust.sh lb): a call cut off by the
# device's time limit still returns what it measured (keep LB_SECONDS + setup under the limit).
( while sleep 20; do cp "$OUT"/*.csv "$results"/ 2>/dev/null; done ) & copier=$!
$trust "$stage" "$lb"; kill "$copier" 2>/dev/null; back "$stage runs"

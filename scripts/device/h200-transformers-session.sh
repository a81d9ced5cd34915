#!/usr/bin/env bash
# One device call of transformers-only runs (docs/verdict-quality.md, "H200: does a rerun share its
# run's level"): the transformers pairs of the cuda suite, each run twice back to back (runs a and
# b, two processes a few seconds apart), cycling over the models until SECONDS pass. transformers
# runs its repetitions inside one process, so a run is a process; machine G showed its pairs moving
# by 17-27% from run to run against 5-11% within one. Whether the next process lands near the last
# one (a level shared by a confirming rerun) or anywhere (an independent draw) decides how much a
# rerun can help the gate; the a/b pairs against the gaps between cycles tell the two apart.
# No llama.cpp build: transformers builds each model from its spec on the GPU (perfgate still
# forges the model once, so the tokenizers travel: .device-carry/vocab holds the three GGUF vocab
# files of llama.cpp's models/ the suite's specs name). Every row records the machine's id and
# fingerprint. The CSVs go to $OUT after every cycle; a cycle without one recorded run stops it.
# Usage (device): scripts/device/h200-transformers-session.sh SECONDS [MODEL...]
#   (carry .device-carry: bin/perfgate, lib/, vocab/)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
limit="${1:?seconds of runs}"; shift
models=("$@"); [ ${#models[@]} -gt 0 ] || models=(tiny-llama-ci qwen3-0.6b llama-3.2-1b qwen3moe-a1b llama-3.1-8b)
export LD_LIBRARY_PATH="$PWD/.device-carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
pg="$PWD/.device-carry/bin/perfgate"
results="${OUT:?OUT}"
work=build/h200-transformers   # inside the project, so the rows record paths relative to it
mkdir -p "$work"
"$pg" probe --json > "$results/probe.json" 2>&1
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)" >&2
t0=$SECONDS; cycle=0
while [ $((SECONDS - t0)) -lt "$limit" ]; do
  cycle=$((cycle + 1)); t1=$SECONDS; ok=0
  for m in "${models[@]}"; do
    for side in a b; do
      "$pg" run --suite perf/suites/cuda.json --pair "transformers/$m" --results-dir "$work" --suffix "$side" \
        --vocab-dir .device-carry/vocab --forge-dir "$work/forged" --contention record \
        > "$work/run-$cycle-$m-$side.log" 2>&1 && ok=$((ok + 1)) || echo "h200-transformers: cycle $cycle $m $side exit $?" >&2
    done
  done
  cp "$work"/*.csv "$results"/ 2>/dev/null
  echo "h200-transformers: cycle $cycle took $((SECONDS - t1)) s, $ok runs recorded" >&2
  [ "$ok" -gt 0 ] || { tail -n 5 "$work/run-$cycle-${models[0]}-a.log" >&2; exit 1; }
  # A cycle costs about as long as the last one: stop before overrunning the budget.
  [ $((SECONDS - t0 + SECONDS - t1)) -lt "$limit" ] || break
done
cp "$work"/*.csv "$results"/ 2>/dev/null
tail -n 3 "$work"/run-1-*-a.log >&2

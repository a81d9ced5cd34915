#!/usr/bin/env bash
# The H200 A/B campaign (docs/ab.md, "On an H200"; docs/measurements/ab-h200-<date>/): real
# `perfgate ab` decisions of the pinned llama.cpp built for CUDA on a lent H200. Every decision runs
# a fixed ROUNDS rounds (--min-rounds = --max-rounds) and records each launch of both arms, so the
# shipped sequential rule (looks from round 5 to 10, early stop) is applied afterwards to the first
# k rounds of each decision by `perfgate ab --replay`, exactly as a live run would have looked, and
# any later rule can be judged on the same launches.
#
# Conditions (the head arm; the base arm is always the build's llama-bench):
#   aa       the base build's llama-bench copied to another path: the same static binary (A/A)
#   VARIANT  the base binary behind a wrapper that loads the model forged from
#            perf/models/MODEL-VARIANT.json under the base name: a real slowdown (more weight
#            traffic per token: ff2 about 2%, plus5 about 5.8%, plus10 about 10%)
#   rebuild  the llama-bench of a second build folder of this project (the same source, the same
#            options): an A/A of two builds
#   nographs the llama-bench of a build folder with -DGGML_CUDA_GRAPHS=OFF
#            (PERFGATE_LLAMA_EXTRA_CMAKE_ARGS): a real build change, its size measured by the run
#
# Usage (device): scripts/device/h200-ab.sh SECONDS ROUNDS MODEL:CONDITION...   (carry .device-carry)
#   ROUNDS "live": each decision runs the shipped rule live (its looks and early stop, the suite's
#   round limits), so a decision costs what it costs a user; its recorded rounds still replay.
#   The words are run round-robin, one decision each, until SECONDS have passed (a decision is
#   started only when one like the last of its model still fits). Set-up (the CUDA build, forging)
#   is done once per machine: a warm machine keeps build/ between calls, so a later call goes
#   straight to decisions. Back in $OUT: ab-decisions.tar.gz (per decision its report JSON, its
#   rows and its log), decisions.jsonl (one line per decision), probe.json, nvidia-smi.csv, setup.log.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
limit="${1:?seconds}"; rounds="${2:?rounds per decision}"; shift 2
[ $# -gt 0 ] || { echo "usage: $0 SECONDS ROUNDS MODEL:CONDITION..." >&2; exit 2; }
. scripts/device/carried-perfgate.sh
export LD_LIBRARY_PATH="$PERFGATE_LIB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
pg="$PERFGATE_EXECUTABLE"
t0=$SECONDS
build=build/cuda-perf work=build/h200/ab
forged="$build/forged" vocab="$build/llama.cpp/src/models"
bench="$build/llama.cpp/build-cuda/bin/llama-bench"
mkdir -p "$work/decisions" "$work/heads"
say() { echo "h200-ab: $* at $((SECONDS - t0)) s" >&2; }
send_back() {
  tar czf "$results/ab-decisions.tar.gz" -C "$work" decisions 2>/dev/null
  cp "$work/decisions.jsonl" "$results/" 2>/dev/null
  cp "$OUT/setup.log" "$OUT"/build-*.log "$results/" 2>/dev/null
  true
}

# The models every word needs, base and variants: forged while the build runs (the vocab folder
# exists once configure has fetched the source).
models=() specs=() builds=()
for word in "$@"; do
  model="${word%%:*}" cond="${word#*:}"
  [[ " ${models[*]} " == *" $model "* ]] || { models+=("$model"); specs+=("perf/models/$model.json"); }
  case "$cond" in aa) ;; rebuild|nographs) builds+=("$cond") ;; *) specs+=("perf/models/$model-$cond.json") ;; esac
done
for s in "${specs[@]}"; do [ -f "$s" ] || { echo "h200-ab: no spec $s" >&2; exit 2; }; done

# The build conditions: one more build folder of this project each (build/cuda-perf-COND), built
# beside the first; only llama.cpp's target, the suites need nothing else from them.
declare -A build_options=([rebuild]="" [nographs]="-DGGML_CUDA_GRAPHS=OFF")
build_condition() {  # COND: configure and build build/cuda-perf-COND
  local dir="build/cuda-perf-$1"
  cmake --preset cuda-perf -B "$dir" -DPERFGATE_EXECUTABLE="$pg" -DPERFGATE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" \
    -DPERFGATE_FETCH_CACHE_DIR="$PERFGATE_FETCH_CACHE_DIR" -DPERFGATE_LLAMA_EXTRA_CMAKE_ARGS="${build_options[$1]}" &&
    cmake --build "$dir" --target perfgate_llama_cpp
}
build_pids=()
for cond in $(printf '%s\n' "${builds[@]}" | sort -u); do
  [ -x "build/cuda-perf-$cond/llama.cpp/build-cuda/bin/llama-bench" ] && continue
  build_condition "$cond" > "$OUT/build-$cond.log" 2>&1 &
  build_pids+=($!)
done

if [ ! -x "$bench" ]; then
  scripts/device/h200-trust.sh setup > "$OUT/setup.log" 2>&1 &
  setup_pid=$!
  while [ ! -f "$vocab/ggml-vocab-llama-bpe.gguf" ] && kill -0 "$setup_pid" 2>/dev/null; do sleep 2; done
  for s in "${specs[@]}"; do "$pg" forge --spec "$s" --out "$forged" --vocab-dir "$vocab" >> "$OUT/setup.log" 2>&1 || say "forge $s failed"; done
  say "forged ${#specs[@]} models"
  wait "$setup_pid" || { say "setup failed"; tail -n 30 "$OUT/setup.log" >&2; send_back; exit 1; }
  say "setup done"
else
  for s in "${specs[@]}"; do "$pg" forge --spec "$s" --out "$forged" --vocab-dir "$vocab" >> "$OUT/setup.log" 2>&1; done
fi
for pid in "${build_pids[@]}"; do
  wait "$pid" || { say "a build condition failed"; tail -n 30 "$OUT"/build-*.log >&2; send_back; exit 1; }
done
[ ${#build_pids[@]} = 0 ] || say "built ${builds[*]}"
"$pg" probe --json > "$results/probe.json" 2>/dev/null
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$results/nvidia-smi.csv" 2>&1

# The campaign's suite: the cuda suite's llama-bench on the named models, its workload as committed
# but without cool-downs (interleaving, not resting, is what cancels drift in an A/B).
suite="$work/cuda-ab.json"
python3 - "$suite" "${models[@]}" <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
s = json.load(open("perf/suites/cuda.json"))
s["suite"] = "cuda-ab"
s["description"] = "scripts/device/h200-ab.sh: the cuda suite's llama-bench for interleaved A/B decisions"
s["workload"].update(cooldown_s=0, big_cooldown_s=0)
# The suite file lives in build/h200/ab/: spec paths are relative to it.
s["models"] = [dict(m, forge_spec="../../../perf/models/%s.json" % m["name"]) for m in s["models"] if m["name"] in names]
s["runtimes"] = [r for r in s["runtimes"] if r["name"] == "llama-bench"]
json.dump(s, open(out, "w"), indent=1)
PY

head_of() {  # MODEL CONDITION -> the head arm's executable
  local model="$1" cond="$2" head="$work/heads/$1-$2"
  if [ ! -x "$head" ]; then
    if [ "$cond" = aa ]; then
      cp "$bench" "$head"
    elif [ -n "${build_options[$cond]+set}" ]; then
      ln -s "$PWD/build/cuda-perf-$cond/llama.cpp/build-cuda/bin/llama-bench" "$head"
    else
      local gguf
      gguf="$(ls "$forged"/"$model-$cond"*.gguf 2>/dev/null | head -n 1)"
      [ -n "$gguf" ] || { echo "h200-ab: no forged $model-$cond in $forged" >&2; return 1; }
      # The head "does more work per token": the same binary on the variant's GGUF.
      printf '#!/usr/bin/env bash\nargs=(); prev=""\nfor x in "$@"; do\n  [ "$prev" = "-m" ] && x="%s"\n  args+=("$x"); prev="$x"\ndone\nexec "%s" "${args[@]}"\n' \
        "$PWD/$gguf" "$PWD/$bench" > "$head"
      chmod +x "$head"
    fi
  fi
  echo "$head"
}

declare -A last_seconds
n="$(ls "$work/decisions" | grep -c '\.json$')"
machine="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("machine_id",""))' "$results/probe.json" 2>/dev/null)"
stop=0
while [ "$stop" = 0 ]; do
  for word in "$@"; do
    model="${word%%:*}" cond="${word#*:}"
    need="${last_seconds[$model]:-60}"; [ "$need" -ge 20 ] || need=20
    if [ $((SECONDS - t0 + need)) -ge "$limit" ]; then stop=1; break; fi
    head="$(head_of "$model" "$cond")" || { stop=1; break; }
    n=$((n + 1)); name="$(printf 'd%03d-%s-%s' "$n" "$model" "$cond")"; d="$work/decisions/$name"
    host="$work/host.json"; rm -f "$host"
    "$pg" run --suite "$suite" --write-host "$host" > /dev/null 2>&1  # a run id of its own
    t1=$SECONDS; started="$(date -u +%FT%TZ)"; rc=0
    limits=(--min-rounds "$rounds" --max-rounds "$rounds"); [ "$rounds" = live ] && limits=()
    "$pg" ab --suite "$suite" --model "$model" --base-binary "llama-bench=$PWD/$bench" --head-binary "llama-bench=$PWD/$head" \
      "${limits[@]}" --host-json "$host" --forge-dir "$forged" --vocab-dir "$vocab" \
      --results-dir "$d" --contention record --format json --output "$d.json" > "$d.log" 2>&1 || rc=$?
    last_seconds[$model]=$((SECONDS - t1))
    printf '{"decision": "%s", "model": "%s", "condition": "%s", "rounds": %s, "exit": %s, "seconds": %s, "started": "%s", "machine_id": "%s"}\n' \
      "$name" "$model" "$cond" "$([ "$rounds" = live ] && echo '"live"' || echo "$rounds")" "$rc" "$((SECONDS - t1))" "$started" "$machine" >> "$work/decisions.jsonl"
    say "$name exit $rc in $((SECONDS - t1)) s: $(grep -o '"change": [-0-9.e]*' "$d.json" 2>/dev/null | head -n 1)"
    # Exit 2 is bad input (a carried perfgate that does not know the tree's files, say): every
    # later decision would fail the same way at once, so the campaign stops instead of spinning.
    if [ "$rc" -gt 1 ]; then tail -n 5 "$d.log" >&2; stop=1; break; fi
    send_back
  done
done
send_back
say "$n decisions in all"

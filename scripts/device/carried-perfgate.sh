# Sourced by the one-call device scripts (h200-device-memory.sh, h200-serving.sh), from the
# project root: the perfgate carried in .device-carry (bin/perfgate, lib/, cache/ with the
# node-llama-cpp tarball) runs h200-trust.sh; `results` is the call's $OUT, which receives what the
# script copies back, and OUT becomes h200-trust.sh's own folder of logs under build/h200.
export PERFGATE_EXECUTABLE="$PWD/.device-carry/bin/perfgate" PERFGATE_LIB_DIR="$PWD/.device-carry/lib" \
       PERFGATE_FETCH_CACHE_DIR="$PWD/.device-carry/cache"
results="${OUT:?OUT}"
export OUT="$PWD/build/h200/out" H200_FRESH_FILES=1
mkdir -p "$OUT"

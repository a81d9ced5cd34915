#!/bin/sh
# Test double for a runtime (not the launcher): prints recorded real output or misbehaves on
# purpose, so the runner's classification can be checked end to end.
#   stub-runtime.sh print FILE        recorded output, exit 0 (FILE: a shared fixture or a file here)
#   stub-runtime.sh orphan FILE       same, but first starts a child that outlives this process
#   stub-runtime.sh hang              never finishes (and has a child that would outlive it)
#   stub-runtime.sh sigkill           SIGKILLs itself, as the kernel's OOM killer would
#   stub-runtime.sh exit137           exits 137, as a shell reports a SIGKILLed child
#   stub-runtime.sh oom               prints an allocator failure and exits 1
#   stub-runtime.sh fail              prints an unrelated error and exits 1
#   stub-runtime.sh garbage           prints text without numbers and exits 0
#   stub-runtime.sh segv              prints a line, then dies of SIGSEGV
#   stub-runtime.sh flood FILE        STUB_FLOOD_BYTES (96 MiB) of text on stdout and half that on
#                                     stderr, then the recorded output, exit 0
#   stub-runtime.sh flood-json FILE   STUB_FLOOD_BYTES (5 MiB) of log lines holding '[' on stdout, then
#                                     FILE (llama-bench -o json output), exit 0
#   stub-runtime.sh binary            invalid UTF-8, NUL and terminal escapes on both streams, exit 1
#   stub-runtime.sh binary-device FILE  a device line with invalid UTF-8 and escapes, then FILE, exit 0
#   stub-runtime.sh slow FILE         STUB_SLEEP seconds (2), with a child, then the recorded output
#   stub-runtime.sh work P N FILE     loops 30 times per prompt token P and 70 per generated token N
#                                     (work that grows with the workload, for counted instructions),
#                                     then the recorded output, exit 0 (further arguments ignored)
#   stub-runtime.sh same P N FILE     the same output without the loops (work that does not grow)
# STUB_PID_FILE, when set, receives the pid of every child the stub starts.
here=$(dirname "$0")
fixtures="${PERFGATE_FIXTURES:-$here/../../../tests/fixtures/probe-outputs}"
recorded() {
    if [ -f "$here/recorded/$1" ]; then f="$here/recorded/$1"; else f="$fixtures/$1"; fi
    grep -v '^# ' "$f"   # fixture metadata lines start with "# "
}
mode=$1; shift
case "$mode" in
    work)
        i=0; n=$(( $1 * 30 + $2 * 70 ))
        while [ "$i" -lt "$n" ]; do i=$((i + 1)); done
        recorded "$3" ;;
    same) recorded "$3" ;;
    print) recorded "$1" ;;
    orphan)
        sleep 300 &
        [ -n "$STUB_PID_FILE" ] && echo $! >> "$STUB_PID_FILE"
        recorded "$1" ;;
    hang)
        sleep 300 &
        [ -n "$STUB_PID_FILE" ] && echo $! >> "$STUB_PID_FILE"
        echo "loading model..."
        sleep 300 ;;
    sigkill) echo "loading model..."; kill -9 $$ ;;
    exit137) echo "Killed"; exit 137 ;;
    oom)
        echo "Loading model from \"models/x\"..."
        echo "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 40960.00 MiB on device 0: cudaMalloc failed: out of memory" >&2
        exit 1 ;;
    fail) echo "error: unknown model architecture: 'zz'" >&2; exit 1 ;;
    garbage) echo "Generating..."; echo "lorem ipsum dolor sit amet, no numbers here"; exit 0 ;;
    segv) echo "loading model..."; kill -s SEGV $$ ;;
    flood)
        n=${STUB_FLOOD_BYTES:-100663296}
        yes 'flood: the runtime prints far more than anyone reads 0123456789' | head -c "$n"
        yes 'flood on stderr' | head -c $((n / 2)) >&2
        recorded "$1" ;;
    flood-json)
        n=${STUB_FLOOD_BYTES:-5242880}
        yes 'llama_model_loader: [info] loading tensor blk.0.attn_q.weight 0123456789' | head -c "$n"
        echo
        recorded "$1" ;;
    binary)
        printf 'bad bytes \377\376\300\200 nul \000 escape \033[31mred\033[0m bell \007\n'
        printf 'error: \377\376 \033]0;title\007 crashed\n' >&2
        exit 1 ;;
    binary-device)
        printf 'GPU: AMD \377\376\033[31m Radeon\001 (Amd), 96.00 GiB device memory.\n'
        recorded "$1" ;;
    slow)
        sleep 300 &
        [ -n "$STUB_PID_FILE" ] && echo "$$ $!" >> "$STUB_PID_FILE"
        sleep "${STUB_SLEEP:-2}"
        recorded "$1" ;;
    *) echo "stub-runtime.sh: unknown mode $mode" >&2; exit 2 ;;
esac

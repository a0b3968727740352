#!/bin/sh
# Runs every libFuzzer target built by 'make fuzz' for SECONDS seconds on its
# corpus (fuzz/corpus/NAME, read only: new inputs go to a scratch copy).
# FUZZ_JOBS (default 2) targets run at a time; after a round in which one
# found a crash, a leak or undefined behaviour it stops, the reproducer left
# in BUILD/fuzz-artifacts/.
#   scripts/fuzz_run.sh BUILD SECONDS
#   scripts/fuzz_run.sh --available    exit 0 when clang can link a libFuzzer target
if [ "$1" = --available ]; then
    command -v clang >/dev/null 2>&1 || exit 1
    dir=$(mktemp -d /tmp/pt-fuzz-probe.XXXXXX)
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$dir/probe.c"
    clang -fsanitize=fuzzer,address,undefined -o "$dir/probe" "$dir/probe.c" >/dev/null 2>&1
    rc=$?
    rm -rf "$dir"
    exit $rc
fi
build=${1:-build-fuzz}
seconds=${2:-30}
# corpus folder of a target: fuzz_csv and fuzz_gt share csv/, fuzz_image_load uses image/
corpus_of() {
    case $1 in
    fuzz_csv | fuzz_gt) echo csv ;;
    fuzz_image_load) echo image ;;
    *) echo "${1#fuzz_}" ;;
    esac
}
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"
jobs=${FUZZ_JOBS:-2}
# run_one TARGET: fuzz it, then say what happened; exit status 1 when it found something
run_one() {
    name=$(basename "$1")
    corpus=fuzz/corpus/$(corpus_of "$name")
    scratch=$build/fuzz-corpus/$name
    log=$build/fuzz-$name.log
    mkdir -p "$scratch"
    [ -d "$corpus" ] || { echo "fuzz: $name: no corpus folder $corpus"; return 1; }
    if "$1" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
        -close_fd_mask=2 -artifact_prefix="$artifacts/$name-" "$scratch" "$corpus" >"$log" 2>&1; then
        runs=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$log" | tail -1)
        echo "fuzz: $name: ${runs:-?} runs in ${seconds} s, nothing found"
    else
        echo "fuzz: $name FAILED (log $log, reproducer in $artifacts/):"
        grep -E "ERROR|runtime error|SUMMARY" "$log" | head -5 | sed 's/^/  /'
        return 1
    fi
}
# FUZZ_JOBS targets at a time (default 2, the cores make check may use)
failed=0
set -- "$build"/fuzz/fuzz_*
while [ $# -gt 0 ]; do
    pids=
    for _ in $(seq "$jobs"); do
        [ $# -gt 0 ] || break
        if [ -x "$1" ]; then
            run_one "$1" &
            pids="$pids $!"
        fi
        shift
    done
    for pid in $pids; do
        wait "$pid" || failed=1
    done
    [ $failed -eq 0 ] || break
done
exit $failed

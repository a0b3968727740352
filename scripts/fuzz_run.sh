#!/bin/sh
# Runs every libFuzzer target built by 'make fuzz' for SECONDS seconds on its
# corpus (fuzz/corpus/NAME, read only: new inputs go to a scratch copy).
# Stops at the first target that finds a crash, a leak or undefined
# behaviour; its reproducer is left in BUILD/fuzz-artifacts/.
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
failed=0
for target in "$build"/fuzz/fuzz_*; do
    [ -x "$target" ] || continue
    name=$(basename "$target")
    corpus=fuzz/corpus/$(corpus_of "$name")
    scratch=$build/fuzz-corpus/$name
    mkdir -p "$scratch"
    [ -d "$corpus" ] || { echo "fuzz: $name: no corpus folder $corpus"; failed=1; continue; }
    if "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
        -close_fd_mask=2 -artifact_prefix="$artifacts/$name-" "$scratch" "$corpus" \
        >"$build/fuzz-$name.log" 2>&1; then
        runs=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$build/fuzz-$name.log" | tail -1)
        echo "fuzz: $name: ${runs:-?} runs in ${seconds} s, nothing found"
    else
        echo "fuzz: $name FAILED (log $build/fuzz-$name.log, reproducer in $artifacts/):"
        grep -E "ERROR|runtime error|SUMMARY" "$build/fuzz-$name.log" | head -5 | sed 's/^/  /'
        failed=1
        break
    fi
done
exit $failed

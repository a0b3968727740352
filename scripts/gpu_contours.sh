#!/bin/sh
# CUDA contours on the GPU machine in one run: CUDA == seq on every golden set
# and on random images, compute-sanitizer memcheck and racecheck (PT_TEST_QUICK=1),
# the command-line check, then the benchmark table (scripts/bench_contours.sh).
# Needs, built on the build machine: pupiltrack, build/tests/test_cuda_contours,
# build/tools/contour_image (and .devlibs/ with libtiff/libpng when the GPU
# machine lacks them). Everything goes to $OUT (default /tmp/pt-gpu-contours).
set -u
OUT=${OUT:-/tmp/pt-gpu-contours}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

log "$(nvidia-smi -L 2>&1 | head -n 1); host $(nproc) cores"
log "test_cuda_contours"
build/tests/test_cuda_contours >"$OUT/test_cuda_contours.txt" 2>&1
echo "exit $?: $(tail -n 1 "$OUT/test_cuda_contours.txt")" | tee -a "$OUT/summary.txt"
grep -E "FAIL|SKIP|differs" "$OUT/test_cuda_contours.txt" | head -n 20 | tee -a "$OUT/summary.txt"
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        PT_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 \
            build/tests/test_cuda_contours >"$OUT/sanitizer-$tool.txt" 2>&1
        echo "exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.txt" | tail -n 1)" \
            | tee -a "$OUT/summary.txt"
    done
fi
log "CLI: -b cuda equals -b seq"
for m in list ccomp tree; do
    for img in testdata/contours/nested.png testdata/contours/noise_big.png testdata/contours/many_holes.png; do
        ./pupiltrack contours -b seq --mode $m "$img" >"$OUT/s.csv" 2>/dev/null
        ./pupiltrack contours -b cuda --mode $m "$img" >"$OUT/c.csv" 2>>"$OUT/cli.err"
        cmp -s "$OUT/s.csv" "$OUT/c.csv" && r=same || r=DIFFERENT
        echo "$m $img: $r" | tee -a "$OUT/summary.txt"
    done
done
log "benchmark"
OUT="$OUT/bench" scripts/bench_contours.sh ./pupiltrack | tee "$OUT/bench.md"
cat "$OUT/bench/raw.txt" >>"$OUT/summary.txt"

#!/bin/sh
# CUDA contours on a GPU host in one run: CUDA == seq on every golden set
# and on random images, compute-sanitizer memcheck and racecheck (PT_TEST_QUICK=1),
# the command-line check, -b cuda == OpenCV (python3 with cv2, points and
# hierarchy of generated images in every mode), the phases of -b cuda on
# 4928x4112 images (with BASE=OTHER_PUPILTRACK also that binary's, in the same
# run), then the benchmark table (scripts/bench_contours.sh).
# Needs, built on the build machine: pupiltrack, build/tests/test_cuda_contours,
# build/tools/contour_image (and .devlibs/ with libtiff/libpng when the GPU
# machine lacks them). Ends with a tile-size sweep of -b cuda. Everything goes
# to $OUT (default /tmp/pt-gpu-contours). SANITIZE=0, OPENCV=0, BENCH=0,
# SWEEP=0 skip those parts.
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
if [ "${OPENCV:-1}" = 1 ]; then
log "CLI: -b cuda equals OpenCV (points, hierarchy; scripts/contours_vs_opencv.py)"
[ -x build/tools/contour_image ] || { mkdir -p build/tools &&
    cc -O2 -std=c11 -D_DEFAULT_SOURCE -o build/tools/contour_image scripts/tools/contour_image.c -lm; }
for kind in noise blobs blocks sparse; do
    img="$OUT/cv_$kind.pgm"
    build/tools/contour_image $kind 1232 1028 3 >"$img"
    for m in list ccomp tree; do
        for a in none simple; do
            ./pupiltrack contours -b cuda --mode $m --approx $a --format json "$img" \
                >"$OUT/c.json" 2>>"$OUT/cli.err"
            r=$(${PYTHON:-python3} scripts/contours_vs_opencv.py "$img" $m $a "$OUT/c.json" 2>&1)
            echo "opencv $kind 1232x1028 $m $a: $r" | tee -a "$OUT/summary.txt"
        done
    done
    rm -f "$img"
done
fi
log "phases of -b cuda, 4928x4112, median of 5 (BASE: ${BASE:-none})"
for kind in noise blobs; do
    img="$OUT/ph_$kind.pgm"
    build/tools/contour_image $kind 4928 4112 1 >"$img"
    ./pupiltrack contours -b seq "$img" >"$OUT/s.csv" 2>/dev/null
    ./pupiltrack contours -b cuda "$img" >"$OUT/c.csv" 2>>"$OUT/cli.err"
    cmp -s "$OUT/s.csv" "$OUT/c.csv" && r=same || r=DIFFERENT
    echo "list $kind 4928x4112 cuda vs seq: $r" | tee -a "$OUT/summary.txt"
    for bin in ./pupiltrack ${BASE:-}; do
        "$bin" contours -b cuda --count --repeat 5 "$img" 2>&1 >/dev/null \
            | sed "s|^|$bin $kind |" | tee -a "$OUT/summary.txt"
    done
    rm -f "$img" "$OUT/s.csv" "$OUT/c.csv"
done
if [ "${BENCH:-1}" = 1 ]; then
    log "benchmark"
    OUT="$OUT/bench" scripts/bench_contours.sh ./pupiltrack | tee "$OUT/bench.md"
    cat "$OUT/bench/raw.txt" >>"$OUT/summary.txt"
fi
[ "${SWEEP:-1}" = 1 ] || exit 0
log "tile sweep (-b cuda --tile N: median ms and stages)"
for size in 1280x1024 4928x4112; do
    for kind in sparse blobs noise; do
        img="$OUT/sweep_${kind}_$size.pgm"
        build/tools/contour_image "$kind" "${size%x*}" "${size#*x}" 7 >"$img"
        for tile in 8 16 32 64; do
            ./pupiltrack contours -b cuda --tile $tile --count --repeat 5 "$img" 2>&1 >/dev/null \
                | sed "s/^/$kind /" | tee -a "$OUT/summary.txt"
        done
        rm -f "$img"
    done
done

#!/bin/sh
# The CUDA tl detector on a GPU host in one go: agreement test,
# compute-sanitizer memcheck and racecheck (quick mode), benchmarks per
# threshold step, OpenMP for comparison. Run from a folder holding
# pupiltrack and tests/test_cuda_tl (built for the GPU); logs go to $OUT.
set -u
OUT=${OUT:-/tmp/pt-gpu-tl}
mkdir -p "$OUT"
PATH=$PATH:/usr/local/cuda/bin
FRAMES=${FRAMES:-2000}
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

log "$(nvidia-smi -L 2>&1 | head -1)"
log "test_cuda_tl"
timeout ${TEST_TIMEOUT:-80} ./tests/test_cuda_tl >"$OUT/test_cuda_tl.txt" 2>&1
log "rc=$?"
grep -E "eyes|FAIL|passed" "$OUT/test_cuda_tl.txt" | tail -20 | tee -a "$OUT/summary.txt"
if [ "${SANITIZE:-1}" = 1 ]; then
    # racecheck is slow: a 60th of the frames (at least one per case)
    for tool in memcheck:1 racecheck:60; do
        quick=${tool#*:}
        tool=${tool%:*}
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=$quick)"
        PT_TEST_QUICK=$quick timeout ${SAN_TIMEOUT:-60} compute-sanitizer --tool $tool --error-exitcode 9 \
            ./tests/test_cuda_tl >"$OUT/sanitizer-$tool.txt" 2>&1
        log "rc=$?"
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|FAIL|eyes compared' "$OUT/sanitizer-$tool.txt" | sort | uniq -c | tee -a "$OUT/summary.txt"
    done
fi
./pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/pt-b1280 >/dev/null
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    log "ncu: tl kernels of the first chunk (64 frames, --streams 1), us per frame"
    timeout 90 ncu --clock-control none --kernel-name regex:^tl_ --launch-count "${COUNT:-92}" --csv \
        --metrics gpu__time_duration.sum \
        ./pupiltrack bench -a tl -b cuda --streams 1 --frames 64 --batch 64 /tmp/pt-b1280 >"$OUT/ncu.csv" 2>&1
    python3 scripts/ncu-summary.py "$OUT/ncu.csv" 64 2>&1 | tee -a "$OUT/summary.txt"
fi
for s in ${STEPS:-5 10 20 40}; do
    log "bench -a tl -b cuda -p tl_step=$s"
    timeout 20 ./pupiltrack bench -a tl -b cuda -p tl_step=$s --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
done
for v in ${VARIANTS:-}; do
    log "bench -a tl -b cuda -p tl_step=20 with $v"
    timeout 20 "$v" bench -a tl -b cuda --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
done
log "bench -a tl -b cuda --streams 8"
timeout 20 ./pupiltrack bench -a tl -b cuda --streams 8 --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
./pupiltrack synth -n 64 --binocular --size 1280x1024 --seed 4 -o /tmp/pt-b1280bin >/dev/null
log "bench -a tl -b cuda --binocular"
timeout 20 ./pupiltrack bench -a tl -b cuda --binocular --frames "$FRAMES" /tmp/pt-b1280bin 2>&1 | tee -a "$OUT/summary.txt"
log "bench -a tl -b cuda --ellipse"
timeout 20 ./pupiltrack bench -a tl -b cuda --ellipse --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
if [ "${OMP:-1}" = 1 ]; then
    log "bench -a tl -b omp (all cores)"
    timeout 30 ./pupiltrack bench -a tl -b omp --frames 320 --batch 320 /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
fi
log "track -a tl: omp vs cuda on the 64 bench frames"
for b in omp cuda; do
    timeout 15 ./pupiltrack track -a tl -b $b -o "$OUT/track-$b.csv" /tmp/pt-b1280 2>/dev/null
done
paste -d, "$OUT/track-omp.csv" "$OUT/track-cuda.csv" | awk -F, 'NR > 1 { d = 0; for (k = 6; k <= 8; k++) { x = $k - $(k + 14); if (x < 0) x = -x; if (x > d) d = x }; if ($5 != $19) s++; if (d > w) w = d } END { printf "status differ %d, worst |d| %.3g px\n", s, w }' | tee -a "$OUT/summary.txt"

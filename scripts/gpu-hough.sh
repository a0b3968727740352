#!/bin/sh
# GPU checks and benchmarks of the CUDA Canny-Hough detector in one run: the
# agreement test, compute-sanitizer memcheck and racecheck (quick mode), then
# bench of -a hough -b cuda per vote mode and angular step, -b omp once, and
# OpenCV HoughCircles (scripts/peers/hough_circles.py) on the same frames.
# Run from a folder holding pupiltrack, tests/test_cuda_hough and scripts/;
# everything goes to $OUT (default /tmp/pt-hough).
set -u
OUT=${OUT:-/tmp/pt-hough}
mkdir -p "$OUT"
PATH=$PATH:/usr/local/cuda/bin
FRAMES=${FRAMES:-2000}
SFRAMES=${SFRAMES:-256}
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
bench() { # label, then bench arguments
    label=$1; shift
    ./pupiltrack bench "$@" >"$OUT/bench-$label.txt" 2>&1
    echo "$label: $(grep -E '^(throughput|latency)' "$OUT/bench-$label.txt" | tr '\n' ' ')" | tee -a "$OUT/summary.txt"
    grep -E '^  ' "$OUT/bench-$label.txt" | tr -s ' ' | tr '\n' ';' | sed 's/^/    stages:/' | tee -a "$OUT/summary.txt"
    echo | tee -a "$OUT/summary.txt"
}

log "$(nvidia-smi -L 2>&1 | head -1); host $(nproc) cores"
log "agreement -b cuda vs -b omp"
timeout ${TEST_T:-150} tests/test_cuda_hough >"$OUT/test_cuda_hough.txt" 2>&1
echo "exit $?" >>"$OUT/test_cuda_hough.txt"
cat "$OUT/test_cuda_hough.txt" | tail -14 | tee -a "$OUT/summary.txt"
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        PT_TEST_QUICK=1 timeout ${SAN_T:-100} compute-sanitizer --tool $tool --error-exitcode 9 \
            tests/test_cuda_hough >"$OUT/sanitizer-$tool.txt" 2>&1
        echo "exit $?" >>"$OUT/sanitizer-$tool.txt"
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^exit|failed' "$OUT/sanitizer-$tool.txt" | sort | uniq -c | tee -a "$OUT/summary.txt"
    done
fi
[ "${BENCH:-1}" = 1 ] || exit 0
./pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/b >/dev/null
bench cuda-gradient -a hough -b cuda --frames "$FRAMES" /tmp/b
bench cuda-gradient-streams8 -a hough -b cuda --streams 8 --frames "$FRAMES" /tmp/b
bench cuda-gradient-ellipse -a hough -b cuda --ellipse --frames "$FRAMES" /tmp/b
for s in ${STEPS:-18 9 6 3.6 3}; do
    bench "cuda-sampled-$s" -a hough -b cuda -p hough_vote=sampled -p hough_angle_step=$s --frames "$SFRAMES" /tmp/b
done
bench omp-gradient -a hough -b omp --frames 64 --batch 64 /tmp/b
bench omp-sampled-18 -a hough -b omp -p hough_vote=sampled -p hough_angle_step=18 --frames 16 --batch 16 /tmp/b
log "accuracy on the 64 frames (gradient): omp vs cuda"
for b in omp cuda; do
    ./pupiltrack track -a hough -b $b -o "$OUT/track-$b.csv" /tmp/b 2>/dev/null
    ./pupiltrack eval --gt /tmp/b/groundtruth.csv -o /dev/null "$OUT/track-$b.csv" 2>&1 | sed -n 2,5p | sed "s/^/$b /" | tee -a "$OUT/summary.txt"
done
log "OpenCV HoughCircles on the same 64 frames (this machine's CPU, one thread per frame)"
python3 scripts/peers/hough_circles.py -o "$OUT/opencv.csv" /tmp/b/groundtruth.csv >"$OUT/opencv.txt" 2>&1
python3 - "$OUT/opencv.csv" <<'PY' | tee -a "$OUT/summary.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ms = [float(r["ms"]) for r in rows if r.get("ms")]
ok = sum(r["status"] == "ok" for r in rows)
if ms:
    print(f"opencv HoughCircles: {len(ms)} frames, {ok} found, mean {sum(ms)/len(ms):.3f} ms/frame"
          f" ({1000*len(ms)/sum(ms):.1f} fps), median {sorted(ms)[len(ms)//2]:.3f} ms")
PY
./pupiltrack eval --gt /tmp/b/groundtruth.csv -o /dev/null "$OUT/opencv.csv" 2>&1 | sed -n 2,5p | sed "s/^/opencv /" | tee -a "$OUT/summary.txt"
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    for v in gradient sampled; do
        log "ncu: kernels of one chunk of 64 frames, hough_vote=$v (--streams 1)"
        timeout ${NCU_T:-60} ncu --clock-control none --launch-count "${COUNT:-400}" --csv \
            --metrics gpu__time_duration.sum,launch__grid_size,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread \
            ./pupiltrack track -a hough -b cuda --streams 1 -p hough_vote=$v -p hough_angle_step=18 -o /dev/null /tmp/b >"$OUT/ncu-$v.csv" 2>&1
        python3 scripts/ncu-summary.py "$OUT/ncu-$v.csv" 64 | tee -a "$OUT/summary.txt"
    done
fi
echo; echo "==== SUMMARY"; cat "$OUT/summary.txt"

#!/bin/sh
# GPU checks and benchmarks of the CUDA Canny-Hough detector in one run: the
# agreement test, compute-sanitizer memcheck and racecheck (quick mode), then
# bench of -a hough -b cuda per vote mode and angular step, -b omp once, and
# OpenCV HoughCircles (scripts/peers/hough_circles.py) on the same frames.
# Run from a folder holding pupiltrack, tests/test_cuda_hough and scripts/;
# the summary goes to $OUT (default /tmp/pt-hough), logs to $LOGS.
set -u
OUT=${OUT:-/tmp/pt-hough}
# detailed logs stay in $LOGS; only the summary goes to $OUT
LOGS=${LOGS:-/tmp/pt-hough-logs}
mkdir -p "$OUT" "$LOGS"
SUMMARY=$OUT/summary.txt
PATH=$PATH:/usr/local/cuda/bin
FRAMES=${FRAMES:-2000}
SFRAMES=${SFRAMES:-256}
log() { echo "== $*" | tee -a "$SUMMARY"; }
bench() { # label, then bench arguments
    label=$1; shift
    ./pupiltrack bench "$@" >"$LOGS/bench-$label.txt" 2>&1
    echo "$label: $(grep -E '^(throughput|latency)' "$LOGS/bench-$label.txt" | tr '\n' ' ')" | tee -a "$SUMMARY"
    grep -E '^  ' "$LOGS/bench-$label.txt" | tr -s ' ' | tr '\n' ';' | sed 's/^/    stages:/' | tee -a "$SUMMARY"
    echo | tee -a "$SUMMARY"
}

log "$(nvidia-smi -L 2>&1 | head -1); host $(nproc) cores"
for t in ${TESTS:-tests/test_cuda_hough}; do
    log "agreement -b cuda vs -b omp: $t"
    timeout ${TEST_T:-150} $t >"$LOGS/$(basename $t).txt" 2>&1
    echo "exit $?" >>"$LOGS/$(basename $t).txt"
    grep -E "eyes|passed|exit|FAIL" "$LOGS/$(basename $t).txt" | tail -14 | tee -a "$SUMMARY"
done
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        PT_TEST_QUICK=1 timeout ${SAN_T:-100} compute-sanitizer --tool $tool --error-exitcode 9 \
            tests/test_cuda_hough >"$LOGS/sanitizer-$tool.txt" 2>&1
        echo "exit $?" >>"$LOGS/sanitizer-$tool.txt"
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^exit|failed' "$LOGS/sanitizer-$tool.txt" | sort | uniq -c | tee -a "$SUMMARY"
    done
fi
[ "${BENCH:-1}" = 1 ] || exit 0
./pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/b >/dev/null
bench cuda-gradient -a hough -b cuda --frames "$FRAMES" /tmp/b
bench cuda-gradient-ellipse -a hough -b cuda --ellipse --frames "$FRAMES" /tmp/b
for s in ${STEPS:-18 9 6 3.6 3}; do
    bench "cuda-sampled-$s" -a hough -b cuda -p hough_vote=sampled -p hough_angle_step=$s --frames "$SFRAMES" /tmp/b
done
if [ "${OMP:-1}" = 1 ]; then
    bench omp-gradient -a hough -b omp --frames 64 --batch 64 /tmp/b
    bench omp-sampled-18 -a hough -b omp -p hough_vote=sampled -p hough_angle_step=18 --frames 16 --batch 16 /tmp/b
fi
[ "${ACC:-1}" = 1 ] && log "accuracy on the 64 frames (gradient): omp vs cuda"
[ "${ACC:-1}" = 1 ] && for b in omp cuda; do
    ./pupiltrack track -a hough -b $b -o "$LOGS/track-$b.csv" /tmp/b 2>/dev/null
    ./pupiltrack eval --gt /tmp/b/groundtruth.csv -o /dev/null "$LOGS/track-$b.csv" 2>&1 | sed -n 2,5p | sed "s/^/$b /" | tee -a "$SUMMARY"
done
if [ "${OPENCV:-1}" = 1 ]; then
log "OpenCV HoughCircles on the same 64 frames (this machine's CPU, one thread per frame)"
python3 scripts/peers/hough_circles.py -o "$LOGS/opencv.csv" /tmp/b/groundtruth.csv >"$LOGS/opencv.txt" 2>&1
python3 - "$LOGS/opencv.csv" <<'PY' | tee -a "$SUMMARY"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ms = [float(r["ms"]) for r in rows if r.get("ms")]
ok = sum(r["status"] == "ok" for r in rows)
if ms:
    print(f"opencv HoughCircles: {len(ms)} frames, {ok} found, mean {sum(ms)/len(ms):.3f} ms/frame"
          f" ({1000*len(ms)/sum(ms):.1f} fps), median {sorted(ms)[len(ms)//2]:.3f} ms")
PY
./pupiltrack eval --gt /tmp/b/groundtruth.csv -o /dev/null "$LOGS/opencv.csv" 2>&1 | sed -n 2,5p | sed "s/^/opencv /" | tee -a "$SUMMARY"
fi
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    mkdir -p /tmp/b16 && cp /tmp/b/00000?.png /tmp/b/00001[0-5].png /tmp/b16/
    for mode in "-p hough_vote=gradient" "-p hough_vote=gradient --ellipse" "-p hough_vote=sampled -p hough_angle_step=18"; do
        log "ncu: kernels of one chunk of 16 frames 1280x1024, $mode (--streams 1)"
        timeout ${NCU_T:-60} ncu --clock-control none --metrics gpu__time_duration.sum --csv \
            ./pupiltrack track -a hough -b cuda --streams 1 $mode -o /dev/null /tmp/b16 >"$LOGS/ncu.csv" 2>&1
        python3 scripts/ncu-summary.py "$LOGS/ncu.csv" 16 | sort -k4 -n -r | head -16 | tee -a "$SUMMARY"
    done
fi

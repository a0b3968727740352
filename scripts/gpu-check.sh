#!/bin/sh
# GPU checks and benchmarks in one run (the lent GPU machine has no libtiff:
# build here with `make && make build/tests/test_cuda_starburst tools`, copy the
# shared libraries pupiltrack needs into .devlibs/, and carry build/, .devlibs
# and pupiltrack). Everything goes to $OUT (default /tmp/pt-gpu).
set -u
OUT=${OUT:-/tmp/pt-gpu}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
FRAMES=${FRAMES:-20000}
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

log "$(nvidia-smi -L 2>&1 | head -1)"
log "host: $(nproc) cores, $(uname -r)"
build/tools/h2d_bandwidth | tee -a "$OUT/summary.txt"

log "CUDA vs OpenMP preprocessing (byte-exact)"
build/tests/test_cuda_preprocess 2>&1 | tail -3 | tee -a "$OUT/summary.txt"
log "CUDA vs OpenMP agreement"
build/tests/test_cuda_starburst 2>&1 | tee "$OUT/test_cuda_starburst.txt" | tail -7 | tee -a "$OUT/summary.txt"
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        for t in build/tests/test_cuda_preprocess build/tests/test_cuda_starburst; do
            PT_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 "$t"
        done >"$OUT/sanitizer-$tool.txt" 2>&1
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.txt" | sort | uniq -c | tee -a "$OUT/summary.txt"
    done
fi

./pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/pt-b1280 >/dev/null
./pupiltrack synth -n 64 --binocular --size 1280x1024 --seed 4 -o /tmp/pt-b1280bin >/dev/null
for s in 1 2 4 8; do
    log "bench -b cuda --streams $s (monocular circle)"
    ./pupiltrack bench -b cuda --streams $s --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
done
log "bench -b cuda --ellipse"
./pupiltrack bench -b cuda --ellipse --frames "$FRAMES" /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
log "bench -b cuda --binocular"
./pupiltrack bench -b cuda --binocular --frames "$FRAMES" /tmp/pt-b1280bin 2>&1 | tee -a "$OUT/summary.txt"
log "bench -b omp -j 1 / all cores"
./pupiltrack bench -b omp -j 1 --frames 300 /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
./pupiltrack bench -b omp --frames 3000 /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"

for a in tl hough; do
    log "bench -b omp -a $a -j 1 / all cores"
    ./pupiltrack bench -b omp -a $a -j 1 --frames 64 --batch 64 /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
    ./pupiltrack bench -b omp -a $a --frames 640 --batch 320 /tmp/pt-b1280 2>&1 | tee -a "$OUT/summary.txt"
done
log "bench -b omp --binocular -j 1 / all cores"
./pupiltrack bench -b omp --binocular -j 1 --frames 200 /tmp/pt-b1280bin 2>&1 | tee -a "$OUT/summary.txt"
./pupiltrack bench -b omp --binocular --frames 2000 /tmp/pt-b1280bin 2>&1 | tee -a "$OUT/summary.txt"
log "accuracy on 64 synth frames 1280x1024: omp vs cuda"
for b in omp cuda; do
    ./pupiltrack track -b $b -o "$OUT/track-$b.csv" /tmp/pt-b1280 2>/dev/null
    ./pupiltrack eval --gt /tmp/pt-b1280/groundtruth.csv -o /dev/null "$OUT/track-$b.csv" 2>&1 | sed -n 2,5p | sed "s/^/$b /" | tee -a "$OUT/summary.txt"
done

MEYE=${PT_MEYE_DIR:-../shared/data/meye-dev}
PY=${PYTHON:-python3}
if [ -f "$MEYE/gt.csv" ] && $PY -c 'import cv2, numpy' 2>/dev/null; then
    log "peers on meye-dev (python: $PY)"
    for peer in darkest_blob hough_circles; do
        $PY scripts/peers/$peer.py -o "$OUT/peer-$peer.csv" "$MEYE/gt.csv" 2>"$OUT/peer-$peer.err"
        ./pupiltrack eval --gt "$MEYE/gt.csv" -o /dev/null "$OUT/peer-$peer.csv" 2>&1 | sed -n 2,6p | sed "s/^/$peer /" | tee -a "$OUT/summary.txt"
    done
fi
if [ "${ACCURACY:-1}" = 1 ]; then
    log "scripts/accuracy.sh, omp and cuda"
    PT_MEYE_DIR=$MEYE sh scripts/accuracy.sh --header -b omp 2>&1 | tee -a "$OUT/summary.txt"
    PT_MEYE_DIR=$MEYE sh scripts/accuracy.sh -b cuda 2>&1 | tee -a "$OUT/summary.txt"
fi

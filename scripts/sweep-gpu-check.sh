#!/bin/sh
# Sweep, merge and figures with the CUDA back end, on a GPU host, from the
# repository root (build and carry as scripts/gpu-check.sh says). Everything
# goes to $OUT (default /tmp/pt-sweep-gpu); $OUT/summary.txt is the digest.
# The figures are written as CSVs where gnuplot is missing; draw them later
# with: scripts/figures.sh --draw-only DATASET GT.csv $OUT/figs
set -u
OUT=${OUT:-/tmp/pt-sweep-gpu}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
since() { awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }'; }
table() { column -s, -t "$1" 2>/dev/null || cat "$1"; }
# masked DIR: the sweep's curve and summary without the timing columns.
masked() { cat "$1/curve.csv"; awk -F, -v OFS=, '{ $NF = ""; $(NF-1) = ""; print }' "$1/summary.csv"; }

log "$(nvidia-smi -L 2>&1 | head -1); $(nvidia-smi -L 2>/dev/null | wc -l) GPU(s); $(nproc) cores"
./pupiltrack synth -n 200 --size 1280x1024 --seed 5 -o /tmp/pt-sw1280 >/dev/null
GT=/tmp/pt-sw1280/groundtruth.csv

log "sweep: omp vs cuda x smoothing x fit, 200 frames 1280x1024, batch 256"
t0=$(date +%s.%N)
./pupiltrack sweep -a starburst -g backend=omp,cuda -g smooth=gaussian,median -g fit=circle,ellipse \
    --batch 256 --gt $GT -o "$OUT/sw-backends" /tmp/pt-sw1280 2>>"$OUT/stderr.txt"
echo "exit $?, $(since $t0) s" | tee -a "$OUT/summary.txt"
table "$OUT/sw-backends/summary.csv" | tee -a "$OUT/summary.txt"

log "sweep: cuda streams 1..16"
./pupiltrack sweep -b cuda -g streams=1,2,4,8,16 --batch 256 --gt $GT -o "$OUT/sw-streams" /tmp/pt-sw1280 2>>"$OUT/stderr.txt"
echo "exit $?" | tee -a "$OUT/summary.txt"
table "$OUT/sw-streams/summary.csv" | tee -a "$OUT/summary.txt"

if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -gt 1 ]; then
    log "sweep --devices all vs one process (accuracy must be identical)"
    ./pupiltrack sweep -b cuda --devices all -g rays=16,32,64 --gt $GT -o "$OUT/sw-devices" /tmp/pt-sw1280 2>>"$OUT/stderr.txt"
    echo "exit $?" | tee -a "$OUT/summary.txt"
    ./pupiltrack sweep -b cuda -g rays=16,32,64 --gt $GT -o "$OUT/sw-one" /tmp/pt-sw1280 2>>"$OUT/stderr.txt"
    if [ "$(masked "$OUT/sw-devices" | md5sum)" = "$(masked "$OUT/sw-one" | md5sum)" ]; then
        echo "devices: identical" | tee -a "$OUT/summary.txt"
    else
        echo "devices: DIFFERENT" | tee -a "$OUT/summary.txt"
    fi
    table "$OUT/sw-devices/summary.csv" | tee -a "$OUT/summary.txt"
fi

log "figures: --quick on testdata/synth, then full grids on 100 frames 640x480"
t0=$(date +%s.%N)
scripts/figures.sh --quick testdata/synth testdata/synth/groundtruth.csv "$OUT/figs-quick" 2>&1 | tail -3 | tee -a "$OUT/summary.txt"
echo "$(since $t0) s" | tee -a "$OUT/summary.txt"
./pupiltrack synth -n 100 --size 640x480 --seed 6 -o /tmp/pt-sw640 >/dev/null
t0=$(date +%s.%N)
scripts/figures.sh /tmp/pt-sw640 /tmp/pt-sw640/groundtruth.csv "$OUT/figs" 2>&1 | tail -3 | tee -a "$OUT/summary.txt"
echo "$(since $t0) s" | tee -a "$OUT/summary.txt"

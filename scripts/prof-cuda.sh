#!/bin/sh
# Profile the CUDA back end on a GPU host: per-stage times from `bench`
# and per-kernel durations from Nsight Compute for one chunk of 16 frames.
# Run from the repository root with pupiltrack built; results go to $OUT.
set -u
OUT=${OUT:-/tmp/pt-prof}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
SIZE=${SIZE:-1280x1024}
./pupiltrack synth -n 64 --size "$SIZE" --seed 3 -o /tmp/pt-prof-img >/dev/null
for s in ${STREAMS:-1 8}; do
    echo "== bench -b cuda --streams $s $*"
    ./pupiltrack bench -b cuda --streams "$s" --frames "${FRAMES:-8000}" "$@" /tmp/pt-prof-img 2>&1
done
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    echo "== ncu: kernels of the first chunk (--streams 1, NCU_FRAMES frames) $*"
    ncu --clock-control none --launch-skip "${SKIP:-0}" --launch-count "${COUNT:-61}" --csv \
        --metrics gpu__time_duration.sum,launch__grid_size,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread \
        ./pupiltrack bench -b cuda --streams 1 --frames "${NCU_FRAMES:-64}" --batch "${NCU_FRAMES:-64}" "$@" /tmp/pt-prof-img \
        >"$OUT/ncu.csv" 2>&1
    python3 scripts/ncu-summary.py "$OUT/ncu.csv" "${NCU_FRAMES:-64}"
fi

#!/bin/sh
# Profile the CUDA back end on the GPU machine: per-stage times from `bench`
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
    echo "== ncu: kernels of the 3rd chunk (16 frames), --streams 1 $*"
    ncu --clock-control none --launch-skip "${SKIP:-26}" --launch-count "${COUNT:-13}" --csv \
        --metrics gpu__time_duration.sum,launch__grid_size,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread \
        ./pupiltrack bench -b cuda --streams 1 --frames 64 --batch 64 "$@" /tmp/pt-prof-img \
        >"$OUT/ncu.csv" 2>&1
    python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
ii = head.index("ID")
per = {}
for r in rows:
    per.setdefault((int(r[ii]), r[ki].split("(")[0][:40]), {})[r[mi]] = r[vi]
for (i, k), m in sorted(per.items()):
    print("%3d %-40s %10s ns grid %-14s sm %5s%% dram %5s%% regs %s" % (i, k,
          m.get("gpu__time_duration.sum"), m.get("launch__grid_size"),
          m.get("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
          m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
          m.get("launch__registers_per_thread")))
PY
fi

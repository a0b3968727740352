#!/bin/sh
# GPU checks and timings of the assignment solver and tracker in one run, on
# the GPU host: test_cuda_auction, compute-sanitizer memcheck on it (quick
# mode), `assign -b cuda` at n = 4096 uniform five times for each of SEEDS
# (the asynchronous auction's time varies from run to run with the order of
# its bids: report the median) against scipy on the same matrix, then
# scripts/bench_assign.sh.
#
# usage: scripts/gpu-check-assign.sh [BUILD]   (default build: BUILD/pupiltrack
#        or ./pupiltrack, BUILD/tests/test_cuda_auction); logs under $OUT.
# environment: SEEDS (default "1 2 3"); SIZES, BACKENDS, OBJECTS, MTT_FRAMES,
#              PYTHON as for bench_assign.sh.
set -u
BUILD=${1:-build}
PT=$BUILD/pupiltrack
[ -x "$PT" ] || PT=./pupiltrack
OUT=${OUT:-/tmp/gpu-check-assign}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
TEST=$BUILD/tests/test_cuda_auction
timeout 150 "$TEST" >"$OUT/test_cuda_auction.log" 2>&1
echo "test_cuda_auction: rc $?, $(tail -1 "$OUT/test_cuda_auction.log")"
PT_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck "$TEST" >"$OUT/memcheck.log" 2>&1
echo "memcheck: rc $?, $(grep 'ERROR SUMMARY' "$OUT/memcheck.log")"
# n = 4096 uniform, per seed: five solves (their time varies with the
# order of the bids: the median is reported) and scipy on the same matrix.
PYTHON=${PYTHON:-python3}
for seed in ${SEEDS:-1 2 3}; do
    "$PT" assign -b cuda --random 4096 --seed "$seed" --save-npy "$OUT/m.npy" -o /dev/null >/dev/null 2>&1
    for k in 1 2 3 4 5; do
        timeout 30 "$PT" assign -b cuda --random 4096 --seed "$seed" -o /dev/null 2>&1 | tr '\n' ' '
        echo
    done >"$OUT/assign-4096-seed$seed.log"
    # the solve's ms: the last field of the "total T (NxN, min, cuda, X ms)" part
    ms=$(sed -n 's/^total [^(]*([^)]*, \([0-9.]*\) ms).*/\1/p' "$OUT/assign-4096-seed$seed.log" | sort -n | tr '\n' ' ')
    median=$(echo $ms | cut -d' ' -f3)
    scipy=$("$PYTHON" "$(dirname "$0")/bench_assign.py" "$OUT/m.npy" 2>&1 | sed -n 's/^scipy total .* ms \([0-9.]*\)$/\1/p')
    rm -f "$OUT/m.npy"
    echo "assign -b cuda n=4096 uniform seed $seed, ms of 5 solves: $ms(median $median); scipy ${scipy:-n/a} ms;" \
        "scipy / median: $(awk -v s="${scipy:-0}" -v c="${median:-0}" 'BEGIN { if (s > 0 && c > 0) printf "%.1fx", s / c; else print "n/a" }')"
done
SIZES=${SIZES:-"1024 4096 8192"} BACKENDS=${BACKENDS:-"omp cuda"} sh "$(dirname "$0")/bench_assign.sh" "$PT" \
    >"$OUT/bench_assign.md" 2>"$OUT/bench_assign.err"
cat "$OUT/bench_assign.md"

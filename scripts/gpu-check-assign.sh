#!/bin/sh
# GPU checks and timings of the assignment solver and tracker in one run, on
# the GPU machine: test_cuda_auction, compute-sanitizer memcheck on it (quick
# mode), `assign -b cuda` at n = 4096 uniform five times (the asynchronous
# auction's time varies from run to run with the order of its bids: report
# the median), then scripts/bench_assign.sh.
#
# usage: scripts/gpu-check-assign.sh [BUILD]   (default build: BUILD/pupiltrack
#        or ./pupiltrack, BUILD/tests/test_cuda_auction); logs under $OUT.
# environment: SIZES, BACKENDS, OBJECTS, MTT_FRAMES as for bench_assign.sh.
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
for k in 1 2 3 4 5; do
    timeout 30 "$PT" assign -b cuda --random 4096 --seed 1 -o /dev/null 2>&1 | tr '\n' ' '
    echo
done >"$OUT/assign-4096.log"
echo "assign -b cuda n=4096 uniform, ms of 5 solves: $(sed -n 's/.*, \([0-9.]*\) ms).*/\1/p' "$OUT/assign-4096.log" |
    sort -n | tr '\n' ' ')(median: the third)"
SIZES=${SIZES:-"1024 4096 8192"} BACKENDS=${BACKENDS:-"omp cuda"} sh "$(dirname "$0")/bench_assign.sh" "$PT" \
    >"$OUT/bench_assign.md" 2>"$OUT/bench_assign.err"
cat "$OUT/bench_assign.md"

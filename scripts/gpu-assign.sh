#!/bin/sh
# GPU checks and benchmark of the auction in one run, on the GPU
# machine. Build here first (`make && make build/tests/test_cuda_auction`),
# put the shared libraries pupiltrack needs into .devlibs/ as for
# scripts/gpu-check.sh, and carry build/, .devlibs and pupiltrack.
# Everything goes to $OUT (default /tmp/pt-gpu-assign); summary.txt is the digest
# and bench.md the tables for BENCHMARKS.md. SANITIZE=0 skips compute-sanitizer,
# BENCH=0 the benchmark (run them as two calls if one exceeds a time limit).
set -u
OUT=${OUT:-/tmp/pt-gpu-assign}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

log "$(nvidia-smi -L 2>&1 | head -1); host $(nproc) cores"
log "test_cuda_auction (GPU vs exact)"
build/tests/test_cuda_auction >"$OUT/test_cuda_auction.txt" 2>&1
echo "exit $?: $(tail -1 "$OUT/test_cuda_auction.txt")" | tee -a "$OUT/summary.txt"
grep -E "^(random|large)" "$OUT/test_cuda_auction.txt" | tee -a "$OUT/summary.txt"
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck synccheck initcheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        PT_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 \
            build/tests/test_cuda_auction >"$OUT/sanitizer-$tool.txt" 2>&1
        echo "exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.txt" | tail -1)" | tee -a "$OUT/summary.txt"
    done
fi
log "command-line tests with a GPU (assign/mtt -b cuda vs exact)"
sh tests/run_cli.sh ./pupiltrack >"$OUT/cli.txt" 2>&1
echo "exit $?: $(tail -1 "$OUT/cli.txt")" | tee -a "$OUT/summary.txt"
grep FAIL "$OUT/cli.txt" | head -10 | tee -a "$OUT/summary.txt"
[ "${BENCH:-1}" = 1 ] || exit 0
log "n = 4096 uniform: every back end (the reference problem)"
for b in seq omp cuda; do
    ./pupiltrack assign -b $b --random 4096 --seed 1 -o /dev/null 2>&1 | tee -a "$OUT/summary.txt"
done
./pupiltrack assign -b omp -j 1 --random 4096 --seed 1 -o /dev/null 2>&1 | sed 's/^/-j 1: /' | tee -a "$OUT/summary.txt"
log "benchmark tables (scripts/bench_assign.sh with PYTHON=${PYTHON:-/usr/bin/python3})"
PYTHON=${PYTHON:-/usr/bin/python3} sh scripts/bench_assign.sh ./pupiltrack >"$OUT/bench.md" 2>"$OUT/bench.err"
cat "$OUT/bench.md" | tee -a "$OUT/summary.txt"

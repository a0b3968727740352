#!/bin/sh
# One device run of the CUDA Starburst performance work: the GPU tests and
# compute-sanitizer on the new build, then the same benchmarks and an Nsight
# Compute per-kernel split for a baseline build and the new one. Expects
# base/pupiltrack, new/pupiltrack, new/tests/test_cuda_{preprocess,starburst}
# and ncu-summary.py beside it; VERSIONS, NCU_VERSIONS, STREAMS, FRAMES,
# NCU=0, SANITIZE=0 narrow it down, BASE_BENCH=1 adds two baseline benches,
# NCU_K = kernel launches per chunk (60 before the fused launches, 41 after). Results go to $OUT (at most 6 files).
set -u
OUT=${OUT:-/tmp/pt-perf}
mkdir -p "$OUT"
S="$OUT/summary.txt"
FRAMES=${FRAMES:-16000}
log() { echo "== $*" | tee -a "$S"; }
nvidia-smi -L 2>&1 | head -1 | tee -a "$S"

log "test_cuda_preprocess"
new/tests/test_cuda_preprocess >"$OUT/tests.txt" 2>&1
echo "rc=$?" | tee -a "$S"; grep -E "FAIL|differ" "$OUT/tests.txt" | head -5 | tee -a "$S"
tail -1 "$OUT/tests.txt" | tee -a "$S"
log "test_cuda_starburst"
new/tests/test_cuda_starburst >"$OUT/test_sb.txt" 2>&1
echo "rc=$?" | tee -a "$S"; tail -9 "$OUT/test_sb.txt" | tee -a "$S"
cat "$OUT/test_sb.txt" >>"$OUT/tests.txt"; rm -f "$OUT/test_sb.txt"
# FALLBACK="dirA dirB": when new's tests fail, test those builds (same
# layout as new/) in turn and benchmark the first that passes instead.
if ! grep -q "cuda_preprocess: .* 0 failed" "$OUT/tests.txt" ||
    ! grep -q "cuda_starburst: .* 0 failed" "$OUT/tests.txt"; then
    for d in ${FALLBACK:-}; do
        log "fallback $d"
        "$d/tests/test_cuda_preprocess" 2>&1 | tail -1 | tee -a "$S"
        "$d/tests/test_cuda_starburst" 2>&1 | tail -1 | tee -a "$S"
        if tail -2 "$S" | grep -c " 0 failed" | grep -q 2; then
            VERSIONS="$d"; NCU_VERSIONS="$d"; SANITIZE=0
            break
        fi
    done
fi

./new/pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/pt-b1280 >/dev/null
./new/pupiltrack synth -n 64 --binocular --size 1280x1024 --seed 4 -o /tmp/pt-b1280bin >/dev/null
bench() { # version, label, args...
    v=$1; shift; label=$1; shift
    echo "-- $v $label" >>"$OUT/bench.txt"
    timeout 60 "$v/pupiltrack" bench -b cuda "$@" >>"$OUT/bench.txt" 2>&1
    tail -7 "$OUT/bench.txt" | awk -v v="$v" -v l="$label" '
        /^throughput/ {t=$2} /^latency/ {lat=$2}
        /copy to GPU/ {c=$4} /preprocess/ {p=$2} /starburst/ {sb=$2}
        END {printf "%-5s %-22s %9s fps  latency %6s ms  copy %s pre %s sb %s\n", v, l, t, lat, c, p, sb}' |
        tee -a "$S"
}
for v in ${BASE_BENCH:+base}; do # the baseline, for a same-session comparison
    bench base "mono streams 4" --streams 4 --frames "$FRAMES" /tmp/pt-b1280
    bench base "binocular" --binocular --frames "$FRAMES" /tmp/pt-b1280bin
done
for v in ${VERSIONS:-base new}; do
    for s in ${STREAMS:-1 2 4 8}; do
        bench "$v" "mono streams $s" --streams "$s" --frames "$FRAMES" /tmp/pt-b1280
    done
    bench "$v" "mono ellipse" --ellipse --frames "$FRAMES" /tmp/pt-b1280
    bench "$v" "binocular" --binocular --frames "$FRAMES" /tmp/pt-b1280bin
done
for v in ${NCU_VERSIONS:-base new}; do
    if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
        log "ncu $v: first chunk of 64 frames, --streams 1"
        ncu --clock-control none --launch-count "${NCU_K:-60}" --csv \
            --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread \
            "$v/pupiltrack" bench -b cuda --streams 1 --frames 64 --batch 64 /tmp/pt-b1280 \
            >"$OUT/ncu-$v.csv" 2>&1
        python3 ncu-summary.py "$OUT/ncu-$v.csv" 64 | tee -a "$S"
        log "ncu $v: one-frame chunk (latency mode)"
        ncu --clock-control none --launch-skip "$((2 * ${NCU_K:-60}))" --launch-count "${NCU_K:-60}" --csv \
            --metrics gpu__time_duration.sum \
            "$v/pupiltrack" bench -b cuda --streams 1 --frames 64 --batch 64 /tmp/pt-b1280 \
            >"$OUT/ncu-lat-$v.csv" 2>&1
        python3 ncu-summary.py "$OUT/ncu-lat-$v.csv" 1 | tee -a "$S"
    fi
done
if [ "${SANITIZE:-1}" = 1 ]; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        for t in new/tests/test_cuda_preprocess new/tests/test_cuda_starburst; do
            PT_TEST_QUICK=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 "$t"
            echo "$t rc=$?"
        done >"$OUT/sanitizer.txt.$tool" 2>&1
        grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rc=' "$OUT/sanitizer.txt.$tool" | sort | uniq -c | tee -a "$S"
    done
fi
cat "$OUT"/sanitizer.txt.* >"$OUT/sanitizer.txt" 2>/dev/null; rm -f "$OUT"/sanitizer.txt.*
log done

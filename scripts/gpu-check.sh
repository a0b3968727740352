#!/bin/sh
# GPU checks and benchmarks of the detectors in one run, on a GPU host.
# A GPU host has no libtiff: build here (`make`, then
# `make build/tests/test_cuda_preprocess build/tests/test_cuda_starburst
# build/tests/test_cuda_tl build/tests/test_cuda_hough build/tests/test_cuda_half
# build/tests/test_cuda_switches tools`), copy the shared
# libraries pupiltrack needs into .devlibs/, and carry build/, .devlibs and
# pupiltrack. Everything goes to $OUT (default /tmp/pt-gpu); summary.txt is
# the digest. Each step has a time limit, so the digest always comes back.
#
# Switches (1 = run, 0 = skip), all on by default:
#   TESTS      agreement tests -b cuda vs -b omp (preprocessing, starburst, tl, hough),
#              the second look's reduced frames, the --cuda-off switches
#   SANITIZE   compute-sanitizer memcheck and racecheck on the tests (quick mode)
#   BENCH      bench -b cuda for the three detectors
#   OMPBENCH   bench -b omp, -j 1 and all cores
#   PEERS      darkest-blob and OpenCV HoughCircles peers on meye-dev
#   ACCURACY   scripts/accuracy.sh with -b omp and -b cuda
# FRAMES (16000) frames per Starburst bench; TL_STEPS ("5 10 20 40");
# HOUGH_STEPS ("18 9 6 3.6 3", sampled voting); SAN_TESTS (test names for
# the sanitizers, default all six); QUICK_TESTS (tests run with
# PT_TEST_QUICK=1 in TESTS, default none).
set -u
OUT=${OUT:-/tmp/pt-gpu}
mkdir -p "$OUT"
[ -d .devlibs ] && export LD_LIBRARY_PATH="$PWD/.devlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PATH=$PATH:/usr/local/cuda/bin
FRAMES=${FRAMES:-16000}
SUMMARY=$OUT/summary.txt
log() { echo "== $*" | tee -a "$SUMMARY"; }
on() { eval "[ \"\${$1:-1}\" = 1 ]"; }
# bench LABEL SECONDS ARGS...: throughput and latency lines into the digest
bench() {
    label=$1 limit=$2
    shift 2
    timeout "$limit" ./pupiltrack bench "$@" >"$OUT/bench-$label.txt" 2>&1
    echo "$label: $(grep -E '^(throughput|latency)' "$OUT/bench-$label.txt" | tr -s ' ' | tr '\n' ' ')" |
        tee -a "$SUMMARY"
}

log "$(nvidia-smi -L 2>&1 | head -1)"
log "host: $(nproc) cores, $(uname -r)"
[ -x build/tools/h2d_bandwidth ] && timeout 30 build/tools/h2d_bandwidth | tee -a "$SUMMARY"

if on TESTS; then
    for t in test_cuda_preprocess test_cuda_starburst test_cuda_tl test_cuda_hough \
        test_cuda_half test_cuda_switches; do
        [ -x build/tests/$t ] || { log "$t: not built, skipped"; continue; }
        # the tests treat any PT_TEST_QUICK in the environment as quick mode
        case " ${QUICK_TESTS:-} " in
        *" $t "*) log "$t (-b cuda vs -b omp), quick mode"
            PT_TEST_QUICK=1 timeout "${TEST_TIMEOUT:-150}" build/tests/$t >"$OUT/$t.txt" 2>&1 ;;
        *) log "$t (-b cuda vs -b omp)"
            timeout "${TEST_TIMEOUT:-150}" build/tests/$t >"$OUT/$t.txt" 2>&1 ;;
        esac
        echo "exit $?" >>"$OUT/$t.txt"
        grep -E "eyes|compared|worst|passed|FAIL|^exit" "$OUT/$t.txt" | tail -8 | tee -a "$SUMMARY"
    done
fi
if on SANITIZE; then
    for tool in memcheck racecheck; do
        log "compute-sanitizer --tool $tool (PT_TEST_QUICK=1)"
        for t in ${SAN_TESTS:-test_cuda_preprocess test_cuda_starburst test_cuda_tl test_cuda_hough test_cuda_half test_cuda_switches}; do
            [ -x build/tests/$t ] || continue
            PT_TEST_QUICK=1 timeout "${SAN_TIMEOUT:-120}" compute-sanitizer --tool $tool \
                --error-exitcode 9 build/tests/$t >"$OUT/sanitizer-$tool-$t.txt" 2>&1
            echo "$t: exit $?, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool-$t.txt" | tail -1)" |
                tee -a "$SUMMARY"
        done
    done
fi

./pupiltrack synth -n 64 --size 1280x1024 --seed 3 -o /tmp/pt-b1280 >/dev/null
./pupiltrack synth -n 64 --binocular --size 1280x1024 --seed 4 -o /tmp/pt-b1280bin >/dev/null
if on BENCH; then
    log "starburst -b cuda, 1280x1024, $FRAMES frames"
    for s in ${STREAMS:-1 2 4 8}; do
        bench "sb-streams$s" 60 -b cuda --streams "$s" --frames "$FRAMES" /tmp/pt-b1280
    done
    bench sb-ellipse 60 -b cuda --ellipse --frames "$FRAMES" /tmp/pt-b1280
    bench sb-binocular 60 -b cuda --binocular --frames "$FRAMES" /tmp/pt-b1280bin
    grep -E '^  ' "$OUT/bench-sb-streams1.txt" | sed 's/^/    1 stream: /' | tee -a "$SUMMARY"
    log "tl -b cuda per threshold step"
    for s in ${TL_STEPS:-5 10 20 40}; do
        bench "tl-step$s" 60 -a tl -b cuda -p tl_step="$s" --frames 2000 /tmp/pt-b1280
    done
    bench tl-binocular 60 -a tl -b cuda --binocular --frames 2000 /tmp/pt-b1280bin
    bench tl-ellipse 60 -a tl -b cuda --ellipse --frames 1000 /tmp/pt-b1280
    log "hough -b cuda: gradient voting, sampled voting per angular step"
    bench hough-gradient 60 -a hough -b cuda --frames 1000 /tmp/pt-b1280
    bench hough-gradient-ellipse 60 -a hough -b cuda --ellipse --frames 500 /tmp/pt-b1280
    bench hough-binocular 60 -a hough -b cuda --binocular --frames 500 /tmp/pt-b1280bin
    for s in ${HOUGH_STEPS:-18 9 6 3.6 3}; do
        bench "hough-sampled-$s" 60 -a hough -b cuda -p hough_vote=sampled -p hough_angle_step="$s" \
            --frames 64 /tmp/pt-b1280
    done
    log "track: -b omp vs -b cuda on the 64 bench frames (status differences, largest centre/radius difference)"
    for a in starburst tl hough; do
        for b in omp cuda; do
            timeout 60 ./pupiltrack track -a $a -b $b -o "$OUT/track-$a-$b.csv" /tmp/pt-b1280 2>/dev/null
        done
        paste -d, "$OUT/track-$a-omp.csv" "$OUT/track-$a-cuda.csv" | awk -F, -v a=$a 'NR > 1 {
            d = 0; for (k = 6; k <= 8; k++) { x = $k - $(k + 14); if (x < 0) x = -x; if (x > d) d = x }
            if ($5 != $19) s++; if (d > w) w = d }
            END { printf "%s: %d status differences, largest difference %.3g px\n", a, s, w }' | tee -a "$SUMMARY"
    done
fi
if on OMPBENCH; then
    log "bench -b omp -j 1 / all cores"
    bench omp-sb-j1 60 -b omp -j 1 --frames 300 /tmp/pt-b1280
    bench omp-sb-all 60 -b omp --frames 3000 /tmp/pt-b1280
    bench omp-sb-bino-j1 60 -b omp --binocular -j 1 --frames 200 /tmp/pt-b1280bin
    bench omp-sb-bino-all 60 -b omp --binocular --frames 2000 /tmp/pt-b1280bin
    for a in tl hough; do
        bench "omp-$a-j1" 90 -b omp -a $a -j 1 --frames 64 --batch 64 /tmp/pt-b1280
        bench "omp-$a-all" 90 -b omp -a $a --frames 640 --batch 320 /tmp/pt-b1280
    done
fi

MEYE=${PT_MEYE_DIR:-../shared/data/meye-dev}
PY=${PYTHON:-python3}
if on PEERS && [ -f "$MEYE/gt.csv" ] && $PY -c 'import cv2, numpy' 2>/dev/null; then
    log "peers on meye-dev (python: $PY)"
    for peer in darkest_blob hough_circles; do
        timeout 120 $PY scripts/peers/$peer.py -o "$OUT/peer-$peer.csv" "$MEYE/gt.csv" 2>"$OUT/peer-$peer.err"
        ./pupiltrack eval --gt "$MEYE/gt.csv" -o /dev/null "$OUT/peer-$peer.csv" 2>&1 | sed -n 2,6p |
            sed "s/^/$peer /" | tee -a "$SUMMARY"
    done
fi
if on ACCURACY; then
    log "scripts/accuracy.sh, omp and cuda (meye-dev: $MEYE)"
    for a in starburst tl hough; do
        for b in omp cuda; do
            [ $a$b = starburstomp ] && h=--header || h=
            PT_MEYE_DIR=$MEYE timeout 120 sh scripts/accuracy.sh $h -a $a -b $b 2>&1 | tee -a "$SUMMARY"
        done
    done
fi
log "done"

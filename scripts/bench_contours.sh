#!/bin/sh
# Contours benchmark: pupiltrack contours -b seq, -b omp -j 1, -b omp (all
# cores) and -b cuda against OpenCV findContours on one core (python3 with cv2;
# the column says n/a when cv2 or the GPU is absent), on generated binary
# images of several sizes and border densities. Prints a markdown table for
# BENCHMARKS.md (and keeps the raw 'timing:' lines in $OUT/raw.txt).
#
#   scripts/bench_contours.sh [PUPILTRACK]
# Environment: SIZES (default "1232x1028 2464x2056 4928x4112"), KINDS (default
# "sparse blobs blocks noise"), MODE (list|ccomp|tree, default list), REPEAT
# (timed runs after a warm-up, default 10; REPEAT_LARGE, default 3, above 8
# megapixels), OUT (default /tmp/pt-bench-contours),
# CUDA_TILE (tile side for -b cuda, a power of two; default: by image size),
# PYTHON (default: /usr/bin/python3 if present, else python3).
#
# Times are medians of REPEAT runs of one image held in host memory. seq/omp:
# binarize + trace + order + hierarchy. cuda "with copies": the whole call
# (staging, upload, tracing, connection, assembly, download of the chain
# codes, host part); "compute": tracing + connection + assembly + host part
# (no image upload, no download). A second table gives the median of each
# cuda phase, as the border-tracking literature reports them, and a third
# the phases of seq and of omp on all cores (pupiltrack(1), contours). OpenCV:
# cv2.findContours on the 0/255 image, cv2.setNumThreads(1).
set -u
PT=${1:-./pupiltrack}
SIZES=${SIZES:-"1232x1028 2464x2056 4928x4112"}
KINDS=${KINDS:-"sparse blobs blocks noise"}
MODE=${MODE:-list}
REPEAT=${REPEAT:-10}
REPEAT_SMALL=$REPEAT
REPEAT_LARGE=${REPEAT_LARGE:-3}
OUT=${OUT:-/tmp/pt-bench-contours}
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
mkdir -p "$OUT"
[ -x "$PT" ] || { echo "bench_contours: no pupiltrack binary at $PT (run make)" >&2; exit 2; }

GEN=build/tools/contour_image
if [ ! -x "$GEN" ]; then
    mkdir -p build/tools
    ${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -o "$GEN" scripts/tools/contour_image.c -lm || {
        echo "bench_contours: cannot build $GEN" >&2; exit 2; }
fi

HAVE_CV=0
if "$PYTHON" -c "import cv2" >/dev/null 2>&1; then HAVE_CV=1; else
    echo "bench_contours: no cv2 for $PYTHON: OpenCV column is n/a" >&2; fi
HAVE_CUDA=1
"$GEN" sparse 64 64 1 >"$OUT/probe.pgm"
"$PT" contours -b cuda --count "$OUT/probe.pgm" >/dev/null 2>"$OUT/probe.err" || {
    HAVE_CUDA=0; echo "bench_contours: -b cuda unavailable: $(cat "$OUT/probe.err")" >&2; }
CORES=$(nproc 2>/dev/null || echo 1)

# field NAME LINE: value of NAME=... in a timing line
field() { printf '%s\n' "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

run_pt() { # backend threads image -> prints the timing line (or nothing)
    if [ "$2" = 0 ]; then j=""; else j="-j $2"; fi
    # shellcheck disable=SC2086
    "$PT" contours -b "$1" $j ${EXTRA:-} --mode "$MODE" --count --repeat "$REPEAT" "$3" \
        >/dev/null 2>"$OUT/err.txt" || { echo "bench_contours: -b $1: $(head -1 "$OUT/err.txt")" >&2; return; }
    line=$(grep '^timing:' "$OUT/err.txt")
    printf '%s %s\n' "$(basename "$3")" "$line" >>"$OUT/raw.txt"
    printf '%s\n' "$line"
}

opencv() { # image -> "median_ms borders" or "n/a n/a"
    [ "$HAVE_CV" = 1 ] || { echo "n/a n/a"; return; }
    "$PYTHON" - "$1" "$REPEAT" "$MODE" <<'EOF' 2>>"$OUT/cv2.err" || echo "n/a n/a"
import sys, time
import cv2
cv2.setNumThreads(1)
path, repeat, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
_, img = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY)
retr = {"list": cv2.RETR_LIST, "ccomp": cv2.RETR_CCOMP, "tree": cv2.RETR_TREE}[mode]
res = cv2.findContours(img, retr, cv2.CHAIN_APPROX_NONE)  # warm-up
contours = res[-2]
times = []
for _ in range(repeat):
    t0 = time.perf_counter()
    cv2.findContours(img, retr, cv2.CHAIN_APPROX_NONE)
    times.append((time.perf_counter() - t0) * 1e3)
times.sort()
n = len(times)
med = times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])
print("%.3f %d" % (med, len(contours)))
EOF
}

ratio() { # a b -> a/b with one decimal, n/a if either is n/a
    case "$1$2" in *n/a*|"") echo "n/a" ;; *) awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "n/a" }' ;; esac
}

: >"$OUT/raw.txt"
: >"$OUT/phases.md"
: >"$OUT/cpu-phases.md"
echo "Contours, --mode $MODE, CHAIN_APPROX_NONE, median of $REPEAT_SMALL runs ($REPEAT_LARGE above 8 Mpixel), ms per image."
GPU=$(nvidia-smi -L 2>/dev/null | head -n 1); [ -n "$GPU" ] || GPU="no GPU"
echo "Host: $CORES cores, $(uname -m); $GPU; OpenCV: $([ "$HAVE_CV" = 1 ] && "$PYTHON" -c 'import cv2; print(cv2.__version__)' || echo none)."
echo
echo "| size | image | borders | OpenCV 1 core | seq | omp -j 1 | omp -j $CORES | cuda with copies | cuda compute | OpenCV / cuda (with copies) | OpenCV / cuda (compute) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for size in $SIZES; do
    w=${size%x*}; h=${size#*x}
    if [ $((w * h)) -gt 8000000 ]; then REPEAT=$REPEAT_LARGE; else REPEAT=$REPEAT_SMALL; fi
    for kind in $KINDS; do
        img="$OUT/${kind}_${size}.pgm"
        "$GEN" "$kind" "$w" "$h" 7 >"$img" || continue
        seq=$(run_pt seq 0 "$img")
        omp1=$(run_pt omp 1 "$img")
        ompn=$(run_pt omp "$CORES" "$img")
        borders=$(field borders "$seq")
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$size" "$kind" \
            "$(field preprocess_ms "$seq")" "$(field trace_ms "$seq")" "$(field assemble_ms "$seq")" \
            "$(field median_ms "$seq")" "$(field preprocess_ms "$ompn")" "$(field trace_ms "$ompn")" \
            "$(field connect_ms "$ompn")" "$(field assemble_ms "$ompn")" >>"$OUT/cpu-phases.md"
        cv=$(opencv "$img"); cv_ms=${cv% *}; cv_n=${cv#* }
        if [ "$HAVE_CUDA" = 1 ]; then
            cu=$(EXTRA="${CUDA_TILE:+--tile $CUDA_TILE}" run_pt cuda 0 "$img")
            cu_ms=$(field median_ms "$cu")
            cu_compute=$(awk -v t="$(field trace_ms "$cu")" -v c="$(field connect_ms "$cu")" \
                -v a="$(field assemble_ms "$cu")" -v h="$(field host_ms "$cu")" \
                'BEGIN { if (t == "" || h == "") print "n/a"; else printf "%.3f", t + c + a + h }')
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$size" "$kind" \
                "$(field upload_ms "$cu")" "$(field trace_ms "$cu")" "$(field connect_ms "$cu")" \
                "$(field assemble_ms "$cu")" "$(field download_ms "$cu")" "$(field host_ms "$cu")" \
                "$(field median_ms "$cu")" >>"$OUT/phases.md"
            [ -n "$cu_ms" ] || cu_ms=n/a
            cu_n=$(field borders "$cu")
            [ "$cu_n" = "$borders" ] || echo "bench_contours: $img: cuda $cu_n borders, seq $borders" >&2
        else
            cu_ms=n/a; cu_compute=n/a
        fi
        [ "$cv_n" = n/a ] || [ "$cv_n" = "$borders" ] || \
            echo "bench_contours: $img: OpenCV $cv_n borders, seq $borders" >&2
        echo "| $size | $kind | $borders | $cv_ms | $(field median_ms "$seq") | $(field median_ms "$omp1") | $(field median_ms "$ompn") | $cu_ms | $cu_compute | $(ratio "$cv_ms" "$cu_ms") | $(ratio "$cv_ms" "$cu_compute") |"
    done
done
echo
echo "seq and omp -j $CORES by phase, ms of the median run (preprocessing: the padded 0/1"
echo "image; tracking: seq's raster scan following each border, omp's pieces per"
echo "rectangle; connection: omp's joins across rectangle sides; assembly: order,"
echo "points, hierarchy)."
echo
echo "| size | image | seq preprocessing | seq tracking | seq assembly | seq whole call | omp preprocessing | omp tracking | omp connection | omp assembly |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$OUT/cpu-phases.md"
if [ "$HAVE_CUDA" = 1 ]; then
    echo
    echo "cuda by phase, median ms (upload: image to the device; tracing: pieces per tile;"
    echo "connection: joins, borders kept; assembly: starts, order, chain codes on the GPU;"
    echo "download: chain codes; host: points and hierarchy); raw lines in $OUT/raw.txt."
    echo
    echo "| size | image | upload | tracing | connection | assembly | download | host | whole call |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    cat "$OUT/phases.md"
fi

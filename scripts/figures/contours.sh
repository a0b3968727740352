#!/bin/sh
# Regenerate the evaluation tables of the border-tracking paper (García-Mollá
# et al., parallel border tracking based on Suzuki's algorithm on GPUs) from
# fresh runs of `pupiltrack contours` on generated binary images.
#
#   scripts/figures/contours.sh [--quick] OUTDIR
#
# Writes OUTDIR/tableN-NAME.{csv,md,png,svg,txt}: the data, the table in
# Markdown, the pictures (with gnuplot) and the caption (which table, what
# it shows, the command, the data). Images go to OUTDIR/images, each run's
# 'timing:' line to OUTDIR/runs/timing.txt.
#
# The paper's images are not distributed: generated 0/255 images stand in
# (scripts/tools/contour_image.c: sparse rings, blobs, 8 x 8 blocks, pixel
# noise) at its sizes, 1232 x 1028 and 2x, 4x that (--quick: a quarter of
# the side). Times are medians of REPEAT runs of one image held in memory
# (contours --repeat). Phases (pupiltrack(1), contours), from the median
# run: seq reports preprocessing, tracking (the raster scan following each
# border) and assembly (order, hierarchy); omp preprocessing, tracking (per
# rectangle), connection (pieces joined across rectangle sides) and assembly
# (start points, order, points, hierarchy); CUDA upload, tracking,
# connection, assembly, download and the host's share per call.
#
# Environment: PT (pupiltrack binary, default ./pupiltrack); REPEAT (default
# 10; --quick 3); PYTHON (with cv2 for the OpenCV column; n/a without);
# CONTOUR_IMAGE (a built scripts/tools/contour_image; default: built here
# with CC, default cc).
set -eu

PT=${PT:-./pupiltrack}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SAY=contours.sh
PAPER="García-Mollá et al. (parallel border tracking based on Suzuki's algorithm)"
. "$HERE/figures/common.sh"
quick_outdir "$@"
need_pt
mkdir -p "$OUT/images" "$OUT/runs"
find_gnuplot "CSV and Markdown only"
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi

if [ $QUICK -eq 1 ]; then REPEAT=${REPEAT:-3}; BASE_W=308; BASE_H=257; else REPEAT=${REPEAT:-10}; BASE_W=1232; BASE_H=1028; fi
CORES=$(nproc 2>/dev/null || echo 1)
WHERE="$(uname -n 2>/dev/null || echo this machine), $CORES cores, $(date -u +%Y-%m-%d)$([ $QUICK -eq 1 ] && echo ', --quick' || true)"

GEN=${CONTOUR_IMAGE:-$OUT/runs/contour_image}
if [ ! -x "$GEN" ]; then
    ${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -o "$GEN" "$HERE/tools/contour_image.c" -lm ||
        { say "cannot build scripts/tools/contour_image.c (set CONTOUR_IMAGE to a built one)"; exit 2; }
fi
HAVE_CV=0
"$PYTHON" -c "import cv2" >/dev/null 2>&1 && HAVE_CV=1
[ $HAVE_CV -eq 1 ] || say "no cv2 for $PYTHON: the OpenCV column is n/a"
HAVE_CUDA=1
"$GEN" sparse 64 64 1 >"$OUT/images/probe.pgm"
"$PT" contours -b cuda --count "$OUT/images/probe.pgm" >/dev/null 2>"$OUT/runs/cuda.txt" || {
    HAVE_CUDA=0; say "-b cuda not available here ($(head -n 1 "$OUT/runs/cuda.txt" | sed 's/^pupiltrack: //')): its columns are not measured"; }
NM="not measured"

# image KIND W H: the generated image's path (made once).
image() {
    img=$OUT/images/$1_$2x$3.pgm
    [ -s "$img" ] || "$GEN" "$1" "$2" "$3" 7 >"$img"
    echo "$img"
}
# timing BACKEND IMAGE [ARGS...]: the 'timing:' line of REPEAT runs.
: >"$OUT/runs/timing.txt"
timing() {
    b=$1; img=$2; shift 2
    if ! "$PT" contours -b "$b" "$@" --count --repeat "$REPEAT" "$img" >/dev/null 2>"$OUT/runs/err.txt"; then
        say "contours -b $b $* $(basename "$img") failed: $(head -n 1 "$OUT/runs/err.txt")"
        return 0
    fi
    line=$(grep '^timing:' "$OUT/runs/err.txt" || true)
    echo "$(basename "$img") -b $b $* $line" >>"$OUT/runs/timing.txt"
    echo "$line"
}
# field NAME LINE: NAME=value of a timing line ("-" when absent).
field() { v=$(printf '%s\n' "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"); echo "${v:--}"; }
opencv() {
    [ $HAVE_CV -eq 1 ] || { echo n/a; return; }
    "$PYTHON" - "$1" "$REPEAT" <<'EOF' 2>>"$OUT/runs/cv2.err" || echo n/a
import sys, time
import cv2
cv2.setNumThreads(1)
img = cv2.imread(sys.argv[1], cv2.IMREAD_GRAYSCALE)
_, img = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY)
cv2.findContours(img, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
t = []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    cv2.findContours(img, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    t.append((time.perf_counter() - t0) * 1e3)
t.sort()
print("%.3f" % t[len(t) // 2])
EOF
}
SCALES="1 2 4"

# --- Tables 1-2: ms per size, CPU (Table 1) and CUDA phases (Table 2) ---
# seq_phases LINE / omp_phases LINE: the CPU phase columns of a timing line.
seq_phases() { echo "$(field preprocess_ms "$1"),$(field trace_ms "$1"),$(field assemble_ms "$1")"; }
omp_phases() { echo "$(field preprocess_ms "$1"),$(field trace_ms "$1"),$(field connect_ms "$1"),$(field assemble_ms "$1")"; }
SEQ_COLS="seq preprocessing ms,seq tracking ms,seq assembly ms"
OMP_COLS="omp -j $CORES preprocessing ms,omp -j $CORES tracking ms,omp -j $CORES connection ms,omp -j $CORES assembly ms"
echo "scale,size,borders,OpenCV 1 core ms,seq ms,$SEQ_COLS,omp -j 1 ms,omp -j $CORES ms,$OMP_COLS" >"$OUT/table1-cpu.csv"
echo "scale,size,borders,cuda ms (whole call),upload ms,tracking ms,connection ms,assembly ms,download ms,host ms" >"$OUT/table2-cuda-phases.csv"
for k in $SCALES; do
    w=$((BASE_W * k)); h=$((BASE_H * k))
    img=$(image blobs $w $h)
    seq=$(timing seq "$img"); omp1=$(timing omp "$img" -j 1); ompn=$(timing omp "$img" -j "$CORES")
    echo "${k}x,${w}x$h,$(field borders "$seq"),$(opencv "$img"),$(field median_ms "$seq"),$(seq_phases "$seq"),$(field median_ms "$omp1"),$(field median_ms "$ompn"),$(omp_phases "$ompn")" >>"$OUT/table1-cpu.csv"
    if [ $HAVE_CUDA -eq 1 ]; then
        cu=$(timing cuda "$img")
        echo "${k}x,${w}x$h,$(field borders "$cu"),$(field median_ms "$cu"),$(field upload_ms "$cu"),$(field trace_ms "$cu"),$(field connect_ms "$cu"),$(field assemble_ms "$cu"),$(field download_ms "$cu"),$(field host_ms "$cu")" >>"$OUT/table2-cuda-phases.csv"
    else
        echo "${k}x,${w}x$h,-,$NM,$NM,$NM,$NM,$NM,$NM,$NM" >>"$OUT/table2-cuda-phases.csv"
    fi
done
table table1-cpu "Border tracking on the CPU: ms per image size and phase (blobs)"
caption table1-cpu "Tables 1-2 (CPU and OpenCV columns)" \
    "milliseconds per image (median of $REPEAT runs) to find every border (--mode list, no approximation) of a generated 'blobs' image at 1x, 2x and 4x the side of $BASE_W x $BASE_H: OpenCV findContours on one core (n/a without cv2); pupiltrack's sequential reference, whole call and the phases of its median run: preprocessing (the padded 0/1 image), tracking (the raster scan following each border) and assembly (OpenCV's order and hierarchy links; a sequential scan has no connection); OpenMP on one and on $CORES cores, whole calls, and on $CORES cores the phases of its median run: preprocessing (0/1 image, marks), tracking (pieces of borders per rectangle, in parallel), connection (pieces joined across rectangle sides, borders kept) and assembly (start points, order, points). Phases add up to a little less than the whole call (allocation between them)." \
    "pupiltrack contours -b seq|omp [-j N] --count --repeat $REPEAT IMAGE; cv2.findContours(RETR_LIST, CHAIN_APPROX_NONE)" \
    "generated images in $OUT/images (scripts/tools/contour_image.c, seed 7); run on $WHERE."
table table2-cuda-phases "Border tracking on CUDA: ms per phase and image size"
caption table2-cuda-phases "Tables 1-2 (GPU phases)" \
    "milliseconds per phase of -b cuda (medians of $REPEAT runs) on the images of table1-cpu: the whole call, the upload, tracing (the paper's tracking: pieces of borders per rectangle), connection (joining pieces across rectangle sides), assembly (start points, discovery order, chain codes, on the GPU), download, and the host's share (points from the chains, hierarchy). '-' where a build does not report a phase.$([ $HAVE_CUDA -eq 1 ] || echo ' Not measured: no usable GPU on the machine that ran this.')" \
    "pupiltrack contours -b cuda --count --repeat $REPEAT IMAGE" \
    "as table1-cpu; run on $WHERE."

# --- Table 3: ms per number of rectangles (1x1 ... 64x64) ---
img=$(image blobs $BASE_W $BASE_H)
echo "rectangles,tile side,omp -j $CORES ms,omp tracking ms,omp connection ms,omp assembly ms,cuda ms,cuda tracking ms,cuda connection ms" >"$OUT/table3-rectangles.csv"
for r in 1 2 4 8 16 32 64; do
    # the power-of-two side that cuts the longer side into r rectangles
    side=$(awk -v w=$BASE_W -v r=$r 'BEGIN { s = 1; while (s * r < w) s *= 2; print s }')
    nx=$(( (BASE_W + side - 1) / side )); ny=$(( (BASE_H + side - 1) / side ))
    o=$(timing omp "$img" -j "$CORES" --tile "$side")
    if [ $HAVE_CUDA -eq 1 ]; then
        c=$(timing cuda "$img" --tile "$side")
        cols="$(field median_ms "$c"),$(field trace_ms "$c"),$(field connect_ms "$c")"
    else
        cols="$NM,$NM,$NM"
    fi
    echo "${nx}x$ny,$side,$(field median_ms "$o"),$(field trace_ms "$o"),$(field connect_ms "$o"),$(field assemble_ms "$o"),$cols" >>"$OUT/table3-rectangles.csv"
done
table table3-rectangles "Border tracking per number of rectangles ($BASE_W x $BASE_H blobs)"
caption table3-rectangles "Table 3" \
    "milliseconds (median of $REPEAT runs) per number of rectangles the image is cut into (tiles of a power-of-two side, --tile; 1x1 ... about 64 x 64), OpenMP on $CORES cores (whole call and, from the median run, tracking: pieces of borders per rectangle; connection: pieces joined across rectangle sides, borders kept; assembly: start points, order, points) and CUDA (whole call, tracking, connection).$([ $HAVE_CUDA -eq 1 ] || echo ' CUDA: not measured (no usable GPU here).')" \
    "pupiltrack contours -b omp|cuda --tile SIDE --count --repeat $REPEAT IMAGE" \
    "$img; run on $WHERE."

# --- Table 4: per image: borders, non-zero pixels, phase times ---
echo "image,size,borders,non-zero pixels,seq ms,$SEQ_COLS,omp -j $CORES ms,$OMP_COLS,cuda upload ms,cuda tracking ms,cuda connection ms,cuda download ms" >"$OUT/table4-images.csv"
for kind in sparse blobs blocks noise; do
    img=$(image $kind $BASE_W $BASE_H)
    nz=$(tail -c $((BASE_W * BASE_H)) "$img" | tr -d '\000' | wc -c | tr -d ' ')
    s=$(timing seq "$img"); o=$(timing omp "$img" -j "$CORES")
    if [ $HAVE_CUDA -eq 1 ]; then
        c=$(timing cuda "$img")
        cols="$(field upload_ms "$c"),$(field trace_ms "$c"),$(field connect_ms "$c"),$(field download_ms "$c")"
    else
        cols="$NM,$NM,$NM,$NM"
    fi
    echo "$kind,${BASE_W}x$BASE_H,$(field borders "$s"),$nz,$(field median_ms "$s"),$(seq_phases "$s"),$(field median_ms "$o"),$(omp_phases "$o"),$cols" >>"$OUT/table4-images.csv"
done
table table4-images "Per image: borders, non-zero pixels, times"
caption table4-images "Table 4" \
    "per generated image ($BASE_W x $BASE_H): borders found, non-zero pixels, sequential and OpenMP ms, each whole call followed by the phases of its median run as in table1-cpu (seq: preprocessing, tracking, assembly; OpenMP on $CORES cores: preprocessing, tracking, connection, assembly), and the CUDA phases (upload, tracking, connection, download). Partial: generated images stand in for the paper's.$([ $HAVE_CUDA -eq 1 ] || echo ' CUDA: not measured (no usable GPU here).')" \
    "pupiltrack contours -b seq|omp|cuda --count --repeat $REPEAT IMAGE" \
    "$OUT/images; run on $WHERE."

# --- Table 5: upload and download ms per size ---
echo "scale,size,upload ms,download ms" >"$OUT/table5-transfers.csv"
awk -F, 'NR > 1 { print $1 "," $2 "," $5 "," $9 }' "$OUT/table2-cuda-phases.csv" >>"$OUT/table5-transfers.csv"
table table5-transfers "Host-GPU transfers per image size"
caption table5-transfers "Table 5" \
    "milliseconds of the image upload and of the download of the results of -b cuda (medians of $REPEAT runs) per image size (the images of table1-cpu).$([ $HAVE_CUDA -eq 1 ] || echo ' Not measured: no usable GPU on the machine that ran this.')" \
    "pupiltrack contours -b cuda --count --repeat $REPEAT IMAGE" \
    "as table1-cpu; run on $WHERE."

say "done: $(ls "$OUT" | grep -c '\.csv$') tables in $OUT"

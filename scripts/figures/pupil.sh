#!/bin/sh
# Regenerate the pupil paper's figures (Mompeán et al., "Design of an accurate
# and high-speed binocular pupil tracking system based on GPGPUs",
# J. Supercomputing 74(5), 2018) from fresh runs on a dataset.
#
#   scripts/figures/pupil.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR
#
# Each figure is OUTDIR/figNN-NAME.csv (the data drawn), .png and .svg, and
# .txt (its caption: which figure of the paper it reproduces, what is plotted,
# the commands and the data); NN is the paper's figure number, a/b its panels
# where the paper has two. The sweeps behind them are kept in OUTDIR/sweeps/.
# scripts/figures/README.md lists every figure and table of the papers and
# where each stands. The detectors run with --preset paper (the paper's
# configuration, man pupiltrack PRESETS); Figs. 12 and 14 add pupiltrack's
# defaults beside it. --quick uses small grids (CI, a first look).
# The CUDA back end is used where it runs on this machine for that detector;
# where it does not, the script says so and a figure that needs it is drawn as
# a panel saying it was not measured. Without gnuplot the CSVs are still made
# and drawing is skipped; --draw-only then redraws from OUTDIR/sweeps elsewhere
# (e.g. sweeps run on a GPU host, drawn on a desktop) without running anything.
#
# Environment: PT (pupiltrack binary, default ./pupiltrack), THREADS (the
# thread counts of the OpenMP speed-up figure, default 1 2 4 ... all cores),
# LADDER_FRAMES (frames per bench run of Fig. 7, scripts/figures/ladder.sh).
set -eu

usage() { echo "usage: scripts/figures/pupil.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR" >&2; exit 2; }
QUICK=0; DRAW_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1; shift ;;
    --draw-only) DRAW_ONLY=1; shift ;;
    *) break ;;
    esac
done
[ $# -eq 3 ] || usage
DATA=$1; GT=$2; OUT=$3
PT=${PT:-./pupiltrack}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SAY=pupil.sh
PAPER="Mompean et al. 2018 (J. Supercomputing 74(5))"
. "$HERE/figures/common.sh"
[ $DRAW_ONLY -eq 1 ] || need_pt
if [ $DRAW_ONLY -eq 0 ]; then
    [ -d "$DATA" ] || { say "$DATA: not a folder"; exit 2; }
    [ -f "$GT" ] || { say "$GT: ground truth not found"; exit 2; }
fi
mkdir -p "$OUT/sweeps"
find_gnuplot "writing the sweeps and figure CSVs only, no PNG/SVG"

# The paper's grids (Figs. 10-13); --quick keeps each figure's extremes.
if [ $QUICK -eq 1 ]; then
    KERNELS=13,19,25; TL_STEPS=10,20,40; HOUGH_STEPS=18,6,3; STREAMS=1,4
else
    KERNELS=13:25:2; TL_STEPS=5:40:5; HOUGH_STEPS=18,9,6,4.5,3; STREAMS=1:9:1
fi
CORES=$(nproc 2>/dev/null || echo 1)
if [ -z "${THREADS:-}" ]; then
    THREADS=1; t=2
    while [ $t -lt "$CORES" ]; do THREADS="$THREADS $t"; t=$((t * 2)); done
    [ "$CORES" -gt 1 ] && THREADS="$THREADS $CORES"
fi
THREADS_LIST=$(echo $THREADS | tr ' ' ',')
NIMAGES=$(ls "$DATA" 2>/dev/null | grep -ciE '\.(png|tif|tiff|pgm)$' || true)
WHERE_RUN="$(uname -n 2>/dev/null || echo this machine), $CORES cores, $(date -u +%Y-%m-%d)"

# The back ends a detector runs on here: omp, plus cuda when it works for it.
FIRST=$(ls "$DATA" 2>/dev/null | grep -iE '\.(png|tif|tiff|pgm)$' | head -n 1 || true)
[ -n "$FIRST" ] || [ $DRAW_ONLY -eq 1 ] || { say "$DATA: no images"; exit 2; }
backends_for() {
    [ $DRAW_ONLY -eq 0 ] || { echo omp; return 0; }
    if "$PT" track -a "$1" -b cuda -o /dev/null "$DATA/$FIRST" >/dev/null 2>"$OUT/sweeps/cuda-$1.txt"; then
        echo omp,cuda
    else
        say "$1: CUDA back end not available here ($(head -n 1 "$OUT/sweeps/cuda-$1.txt" | sed 's/^pupiltrack: //')); OpenMP only"
        echo omp
    fi
}

# caption NAME FIGURE WHAT COMMAND: OUTDIR/NAME.txt.
caption() {
    {
        echo "Reproduces: $2 of $PAPER."
        echo "Plotted: $3"
        echo "Command: $4"
        if [ $DRAW_ONLY -eq 0 ]; then
            echo "Data: $DATA ($NIMAGES images), ground truth $GT; run on $WHERE_RUN$([ $QUICK -eq 1 ] && echo ', --quick grids')."
        else
            echo "Data: the sweeps in $OUT/sweeps (redrawn with --draw-only)."
        fi
    } >"$OUT/$1.txt"
}

# sweep NAME ARGS...: one sweep into OUTDIR/sweeps/NAME (unreadable images are
# error rows and do not stop the figures).
sweep() {
    name=$1; shift
    if [ $DRAW_ONLY -eq 1 ]; then
        [ -f "$OUT/sweeps/$name/summary.csv" ] || { say "--draw-only: $OUT/sweeps/$name has no summary.csv"; exit 1; }
        return 0
    fi
    say "sweep $name: $*"
    rc=0
    "$PT" sweep --gt "$GT" -o "$OUT/sweeps/$name" "$@" "$DATA" >&2 || rc=$?
    [ $rc -le 1 ] || { say "sweep $name failed (exit $rc)"; exit 1; }
    [ $rc -eq 0 ] || say "sweep $name: some images could not be read (error rows)"
}

# series CSV X Y SERIES FILTER SCALE [PREFIX]: tidy "series,X,Y" rows from a
# sweep CSV, with a header unless PREFIX is given (then every series name
# starts with it, for joining sweeps). SERIES: ';'-separated columns naming a
# line (config and backend as plain values, others as key=value); FILTER:
# ';'-separated column=value conditions.
series() {
    awk -F, -v xc="$2" -v yc="$3" -v sc="$4" -v flt="$5" -v scale="$6" -v prefix="${7-}" -v head="${7+0}" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              ns = split(sc, S, ";"); nf = flt == "" ? 0 : split(flt, F, ";")
              if (head == "") print "series," xc "," yc; next }
    { for (j = 1; j <= nf; j++) { split(F[j], kv, "="); if ($(col[kv[1]]) != kv[2]) next }
      if ($(col[yc]) == "") next
      s = prefix
      for (j = 1; j <= ns; j++) {
          v = $(col[S[j]])
          s = s (s != "" ? " " : "") (S[j] == "config" || S[j] == "backend" ? v : S[j] "=" v)
      }
      if (!(s in seen)) { seen[s] = 1; order[++n] = s }
      rows[s] = rows[s] sprintf("%s,%s,%.6g\n", s, $(col[xc]), $(col[yc]) * scale) }
    END { for (k = 1; k <= n; k++) printf "%s", rows[order[k]] }' "$1"
}

REL="relative error threshold (% of the true radius)"
DET="frames detected within the threshold (%)"

# --- Fig. 1: reflection removal, stage by stage, on the dataset's first frame ---
if [ $DRAW_ONLY -eq 0 ]; then
    rm -rf "$OUT/fig01-stages"
    "$PT" track --preset paper --draw-stages "$OUT/fig01-stages" -o /dev/null "$DATA/$FIRST" ||
        { say "fig01: track --draw-stages failed"; exit 1; }
fi
STEM=$(ls "$OUT/fig01-stages" 2>/dev/null | sed -n 's/-1-image\.png$//p' | head -n 1)
{
    echo "stage,file"
    for s in 1-image 2-tophat 3-mask 4-cleaned 5-smoothed; do echo "$s,fig01-stages/$STEM-$s.png"; done
} >"$OUT/fig01-reflection-stages.csv"
if [ $GNUPLOT -eq 1 ] && [ -n "$STEM" ]; then
    gnuplot -e "GPFILES='$HERE/figures/'; dir='$OUT/fig01-stages'; stem='$STEM'; out='$OUT/fig01-reflection-stages'; ttl='Reflection removal (paper preset: top-hat 19 px, threshold 40, dilation)'" \
        "$HERE/figures/stages.gp"
fi
caption fig01-reflection-stages "Fig. 1" \
    "the first frame of the dataset, its top-hat (image minus its grey opening), the reflection mask after the threshold and the dilation, and the frame with the reflections filled in (the smoothed frame is fig01-stages/*-5-smoothed.png)." \
    "pupiltrack track --preset paper --draw-stages DIR FRAME"

# --- Figs. 2-4: each detector on the first frame (paper preset): the stages
# track --draw-stages writes (threshold and labeling: Fig. 2; Starburst's
# rays per iteration: Fig. 3; Canny edges: Fig. 4) and what --draw shows ---
if [ $DRAW_ONLY -eq 0 ]; then
    mkdir -p "$OUT/detectors"
    for det in tl starburst hough; do
        rm -rf "$OUT/detectors/$det" "$OUT/detectors/$det-stages"
        "$PT" track -a $det --preset paper --draw "$OUT/detectors/$det" --draw-stages "$OUT/detectors/$det-stages" \
            -o "$OUT/detectors/$det.csv" "$DATA/$FIRST" ||
            { say "figs 2-4: track -a $det --draw --draw-stages failed"; exit 1; }
    done
fi
IMG=$OUT/fig01-stages/$STEM-1-image.png
# detector_panels NAME FIGURE TITLE FILES TITLES WHAT DETECTOR [GNUPLOT_VARS]
# (TITLES: one "quoted" title per file; GNUPLOT_VARS: rows=..., crop=... for panels.gp)
detector_panels() {
    {
        echo "panel,file"
        k=1
        for f in $4; do echo "$k,${f#"$OUT"/}"; k=$((k + 1)); done
    } >"$OUT/$1.csv"
    if [ -z "$(echo $4)" ]; then
        say "$1: no stage images in $OUT/detectors: not drawn"
    elif [ $GNUPLOT -eq 1 ] && [ -n "$STEM" ]; then
        gnuplot -e "GPFILES='$HERE/figures/'; files='$4'; titles='$5'; out='$OUT/$1'; ttl='$3'; ${8-}" "$HERE/figures/panels.gp"
    fi
    caption "$1" "$2" "$6" "pupiltrack track -a $7 --preset paper --draw-stages DIR$([ "$7" = hough ] && echo ' --draw DIR') FRAME"
}
# pupil_crop DET: "X0 X1 Y0 Y1 H", a square around DET's pupil on the first
# frame (three radii each side, at least 40 px), within the frame; empty when
# no pupil was found there.
pupil_crop() {
    png=$OUT/detectors/$1-stages/$STEM-1-image.png
    [ -f "$OUT/detectors/$1.csv" ] && [ -f "$png" ] || return 0
    size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ print $3 * 256 + $4, $7 * 256 + $8 }')
    awk -F, -v size="$size" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        NR == 2 && $(col["status"]) == "ok" {
            split(size, wh, " "); r = $(col["r"]); h = 3 * r < 40 ? 40 : 3 * r
            x0 = int($(col["cx"]) - h); x1 = int($(col["cx"]) + h); y0 = int($(col["cy"]) - h); y1 = int($(col["cy"]) + h)
            if (x0 < 0) x0 = 0; if (y0 < 0) y0 = 0
            if (x1 > wh[1] - 1) x1 = wh[1] - 1; if (y1 > wh[2] - 1) y1 = wh[2] - 1
            print x0, x1, y0, y1, wh[2] }' "$OUT/detectors/$1.csv"
}
TLS=$OUT/detectors/tl-stages/$STEM
detector_panels fig02-tl-stages "Fig. 2" "Threshold and labeling, the threshold fitted (paper preset)" \
    "$TLS-6-threshold.png $TLS-7-labels.png $TLS-8-blob.png $TLS-9-border.png" \
    '"(a) threshold" "(b) labels" "(c) the blob chosen" "(d) its border and the fit"' \
    "the first frame's threshold-and-labeling stages at the threshold whose fit the detector reported (track --draw-stages): (a) white where the smoothed frame is at or below it, (b) each 8-connected component of those pixels in a colour of its own, (c) the blob chosen (the biggest within the radius range, preferring blobs off the frame's edge), (d) its border points (green) and the reported fit (red) on the frame." \
    tl "rows='2'"
SBN=$(ls "$OUT/detectors/starburst-stages" 2>/dev/null | grep -c -- "^$STEM-6-rays-[0-9]*\.png$" || true)
SBFILES=""; SBTITLES=""; k=1
while [ "$k" -le "${SBN:-0}" ]; do
    SBFILES="$SBFILES $OUT/detectors/starburst-stages/$STEM-6-rays-$k.png"
    SBTITLES="$SBTITLES \"($(echo abcdefghijklmnopqrstuvwxyz | cut -c "$k")) iteration $k\""
    k=$((k + 1))
done
SBROWS=1; [ "${SBN:-0}" -gt 4 ] && SBROWS=2
CROP=$(pupil_crop starburst)
detector_panels fig03-starburst-rays "Fig. 3" "Starburst rays per iteration (paper preset)" \
    "$SBFILES" "$SBTITLES" \
    "Starburst on the first frame, one panel per iteration (track --draw-stages, $SBN iterations): first-stage rays from the start point (magenta cross) to their edge points in yellow, second-stage rays cast back from each first-stage edge point to theirs in cyan, points left out of the fit as flat edges in white, the iteration's fit in red; each iteration starts at the previous fit's centre, and the reported fit is chosen among the iterations' fits (fit_choice). Only rays that found an edge are drawn; panels show the frame around the reported pupil$([ -z "$CROP" ] && echo ' (no pupil found: the whole frame)')." \
    starburst "rows='$SBROWS'; crop='$CROP'"
detector_panels fig04-hough "Fig. 4" "Canny-Hough (paper preset)" \
    "$IMG $OUT/detectors/hough-stages/$STEM-6-canny.png $OUT/detectors/hough/$STEM.png" '"(a) image" "(b) Canny edges" "(c) edge pixels and the Hough circle"' \
    "the first frame, its Canny edges (track --draw-stages: each eye region of the smoothed frame, the detector's sigma and thresholds) and, from track --draw, the edge pixels (green) and the circle the votes chose (red)." hough

# --- Fig. 6: histogram of the pupil radii of the ground truth ---
awk -F, '
    /^#/ || NF == 0 { next }
    !h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
    { if (!("cx" in col) || $(col["cx"]) == "") next
      if ("blink" in col && $(col["blink"]) == 1) next
      r = ("r" in col) ? $(col["r"]) : ""
      if (r == "" && ("a" in col) && ("b" in col) && $(col["a"]) != "") r = ($(col["a"]) + $(col["b"])) / 2
      if (r == "") next
      bin = int(r + 0.5); count[bin]++; if (bin > max) max = bin; if (min == "" || bin < min) min = bin }
    END { print "radius_px,pupils"; for (b = min; b <= max && min != ""; b++) printf "%d,%d\n", b, count[b] + 0 }' \
    "$GT" >"$OUT/fig06-radius-histogram.csv.tmp" 2>/dev/null || [ $DRAW_ONLY -eq 1 ]
if [ -s "$OUT/fig06-radius-histogram.csv.tmp" ]; then
    mv "$OUT/fig06-radius-histogram.csv.tmp" "$OUT/fig06-radius-histogram.csv"
else
    rm -f "$OUT/fig06-radius-histogram.csv.tmp"
fi
if [ $GNUPLOT -eq 1 ] && [ -f "$OUT/fig06-radius-histogram.csv" ]; then
    gnuplot -e "GPFILES='$HERE/figures/'; data='$OUT/fig06-radius-histogram.csv'; out='$OUT/fig06-radius-histogram'; ttl='Pupil radii in the ground truth'; xl='pupil radius (px, rounded; r, else (a+b)/2)'; yl='pupils'; bin=1" \
        "$HERE/figures/histogram.gp"
fi
caption fig06-radius-histogram "Fig. 6" \
    "the number of pupils per radius (1 px bins) in the ground truth: column r, or (a+b)/2 where only the ellipse is given; frames without a pupil or marked blink=1 are left out." \
    "awk over GT.csv (scripts/figures/pupil.sh)"

# --- Fig. 7: speed-up over the sequential run per cumulative CUDA optimisation
# (scripts/figures/ladder.sh; its caption's Data line says where it ran) ---
sh "$HERE/figures/ladder.sh" $([ $QUICK -eq 1 ] && echo --quick) $([ $DRAW_ONLY -eq 1 ] && echo --draw-only) "$DATA" "$OUT" ||
    { say "fig07: ladder.sh failed"; exit 1; }

# --- Fig. 10: Starburst preprocessing: top-hat 13..25 x Gaussian 5 / median 7, 11 ---
B=$(backends_for starburst)
sweep starburst-gauss -a starburst --preset paper -g backend=$B -g reflection_kernel=$KERNELS
sweep starburst-median -a starburst --preset paper -p smooth=median -g backend=$B -g smooth_size=7,11 -g reflection_kernel=$KERNELS
SG=$OUT/sweeps/starburst-gauss; SM=$OUT/sweeps/starburst-median
{
    echo "series,threshold,rate"
    series "$SG/curve.csv" threshold rate "reflection_kernel" "metric=relative;backend=omp" 100 "gaussian 5"
    series "$SM/curve.csv" threshold rate "smooth_size;reflection_kernel" "metric=relative;backend=omp" 100 "median"
} >"$OUT/fig10a-starburst-accuracy.csv"
draw fig10a-starburst-accuracy "Starburst (paper preset): accuracy per preprocessing (omp)" "$REL" "$DET" "ymax=100"
caption fig10a-starburst-accuracy "Fig. 10 (accuracy)" \
    "share of frames within each relative error, Starburst with the paper preset, per reflection top-hat side ($KERNELS) and smoothing filter (Gaussian 5x5 sigma 2; median 7 and 11), OpenMP." \
    "pupiltrack sweep -a starburst --preset paper -g reflection_kernel=$KERNELS [-p smooth=median -g smooth_size=7,11]"
{
    echo "series,reflection_kernel,fps"
    series "$SG/summary.csv" reflection_kernel fps "backend" "" 1 "gaussian 5"
    series "$SM/summary.csv" reflection_kernel fps "backend;smooth_size" "" 1 "median"
} >"$OUT/fig10b-starburst-fps.csv"
draw fig10b-starburst-fps "Starburst (paper preset): speed per preprocessing" "reflection removal kernel side (px)" "frames per second"
caption fig10b-starburst-fps "Fig. 10 (speed)" \
    "frames per second in the sweep's track calls per top-hat side and filter, per back end run here ($B)." \
    "as fig10a"

# --- Fig. 11: circle vs ellipse fit: accuracy; speed against CUDA streams 1..9 ---
sweep fit -a starburst --preset paper -g fit=circle,ellipse
series "$OUT/sweeps/fit/curve.csv" threshold rate "fit" "metric=relative" 100 >"$OUT/fig11a-fit-accuracy.csv"
draw fig11a-fit-accuracy "Starburst (paper preset): circle vs ellipse fit (omp)" "$REL" "$DET" "ymax=100"
caption fig11a-fit-accuracy "Fig. 11a" \
    "share of frames within each relative error for circle and ellipse fits (paper preset: RANSAC circle; direct RANSAC ellipse), OpenMP." \
    "pupiltrack sweep -a starburst --preset paper -g fit=circle,ellipse"
[ $DRAW_ONLY -eq 1 ] && [ -f "$OUT/sweeps/streams/summary.csv" ] && B=omp,cuda
case $B in
*cuda*)
    sweep streams -a starburst --preset paper -b cuda -g fit=circle,ellipse -g streams=$STREAMS
    series "$OUT/sweeps/streams/summary.csv" streams fps "fit" "" 1 >"$OUT/fig11b-fit-streams-fps.csv"
    draw fig11b-fit-streams-fps "Starburst on CUDA (paper preset): speed against streams" "CUDA streams" "frames per second"
    caption fig11b-fit-streams-fps "Fig. 11b" "frames per second of circle and ellipse fits on CUDA per number of streams ($STREAMS)." \
        "pupiltrack sweep -a starburst --preset paper -b cuda -g fit=circle,ellipse -g streams=$STREAMS" ;;
*)
    echo "series,streams,fps" >"$OUT/fig11b-fit-streams-fps.csv"
    placeholder fig11b-fit-streams-fps "Starburst on CUDA: speed against streams" "not measured: the CUDA back end is not available here"
    caption fig11b-fit-streams-fps "Fig. 11b" "nothing: the CUDA back end is not available on the machine that ran this." "scripts/figures/pupil.sh" ;;
esac

# per_value DET KEY VALUES FIG WHAT XLABEL [--defaults]: a detector with the
# paper preset per value of one parameter: accuracy (omp) in FIGa, speed per
# back end in FIGb; with --defaults the speed of pupiltrack's defaults beside it.
per_value() {
    B=$(backends_for "$1")
    sweep "$1" -a "$1" --preset paper -g backend=$B -g "$2=$3"
    series "$OUT/sweeps/$1/curve.csv" threshold rate "$2" "metric=relative;backend=omp" 100 >"$OUT/$4a-$1-accuracy.csv"
    draw "$4a-$1-accuracy" "$5 (paper preset): accuracy per $2 (omp)" "$REL" "$DET" "ymax=100"
    {
        echo "series,$2,fps"
        series "$OUT/sweeps/$1/summary.csv" "$2" fps "backend" "" 1 "paper preset"
        if [ "${7:-}" = --defaults ]; then
            sweep "$1-defaults" -a "$1" -g backend=$B -g "$2=$3"
            series "$OUT/sweeps/$1-defaults/summary.csv" "$2" fps "backend" "" 1 "defaults"
        fi
    } >"$OUT/$4b-$1-fps.csv"
    draw "$4b-$1-fps" "$5: speed per $2" "$6" "frames per second"
}

# --- Fig. 12: threshold and labeling per threshold step ---
per_value tl tl_step "$TL_STEPS" fig12 "Threshold-and-labeling" "threshold step (grey levels)" --defaults
caption fig12a-tl-accuracy "Fig. 12 (accuracy)" \
    "share of frames within each relative error per threshold step ($TL_STEPS; thresholds 20..100), T&L with the paper preset (most votes wins, no refit), OpenMP." \
    "pupiltrack sweep -a tl --preset paper -g tl_step=$TL_STEPS"
caption fig12b-tl-fps "Fig. 12 (speed)" \
    "frames per second per threshold step, paper preset and pupiltrack's defaults, per back end run here." \
    "pupiltrack sweep -a tl [--preset paper] -g backend=... -g tl_step=$TL_STEPS"

# --- Fig. 13: Canny-Hough per angle step, sampled voting over the whole circle ---
# (the default gradient voting casts one vote per radius and has no angle step)
per_value hough hough_angle_step "$HOUGH_STEPS" fig13 "Canny-Hough" "angle between votes (degrees)"
caption fig13a-hough-accuracy "Fig. 13 (accuracy)" \
    "share of frames within each relative error per angle step ($HOUGH_STEPS degrees), Canny-Hough with the paper preset (sampled votes over the whole circle), OpenMP." \
    "pupiltrack sweep -a hough --preset paper -g hough_angle_step=$HOUGH_STEPS"
caption fig13b-hough-fps "Fig. 13 (speed)" \
    "frames per second per angle step (votes per edge pixel and radius = 360 / step), per back end run here." \
    "as fig13a"

# --- Fig. 14: the paper's configuration of each detector and pupiltrack's defaults ---
{
    echo "series,metric,threshold,rate"
    for det in starburst tl hough; do
        B=$(backends_for "$det")
        for p in paper default; do
            sweep "fixed-$det-$p" -a "$det" --preset "$p" -g backend=$B
            label="$det $([ $p = paper ] && echo 'paper preset' || echo defaults)"
            # the back ends give the same results: the curves are omp's
            awk -F, -v label="$label" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                $(col["backend"]) == "omp" { printf "%s,%s,%s,%.6g\n", label, $2, $3, $6 * 100 }' \
                "$OUT/sweeps/fixed-$det-$p/curve.csv"
        done
    done
} >"$OUT/fig14-fixed.csv"
{
    echo "series,fps"
    for det in starburst tl hough; do
        for p in paper default; do
            label="$det $([ $p = paper ] && echo 'paper preset' || echo defaults)"
            awk -F, -v label="$label" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                { printf "%s %s,%s\n", label, $(col["backend"]), $(col["fps"]) }' \
                "$OUT/sweeps/fixed-$det-$p/summary.csv"
        done
    done
} >"$OUT/fig14-fixed-fps.csv"
if [ $GNUPLOT -eq 1 ]; then
    for m in relative pixel; do
        awk -F, -v m=$m 'NR == 1 { print "series,threshold,rate"; next } $2 == m { print $1 "," $3 "," $4 }' \
            "$OUT/fig14-fixed.csv" >"$OUT/fig14-$m.tmp"
        blocks "$OUT/fig14-$m.tmp" >"$OUT/fig14-$m.dat"
    done
    gnuplot -e "GPFILES='$HERE/figures/'; rel='$OUT/fig14-relative.dat'; px='$OUT/fig14-pixel.dat'; fps='$OUT/fig14-fixed-fps.csv'; n=$(nseries "$OUT/fig14-relative.tmp"); nf=$(($(wc -l <"$OUT/fig14-fixed-fps.csv") - 1)); out='$OUT/fig14-fixed'; ttl='Each detector: the paper preset and pupiltrack defaults (accuracy: omp; speed: each back end run here)'" \
        "$HERE/figures/fixed.gp"
    rm -f "$OUT"/fig14-*.tmp "$OUT"/fig14-*.dat
fi
caption fig14-fixed "Fig. 14" \
    "relative and pixel accuracy curves (OpenMP; CUDA gives the same results) and frames per second on each back end run here of each detector at the paper preset's fixed configuration (top-hat 19, Gaussian 5 sigma 2; thresholds 20..100 by 20; sampled votes every 3.6 degrees) and at pupiltrack's defaults. fig14-fixed-fps.csv holds the speeds." \
    "pupiltrack sweep -a DET --preset paper|default -g backend=omp[,cuda]"

# --- OpenMP speed-up against threads (the OpenMP series of Fig. 7's comparison) ---
sweep threads -a starburst --preset paper -b omp -g threads=$THREADS_LIST
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print "series,threads,speedup"; next }
         { t = $(col["threads"]); f = $(col["fps"]); if (base == "") base = f
           if (base > 0) printf "Starburst omp,%s,%.4g\n", t, f / base }' \
    "$OUT/sweeps/threads/summary.csv" >"$OUT/omp-speedup.csv"
WHERE=" ($CORES cores here)"; [ $DRAW_ONLY -eq 0 ] || WHERE=""
draw omp-speedup "Starburst (paper preset) on OpenMP: speed-up against threads$WHERE" "OpenMP threads" "speed-up over 1 thread" "ideal=1; logx=1"
caption omp-speedup "no single figure (the OpenMP speed-up behind Fig. 7's OpenMP bar, over one thread, not over the paper's sequential code)" \
    "speed-up of Starburst (paper preset) over one OpenMP thread, per thread count ($THREADS_LIST)." \
    "pupiltrack sweep -a starburst --preset paper -b omp -g threads=$THREADS_LIST"

say "done: $(ls "$OUT" | grep -c '\.csv$') figure CSVs$([ $GNUPLOT -eq 1 ] && echo " with PNG and SVG") in $OUT"

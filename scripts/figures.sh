#!/bin/sh
# Regenerate the seed paper's accuracy and speed figures from fresh sweeps.
#
#   scripts/figures.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR
#
# Runs `pupiltrack sweep` for each figure (OUTDIR/sweeps/NAME/), then draws
# OUTDIR/figNN-NAME.png and .svg with gnuplot, each beside the CSV it was drawn
# from (OUTDIR/figNN-NAME.csv). --quick uses small grids (CI, a first look).
# The CUDA back end is used where it runs on this machine for that detector;
# where it does not, the script says so and the figures show OpenMP only.
# Without gnuplot the sweeps and CSVs are still made and drawing is skipped;
# --draw-only then redraws from OUTDIR/sweeps elsewhere (e.g. sweeps run on a
# GPU host without gnuplot, drawn on a desktop) without running anything.
#
# Environment: PT (pupiltrack binary, default ./pupiltrack), THREADS (the
# thread counts of the OpenMP speed-up figure, default 1 2 4 ... all cores),
# LADDER (a CSV "step,fps" of the CUDA optimisation ladder, when measured).
set -eu

usage() { echo "usage: scripts/figures.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR" >&2; exit 2; }
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
HERE=$(cd "$(dirname "$0")" && pwd)
say() { echo "figures.sh: $*" >&2; }
[ -x "$PT" ] || [ $DRAW_ONLY -eq 1 ] || { say "$PT not found or not executable (build it with make, or set PT)"; exit 2; }
if [ $DRAW_ONLY -eq 0 ]; then
    [ -d "$DATA" ] || { say "$DATA: not a folder"; exit 2; }
    [ -f "$GT" ] || { say "$GT: ground truth not found"; exit 2; }
fi
mkdir -p "$OUT/sweeps"
GNUPLOT=1
if ! command -v gnuplot >/dev/null 2>&1; then
    GNUPLOT=0
    say "gnuplot not found: writing the sweeps and figure CSVs only, no PNG/SVG (install gnuplot-nox)"
fi

if [ $QUICK -eq 1 ]; then
    KERNELS=13,19,25; TL_STEPS=10,20,40; HOUGH_STEPS=18,6,3.6; STREAMS=1,4
else
    KERNELS=13:25:2; TL_STEPS=5:40:5; HOUGH_STEPS=18,12,9,6,4.5,3.6,3; STREAMS=1,2,4,8,16
fi
CORES=$(nproc 2>/dev/null || echo 1)
if [ -z "${THREADS:-}" ]; then
    THREADS=1; t=2
    while [ $t -lt "$CORES" ]; do THREADS="$THREADS $t"; t=$((t * 2)); done
    [ "$CORES" -gt 1 ] && THREADS="$THREADS $CORES"
fi
THREADS_LIST=$(echo $THREADS | tr ' ' ',')

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
    "$PT" sweep --gt "$GT" -o "$OUT/sweeps/$name" "$@" "$DATA" || rc=$?
    [ $rc -le 1 ] || { say "sweep $name failed (exit $rc)"; exit 1; }
    [ $rc -eq 0 ] || say "sweep $name: some images could not be read (error rows)"
}

# series CSV X Y SERIES FILTER SCALE: tidy "series,X,Y" rows from a sweep CSV.
# SERIES: ';'-separated columns naming a line (config and backend as plain
# values, others as key=value); FILTER: ';'-separated column=value conditions.
series() {
    awk -F, -v xc="$2" -v yc="$3" -v sc="$4" -v flt="$5" -v scale="$6" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
              ns = split(sc, S, ";"); nf = flt == "" ? 0 : split(flt, F, ";")
              print "series," xc "," yc; next }
    { for (j = 1; j <= nf; j++) { split(F[j], kv, "="); if ($(col[kv[1]]) != kv[2]) next }
      if ($(col[yc]) == "") next
      s = ""
      for (j = 1; j <= ns; j++) {
          v = $(col[S[j]])
          s = s (j > 1 ? " " : "") (S[j] == "config" || S[j] == "backend" ? v : S[j] "=" v)
      }
      if (!(s in seen)) { seen[s] = 1; order[++n] = s }
      rows[s] = rows[s] sprintf("%s,%s,%.6g\n", s, $(col[xc]), $(col[yc]) * scale) }
    END { for (k = 1; k <= n; k++) printf "%s", rows[order[k]] }' "$1"
}

# blocks CSV: the tidy rows as gnuplot data blocks, one per series.
blocks() {
    awk -F, 'NR > 1 { if ($1 != last) { if (last != "") printf "\n\n"; printf "\"%s\" x\n", $1; last = $1 }
                      print $2, $3 }' "$1"
}
nseries() { tail -n +2 "$1" | cut -d, -f1 | sort -u | wc -l; }

# draw NAME TITLE XLABEL YLABEL [gnuplot settings]: OUTDIR/NAME.{png,svg} from NAME.csv.
draw() {
    name=$1; ttl=$2; xl=$3; yl=$4; extra=${5:-}
    [ $GNUPLOT -eq 1 ] || return 0
    n=$(nseries "$OUT/$name.csv")
    if [ "$n" -eq 0 ]; then
        placeholder "$name" "$ttl" "no data for this figure"
        return 0
    fi
    blocks "$OUT/$name.csv" >"$OUT/$name.dat"
    gnuplot -e "GPFILES='$HERE/figures/'; data='$OUT/$name.dat'; n=$n; out='$OUT/$name'; ttl='$ttl'; xl='$xl'; yl='$yl'; $extra" \
        "$HERE/figures/lines.gp"
    rm -f "$OUT/$name.dat"
}
placeholder() {
    [ $GNUPLOT -eq 1 ] || return 0
    gnuplot -e "GPFILES='$HERE/figures/'; out='$OUT/$1'; ttl='$2'; msg='$3'" "$HERE/figures/placeholder.gp"
}
REL="relative error threshold (% of the true radius)"
DET="frames detected within the threshold (%)"

# --- Starburst preprocessing: reflection kernel 13..25 x Gaussian/median ---
B=$(backends_for starburst)
sweep starburst -a starburst -g backend=$B -g smooth=gaussian,median -g reflection_kernel=$KERNELS
S=$OUT/sweeps/starburst
series "$S/curve.csv" threshold rate "smooth;reflection_kernel" "metric=relative;backend=omp" 100 >"$OUT/fig01-starburst-accuracy.csv"
draw fig01-starburst-accuracy "Starburst: accuracy per preprocessing (omp)" "$REL" "$DET" "ymax=100"
series "$S/summary.csv" reflection_kernel fps "backend;smooth" "" 1 >"$OUT/fig02-starburst-fps.csv"
draw fig02-starburst-fps "Starburst: speed per preprocessing" "reflection removal kernel side (px)" "frames per second"

# --- Circle vs ellipse fit: accuracy; fps against CUDA streams ---
sweep fit -a starburst -g fit=circle,ellipse
series "$OUT/sweeps/fit/curve.csv" threshold rate "fit" "metric=relative" 100 >"$OUT/fig03-fit-accuracy.csv"
draw fig03-fit-accuracy "Starburst: circle vs ellipse fit (omp)" "$REL" "$DET" "ymax=100"
[ $DRAW_ONLY -eq 1 ] && [ -f "$OUT/sweeps/streams/summary.csv" ] && B=omp,cuda
case $B in
*cuda*)
    sweep streams -a starburst -b cuda -g fit=circle,ellipse -g streams=$STREAMS
    series "$OUT/sweeps/streams/summary.csv" streams fps "fit" "" 1 >"$OUT/fig04-fit-streams-fps.csv"
    draw fig04-fit-streams-fps "Starburst on CUDA: speed against streams" "CUDA streams" "frames per second" "logx=1" ;;
*)
    echo "series,streams,fps" >"$OUT/fig04-fit-streams-fps.csv"
    placeholder fig04-fit-streams-fps "Starburst on CUDA: speed against streams" "not measured: the CUDA back end is not available here" ;;
esac

# per_value DET KEY VALUES ACC_FIG FPS_FIG NAME WHAT XLABEL: a detector's
# accuracy (omp) and speed (each back end) for each value of one parameter.
per_value() {
    B=$(backends_for "$1")
    sweep "$1" -a "$1" -g backend=$B -g "$2=$3"
    series "$OUT/sweeps/$1/curve.csv" threshold rate "$2" "metric=relative;backend=omp" 100 >"$OUT/$4.csv"
    draw "$4" "$6: accuracy per $7 (omp)" "$REL" "$DET" "ymax=100"
    series "$OUT/sweeps/$1/summary.csv" "$2" fps "backend" "" 1 >"$OUT/$5.csv"
    draw "$5" "$6: speed per $7" "$8" "frames per second"
}
# --- Threshold-and-labeling and Canny-Hough: per threshold step, per angular step ---
per_value tl tl_step "$TL_STEPS" fig05-tl-accuracy fig06-tl-fps \
    "Threshold-and-labeling" "threshold step" "threshold step (grey levels)"
per_value hough hough_angle_step "$HOUGH_STEPS" fig07-hough-accuracy fig08-hough-fps \
    "Canny-Hough" "angular step" "angle between votes (degrees)"

# --- The best configuration of each detector, side by side ---
# Best = highest rate at 10 % relative error, then at 5 %, then fps (omp rows).
best_rows() {
    for det in starburst tl hough; do
        awk -F, -v det=$det 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            ("backend" in col) && $(col["backend"]) != "omp" { next }
            { print det "," $1 "," $(col["rate_rel10"]) "," $(col["rate_rel5"]) "," $(col["fps"]) }' \
            "$OUT/sweeps/$det/summary.csv" | sort -t, -k3,3gr -k4,4gr -k5,5gr | head -n 1
    done
}
best_rows >"$OUT/best.txt"
{
    echo "series,metric,threshold,rate"
    while IFS=, read -r det config r10 r5 fps; do
        awk -F, -v det="$det" -v cfg="$config" -v fps="$fps" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            $1 == cfg && (!("backend" in col) || $(col["backend"]) == "omp") {
                label = cfg; sub(/backend=omp ?/, "", label)
                printf "%s: %s (%.0f fps),%s,%s,%.6g\n", det, label, fps, $2, $3, $6 * 100 }' \
            "$OUT/sweeps/$det/curve.csv"
    done <"$OUT/best.txt"
} >"$OUT/fig09-best.csv"
rm -f "$OUT/best.txt"
if [ $GNUPLOT -eq 1 ]; then
    for m in relative pixel; do
        awk -F, -v m=$m 'NR == 1 { print "series,threshold,rate"; next } $2 == m { print $1 "," $3 "," $4 }' \
            "$OUT/fig09-best.csv" >"$OUT/fig09-$m.tmp"
        blocks "$OUT/fig09-$m.tmp" >"$OUT/fig09-$m.dat"
    done
    gnuplot -e "GPFILES='$HERE/figures/'; rel='$OUT/fig09-relative.dat'; px='$OUT/fig09-pixel.dat'; n=$(nseries "$OUT/fig09-relative.tmp"); out='$OUT/fig09-best'; ttl='The best configuration of each detector (omp)'" \
        "$HERE/figures/best.gp"
    rm -f "$OUT"/fig09-*.tmp "$OUT"/fig09-*.dat
fi

# --- The CUDA optimisation ladder, when measured (LADDER=step,fps CSV) ---
if [ -n "${LADDER:-}" ] && [ -f "$LADDER" ]; then
    awk -F, 'NR == 1 { print "series,step,fps"; next } { print "CUDA Starburst," NR - 2 "," $2 }' "$LADDER" >"$OUT/fig10-cuda-ladder.csv"
    labels=$(awk -F, 'NR > 1 { printf "%s\"%s\" %d", (NR > 2 ? ", " : ""), $1, NR - 2 }' "$LADDER")
    draw fig10-cuda-ladder "Starburst on CUDA: optimisation steps" "optimisation step" "frames per second" "set xtics ($labels) rotate by -30; set xrange [-0.3:*]"
else
    echo "series,step,fps" >"$OUT/fig10-cuda-ladder.csv"
    say "fig10: no CUDA optimisation ladder measured (set LADDER=step,fps CSV to draw it)"
    placeholder fig10-cuda-ladder "Starburst on CUDA: optimisation steps" "not measured (LADDER=file.csv with step,fps draws it)"
fi

# --- OpenMP speed-up against threads ---
sweep threads -a starburst -b omp -g threads=$THREADS_LIST
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print "series,threads,speedup"; next }
         { t = $(col["threads"]); f = $(col["fps"]); if (base == "") base = f
           if (base > 0) printf "Starburst omp,%s,%.4g\n", t, f / base }' \
    "$OUT/sweeps/threads/summary.csv" >"$OUT/fig11-omp-speedup.csv"
WHERE=" ($CORES cores here)"; [ $DRAW_ONLY -eq 0 ] || WHERE=""
draw fig11-omp-speedup "Starburst on OpenMP: speed-up against threads$WHERE" "OpenMP threads" "speed-up over 1 thread" "ideal=1; logx=1"

say "done: $(ls "$OUT" | grep -c '^fig.*\.csv$') figure CSVs$([ $GNUPLOT -eq 1 ] && echo " with PNG and SVG") in $OUT"

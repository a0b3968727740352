#!/bin/sh
# The pupil paper's Fig. 7 (Mompeán et al., J. Supercomputing 74(5), 2018):
# Starburst's speed-up over the sequential run per cumulative CUDA
# optimisation, with OpenMP, CUDA monocular and CUDA binocular series.
#
#   scripts/figures/ladder.sh [--quick] [--draw-only] DATASET_DIR OUTDIR
#
# Writes OUTDIR/fig07-cuda-ladder.{csv,png,svg,txt}; the frames per second
# of every step in OUTDIR/sweeps/ladder.csv and every bench run's output in
# OUTDIR/sweeps/ladder-runs.txt (--draw-only redraws from ladder.csv).
# scripts/figures/pupil.sh runs it among the paper's other figures.
# Environment: PT (pupiltrack binary, default ./pupiltrack), LADDER_FRAMES
# (frames per bench run, default 2000; --quick 40).
set -eu

usage() { echo "usage: scripts/figures/ladder.sh [--quick] [--draw-only] DATASET_DIR OUTDIR" >&2; exit 2; }
QUICK=0; DRAW_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1; shift ;;
    --draw-only) DRAW_ONLY=1; shift ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || usage
DATA=$1; OUT=$2
PT=${PT:-./pupiltrack}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SAY=ladder.sh
PAPER="Mompean et al. 2018 (J. Supercomputing 74(5))"
. "$HERE/figures/common.sh"
find_gnuplot
mkdir -p "$OUT/sweeps"
CORES=$(nproc 2>/dev/null || echo 1)
if [ $DRAW_ONLY -eq 0 ]; then
    need_pt
    [ -d "$DATA" ] || { say "$DATA: not a folder"; exit 2; }
    FIRST=$(ls "$DATA" | grep -iE '\.(png|tif|tiff|pgm)$' | head -n 1 || true)
    [ -n "$FIRST" ] || { say "$DATA: no images"; exit 2; }
    WHERE="$DATA (monocular) and synthetic binocular frames; run on $(uname -n 2>/dev/null || echo this machine), $CORES cores, $(date -u +%Y-%m-%d)$([ $QUICK -eq 1 ] && echo ', --quick' || true)"
else
    WHERE="the measurements in $OUT/sweeps/ladder.csv (redrawn with --draw-only)"
fi

# Each CUDA step switches one more optimisation on (bench --cuda-off, --streams);
# the baseline is one OpenMP thread (pupiltrack has no other sequential
# Starburst), OpenMP uses every core; monocular frames are the dataset's,
# binocular ones synthetic frames of two such eyes side by side.
LADDER_FRAMES=${LADDER_FRAMES:-2000}
[ $QUICK -eq 0 ] || LADDER_FRAMES=40
LADDER_STEPS="none|--streams 1 --cuda-off all
+ pinned copies|--streams 1 --cuda-off mapped,batch,graphs
+ mapped results|--streams 1 --cuda-off batch,graphs
+ batched frames|--streams 1 --cuda-off graphs
+ 4 streams|--cuda-off graphs
+ CUDA graphs|"
LADDER=$OUT/sweeps/ladder.csv
# ladder_fps LINE ARGS...: frames per second of one bench run (LINE: which
# throughput line), its output kept in OUT/sweeps/ladder-runs.txt.
ladder_fps() {
    line=$1; shift
    echo "# $PT bench -a starburst --preset paper --frames $LADDER_FRAMES $*" >>"$OUT/sweeps/ladder-runs.txt"
    "$PT" bench -a starburst --preset paper --frames "$LADDER_FRAMES" "$@" >"$OUT/sweeps/ladder-run.txt" 2>&1 ||
        { say "fig07: bench $* failed: $(tail -n 1 "$OUT/sweeps/ladder-run.txt")"; return 1; }
    cat "$OUT/sweeps/ladder-run.txt" >>"$OUT/sweeps/ladder-runs.txt"
    sed -n "s/^$line: \([0-9.]*\) fps.*/\1/p" "$OUT/sweeps/ladder-run.txt" | head -n 1
}
if [ $DRAW_ONLY -eq 0 ]; then
    : >"$OUT/sweeps/ladder-runs.txt"
    echo "eyes,x,step,fps" >"$LADDER.tmp"
    ladder_fps throughput -b omp -j 1 "$DATA" >"$OUT/sweeps/ladder-fps" || exit 1
    SIZE=$(sed -n 's/^bench: .* \([0-9]*x[0-9]*\) frames=.*/\1/p' "$OUT/sweeps/ladder-run.txt")
    W=${SIZE%x*}; H=${SIZE#*x}
    rm -rf "$OUT/sweeps/ladder-binocular"
    "$PT" synth --binocular -n 20 --size "$((2 * W))x$H" --seed 7 -o "$OUT/sweeps/ladder-binocular" >/dev/null ||
        { say "fig07: synth --binocular failed"; exit 1; }
    CUDA_LADDER=0
    "$PT" track -b cuda -o /dev/null "$DATA/$FIRST" >/dev/null 2>"$OUT/sweeps/cuda-ladder.txt" && CUDA_LADDER=1
    for eyes in monocular binocular; do
        if [ $eyes = monocular ]; then frames=$DATA; bino=""; else frames=$OUT/sweeps/ladder-binocular; bino=--binocular; fi
        [ $eyes = monocular ] || ladder_fps throughput -b omp -j 1 $bino "$frames" >"$OUT/sweeps/ladder-fps" || exit 1
        echo "$eyes,0,sequential (omp -j 1),$(cat "$OUT/sweeps/ladder-fps")" >>"$LADDER.tmp"
        echo "$eyes,1,OpenMP ($CORES threads),$(ladder_fps throughput -b omp $bino "$frames")" >>"$LADDER.tmp"
        [ $CUDA_LADDER -eq 1 ] || continue
        x=2
        echo "$LADDER_STEPS" | while IFS='|' read -r label args; do
            fps=$(ladder_fps "throughput, one call at a time" -b cuda $args $bino "$frames" || true)
            echo "$eyes,$x,CUDA $label,$fps" >>"$LADDER.tmp"
            if [ -z "$args" ]; then
                fps=$(sed -n 's/^throughput: \([0-9.]*\) fps.*two calls in flight.*/\1/p' "$OUT/sweeps/ladder-run.txt")
                echo "$eyes,$((x + 1)),CUDA + two calls in flight,$fps" >>"$LADDER.tmp"
            fi
            x=$((x + 1))
        done
    done
    mv "$LADDER.tmp" "$LADDER"
    [ $CUDA_LADDER -eq 1 ] || say "fig07: CUDA not available here ($(head -n 1 "$OUT/sweeps/cuda-ladder.txt" | sed 's/^pupiltrack: //')): CUDA steps not measured"
fi
[ -f "$LADDER" ] || { say "--draw-only: $LADDER missing"; exit 1; }
awk -F, 'NR == 1 { print "series,step,speedup"; next }
         $3 ~ /^sequential/ { base[$1] = $4 }
         { if (base[$1] > 0 && $4 > 0) printf "%s,%s,%.4g\n", $1, $2, $4 / base[$1] }' "$LADDER" >"$OUT/fig07-cuda-ladder.csv"
labels=$(awk -F, 'NR > 1 && !seen[$2]++ { printf "%s\"%s\" %d", (n++ ? ", " : ""), $3, $2 }' "$LADDER")
NSTEPS=$(awk -F, 'NR > 1 && $2 > m { m = $2 } END { print m + 0 }' "$LADDER")
CUDA_STEPS=$(awk -F, 'NR > 1 && $2 >= 2' "$LADDER" | wc -l)
NOTE=""
[ "$CUDA_STEPS" -gt 0 ] || NOTE="set label 99 'CUDA steps: not measured (no usable GPU here)' at graph 0.3, graph 0.5 tc rgb '#aa0000';"
draw fig07-cuda-ladder "Starburst (paper preset): speed-up over one thread per optimisation" "cumulative optimisation" "speed-up over the sequential run" \
    "$NOTE set xtics ($labels) rotate by -30; set xrange [-0.3:$NSTEPS.3]; set bmargin 9; logy=1"
caption fig07-cuda-ladder "Fig. 7" \
    "speed-up in frames per second over the sequential run (one OpenMP thread: pupiltrack has no other sequential Starburst) of OpenMP on every core and of the CUDA back end as its optimisations are switched on one after the other: none (one stream, pageable copies, results copied back, one frame per launch, host launches), + page-locked copies, + results written to mapped host memory, + frames batched per launch, + 4 streams, + CUDA graphs, + two calls in flight; monocular frames of the dataset and binocular synthetic frames of two such eyes. Cannot be switched off, so in every CUDA step: the separable Gaussian in one shared-memory tile, morphology on packed bytes by window doubling with the top-hat threshold fused into its last pass, the reflection fill that skips tiles without reflections, and the Starburst kernels' own fusion.$([ "$CUDA_STEPS" -gt 0 ] || echo ' CUDA steps: not measured (the CUDA back end is not available on the machine that ran this).') Frames per second: sweeps/ladder.csv." \
    "pupiltrack bench -a starburst --preset paper --frames $LADDER_FRAMES -b omp -j 1 | -b omp | -b cuda [--streams 1] [--cuda-off LIST] [--binocular] FRAMES (every run in sweeps/ladder-runs.txt)" \
    "$WHERE."

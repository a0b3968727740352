#!/bin/sh
# Regenerate the evaluation tables and figures of the auction paper (Maier et
# al., "Real-time multitarget tracking for sensor-based sorting: a new
# implementation of the auction algorithm for graphics processing units",
# J. Real-Time Image Processing, 2018) from fresh runs of `pupiltrack mtt`
# on conveyor-belt streams of `pupiltrack synth --particles`.
#
#   scripts/figures/auction.sh [--quick] OUTDIR
#
# Writes OUTDIR/tableN-NAME.{csv,md,png,svg,txt} and OUTDIR/figNN-NAME.{csv,
# png,svg,txt}: the data, the table in Markdown, the pictures (with gnuplot)
# and the caption (which table or figure, what it shows, the command, the
# data). The streams are kept in OUTDIR/data, each run's frame times in
# OUTDIR/runs.
#
# Every frame is associated as the paper does: the whole measurements x
# tracks utility matrix, one auction per frame (mtt --dense). "Without the
# improvements" is Maier et al.'s Jacobi auction with packed 32-bit bids
# (--auction jacobi), "with" pupiltrack's default auction (asynchronous,
# epsilon-scaling, shortest-path finish); both give an optimum of the same
# integer problem. New tracks start at the belt's velocity (--velocity), as
# a sorting machine knows it.
#
# The six data sets are stand-ins: the paper's streams (recorded on its
# sorting machine) are not distributed, so six synthetic belts span its
# range of loads and frame rates (Table 1 here lists them). Belt speed 800
# px/s, so the displacement per frame is 800 / Hz px.
#
# Environment: PT (pupiltrack binary, default ./pupiltrack); BACKENDS
# (default "seq omp cuda": cuda where it runs here; a machine without a GPU
# gets "not measured" for its series); FRAMES (frames per stream, default
# 200; --quick: 20 frames and a tenth of the objects).
set -eu

PT=${PT:-./pupiltrack}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SAY=auction.sh
PAPER="Maier et al. 2018 (J. Real-Time Image Processing, GPU auction for sensor-based sorting)"
. "$HERE/figures/common.sh"
quick_outdir "$@"
need_pt
mkdir -p "$OUT/data" "$OUT/runs"
find_gnuplot "CSV and Markdown only"

FRAMES=${FRAMES:-200}
[ $QUICK -eq 0 ] || FRAMES=20
BUDGET_MS=5
BELT=800 # px/s
# name Hz objects-per-frame (the full load; --quick takes a tenth)
SETS="S1 100 100
S2 200 250
S3 200 500
S4 200 1000
S5 500 1000
S6 200 2000"
WHERE="$(uname -n 2>/dev/null || echo this machine), $(nproc 2>/dev/null || echo 1) cores, $(date -u +%Y-%m-%d)$([ $QUICK -eq 1 ] && echo ', --quick' || true)"

# The back ends that run here.
RUN_BACKENDS=""
CUDA_MISSING=0
for b in ${BACKENDS:-seq omp cuda}; do
    if [ "$b" = cuda ] && ! "$PT" assign -b cuda --random 2 --seed 1 >/dev/null 2>"$OUT/runs/cuda.txt"; then
        say "CUDA not available here ($(head -n 1 "$OUT/runs/cuda.txt" | sed 's/^pupiltrack: //')): its series are not measured"
        CUDA_MISSING=1
        continue
    fi
    RUN_BACKENDS="$RUN_BACKENDS $b"
done
HAVE_CUDA=0
case " $RUN_BACKENDS " in *" cuda "*) HAVE_CUDA=1 ;; esac

# --- the streams (Table 1) ---
echo "data set,Hz,frame period ms,objects per frame (target),objects per frame (mean),frames,px per frame" >"$OUT/table1-datasets.csv"
seed=0
echo "$SETS" | while read -r name hz objects; do
    seed=$((seed + 1))
    [ $QUICK -eq 0 ] || objects=$(( objects / 10 < 10 ? 10 : objects / 10 ))
    speed=$(awk -v b=$BELT -v hz="$hz" 'BEGIN { printf "%.4g", b / hz }')
    "$PT" synth --particles --objects "$objects" --frames "$FRAMES" --speed "$speed" --seed "$seed" \
        -o "$OUT/data/$name.csv" || { say "synth --particles failed for $name"; exit 1; }
    mean=$(awk -F, 'NR > 1 { n++; f[$1] = 1 } END { k = 0; for (x in f) k++; printf "%.1f", k ? n / k : 0 }' "$OUT/data/$name.csv")
    echo "$name,$hz,$(awk -v hz="$hz" 'BEGIN { printf "%.3g", 1000 / hz }'),$objects,$mean,$FRAMES,$speed" >>"$OUT/table1-datasets.csv"
done
table table1-datasets "Data sets (synthetic stand-ins)"
caption table1-datasets "Table 1" \
    "the six data sets: camera frame rate, frame period, objects per frame (asked and measured), frames, displacement per frame. Stand-ins: the paper's recorded streams are not distributed; these synthetic belts (belt speed $BELT px/s) span its range of loads and frame rates." \
    "pupiltrack synth --particles --objects N --frames $FRAMES --speed 800/Hz --seed K -o SET.csv" \
    "synthetic streams in $OUT/data; made on $WHERE."

# --- the runs: every set x back end x solver ---
# result lines: set,backend,solver,ms_per_frame,switches,split,merged,mota,idf1,objects,measurements
: >"$OUT/runs/results.csv"
echo "$SETS" | while read -r name hz objects; do
    for b in $RUN_BACKENDS; do
        for solver in default jacobi; do
            log=$OUT/runs/$name-$b-$solver.log
            say "mtt $name -b $b --auction $solver --dense"
            speed=$(awk -F, -v s="$name" '$1 == s { print $7 }' "$OUT/table1-datasets.csv")
            if "$PT" mtt -b "$b" --dense --auction "$solver" --velocity "$speed,0" --frame-times "$OUT/runs/$name-$b-$solver.csv" \
                -o /dev/null "$OUT/data/$name.csv" 2>"$log"; then
                sed -n 's/^mtt: \([0-9]*\) measurements, .*, \([0-9.]*\) ms per frame.*/\2 \1/p; s/^metrics: objects \([0-9]*\), .*split objects \([0-9]*\), merged tracks \([0-9]*\), ID switches \([0-9]*\), MOTA \([0-9.]*\), IDF1 \([0-9.]*\)/M \1 \2 \3 \4 \5 \6/p' "$log" |
                    awk -v s="$name" -v b="$b" -v v="$solver" '
                        $1 == "M" { obj = $2; split_ = $3; merged = $4; sw = $5; mota = $6; idf1 = $7; next }
                        { ms = $1; meas = $2 }
                        END { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", s, b, v, ms, sw, split_, merged, mota, idf1, obj, meas }' \
                    >>"$OUT/runs/results.csv"
            else
                say "mtt $name -b $b --auction $solver failed: $(head -n 1 "$log")"
                echo "$name,$b,$solver,failed,,,,,,," >>"$OUT/runs/results.csv"
            fi
        done
    done
done
[ -s "$OUT/runs/results.csv" ] || { say "no run succeeded"; exit 1; }

# value SET BACKEND SOLVER FIELD: one field of the results.
value() { awk -F, -v s="$1" -v b="$2" -v v="$3" -v f="$4" '$1 == s && $2 == b && $3 == v { print $f; exit }' "$OUT/runs/results.csv"; }
FIRST_BACKEND=$(echo $RUN_BACKENDS | cut -d' ' -f1)
NAMES=$(echo "$SETS" | cut -d' ' -f1)

# --- Table 2: objects and errors per data set ---
{
    echo "data set,objects,measurements,solver,ID switches,split objects,merged tracks,MOTA,IDF1"
    for name in $NAMES; do
        for solver in default jacobi; do
            echo "$name,$(value $name $FIRST_BACKEND $solver 10),$(value $name $FIRST_BACKEND $solver 11),$solver,$(value $name $FIRST_BACKEND $solver 5),$(value $name $FIRST_BACKEND $solver 6),$(value $name $FIRST_BACKEND $solver 7),$(value $name $FIRST_BACKEND $solver 8),$(value $name $FIRST_BACKEND $solver 9)"
        done
    done
} >"$OUT/table2-errors.csv"
table table2-errors "Objects and tracking errors per data set (-b $FIRST_BACKEND)"
caption table2-errors "Table 2" \
    "per data set: distinct objects, measurements, and the tracker's errors against the true ids (ID switches, objects split over several tracks, tracks holding several objects, MOTA = 1 - switches / measurements, IDF1), with each auction on the dense per-frame matrix (-b $FIRST_BACKEND; the other back ends give the same)." \
    "pupiltrack mtt -b $FIRST_BACKEND --dense --auction default|jacobi --velocity 800/Hz,0 SET.csv" \
    "the streams of Table 1 ($OUT/data); run on $WHERE."

# --- Table 3: speed-up with the improvements (default) over without (jacobi) ---
{
    echo "data set,back end,jacobi ms/frame,default ms/frame,speed-up"
    for name in $NAMES; do
        for b in $RUN_BACKENDS; do
            j=$(value $name $b jacobi 4); d=$(value $name $b default 4)
            echo "$name,$b,$j,$d,$(awk -v j="$j" -v d="$d" 'BEGIN { if (d + 0 > 0 && j + 0 > 0) printf "%.2f", j / d; else print "-" }')"
        done
    done
    [ $CUDA_MISSING -eq 0 ] || for name in $NAMES; do echo "$name,cuda,not measured,not measured,-"; done
} >"$OUT/table3-speedup.csv"
table table3-speedup "Speed-up of the default auction over the Jacobi auction"
caption table3-speedup "Table 3" \
    "milliseconds per frame (tracker step: prediction, dense association, update) with the Jacobi auction of the paper (packed 32-bit bids; 'without the improvements') and pupiltrack's default auction ('with'), and their ratio, per data set and back end.$([ $CUDA_MISSING -eq 0 ] || echo ' CUDA: not measured (no usable GPU on the machine that ran this).')" \
    "pupiltrack mtt -b B --dense --auction jacobi|default --velocity 800/Hz,0 SET.csv" \
    "the streams of Table 1; run on $WHERE."

# --- Table 4: share of the 5 ms budget ---
{
    echo "data set,Hz,back end,solver,ms/frame,share of 5 ms (%),share of the frame period (%)"
    for name in $NAMES; do
        hz=$(awk -F, -v s="$name" '$1 == s { print $2 }' "$OUT/table1-datasets.csv")
        for b in $RUN_BACKENDS; do
            for solver in default jacobi; do
                ms=$(value $name $b $solver 4)
                echo "$name,$hz,$b,$solver,$ms,$(awk -v m="$ms" -v B=$BUDGET_MS 'BEGIN { if (m + 0 > 0) printf "%.1f", 100 * m / B; else print "-" }'),$(awk -v m="$ms" -v hz="$hz" 'BEGIN { if (m + 0 > 0) printf "%.1f", m * hz / 10; else print "-" }')"
            done
        done
    done
} >"$OUT/table4-budget.csv"
table table4-budget "Share of the 5 ms budget"
caption table4-budget "Table 4" \
    "milliseconds per frame and their share of the 5 ms budget of a 200 Hz camera (and of each set's own frame period), per data set, back end and auction.$([ $CUDA_MISSING -eq 0 ] || echo ' CUDA: not measured here.')" \
    "pupiltrack mtt -b B --dense --auction default|jacobi --velocity 800/Hz,0 SET.csv" \
    "the streams of Table 1; run on $WHERE."

# --- Fig. 5: ms per data set with and without the improvements ---
{
    echo "series,set,ms"
    for b in $RUN_BACKENDS; do
        for solver in jacobi default; do
            k=0
            for name in $NAMES; do
                ms=$(value $name $b $solver 4)
                case $ms in ''|failed) ;; *) echo "$b $solver,$k,$ms" ;; esac
                k=$((k + 1))
            done
        done
    done
} >"$OUT/fig05-ms-per-set.csv"
xt=$(k=0; for name in $NAMES; do printf '%s"%s" %d' "$([ $k -gt 0 ] && echo ', ')" "$name" $k; k=$((k + 1)); done)
NOTE=""
[ $CUDA_MISSING -eq 0 ] || NOTE="set label 99 'CUDA series: not measured (no usable GPU here)' at graph 0.02, graph 0.96 tc rgb '#aa0000';"
draw fig05-ms-per-set "Milliseconds per frame per data set (dense association)" "data set (Table 1)" "ms per frame" \
    "$NOTE set xtics ($xt); set xrange [-0.3:$(($(echo "$NAMES" | wc -w) - 1)).3]; logy=1"
caption fig05-ms-per-set "Fig. 5" \
    "milliseconds per frame for each data set of Table 1 (x: S1..S6), per back end, with the paper's Jacobi auction ('without the improvements') and pupiltrack's default auction ('with'); log scale.$([ $CUDA_MISSING -eq 0 ] || echo ' The CUDA series are not measured: no usable GPU on the machine that ran this.')" \
    "pupiltrack mtt -b B --dense --auction jacobi|default --velocity 800/Hz,0 SET.csv" \
    "the streams of Table 1; run on $WHERE."

# --- Fig. 6: ms per frame over time, with a least-squares trend line ---
LAST=$(echo "$NAMES" | tail -n 1)
FIG6_BACKEND=$FIRST_BACKEND
[ $HAVE_CUDA -eq 0 ] || FIG6_BACKEND=cuda
{
    echo "series,frame,ms"
    for solver in jacobi default; do
        f=$OUT/runs/$LAST-$FIG6_BACKEND-$solver.csv
        [ -s "$f" ] || continue
        awk -F, -v s="$FIG6_BACKEND $solver" 'NR > 1 && $3 >= 0 { x[++n] = $1; y[n] = $3; print s "," $1 "," $3 }
            END { if (n < 2) exit
                  for (i = 1; i <= n; i++) { sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i] }
                  d = n * sxx - sx * sx; b = d ? (n * sxy - sx * sy) / d : 0; a = (sy - b * sx) / n
                  for (i = 1; i <= n; i++) printf "%s trend (%.4g + %.3g x frame),%s,%.6g\n", s, a, b, x[i], a + b * x[i] }' "$f" |
            sort -t, -s -k1,1
    done
} >"$OUT/fig06-ms-over-time.csv"
draw fig06-ms-over-time "Milliseconds per frame over time, $LAST, -b $FIG6_BACKEND" "frame" "ms per frame" "$NOTE"
caption fig06-ms-over-time "Fig. 6" \
    "milliseconds of each frame's tracker step over the stream of data set $LAST (the largest), -b $FIG6_BACKEND, Jacobi and default auctions, each with its least-squares trend line (its equation in the legend).$([ $CUDA_MISSING -eq 0 ] || echo ' -b cuda: not measured here (no usable GPU).')" \
    "pupiltrack mtt -b $FIG6_BACKEND --dense --auction jacobi|default --velocity 800/Hz,0 --frame-times T.csv $LAST.csv" \
    "$OUT/data/$LAST.csv; run on $WHERE."

say "done: $(ls "$OUT" | grep -c '\.csv$') tables and figures in $OUT"

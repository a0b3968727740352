#!/bin/sh
# Accuracy of one detector configuration on the standard sets, as one
# markdown table row :
#   synth 1280x1024, 100 frames: mono (seed 11) and binocular (seed 12),
#     circle and --ellipse mode, share within 10 % relative error;
#   meye-dev real crops (blink = 0): within 10 % relative error and within
#     5 px, circle and --ellipse mode;
#   fps: frames per second of `track` on the mono synth set (wall clock,
#     PNG decoding included) with the given -j.
# Usage: scripts/accuracy.sh [-a ALG] [-b BACKEND] [-j N] [--preset NAME]
#                            [-p KEY=VALUE]... [--header] [--keep DIR]
# Environment: PT (binary, default ./pupiltrack), PT_MEYE_DIR (default
# ../shared/data/meye-dev), PT_ACC_CACHE (synth sets, default
# /tmp/pt-accuracy; made once and reused).
set -u
PT=${PT:-./pupiltrack}
MEYE=${PT_MEYE_DIR:-../shared/data/meye-dev}
CACHE=${PT_ACC_CACHE:-/tmp/pt-accuracy}
ALG=starburst; BACKEND=omp; JOBS=""; PARAMS=""; HEADER=0; KEEP=""
while [ $# -gt 0 ]; do
    case $1 in
    -a) ALG=$2; shift 2 ;;
    -b) BACKEND=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    -p) PARAMS="$PARAMS -p $2"; shift 2 ;;
    --preset) PARAMS="--preset $2 $PARAMS"; shift 2 ;;
    --header) HEADER=1; shift ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "accuracy.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$PT" ] || { echo "accuracy.sh: $PT not found or not executable (set PT=)" >&2; exit 2; }
WORK=${KEEP:-$(mktemp -d /tmp/pt-acc.XXXXXX)}
mkdir -p "$WORK" "$CACHE"
[ -n "$KEEP" ] || trap 'rm -rf "$WORK"' EXIT
J=""; [ -n "$JOBS" ] && J="-j $JOBS"

make_set() { # name seed [--binocular]
    if [ ! -f "$CACHE/$1/groundtruth.csv" ]; then
        "$PT" synth -n 100 --size 1280x1024 --seed "$2" ${3:-} -o "$CACHE/$1" >/dev/null ||
            { echo "accuracy.sh: synth $1 failed" >&2; exit 1; }
    fi
}
make_set mono 11
make_set bino 12 --binocular

# rate GT RESULTS WHICH: the percentage eval prints for WHICH (rel10 or px5)
rate() {
    "$PT" eval --gt "$1" -o /dev/null "$2" 2>"$WORK/eval.txt" >/dev/null
    case $3 in
    rel10) pat='relative error <= 10 %' ;;
    px5) pat='centre error <= 5 px' ;;
    esac
    v=$(grep -F "$pat" "$WORK/eval.txt" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/ && $(i+1) == "%") v = $i} END {print v}')
    echo "${v:-n/a}"
}
# run NAME DIR OUT [options]: track, recording wall time in $WORK/NAME.s
run() {
    name=$1; dir=$2; out=$3; shift 3
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$PT" track -a "$ALG" -b "$BACKEND" $J $PARAMS "$@" -o "$out" "$dir" 2>"$WORK/$name.err"
    st=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}' >"$WORK/$name.s"
    [ $st -le 1 ] || { echo "accuracy.sh: track $name failed:" >&2; head -3 "$WORK/$name.err" >&2; }
}

run mono_c "$CACHE/mono" "$WORK/mono_c.csv"
run mono_e "$CACHE/mono" "$WORK/mono_e.csv" --ellipse
run bino_c "$CACHE/bino" "$WORK/bino_c.csv" --binocular
run bino_e "$CACHE/bino" "$WORK/bino_e.csv" --binocular --ellipse
mc=$(rate "$CACHE/mono/groundtruth.csv" "$WORK/mono_c.csv" rel10)
me=$(rate "$CACHE/mono/groundtruth.csv" "$WORK/mono_e.csv" rel10)
bc=$(rate "$CACHE/bino/groundtruth.csv" "$WORK/bino_c.csv" rel10)
be=$(rate "$CACHE/bino/groundtruth.csv" "$WORK/bino_e.csv" rel10)
fps=$(awk '{ if ($1 > 0) printf "%.1f", 100 / $1; else print "n/a" }' "$WORK/mono_c.s")

if [ -f "$MEYE/gt.csv" ]; then
    run meye_c "$MEYE/png" "$WORK/meye_c.csv"
    run meye_e "$MEYE/png" "$WORK/meye_e.csv" --ellipse
    yc10=$(rate "$MEYE/gt.csv" "$WORK/meye_c.csv" rel10)
    yc5=$(rate "$MEYE/gt.csv" "$WORK/meye_c.csv" px5)
    ye10=$(rate "$MEYE/gt.csv" "$WORK/meye_e.csv" rel10)
    ye5=$(rate "$MEYE/gt.csv" "$WORK/meye_e.csv" px5)
else
    echo "accuracy.sh: $MEYE/gt.csv not found (set PT_MEYE_DIR); meye columns n/a" >&2
    yc10=n/a; yc5=n/a; ye10=n/a; ye5=n/a
fi

if [ $HEADER = 1 ]; then
    echo "| detector | back end | params | synth mono circle ≤10 % | mono ellipse | bino circle | bino ellipse | meye circle ≤10 % / ≤5 px | meye ellipse ≤10 % / ≤5 px | fps (track, mono 1280x1024) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
fi
p=$(echo "$PARAMS $J" | sed 's/^ *//; s/ *$//')
echo "| $ALG | $BACKEND | ${p:-defaults} | $mc % | $me % | $bc % | $be % | $yc10 % / $yc5 % | $ye10 % / $ye5 % | $fps |"

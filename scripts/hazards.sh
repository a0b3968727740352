#!/bin/sh
# Accuracy of one detector configuration on each failure class of
# `pupiltrack synth --hazard` (low-contrast, glint-ring, lid, small-pupil,
# motion-blur, defocus: one class on every frame of its set), as one
# markdown table row: share of frames within 10 % relative error, circle
# mode / --ellipse, per class.
# Usage: scripts/hazards.sh [-a ALG] [-b BACKEND] [-j N] [-n FRAMES]
#                           [--size WxH] [--seed S] [-p KEY=VALUE]...
#                           [--header]
# Defaults: starburst, omp, 100 frames of 1280x1024, seed 41 (the sets of
# ACCURACY.md, synthetic hard mix).
# Environment: PT (binary, default ./pupiltrack), PT_HAZARD_CACHE (sets,
# default /tmp/pt-hazards; made once per size, frames and seed, and reused).
set -u
PT=${PT:-./pupiltrack}
CACHE=${PT_HAZARD_CACHE:-/tmp/pt-hazards}
ALG=starburst; BACKEND=omp; JOBS=""; PARAMS=""; HEADER=0
FRAMES=100; SIZE=1280x1024; SEED=41
CLASSES="low-contrast glint-ring lid small-pupil motion-blur defocus"
while [ $# -gt 0 ]; do
    case $1 in
    -a) ALG=$2; shift 2 ;;
    -b) BACKEND=$2; shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    -n) FRAMES=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    -p) PARAMS="$PARAMS -p $2"; shift 2 ;;
    --header) HEADER=1; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "hazards.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$PT" ] || { echo "hazards.sh: $PT not found or not executable (set PT=)" >&2; exit 2; }
WORK=$(mktemp -d /tmp/pt-hazards-run.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
J=""; [ -n "$JOBS" ] && J="-j $JOBS"
SETS="$CACHE/${SIZE}-n${FRAMES}-s${SEED}"
mkdir -p "$SETS" || { echo "hazards.sh: cannot create $SETS" >&2; exit 1; }

for h in $CLASSES; do
    if [ ! -f "$SETS/$h/groundtruth.csv" ]; then
        "$PT" synth -n "$FRAMES" --size "$SIZE" --seed "$SEED" --hazard "$h" \
            -o "$SETS/$h" >/dev/null || { echo "hazards.sh: synth $h failed" >&2; exit 1; }
    fi
done

# rate GT RESULTS: the percentage eval prints for "relative error <= 10 %"
rate() {
    "$PT" eval --gt "$1" -o /dev/null "$2" 2>"$WORK/eval.txt" >/dev/null
    v=$(grep -F 'relative error <= 10 %' "$WORK/eval.txt" |
        awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/ && $(i+1) == "%") v = $i} END {print v}')
    echo "${v:-n/a}"
}

row="| $ALG ($BACKEND)"
head="| detector"
sep="|---"
for h in $CLASSES; do
    for mode in circle ellipse; do
        e=""; [ $mode = ellipse ] && e=--ellipse
        # shellcheck disable=SC2086
        "$PT" track -a "$ALG" -b "$BACKEND" $J $PARAMS $e -o "$WORK/$h-$mode.csv" \
            "$SETS/$h" 2>"$WORK/track.err"
        [ $? -le 1 ] || { echo "hazards.sh: track $h failed:" >&2; head -3 "$WORK/track.err" >&2; }
        eval "r_$mode=\$(rate \"$SETS/$h/groundtruth.csv\" \"$WORK/$h-$mode.csv\")"
    done
    row="$row | $r_circle / $r_ellipse"
    head="$head | $h"
    sep="$sep|---:"
done
if [ $HEADER = 1 ]; then
    echo "$head | date |"
    echo "$sep|---|"
fi
echo "$row | $(date -u +%Y-%m-%d) |"

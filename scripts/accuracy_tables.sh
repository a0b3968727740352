#!/bin/sh
# The accuracy tables of ACCURACY.md in one run: each detector in circle and
# --ellipse mode on the synthetic sets (monocular seeds 11 and 21, binocular
# seeds 12 and 22; the seed-41 scenes without a class and with each failure
# class; 200x200 small pupils; the hard mixes of seeds 31 and 32, also per
# failure class inside them) and, where named, on the real sets, printed as
# markdown tables. A cell is "within 10 % relative error / within 5 px"
# (pupiltrack(1), eval).
# Usage: scripts/accuracy_tables.sh [-a "ALG..."] [-b BACKEND] [-j N]
#                                   [-p KEY=VALUE]... [--check BACKEND]
#   -a        detectors (default "starburst tl hough")
#   --check   also track every set with this back end and print, per set,
#             how its rows differ from -b's (scripts/compare-results.py)
# Environment: PT (binary, default ./pupiltrack), PT_TABLES_CACHE (the
# synthetic sets, default /tmp/pt-tables; made once and reused),
# PT_MEYE_DIR and PT_INP_DIR (folders with png/ and gt.csv; real-set table
# only when set).
set -u
PT=${PT:-./pupiltrack}
CACHE=${PT_TABLES_CACHE:-/tmp/pt-tables}
ALGS="starburst tl hough"; BACKEND=omp; JOBS=""; PARAMS=""; CHECK=""
while [ $# -gt 0 ]; do
    case $1 in
    -a) ALGS=$2; shift 2 ;;
    -b) BACKEND=$2; shift 2 ;;
    -j) JOBS="-j $2"; shift 2 ;;
    -p) PARAMS="$PARAMS -p $2"; shift 2 ;;
    --check) CHECK=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "accuracy_tables.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$PT" ] || { echo "accuracy_tables.sh: $PT not found or not executable (set PT=)" >&2; exit 2; }
HERE=$(dirname "$0")
WORK=$(mktemp -d /tmp/pt-tables-run.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$CACHE" || { echo "accuracy_tables.sh: cannot create $CACHE" >&2; exit 1; }
DAY=$(date -u +%Y-%m-%d)
CLASSES="low-contrast glint-ring lid small-pupil motion-blur defocus"

# The synthetic sets: NAME and synth's options; binocular sets are tracked
# with --binocular.
SETS="m11 b12 m21 b22 n41"
for c in $CLASSES; do SETS="$SETS c41-$c"; done
SETS="$SETS s41 h31 h32"
synth_args() {
    big="-n 100 --size 1280x1024"
    case $1 in
    m11) echo "$big --seed 11" ;;
    b12) echo "$big --seed 12 --binocular" ;;
    m21) echo "$big --seed 21" ;;
    b22) echo "$big --seed 22 --binocular" ;;
    n41) echo "$big --seed 41" ;;
    c41-*) echo "$big --seed 41 --hazard ${1#c41-}" ;;
    s41) echo "-n 100 --size 200x200 --seed 41 --hazard small-pupil" ;;
    h31) echo "$big --seed 31 --difficulty hard" ;;
    h32) echo "$big --seed 32 --difficulty hard --binocular" ;;
    esac
}
for s in $SETS; do
    [ -f "$CACHE/$s/groundtruth.csv" ] && continue
    # shellcheck disable=SC2046
    "$PT" synth $(synth_args "$s") -o "$CACHE/$s" >/dev/null 2>"$WORK/synth-$s.err" &
done
wait
for s in $SETS; do
    [ -f "$CACHE/$s/groundtruth.csv" ] ||
        { echo "accuracy_tables.sh: synth $s failed: $(head -1 "$WORK/synth-$s.err")" >&2; exit 1; }
done

# score KEY GT RESULTS: eval's summary into $WORK/KEY.{rel10,px5,auc,keep},
# its frame errors into $WORK/KEY.frames
score() {
    "$PT" eval --gt "$2" --frames "$WORK/$1.frames" -o /dev/null "$3" 2>"$WORK/eval.txt" >/dev/null
    pct() { grep -F "$1" "$WORK/eval.txt" |
        awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/ && $(i+1) == "%") v = $i}
             END {print v}'; }
    v=$(pct 'relative error <= 10 %'); echo "${v:-n/a}" >"$WORK/$1.rel10"
    v=$(pct 'centre error <= 5 px'); echo "${v:-n/a}" >"$WORK/$1.px5"
    v=$(grep -F 'confidence ROC AUC' "$WORK/eval.txt" | awk '{print $4}')
    echo "${v:-n/a}" >"$WORK/$1.auc"
    v=$(grep -F 'confidence ROC AUC' "$WORK/eval.txt" | awk '{print $8}')
    echo "${v:-n/a}" >"$WORK/$1.auc10"
    v=$(grep -F 'confidence >=' "$WORK/eval.txt" |
        sed -n 's/.*>= *[0-9.]* *\([0-9]*\) of [0-9]* frames ( *\([0-9.]*\) %) kept: *\([0-9.]*\) % within 5 px.*/\1 (\2 %), \3 %/p')
    echo "${v:-n/a}" >"$WORK/$1.keep"
    v=$(grep -F 'confidence >=' "$WORK/eval.txt" |
        sed -n 's/.*within 5 px, *\([0-9.]*\) % within 10 %.*/\1 %/p')
    echo "${v:-n/a}" >"$WORK/$1.keep10"
}
cell() { echo "$(cat "$WORK/$1.rel10") / $(cat "$WORK/$1.px5")"; }

# track ALG MODE SET-DIR GT OPTIONS KEY: track with -b (and --check), score.
track() {
    alg=$1; mode=$2; dir=$3; gt=$4; opts=$5; key=$6
    e=""; [ "$mode" = ellipse ] && e=--ellipse
    for be in $BACKEND $CHECK; do
        # shellcheck disable=SC2086
        "$PT" track -a "$alg" -b "$be" $JOBS $PARAMS $e $opts -o "$WORK/$key.$be.csv" "$dir" \
            2>"$WORK/track.err"
        [ $? -le 1 ] || { echo "accuracy_tables.sh: track $key -b $be failed:" >&2;
                          head -3 "$WORK/track.err" >&2; }
    done
    score "$key" "$gt" "$WORK/$key.$BACKEND.csv"
    if [ -n "$CHECK" ]; then
        python3 "$HERE/compare-results.py" "$WORK/$key.$BACKEND.csv" "$WORK/$key.$CHECK.csv" \
            >"$WORK/compare.txt" 2>&1
        diff=$(head -1 "$WORK/compare.txt" | cut -d' ' -f2-)
        echo "$key: $BACKEND against $CHECK: $diff" >>"$WORK/check.txt"
    fi
}

for a in $ALGS; do
    for s in $SETS; do
        o=""; case $s in b*|h32) o=--binocular ;; esac
        for m in circle ellipse; do
            track "$a" $m "$CACHE/$s" "$CACHE/$s/groundtruth.csv" "$o" "$a-$s-$m"
        done
    done
    for r in meye:${PT_MEYE_DIR:-} inp:${PT_INP_DIR:-}; do
        d=${r#*:}; [ -n "$d" ] || continue
        [ -f "$d/gt.csv" ] || { echo "accuracy_tables.sh: $d/gt.csv not found" >&2; continue; }
        for m in circle ellipse; do
            track "$a" $m "$d/png" "$d/gt.csv" "" "$a-${r%%:*}-$m"
        done
    done
done

p=$(echo "$PARAMS" | sed 's/^ *//')
echo "Back end $BACKEND, ${p:-defaults}, $DAY. Each cell: within 10 % / within 5 px."
echo
echo "| detector | m11 circle | m11 --ellipse | b12 circle | b12 --ellipse | m21 circle | m21 --ellipse | b22 circle | b22 --ellipse |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for a in $ALGS; do
    row="| $a"
    for s in m11 b12 m21 b22; do
        for m in circle ellipse; do row="$row | $(cell "$a-$s-$m")"; done
    done
    echo "$row |"
done
echo
head="| set"; sep="|---"
for a in $ALGS; do head="$head | $a circle | $a --ellipse"; sep="$sep|---:|---:"; done
echo "$head |"; echo "$sep|"
for s in n41 $(for c in $CLASSES; do echo "c41-$c"; done) s41 h31 h32; do
    row="| $s"
    for a in $ALGS; do
        for m in circle ellipse; do row="$row | $(cell "$a-$s-$m")"; done
    done
    echo "$row |"
done
# the confidence (pupiltrack(1), METRICS: confidence), circle mode
echo
echo "| detector | set | within 5 px | confidence ROC area, within 5 px | within 10 % | confidence >= 0.4: frames, within 5 px, within 10 % |"
echo "|---|---|---:|---:|---:|---:|"
for a in $ALGS; do
    for s in m11 b12 m21 b22 h31 h32; do
        k=$a-$s-circle
        echo "| $a | $s | $(cat "$WORK/$k.px5") | $(cat "$WORK/$k.auc") | $(cat "$WORK/$k.auc10") | $(cat "$WORK/$k.keep"), $(cat "$WORK/$k.keep10") |"
    done
done

# within 10 % among a mix's frames with each class (DIR/hazards.csv)
echo
head="| mix, circle mode | detector"; sep="|---|---"
for c in $CLASSES; do head="$head | $c"; sep="$sep|---:"; done
echo "$head |"; echo "$sep|"
for s in h31 h32; do
    for a in $ALGS; do
        row="| $s | $a"
        for c in $CLASSES; do
            v=$(awk -F, -v c="$c" '
                FNR == 1 { next }
                NR == FNR { split($2, k, "+"); for (i in k) if (k[i] == c) has[$1] = 1; next }
                ($1 in has) { n++; if ($5 != "" && $5 + 0 <= 0.1 + 1e-9) w++ }
                END { if (n) printf "%.0f %% of %d", 100 * w / n, n; else print "-" }' \
                "$CACHE/$s/hazards.csv" "$WORK/$a-$s-circle.frames")
            row="$row | $v"
        done
        echo "$row |"
    done
done
if [ -n "${PT_MEYE_DIR:-}${PT_INP_DIR:-}" ]; then
    echo
    echo "| set | detector | circle | --ellipse | confidence ROC area (circle) | confidence >= 0.4: frames, within 5 px |"
    echo "|---|---|---:|---:|---:|---:|"
    for r in meye inp; do
        for a in $ALGS; do
            [ -f "$WORK/$a-$r-circle.rel10" ] || continue
            echo "| $r | $a | $(cell "$a-$r-circle") | $(cell "$a-$r-ellipse") | $(cat "$WORK/$a-$r-circle.auc") | $(cat "$WORK/$a-$r-circle.keep") |"
        done
    done
fi
if [ -n "$CHECK" ]; then
    echo
    cat "$WORK/check.txt"
fi

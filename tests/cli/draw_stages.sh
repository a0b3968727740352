# Sourced by tests/run_cli.sh: track --draw-stages writes the preprocessing
# stages of each frame (the pupil paper's Fig. 1) as PNGs.
expect_exit 0 "track --draw-stages" -- "$PT" track --preset paper --draw-stages "$TMP/stages" -o /dev/null testdata/synth/000001.png
for s in 1-image 2-tophat 3-mask 4-cleaned 5-smoothed; do
    f="$TMP/stages/testdata_synth_000001-$s.png"
    head -c 8 "$f" 2>/dev/null | od -An -c | grep -q 'P   N   G' && ok || fail "--draw-stages wrote no $s PNG"
done
# The reflections are filled in: the cleaned image differs from the input;
# with reflection=off the mask is empty and the cleaned image is the input.
cmp -s "$TMP/stages/testdata_synth_000001-1-image.png" "$TMP/stages/testdata_synth_000001-4-cleaned.png" && fail "--draw-stages: no reflection filled" || ok
expect_exit 0 "track --draw-stages reflection=off" -- "$PT" track -p reflection=off --draw-stages "$TMP/stages-off" -o /dev/null testdata/synth/000001.png
cmp -s "$TMP/stages-off/testdata_synth_000001-1-image.png" "$TMP/stages-off/testdata_synth_000001-4-cleaned.png" && ok || fail "--draw-stages reflection=off changed the image"
printf 'x' >"$TMP/stages-file"
expect_exit 1 "--draw-stages onto a file" -- "$PT" track --draw-stages "$TMP/stages-file" -o /dev/null testdata/synth/000001.png
one_line "$TMP/err" "--draw-stages onto a file"
# -a hough adds the Canny edges (the paper's Fig. 4): a binary image, edges white.
expect_exit 0 "track -a hough --draw-stages" -- "$PT" track -a hough --draw-stages "$TMP/stages-hough" -o /dev/null testdata/synth/000001.png
f="$TMP/stages-hough/testdata_synth_000001-6-canny.png"
head -c 8 "$f" 2>/dev/null | od -An -c | grep -q 'P   N   G' && ok || fail "-a hough --draw-stages wrote no canny PNG"
[ ! -e "$TMP/stages/testdata_synth_000001-6-canny.png" ] && ok || fail "--draw-stages wrote canny edges for starburst"
# -a tl adds the stages of the threshold the detector fitted (the paper's
# Fig. 2): the thresholded frame, its labels, the chosen blob, its border.
is_png() { head -c 8 "$1" 2>/dev/null | od -An -c | grep -q 'P   N   G'; }
# same_pixels A B: the same non-zero pixels (contours draws both alike)
same_pixels() {
    "$PT" contours -o "$TMP/c1.csv" "$1" 2>/dev/null && "$PT" contours -o "$TMP/c2.csv" "$2" 2>/dev/null &&
        [ -s "$TMP/c1.csv" ] && [ "$(wc -l <"$TMP/c1.csv")" -gt 1 ] && cmp -s "$TMP/c1.csv" "$TMP/c2.csv"
}
# component_of BLOB IMAGE EYES: BLOB has one 8-connected component per eye
# at most (eyes' blobs meeting at the middle are one), and their outer
# borders are borders of IMAGE
component_of() {
    "$PT" contours --mode ccomp -o "$TMP/b.csv" "$1" 2>/dev/null &&
        "$PT" contours --mode ccomp -o "$TMP/i.csv" "$2" 2>/dev/null &&
        outer=$(awk -F, 'NR > 1 && $2 == "outer" { print $1 }' "$TMP/b.csv" | sort -u | wc -l) &&
        [ "$outer" -ge 1 ] && [ "$outer" -le "$3" ] &&
        awk -F, 'NR > 1 && $2 == "outer" { print $5 "," $6 }' "$TMP/b.csv" | sort -u >"$TMP/b.pts" &&
        awk -F, 'NR > 1 { print $5 "," $6 }' "$TMP/i.csv" | sort -u >"$TMP/i.pts" &&
        [ -s "$TMP/b.pts" ] && [ -z "$(comm -23 "$TMP/b.pts" "$TMP/i.pts")" ]
}
for mode in "" "--binocular"; do
    set_=synth; eyes=1; [ -n "$mode" ] && set_=synth-binocular && eyes=2
    d="$TMP/stages-tl$mode"
    expect_exit 0 "track -a tl $mode --draw-stages" -- "$PT" track -a tl $mode --preset paper --draw-stages "$d" -o "$TMP/tl$mode.csv" testdata/$set_/000001.png
    s="$d/testdata_${set_}_000001"
    for f in 6-threshold 7-labels 8-blob 9-border; do
        is_png "$s-$f.png" && ok || fail "-a tl $mode --draw-stages wrote no $f PNG"
    done
    # the labels are those of the thresholded frame: the same pixels
    same_pixels "$s-6-threshold.png" "$s-7-labels.png" && ok ||
        fail "-a tl $mode --draw-stages: labels and threshold image differ"
    # the blob is one whole component of the thresholded frame
    component_of "$s-8-blob.png" "$s-6-threshold.png" $eyes && ok ||
        fail "-a tl $mode --draw-stages: the blob is not a component of the threshold image"
    [ ! -e "$s-6-rays-1.png" ] && [ ! -e "$s-6-canny.png" ] && ok || fail "-a tl --draw-stages wrote another detector's stages"
done
# another threshold, other stage images; the detections stay as they are
expect_exit 0 "track -a tl --draw-stages tl_min=60" -- "$PT" track -a tl --preset paper -p tl_min=60 -p tl_max=60 --draw-stages "$TMP/stages-tl60" -o /dev/null testdata/synth/000001.png
cmp -s "$TMP/stages-tl/testdata_synth_000001-6-threshold.png" "$TMP/stages-tl60/testdata_synth_000001-6-threshold.png" &&
    fail "-a tl --draw-stages: the threshold image does not follow the threshold" || ok
"$PT" track -a tl --preset paper -o "$TMP/tl-plain.csv" testdata/synth/000001.png 2>/dev/null
cut -d, -f1-12 "$TMP/tl.csv" >"$TMP/tl.a"; cut -d, -f1-12 "$TMP/tl-plain.csv" >"$TMP/tl.b"
cmp -s "$TMP/tl.a" "$TMP/tl.b" && ok || fail "-a tl --draw-stages changed the detection"
# -a starburst adds one image per iteration, both ray stages told apart (Fig. 3)
expect_exit 0 "track -a starburst --draw-stages" -- "$PT" track -a starburst --preset paper --draw-stages "$TMP/stages-sb" -o "$TMP/sb.csv" testdata/synth/000001.png
s="$TMP/stages-sb/testdata_synth_000001"
n=$(ls "$TMP/stages-sb" | grep -c -- '-6-rays-[0-9]*\.png$')
[ "$n" -ge 2 ] && [ "$n" -le 10 ] && ok || fail "-a starburst --draw-stages wrote $n iteration images (wanted 2..max_iterations)"
for k in $(seq 1 "$n"); do
    is_png "$s-6-rays-$k.png" && ok || fail "-a starburst --draw-stages: rays-$k is no PNG"
done
cmp -s "$s-6-rays-1.png" "$s-6-rays-2.png" && fail "-a starburst --draw-stages: iterations 1 and 2 look the same" || ok
[ ! -e "$s-6-threshold.png" ] && ok || fail "-a starburst --draw-stages wrote tl stages"
expect_exit 0 "track -a starburst --draw-stages max_iterations=1" -- "$PT" track -a starburst --preset paper -p max_iterations=1 --draw-stages "$TMP/stages-sb1" -o /dev/null testdata/synth/000001.png
[ "$(ls "$TMP/stages-sb1" | grep -c -- '-6-rays-')" -eq 1 ] && ok || fail "max_iterations=1: not one rays image"
# the first iteration is the same start and the same rays
cmp -s "$s-6-rays-1.png" "$TMP/stages-sb1/testdata_synth_000001-6-rays-1.png" && ok || fail "max_iterations=1: another first iteration"
# converge_stall: a frame whose lids are closed (synth seed 3, frame 5) has
# no pupil for the fits to settle on, and they wander over the eye until
# max_iterations; with converge_stall=1 the search ends after the first
# iteration that does not beat the best fit
"$PT" synth -n 6 --size 1280x1024 --seed 3 -o "$TMP/blink" >/dev/null 2>&1
grep -q '^000005.png,,,' "$TMP/blink/groundtruth.csv" && ok || fail "synth seed 3 frame 5 is no longer a closed eye"
for st in 0 1; do
    "$PT" track -a starburst -p half_retry=0 -p max_iterations=10 -p converge_stall=$st \
        --draw-stages "$TMP/stages-stall$st" -o /dev/null "$TMP/blink/000005.png" 2>/dev/null
done
n0=$(ls "$TMP/stages-stall0" | grep -c -- '-6-rays-[0-9]*\.png$')
n1=$(ls "$TMP/stages-stall1" | grep -c -- '-6-rays-[0-9]*\.png$')
[ "$n0" -eq 10 ] && [ "$n1" -ge 2 ] && [ "$n1" -lt 5 ] && ok ||
    fail "converge_stall on a closed eye: $n0 iterations without it (wanted 10), $n1 with 1 (wanted 2..4)"
# without second-stage rays the first iteration's image differs
expect_exit 0 "track -a starburst --draw-stages stage2_rays=0" -- "$PT" track -a starburst --preset paper -p max_iterations=1 -p stage2_rays=0 --draw-stages "$TMP/stages-sb0" -o /dev/null testdata/synth/000001.png
cmp -s "$s-6-rays-1.png" "$TMP/stages-sb0/testdata_synth_000001-6-rays-1.png" && fail "stage2_rays=0: the second stage is not drawn" || ok
"$PT" track -a starburst --preset paper -o "$TMP/sb-plain.csv" testdata/synth/000001.png 2>/dev/null
cut -d, -f1-12 "$TMP/sb.csv" >"$TMP/sb.a"; cut -d, -f1-12 "$TMP/sb-plain.csv" >"$TMP/sb.b"
cmp -s "$TMP/sb.a" "$TMP/sb.b" && ok || fail "-a starburst --draw-stages changed the detection"
# two eyes: each iteration image holds both eyes' rays
expect_exit 0 "track -a starburst --binocular --draw-stages" -- "$PT" track -a starburst --binocular --draw-stages "$TMP/stages-sb2" -o /dev/null testdata/synth-binocular/000002.png
s="$TMP/stages-sb2/testdata_synth-binocular_000002"
is_png "$s-6-rays-1.png" && is_png "$s-6-rays-2.png" && ok || fail "-a starburst --binocular --draw-stages wrote no rays PNGs"
cmp -s "$s-6-rays-1.png" "$s-6-rays-2.png" && fail "-a starburst --binocular: iterations 1 and 2 look the same" || ok

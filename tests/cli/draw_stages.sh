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

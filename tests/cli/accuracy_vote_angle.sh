# Sourced by tests/run_cli.sh: Starburst's vote_angle (pupiltrack(1)) on
# lid-cut pupils (synth --hazard lid), 30 frames 320x256. vote_angle=0 is
# the default bit for bit; 20 degrees takes the lid's edge points out of
# the votes of circles they cross and changes the fits on some frames;
# --ellipse with ellipse_fit=direct fits RANSAC ellipses, whose votes do not
# read edge directions, so the angle changes nothing there.

"$PT" synth -n 30 --size 320x256 --seed 41 --hazard lid -o "$TMP/va" >/dev/null 2>&1
va_track() { # NAME OPTIONS...: the fits (status, centre, radius) into $TMP/va_NAME.fits
    name=$1; shift
    "$PT" track -a starburst -b omp "$@" -o "$TMP/va_$name.csv" "$TMP/va" 2>/dev/null
    cut -d, -f1,5-11 "$TMP/va_$name.csv" >"$TMP/va_$name.fits"
}
va_track default
va_track zero -p vote_angle=0
va_track twenty -p vote_angle=20
va_track direct --ellipse -p ellipse_fit=direct
va_track direct20 --ellipse -p ellipse_fit=direct -p vote_angle=20
if [ "$(wc -l <"$TMP/va_default.fits")" -eq 31 ]; then ok; else
    fail "vote_angle: default run gave $(wc -l <"$TMP/va_default.fits") lines, wanted 31"; fi
if cmp -s "$TMP/va_default.fits" "$TMP/va_zero.fits"; then ok; else
    fail "vote_angle=0 differs from the default"; fi
if ! cmp -s "$TMP/va_default.fits" "$TMP/va_twenty.fits"; then ok; else
    fail "vote_angle=20 changed no fit on 30 lid-cut frames"; fi
if cmp -s "$TMP/va_direct.fits" "$TMP/va_direct20.fits"; then ok; else
    fail "vote_angle changed RANSAC ellipse fits (ellipse_fit=direct)"; fi
expect_exit 2 "vote_angle above its range" -- "$PT" track -a starburst -p vote_angle=90 -o "$TMP/va_bad.csv" "$TMP/va"
# -b cuda counts the same votes (cuda/detect/starburst_device.cuh) and drops
# the same flat points (flat_band): the fits byte for byte, circle, --ellipse
# and --sequence. Skipped without a usable GPU.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
   "$PT" track -b cuda -o /dev/null testdata/synth/000000.png 2>/dev/null; then
    for mode in "" "--ellipse" "--sequence"; do
        for b in omp cuda; do
            "$PT" track -a starburst -b $b $mode -p vote_angle=20 -p flat_band=3 "$TMP/va" \
                2>/dev/null | cut -d, -f1,5-12 >"$TMP/va-$b.csv"
        done
        if [ -s "$TMP/va-omp.csv" ] && cmp -s "$TMP/va-omp.csv" "$TMP/va-cuda.csv"; then ok; else
            fail "vote_angle=20 flat_band=3 $mode: -b cuda differs from -b omp"
            diff "$TMP/va-omp.csv" "$TMP/va-cuda.csv" | head -4; fi
    done
else
    echo "SKIP: -b cuda vote_angle/flat_band agreement (no usable GPU)"
fi

# Sourced by tests/run_cli.sh: Starburst's lid parameters (pupiltrack(1))
# on lid-cut pupils (synth --hazard lid), 30 frames 320x256. Each at its
# default value is the default bit for bit and changes fits away from it;
# each leaves alone what it does not read:
# - vote_angle (15 degrees, the default, takes the lid's edge points out of
#   the votes of circles they cross; 0 turns it off): --ellipse with
#   ellipse_fit=direct fits RANSAC ellipses, whose votes do not read edge
#   directions;
# - flat_band (a wider band leaves more lid points out of the fit): with
#   flat_edges=keep no point is tested.

"$PT" synth -n 30 --size 320x256 --seed 41 --hazard lid -o "$TMP/lo" >/dev/null 2>&1
lo_track() { # NAME OPTIONS...: the fits (status, centre, radius, ellipse) into $TMP/lo_NAME.fits
    name=$1; shift
    "$PT" track -a starburst -b omp "$@" -o "$TMP/lo_$name.csv" "$TMP/lo" 2>/dev/null
    cut -d, -f1,5-11 "$TMP/lo_$name.csv" >"$TMP/lo_$name.fits"
}
lo_same() { # A B WHAT: the fits of A and B are the same
    if cmp -s "$TMP/lo_$1.fits" "$TMP/lo_$2.fits"; then ok; else fail "$3"; fi
}
lo_differ() { # A B FIELDS WHAT: these fields (of the .fits lines) of some fit differ
    cut -d, -f"$3" "$TMP/lo_$1.fits" >"$TMP/lo_a.cut"
    cut -d, -f"$3" "$TMP/lo_$2.fits" >"$TMP/lo_b.cut"
    if ! cmp -s "$TMP/lo_a.cut" "$TMP/lo_b.cut"; then ok; else fail "$4"; fi
}
lo_track default
if [ "$(wc -l <"$TMP/lo_default.fits")" -eq 31 ]; then ok; else
    fail "lid options: default run gave $(wc -l <"$TMP/lo_default.fits") lines, wanted 31"; fi
lo_track va15 -p vote_angle=15
lo_track va0 -p vote_angle=0
lo_track direct --ellipse -p ellipse_fit=direct
lo_track direct0 --ellipse -p ellipse_fit=direct -p vote_angle=0
lo_same default va15 "vote_angle=15 differs from the default"
lo_differ default va0 1-8 "vote_angle=0 changed no fit on 30 lid-cut frames"
lo_same direct direct0 "vote_angle changed RANSAC ellipse fits (ellipse_fit=direct)"
expect_exit 2 "vote_angle above its range" -- "$PT" track -a starburst -p vote_angle=90 -o "$TMP/lo_bad.csv" "$TMP/lo"
lo_track fb1 -p flat_band=1
lo_track fb4 -p flat_band=4
lo_track keep -p flat_edges=keep
lo_track keep4 -p flat_edges=keep -p flat_band=4
lo_same default fb1 "flat_band=1 differs from the default"
lo_differ default fb4 1-5 "flat_band=4 changed no fit on 30 lid-cut frames"
lo_same keep keep4 "flat_band changed fits with flat_edges=keep"
expect_exit 2 "flat_band below its range" -- "$PT" track -a starburst -p flat_band=0 -o "$TMP/lo_bad.csv" "$TMP/lo"
# -b cuda counts the same votes (cuda/detect/starburst_device.cuh) and drops
# the same flat points (flat_band): the fits byte for byte, circle, --ellipse
# and --sequence. Skipped without a usable GPU.
if cuda_usable; then
    for mode in "" "--ellipse" "--sequence"; do
        for b in omp cuda; do
            "$PT" track -a starburst -b $b $mode -p vote_angle=20 -p flat_band=3 "$TMP/lo" \
                2>/dev/null | cut -d, -f1,5-12 >"$TMP/lo-$b.csv"
        done
        expect_same "$TMP/lo-omp.csv" "$TMP/lo-cuda.csv" "vote_angle=20 flat_band=3 $mode: -b cuda differs from -b omp"
    done
else
    echo "SKIP: -b cuda vote_angle/flat_band agreement (no usable GPU)"
fi

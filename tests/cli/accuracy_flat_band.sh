# Sourced by tests/run_cli.sh: Starburst's flat_band (pupiltrack(1)) on
# lid-cut pupils (synth --hazard lid), 30 frames 320x256. The default band
# (1 px) is flat_band=1 bit for bit; a wider band leaves more lid points out
# of the fit and changes the answers on some frames; with flat_edges=keep no
# point is tested, so the band changes nothing.

"$PT" synth -n 30 --size 320x256 --seed 41 --hazard lid -o "$TMP/fb" >/dev/null 2>&1
fb_track() { # NAME OPTIONS...: the fits (status, centre, radius) into $TMP/fb_NAME.fits
    name=$1; shift
    "$PT" track -a starburst -b omp "$@" -o "$TMP/fb_$name.csv" "$TMP/fb" 2>/dev/null
    cut -d, -f1,5-8 "$TMP/fb_$name.csv" >"$TMP/fb_$name.fits"
}
fb_track default
fb_track one -p flat_band=1
fb_track wide -p flat_band=4
fb_track keep -p flat_edges=keep
fb_track keepwide -p flat_edges=keep -p flat_band=4
if [ "$(wc -l <"$TMP/fb_default.fits")" -eq 31 ]; then ok; else
    fail "flat_band: default run gave $(wc -l <"$TMP/fb_default.fits") lines, wanted 31"; fi
if cmp -s "$TMP/fb_default.fits" "$TMP/fb_one.fits"; then ok; else
    fail "flat_band=1 differs from the default"; fi
if ! cmp -s "$TMP/fb_default.fits" "$TMP/fb_wide.fits"; then ok; else
    fail "flat_band=4 changed no fit on 30 lid-cut frames"; fi
if cmp -s "$TMP/fb_keep.fits" "$TMP/fb_keepwide.fits"; then ok; else
    fail "flat_band changed fits with flat_edges=keep"; fi
expect_exit 2 "flat_band below its range" -- "$PT" track -a starburst -p flat_band=0 -o "$TMP/fb_bad.csv" "$TMP/fb"

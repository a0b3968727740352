# Sourced by tests/run_cli.sh: tl's circle mode on the hard mix (synth
# --difficulty hard: one or two failure classes per frame), 60 frames
# 640x512. Where the chosen blob's border is clearly not round (an
# elongated, lid-cut or blurred pupil) the default tl_shape=auto reports the
# centre and mean radius of the border's ellipse, if that ellipse is about
# as credible as the circle (tl_shape_confidence); the circle alone
# (tl_shape=circle, the paper) lands off-centre on those frames. The two
# shapes are compared on the border pixels' fit (-p tl_crossings=0), since
# the mid-level crossings then bring either outline onto the border.
# Measured within 5 px: tl_shape=auto 75.9 %, tl_shape=circle 70.7 % (within
# 10 %: 63.8 and 62.1 %); the defaults, with the crossings, 79.3 %.

tsh_rate() { # RESULTS METRIC -> the percentage eval printed for it
    "$PT" eval --gt "$TMP/tsh/groundtruth.csv" -o /dev/null "$1" 2>&1 >/dev/null |
        awk -v m="$2" 'index($0, m) { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i } END { print v + 0 }'
}
"$PT" synth -n 60 --size 640x512 --seed 61 --difficulty hard -o "$TMP/tsh" >/dev/null 2>&1
"$PT" track -a tl -b omp -o "$TMP/tsh_default.csv" "$TMP/tsh" 2>/dev/null
"$PT" track -a tl -b omp -p tl_crossings=0 -o "$TMP/tsh_auto.csv" "$TMP/tsh" 2>/dev/null
"$PT" track -a tl -b omp -p tl_crossings=0 -p tl_shape=circle -o "$TMP/tsh_circle.csv" "$TMP/tsh" 2>/dev/null
tsh_d5=$(tsh_rate "$TMP/tsh_default.csv" "centre error <= 5 px")
tsh_a5=$(tsh_rate "$TMP/tsh_auto.csv" "centre error <= 5 px")
tsh_c5=$(tsh_rate "$TMP/tsh_circle.csv" "centre error <= 5 px")
tsh_a10=$(tsh_rate "$TMP/tsh_auto.csv" "relative error <= 10 %")
tsh_c10=$(tsh_rate "$TMP/tsh_circle.csv" "relative error <= 10 %")
echo "accuracy: hard mix synth 640x512 tl circle mode within 5 px: default $tsh_d5 %;" \
     "tl_crossings=0: tl_shape=auto $tsh_a5 %, tl_shape=circle $tsh_c5 % (within 10 %: $tsh_a10, $tsh_c10 %)"
if awk -v r="$tsh_d5" 'BEGIN { exit !(r >= 76) }'; then ok; else
    fail "hard mix synth tl within 5 px at defaults: $tsh_d5 % < floor 76 %"; fi
if awk -v d="$tsh_d5" -v a="$tsh_a5" 'BEGIN { exit !(d >= a + 2) }'; then ok; else
    fail "hard mix synth tl: default $tsh_d5 % within 5 px not 2 points above tl_crossings=0 $tsh_a5 %"; fi
if awk -v a="$tsh_a5" -v c="$tsh_c5" 'BEGIN { exit !(a >= c + 3) }'; then ok; else
    fail "hard mix synth tl, tl_crossings=0: tl_shape=auto $tsh_a5 % within 5 px not 3 points above tl_shape=circle $tsh_c5 %"; fi
if awk -v a="$tsh_a10" -v c="$tsh_c10" 'BEGIN { exit !(a >= c) }'; then ok; else
    fail "hard mix synth tl, tl_crossings=0: tl_shape=auto $tsh_a10 % within 10 % below tl_shape=circle $tsh_c10 %"; fi
# The ellipse is judged on its own outline (tl_shape_confidence; the
# circle of its mean radius crosses an elongated border, where its samples
# fail): on ordinary 1280x1024 frames (synth seed 11, pupils up to a/b
# 1.25) circle mode gives 95.9 % within 10 %, against 91.8 % when that
# circle was judged instead.
"$PT" synth -n 100 --size 1280x1024 --seed 11 -o "$TMP/tsh11" >/dev/null 2>&1
"$PT" track -a tl -b omp -o "$TMP/tsh11.csv" "$TMP/tsh11" 2>/dev/null
tsh11=$("$PT" eval --gt "$TMP/tsh11/groundtruth.csv" -o /dev/null "$TMP/tsh11.csv" 2>&1 >/dev/null |
    awk 'index($0, "relative error <= 10 %") { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i } END { print v + 0 }')
echo "accuracy: synth 1280x1024 seed 11 tl circle mode within 10 %: $tsh11 %"
if awk -v r="$tsh11" 'BEGIN { exit !(r >= 94.5) }'; then ok; else
    fail "synth seed 11 tl circle mode within 10 %: $tsh11 % < floor 94.5 % (the ellipse judged on its own outline)"; fi
rm -rf "$TMP/tsh11"

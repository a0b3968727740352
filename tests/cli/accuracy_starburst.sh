# Sourced by tests/run_cli.sh: Starburst accuracy on synth frames
# (100 x 1280x1024, fixed seeds, mono and binocular, circle and --ellipse) and
# on the real meye-dev crops when present (PT_MEYE_DIR, default
# ../shared/data/meye-dev; frames with blink = 0).
# Each figure is checked against a floor: the target where the
# detector reaches it, otherwise the level reached now (a regression guard);
# PT_ACC_STRICT=1 checks the targets everywhere.
acc_rate() { # GT RESULTS PATTERN -> percentage printed by eval
    "$PT" eval --gt "$1" -o /dev/null "$2" 2>&1 >/dev/null |
        awk -v pat="$3" 'index($0, pat) { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i } END { print v + 0 }'
}
acc_check() { # WHAT RATE FLOOR TARGET
    floor=$3; [ "${PT_ACC_STRICT:-0}" = 1 ] && floor=$4
    if awk -v r="$2" -v f="$floor" 'BEGIN { exit !(r >= f) }'; then ok; else
        fail "starburst accuracy $1: $2 % < $floor % (target $4 %)"; fi
}
"$PT" synth -n 100 --size 1280x1024 --seed 11 -o "$TMP/acc_mono" >/dev/null &
"$PT" synth -n 100 --size 1280x1024 --seed 12 --binocular -o "$TMP/acc_bino" >/dev/null
wait
"$PT" track -a starburst -o "$TMP/acc_mc.csv" "$TMP/acc_mono" 2>/dev/null
"$PT" track -a starburst --ellipse -o "$TMP/acc_me.csv" "$TMP/acc_mono" 2>/dev/null
"$PT" track -a starburst --binocular -o "$TMP/acc_bc.csv" "$TMP/acc_bino" 2>/dev/null
"$PT" track -a starburst --binocular --ellipse -o "$TMP/acc_be.csv" "$TMP/acc_bino" 2>/dev/null
R10='relative error <= 10 %'; P5='centre error <= 5 px'
mc=$(acc_rate "$TMP/acc_mono/groundtruth.csv" "$TMP/acc_mc.csv" "$R10")
me=$(acc_rate "$TMP/acc_mono/groundtruth.csv" "$TMP/acc_me.csv" "$R10")
bc=$(acc_rate "$TMP/acc_bino/groundtruth.csv" "$TMP/acc_bc.csv" "$R10")
be=$(acc_rate "$TMP/acc_bino/groundtruth.csv" "$TMP/acc_be.csv" "$R10")
echo "starburst accuracy, synth within 10 %: mono circle $mc, mono ellipse $me, bino circle $bc, bino ellipse $be"
# measured: 100, 98.97, 97.33, 96.26 %; floors under the targets
acc_check "synth mono circle" "$mc" 95.5 95
acc_check "synth mono ellipse" "$me" 95.5 95
acc_check "synth bino circle" "$bc" 94 95
acc_check "synth bino ellipse" "$be" 94 95
# ellipse mode at least as accurate as circle mode on elliptical pupils: both
# fit the same RANSAC circle and refine it into an ellipse (ellipse_fit=circle),
# but --ellipse is scored on both axes, so the two may differ by a frame
# either way: 1.1 points (a frame of 97 monocular, two eyes of 187)
acc_check "mono ellipse vs circle" "$me" "$(echo "$mc" | awk '{ print $1 - 1.1 }')" "$mc"
acc_check "bino ellipse vs circle" "$be" "$(echo "$bc" | awk '{ print $1 - 1.1 }')" "$bc"

MEYE=${PT_MEYE_DIR:-../shared/data/meye-dev}
if [ -f "$MEYE/gt.csv" ]; then
    "$PT" track -a starburst -o "$TMP/acc_yc.csv" "$MEYE/png" 2>/dev/null
    "$PT" track -a starburst -p edge_offset=1.5 -p edge_contrast=0 -o "$TMP/acc_yo.csv" "$MEYE/png" 2>/dev/null
    # edge_threshold=15 (an earlier default): at 12 this setting
    # loses 2 points here (70.0 %)
    "$PT" track -a starburst -p edge_fraction=0.15 -p edge_threshold=15 -p edge_contrast=0 -o "$TMP/acc_yf.csv" "$MEYE/png" 2>/dev/null
    # only the reported size on 20 % of the step (the fit on the steepest edges)
    "$PT" track -a starburst -p size_fraction=0.2 -o "$TMP/acc_ys.csv" "$MEYE/png" 2>/dev/null
    y10=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_yc.csv" "$R10")
    y5=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_yc.csv" "$P5")
    o10=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_yo.csv" "$R10")
    f10=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_yf.csv" "$R10")
    f5=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_yf.csv" "$P5")
    s10=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_ys.csv" "$R10")
    s5=$(acc_rate "$MEYE/gt.csv" "$TMP/acc_ys.csv" "$P5")
    echo "starburst accuracy, meye-dev: within 10 % $y10, within 5 px $y5, edge_offset=1.5 within 10 % $o10, edge_fraction=0.15 edge_threshold=15 within 10 % $f10 / 5 px $f5, size_fraction=0.2 within 10 % $s10 / 5 px $s5 (darkest blob: 36.9 / 94.9)"
    # measured 99.3 %; the target is 98 %
    acc_check "meye-dev within 5 px" "$y5" 98.5 98
    acc_check "meye-dev within 5 px beats darkest blob" "$y5" 94.9 94.9
    # the masks' convention (1.5 px inside the border) makes the default's
    # relative error meaningless there; edge_offset=1.5 matches it
    # (measured 52.2 %; 55.2 % with the edge-direction votes off, vote_angle=0)
    acc_check "meye-dev edge_offset=1.5 within 10 %" "$o10" 51.5 70
    # the edge on 15 % of the step (towards the dark side), measured in blur
    # widths rather than px: the masks' convention without a pixel constant
    # (measured 69.6 %; 72.4 % with vote_angle=0)
    acc_check "meye-dev edge_fraction=0.15 within 10 %" "$f10" 69 70
    acc_check "meye-dev edge_fraction=0.15 within 5 px" "$f5" 97 97
    # size_fraction moves only the radius: the centres are the defaults' (5 px
    # rate 98.7 %), the radius follows the masks (68.5 % within 10 %)
    acc_check "meye-dev size_fraction=0.2 within 10 %" "$s10" 67.5 70
    acc_check "meye-dev size_fraction=0.2 within 5 px" "$s5" 97.5 97
else
    echo "SKIP: starburst meye-dev accuracy ($MEYE/gt.csv not found; set PT_MEYE_DIR)"
fi

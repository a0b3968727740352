# Sourced by tests/run_cli.sh: --preset paper for track, bench, sweep and
# params (man pupiltrack, PRESETS): its values, -p over it in any order, and
# per detector a behaviour only the paper's variant has.
expect_exit 0 "params --preset paper" -- "$PT" params -a hough --preset paper
expect_grep "^hough_vote +choice +sampled +\*" "$TMP/out" "params shows the paper's sampled voting"
expect_grep "^hough_vote_spread +real +180 +\*" "$TMP/out" "params shows the whole circle"
expect_grep "^hough_sigma +real +1.5  " "$TMP/out" "a value the preset leaves alone is unmarked"
expect_exit 0 "params --preset default" -- "$PT" params --preset default
expect_grep "^tl_score +choice +quality " "$TMP/out" "default preset lists the defaults"
expect_exit 2 "unknown preset" -- "$PT" track --preset nosuch testdata/synth/000000.png
one_line "$TMP/err" "unknown preset"
expect_grep "nosuch.*default\|paper" "$TMP/err" "unknown preset names the choices"

# -p wins over the preset wherever it stands.
expect_exit 0 "-p before --preset" -- "$PT" track -a tl -p tl_step=40 --preset paper -o "$TMP/pa.csv" testdata/synth/000000.png testdata/synth/000001.png
expect_exit 0 "-p after --preset" -- "$PT" track -a tl --preset paper -p tl_step=40 -o "$TMP/pb.csv" testdata/synth/000000.png testdata/synth/000001.png
cut -d, -f1-12 "$TMP/pa.csv" >"$TMP/pa.cut"; cut -d, -f1-12 "$TMP/pb.csv" >"$TMP/pb.cut"
cmp -s "$TMP/pa.cut" "$TMP/pb.cut" && ok || fail "-p tl_step=40 before and after --preset differ"

# T&L: the paper's T&L reports one fixed threshold's fit (most votes wins, no
# refit), so each row equals the row of a run at that single threshold;
# the default refits between grey levels and does not.
for t in 20 40 60 80 100; do
    "$PT" track -a tl --preset paper -p tl_min=$t -p tl_max=$t -o "$TMP/tl$t.csv" testdata/synth 2>/dev/null || fail "tl threshold $t"
    tail -n +2 "$TMP/tl$t.csv" | cut -d, -f1,5-8
done | sort -u >"$TMP/tl-single"
for p in paper default; do
    "$PT" track -a tl --preset $p -o "$TMP/tl-$p.csv" testdata/synth 2>/dev/null || fail "tl --preset $p"
    tail -n +2 "$TMP/tl-$p.csv" | cut -d, -f1,5-8 >"$TMP/tl-$p.rows"
done
n=$(grep -cxFf "$TMP/tl-single" "$TMP/tl-paper.rows")
[ "$n" -eq 20 ] && ok || fail "tl paper: $n of 20 rows are a single threshold's fit"
n=$(grep -cxFf "$TMP/tl-single" "$TMP/tl-default.rows")
[ "$n" -lt 20 ] && ok || fail "tl default: every row is a single threshold's fit (the refit did nothing)"

# Starburst: the paper's starts from the eye region's centre (320x256: 159.5,
# 127.5), the default from its darkest window.
for p in paper default; do
    "$PT" track -a starburst --preset $p -o "$TMP/sb-$p.csv" testdata/synth 2>/dev/null || fail "starburst --preset $p"
    "$PT" track -a starburst --preset $p -p start_x=159.5 -p start_y=127.5 -o "$TMP/sbc-$p.csv" testdata/synth 2>/dev/null || fail "starburst --preset $p centre"
    cut -d, -f1,5-11 "$TMP/sb-$p.csv" >"$TMP/sb-$p.rows"; cut -d, -f1,5-11 "$TMP/sbc-$p.csv" >"$TMP/sbc-$p.rows"
done
cmp -s "$TMP/sb-paper.rows" "$TMP/sbc-paper.rows" && ok || fail "starburst paper does not start at the centre"
cmp -s "$TMP/sb-default.rows" "$TMP/sbc-default.rows" && fail "starburst default starts at the centre" || ok

# Canny-Hough: sampled voting responds to the angle step, gradient voting
# (the default) does not use it.
H="testdata/synth/000000.png testdata/synth/000001.png testdata/synth/000002.png testdata/synth/000003.png"
for p in paper default; do
    for s in 18 6; do
        "$PT" track -a hough --preset $p -p hough_angle_step=$s -o "$TMP/h-$p-$s.csv" $H 2>/dev/null || fail "hough --preset $p step $s"
        cut -d, -f1,5-8 "$TMP/h-$p-$s.csv" >"$TMP/h-$p-$s.rows"
    done
done
cmp -s "$TMP/h-paper-18.rows" "$TMP/h-paper-6.rows" && fail "hough paper: angle step 18 and 6 give the same results" || ok
cmp -s "$TMP/h-default-18.rows" "$TMP/h-default-6.rows" && ok || fail "hough default: the angle step changed gradient voting's results"

# bench says which preset it timed; sweep records the preset's values.
expect_exit 0 "bench --preset paper" -- "$PT" bench -a tl --preset paper --frames 2 --batch 2 testdata/synth/000000.png
expect_grep "^bench: tl omp .* preset=paper$" "$TMP/out" "bench names the preset"
expect_exit 0 "sweep --preset paper" -- "$PT" sweep -a tl -p tl_step=40 --preset paper --gt testdata/synth/groundtruth.csv -g tl_min=20,40 -o "$TMP/psweep" testdata/synth/000000.png testdata/synth/000001.png
expect_grep "^param tl_score=votes$" "$TMP/psweep/sweep.txt" "sweep manifest has the preset's values"
expect_grep "^param tl_step=40$" "$TMP/psweep/sweep.txt" "-p before --preset stays"

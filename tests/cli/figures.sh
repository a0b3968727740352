# Sourced by tests/run_cli.sh: scripts/figures.sh end to end on testdata/synth
# with the OpenMP back end and small grids: every figure's CSV and caption,
# and its PNG and SVG when gnuplot is installed; figures whose parameter the
# paper varies show curves that differ.
expect_exit 0 "figures.sh --quick" -- env PT="$PT" THREADS="1 2" sh scripts/figures.sh --quick testdata/synth testdata/synth/groundtruth.csv "$TMP/figs"
FIGS="fig01-reflection-stages fig06-radius-histogram fig07-cuda-ladder
      fig10a-starburst-accuracy fig10b-starburst-fps fig11a-fit-accuracy fig11b-fit-streams-fps
      fig12a-tl-accuracy fig12b-tl-fps fig13a-hough-accuracy fig13b-hough-fps fig14-fixed
      omp-speedup"
for f in $FIGS; do
    [ -s "$TMP/figs/$f.csv" ] && ok || fail "figures.sh wrote no $f.csv"
    grep -q "^Reproduces: " "$TMP/figs/$f.txt" 2>/dev/null && grep -q "^Command: " "$TMP/figs/$f.txt" &&
        ok || fail "figures.sh wrote no caption $f.txt"
done
# Fig. 10: 3 top-hat sides x (Gaussian 5, median 7, median 11), curves to 20 %.
n=$(grep -c ',20,' "$TMP/figs/fig10a-starburst-accuracy.csv")
[ "$n" -eq 9 ] && ok || fail "fig10a has $n curves reaching 20 %, wanted 9 (3 kernels x 3 filters)"
grep -q '^median smooth_size=11 reflection_kernel=13,' "$TMP/figs/fig10a-starburst-accuracy.csv" && ok ||
    fail "fig10a has no median 11 series"
# Fig. 6: one count per pupil of the ground truth (20 frames with a pupil).
n=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' "$TMP/figs/fig06-radius-histogram.csv")
[ "$n" -eq 20 ] && ok || fail "fig06 counts $n pupils, wanted 20"
# Fig. 12: the paper preset's speed and the defaults' beside it.
grep -q '^defaults omp,20,' "$TMP/figs/fig12b-tl-fps.csv" && ok || fail "fig12b has no defaults series"
# Fig. 13: sampled voting responds to the angle step: the accuracy curves are
# not all the same, and fewer degrees between votes (more votes) is slower.
n=$(awk -F, 'NR > 1 { c[$1] = c[$1] " " $3 } END { for (s in c) print c[s] }' \
    "$TMP/figs/fig13a-hough-accuracy.csv" | sort -u | wc -l)
[ "$n" -gt 1 ] && ok || fail "fig13a: the angle steps' accuracy curves are identical"
awk -F, 'NR > 1 && $1 == "paper preset omp" { print $2, $3 }' "$TMP/figs/fig13b-hough-fps.csv" |
    sort -k1,1gr >"$TMP/fig13-fps"
n=$(wc -l <"$TMP/fig13-fps")
[ "$n" -eq 3 ] && ok || fail "fig13b has $n omp speeds, wanted 3 angle steps"
awk 'NR > 1 && $2 >= last { bad = 1 } { last = $2 } END { exit bad }' "$TMP/fig13-fps" && ok ||
    { fail "fig13b: fps does not fall as the angle step shrinks"; sed 's/^/  /' "$TMP/fig13-fps"; }
# Fig. 14: 3 detectors x (paper preset, defaults) x (41 relative + 21 pixel points).
n=$(($(wc -l <"$TMP/figs/fig14-fixed.csv") - 1))
[ "$n" -eq $((6 * (41 + 21))) ] && ok || fail "fig14 has $n rows, wanted 6 configurations x 62"
n=$(($(wc -l <"$TMP/figs/fig14-fixed-fps.csv") - 1))
[ "$n" -eq 6 ] && ok || fail "fig14-fixed-fps has $n rows, wanted 6"
if command -v gnuplot >/dev/null 2>&1; then
    for f in $FIGS; do
        if head -c 8 "$TMP/figs/$f.png" 2>/dev/null | od -An -c | grep -q 'P   N   G' &&
           grep -q '<svg' "$TMP/figs/$f.svg" 2>/dev/null; then ok; else fail "$f: no PNG or SVG drawn"; fi
    done
else
    echo "SKIP: figure drawing (gnuplot is not installed; the CSVs were checked)"
fi
# --draw-only redraws from the kept sweeps without running pupiltrack.
rm -f "$TMP"/figs/*.png "$TMP"/figs/*.svg
expect_exit 0 "figures.sh --draw-only" -- env PT=/nonexistent sh scripts/figures.sh --quick --draw-only /nonexistent /nonexistent.csv "$TMP/figs"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$TMP/figs/fig14-fixed.png" ] && ok || fail "--draw-only drew no fig14-fixed.png"
    [ -s "$TMP/figs/fig01-reflection-stages.png" ] && ok || fail "--draw-only drew no fig01-reflection-stages.png"
fi

# Sourced by tests/run_cli.sh: scripts/figures.sh end to end on testdata/synth
# with the OpenMP back end and small grids: every figure's CSV, and
# its PNG and SVG when gnuplot is installed.
expect_exit 0 "figures.sh --quick" -- env PT="$PT" THREADS="1 2" sh scripts/figures.sh --quick testdata/synth testdata/synth/groundtruth.csv "$TMP/figs"
FIGS="fig01-starburst-accuracy fig02-starburst-fps fig03-fit-accuracy fig04-fit-streams-fps
      fig05-tl-accuracy fig06-tl-fps fig07-hough-accuracy fig08-hough-fps fig09-best
      fig10-cuda-ladder fig11-omp-speedup"
for f in $FIGS; do
    [ -s "$TMP/figs/$f.csv" ] && ok || fail "figures.sh wrote no $f.csv"
done
# Figures with data have rows: the accuracy curves span 0..20 % for each configuration.
n=$(grep -c ',20,' "$TMP/figs/fig01-starburst-accuracy.csv")
[ "$n" -eq 6 ] && ok || fail "fig01 has $n curves reaching 20 %, wanted 6 (3 kernels x 2 filters)"
n=$(($(wc -l <"$TMP/figs/fig09-best.csv") - 1))
[ "$n" -eq $((3 * (41 + 21))) ] && ok || fail "fig09 has $n rows, wanted 3 detectors x 62"
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
    [ -s "$TMP/figs/fig09-best.png" ] && ok || fail "--draw-only drew no fig09-best.png"
fi

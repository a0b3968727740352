# Sourced by tests/run_cli.sh: scripts/figures.sh end to end on testdata/synth
# with the OpenMP back end and small grids: every figure's and table's CSV
# and caption of the three papers (pupil/, contours/, auction/), tables in
# Markdown, PNG and SVG when gnuplot is installed; figures whose parameter
# the paper varies show curves that differ.
expect_exit 0 "figures.sh --quick" -- env PT="$PT" THREADS="1 2" sh scripts/figures.sh --quick testdata/synth testdata/synth/groundtruth.csv "$TMP/all"
ln -s "$TMP/all/pupil" "$TMP/figs"
FIGS="fig01-reflection-stages fig02-tl-stages fig03-starburst-rays fig04-hough fig06-radius-histogram fig07-cuda-ladder
      fig10a-starburst-accuracy fig10b-starburst-fps fig11a-fit-accuracy fig11b-fit-streams-fps
      fig12a-tl-accuracy fig12b-tl-fps fig13a-hough-accuracy fig13b-hough-fps fig14-fixed
      omp-speedup"
for f in $FIGS; do
    [ -s "$TMP/figs/$f.csv" ] && ok || fail "figures.sh wrote no $f.csv"
    grep -q "^Reproduces: " "$TMP/figs/$f.txt" 2>/dev/null && grep -q "^Command: " "$TMP/figs/$f.txt" &&
        ok || fail "figures.sh wrote no caption $f.txt"
done
# Figs. 2 and 3 from --draw-stages: the four tl stages, one Starburst panel
# per iteration (more than one here), every panel a PNG written.
n=$(grep -c -- '-[6-9]-[a-z]*\.png$' "$TMP/figs/fig02-tl-stages.csv")
[ "$n" -eq 4 ] && ok || fail "fig02 has $n stage panels, wanted 4"
n=$(grep -c -- '-6-rays-[0-9]*\.png$' "$TMP/figs/fig03-starburst-rays.csv")
[ "$n" -ge 2 ] && ok || fail "fig03 has $n iteration panels, wanted 2 or more"
for f in $(cut -d, -f2 "$TMP/figs/fig02-tl-stages.csv" "$TMP/figs/fig03-starburst-rays.csv" | grep -v '^file$'); do
    head -c 8 "$TMP/figs/$f" 2>/dev/null | od -An -c | grep -q 'P   N   G' && ok || fail "figs 2-3: $f is no PNG"
done
# Fig. 7: the sequential run (speed-up 1) and OpenMP for one and two eyes;
# the CUDA steps only where a GPU runs.
for eyes in monocular binocular; do
    grep -q "^$eyes,0,1$" "$TMP/figs/fig07-cuda-ladder.csv" && grep -q "^$eyes,1," "$TMP/figs/fig07-cuda-ladder.csv" &&
        ok || fail "fig07 has no sequential and OpenMP $eyes bars"
done
if "$PT" track -b cuda -o /dev/null testdata/synth/000000.png >/dev/null 2>&1; then
    n=$(grep -c '^monocular,[2-9],' "$TMP/figs/fig07-cuda-ladder.csv")
    [ "$n" -eq 7 ] && ok || fail "fig07 has $n CUDA monocular steps, wanted 7"
else
    grep -q "not measured" "$TMP/figs/fig07-cuda-ladder.txt" && ok || fail "fig07 caption does not say CUDA was not measured"
fi
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
# The border-tracking and auction papers' tables and figures.
CT="table1-cpu table2-cuda-phases table3-rectangles table4-images table5-transfers"
AU="table1-datasets table2-errors table3-speedup table4-budget"
for f in $CT; do
    [ -s "$TMP/all/contours/$f.csv" ] && [ -s "$TMP/all/contours/$f.md" ] &&
        grep -q "^Reproduces: " "$TMP/all/contours/$f.txt" && ok || fail "contours.sh: no $f csv, md or caption"
done
for f in $AU fig05-ms-per-set fig06-ms-over-time; do
    [ -s "$TMP/all/auction/$f.csv" ] && grep -q "^Reproduces: " "$TMP/all/auction/$f.txt" && ok ||
        fail "auction.sh: no $f csv or caption"
done
for f in $AU; do [ -s "$TMP/all/auction/$f.md" ] && ok || fail "auction.sh: no $f.md"; done
# contours: borders grow with the image (1x, 2x, 4x), four generated images.
awk -F, 'NR > 1 { if ($3 + 0 <= last) bad = 1; last = $3 + 0 } END { exit bad }' "$TMP/all/contours/table1-cpu.csv" &&
    ok || fail "contours table1: borders do not grow with the image size"
n=$(($(wc -l <"$TMP/all/contours/table4-images.csv") - 1))
[ "$n" -eq 4 ] && ok || fail "contours table4 has $n images, wanted 4"
# contours: Tables 1, 3 and 4 carry the CPU phases (seq, omp), measured in every row.
for f in table1-cpu table3-rectangles table4-images; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(seq|omp).* (preprocessing|tracking|connection|assembly) ms$/) col[++n] = i; next }
             { for (k = 1; k <= n; k++) if ($col[k] !~ /^[0-9]+\.[0-9]+$/) bad = 1 }
             END { exit !(n >= 3 && !bad) }' "$TMP/all/contours/$f.csv" &&
        ok || fail "contours $f: CPU phase columns missing or not measured"
done
# auction: six data sets; every run measured; both auctions per set and back end.
n=$(($(wc -l <"$TMP/all/auction/table1-datasets.csv") - 1))
[ "$n" -eq 6 ] && ok || fail "auction table1 has $n data sets, wanted 6"
grep -q ',failed,' "$TMP/all/auction/runs/results.csv" && fail "auction.sh: a run failed" || ok
n=$(awk -F, 'NR > 1 && ($2 == "seq" || $2 == "omp") && $5 + 0 > 0' "$TMP/all/auction/table3-speedup.csv" | wc -l)
[ "$n" -eq 12 ] && ok || fail "auction table3 has $n measured speed-ups, wanted 12 (6 sets x seq, omp)"
grep -q "jacobi trend" "$TMP/all/auction/fig06-ms-over-time.csv" && grep -q "default trend" "$TMP/all/auction/fig06-ms-over-time.csv" &&
    ok || fail "auction fig06 has no trend lines"
if command -v gnuplot >/dev/null 2>&1; then
    for f in $(for t in $CT; do echo contours/$t; done) $(for t in $AU fig05-ms-per-set fig06-ms-over-time; do echo auction/$t; done); do
        if head -c 8 "$TMP/all/$f.png" 2>/dev/null | od -An -c | grep -q 'P   N   G' &&
           grep -q '<svg' "$TMP/all/$f.svg" 2>/dev/null; then ok; else fail "$f: no PNG or SVG drawn"; fi
    done
fi
# --draw-only redraws from the kept sweeps without running pupiltrack.
rm -f "$TMP"/figs/*.png "$TMP"/figs/*.svg
expect_exit 0 "figures.sh --draw-only" -- env PT=/nonexistent sh scripts/figures.sh --quick --draw-only /nonexistent /nonexistent.csv "$TMP/all"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$TMP/figs/fig14-fixed.png" ] && ok || fail "--draw-only drew no fig14-fixed.png"
    [ -s "$TMP/figs/fig01-reflection-stages.png" ] && ok || fail "--draw-only drew no fig01-reflection-stages.png"
fi

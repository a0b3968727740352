# Sourced by tests/run_cli.sh: track and eval end to end, bad input.
expect_exit 0 "track testdata/synth" -- "$PT" track -o "$TMP/r.csv" testdata/synth
rows=$(grep -c "testdata/synth/" "$TMP/r.csv")
[ "$rows" -eq 20 ] && ok || fail "track wrote $rows rows for 20 images"
expect_grep "^image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message,timestamp$" "$TMP/r.csv" "results header"
expect_exit 0 "eval own results" -- "$PT" eval --gt testdata/synth/groundtruth.csv -o "$TMP/curve.csv" "$TMP/r.csv"
expect_grep "^config,metric,threshold,detected,total,rate" "$TMP/curve.csv" "curve header"
expect_grep ",relative,20," "$TMP/curve.csv" "relative curve reaches 20 %"
expect_grep ",pixel,20," "$TMP/curve.csv" "pixel curve reaches 20 px"

# Results to stdout by default; ground truth written as results scores 100 %.
expect_exit 0 "track to stdout" -- "$PT" track testdata/synth/000000.png
expect_grep "^testdata/synth/000000.png,,starburst,omp," "$TMP/out" "row on stdout"

# A batch with a missing file and a corrupt PNG goes on, records errors, exits 1.
mkdir -p "$TMP/bad"
cp testdata/synth/000000.png testdata/synth/000001.png "$TMP/bad/"
head -c 300 testdata/synth/000002.png >"$TMP/bad/000002.png"
printf 'not an image' >"$TMP/bad/000003.png"
expect_exit 1 "batch with bad files" -- "$PT" track -o "$TMP/rb.csv" "$TMP/bad" "$TMP/missing.png"
n_err=$(grep -c ",error," "$TMP/rb.csv"); n_ok=$(grep -c -E ",(ok|notfound)," "$TMP/rb.csv")
[ "$n_err" -eq 3 ] && ok || fail "3 error rows expected, got $n_err"
[ "$n_ok" -eq 2 ] && ok || fail "2 good rows expected, got $n_ok"
n_lines=$(wc -l <"$TMP/err")
[ "$n_lines" -eq 3 ] && ok || fail "one stderr line per bad file expected, got $n_lines"
expect_grep "missing.png" "$TMP/err" "missing file named"
expect_grep "000002.png" "$TMP/err" "truncated file named"
# Files are decoded side by side (-j threads) but tracked in their order:
# the rows keep the input order, a bad file's rows in its place, the same
# results with one thread and with three.
mkdir -p "$TMP/order"
for k in 0 2 3 4 5 6; do cp testdata/synth/00000$k.png "$TMP/order/"; done
head -c 300 testdata/synth/000001.png >"$TMP/order/000001.png"
expect_exit 1 "ordered batch, -j 1" -- "$PT" track -j 1 -o "$TMP/o1.csv" "$TMP/order"
expect_exit 1 "ordered batch, -j 3" -- "$PT" track -j 3 -o "$TMP/o3.csv" "$TMP/order"
order=$(awk -F, 'NR > 1 { sub(".*/", "", $1); printf "%s:%s ", $1, $5 }' "$TMP/o3.csv")
[ "$order" = "000000.png:ok 000001.png:error 000002.png:ok 000003.png:ok 000004.png:ok 000005.png:ok 000006.png:ok " ] &&
    ok || fail "rows out of input order or status: $order"
cut -d, -f1-12 "$TMP/o1.csv" >"$TMP/o1.cut"
cut -d, -f1-12 "$TMP/o3.csv" >"$TMP/o3.cut"
cmp -s "$TMP/o1.cut" "$TMP/o3.cut" && ok || fail "track -j 1 and -j 3 differ"
expect_exit 1 "empty file" -- "$PT" track /dev/null
one_line "$TMP/err" "empty file"

# Binocular: one row per eye, L and R.
expect_exit 0 "binocular" -- "$PT" track --binocular -o "$TMP/rbin.csv" testdata/synth-binocular
nl=$(grep -c ",L,starburst," "$TMP/rbin.csv"); nr=$(grep -c ",R,starburst," "$TMP/rbin.csv")
[ "$nl" -eq 6 ] && [ "$nr" -eq 6 ] && ok || fail "binocular rows L=$nl R=$nr, wanted 6 each"

# --draw writes one PNG per frame, loadable again.
expect_exit 0 "draw" -- "$PT" track --draw "$TMP/draw" -o /dev/null testdata/synth/000001.png testdata/synth/000002.png
nd=$(ls "$TMP/draw" | grep -c '\.png$')
[ "$nd" -eq 2 ] && ok || fail "--draw wrote $nd PNGs, wanted 2"
expect_exit 0 "drawn PNG loads" -- "$PT" track -o /dev/null "$TMP/draw"
[ -f "$TMP/draw/testdata_synth_000001.png" ] && ok || fail "--draw names: $(ls "$TMP/draw" | head -2)"
# --gt with --draw adds the ground truth (in blue): the drawing changes.
expect_exit 0 "draw with gt" -- "$PT" track --draw "$TMP/draw_gt" --gt testdata/synth/groundtruth.csv -o /dev/null testdata/synth/000001.png
cmp -s "$TMP/draw/testdata_synth_000001.png" "$TMP/draw_gt/testdata_synth_000001.png" && fail "--gt not drawn" || ok
expect_exit 1 "bad --gt" -- "$PT" track --draw "$TMP/draw_gt" --gt /nonexistent.csv -o /dev/null testdata/synth/000001.png

# -b cuda without a usable GPU: exit 3 and a clear line, never a silent fall-back.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: -b cuda unavailability test (a GPU is present)"
    # -a tl -b cuda gives -b omp's status and fit (columns status .. theta)
    "$PT" track -a tl -b omp testdata/synth | cut -d, -f1,5-11 >"$TMP/tl-omp.csv"
    "$PT" track -a tl -b cuda testdata/synth | cut -d, -f1,5-11 >"$TMP/tl-cuda.csv"
    cmp -s "$TMP/tl-omp.csv" "$TMP/tl-cuda.csv" && ok || fail "-a tl: -b cuda differs from -b omp"
    # --cuda-off changes the speed only: the same results with every optimisation off
    for a in starburst tl hough; do
        "$PT" track -a $a -b cuda testdata/synth | cut -d, -f1-12 >"$TMP/cuda-on.csv"
        "$PT" track -a $a -b cuda --streams 1 --cuda-off all testdata/synth | cut -d, -f1-12 >"$TMP/cuda-off.csv"
        cmp -s "$TMP/cuda-on.csv" "$TMP/cuda-off.csv" && ok || fail "-a $a: --cuda-off all changes the results"
    done
    # Over 220 frames in calls of 32, with unreadable files among them and
    # larger frames after 150 (the back end is remade mid-run), -b cuda's
    # rows are -b omp's, in input order (columns image, eye, status .. theta)
    mkdir -p "$TMP/calls"
    "$PT" synth -n 150 --size 320x256 --seed 93 -o "$TMP/calls/a" >/dev/null
    "$PT" synth -n 70 --size 400x300 --seed 94 -o "$TMP/calls/b" >/dev/null
    head -c 300 "$TMP/calls/a/000070.png" >"$TMP/calls/a/000070.png.part"
    mv "$TMP/calls/a/000070.png.part" "$TMP/calls/a/000070.png"
    printf 'not an image' >"$TMP/calls/c.png"
    for b in omp cuda; do
        "$PT" track -b $b -o "$TMP/calls-$b.csv" "$TMP/calls/a" "$TMP/calls/c.png" "$TMP/calls/b" 2>/dev/null
        cut -d, -f1,2,5-11 "$TMP/calls-$b.csv" >"$TMP/calls-$b.cut"
    done
    [ "$(grep -c ',error,' "$TMP/calls-cuda.csv")" -eq 2 ] && ok || fail "two error rows expected"
    [ "$(wc -l <"$TMP/calls-cuda.csv")" -eq 222 ] && ok || fail "221 rows expected"
    expect_same "$TMP/calls-omp.cut" "$TMP/calls-cuda.cut" "-b cuda's calls in flight differ from -b omp"
    for b in omp cuda; do
        "$PT" track -b $b --sequence -o "$TMP/seq-$b.csv" "$TMP/calls/b" 2>/dev/null
        cut -d, -f1,2,5-11 "$TMP/seq-$b.csv" >"$TMP/seq-$b.cut"
    done
    expect_same "$TMP/seq-omp.cut" "$TMP/seq-cuda.cut" "--sequence: -b cuda differs from -b omp"
else
    expect_exit 3 "-b cuda without GPU" -- "$PT" track -b cuda testdata/synth/000000.png
    one_line "$TMP/err" "-b cuda without GPU"
    expect_grep "cuda" "$TMP/err" "-b cuda message"
    expect_exit 3 "-a tl -b cuda without GPU" -- "$PT" track -a tl -b cuda testdata/synth/000000.png
    one_line "$TMP/err" "-a tl -b cuda without GPU"
fi

# --cuda-off: names checked; with another back end a warning, the run goes on.
expect_exit 2 "--cuda-off unknown name" -- "$PT" track --cuda-off pinned,fast -o /dev/null testdata/synth/000000.png
one_line "$TMP/err" "--cuda-off unknown name"
expect_grep "fast" "$TMP/err" "--cuda-off names the bad name"
expect_exit 0 "--cuda-off with -b omp" -- "$PT" track --cuda-off all -o /dev/null testdata/synth/000000.png
expect_grep "applies to -b cuda only" "$TMP/err" "--cuda-off with -b omp warns"

# -j 1 and -j 2 give identical results (ms column aside).
for a in starburst tl hough; do
    "$PT" track -a $a -j 1 testdata/synth | cut -d, -f1-12 >"$TMP/j1.csv"
    "$PT" track -a $a -j 2 testdata/synth | cut -d, -f1-12 >"$TMP/j2.csv"
    cmp -s "$TMP/j1.csv" "$TMP/j2.csv" && ok || fail "$a: -j 1 and -j 2 differ"
done

# --sequence --glints: every corneal reflection of a synthetic sequence keeps one id.
"$PT" synth --sequence -n 30 --seed 9 -o "$TMP/seq" >/dev/null 2>&1
expect_exit 0 "track --glints" -- "$PT" track --sequence --glints "$TMP/seq/g.csv" -o "$TMP/seq/r.csv" "$TMP/seq"
expect_grep '^image,eye,glint,x,y$' "$TMP/seq/g.csv" "glints header"
ids=$(awk -F, 'NR == FNR { if (FNR > 1) { n[$1]++; tx[$1, n[$1]] = $4; ty[$1, n[$1]] = $5; tg[$1, n[$1]] = $3 } next }
    FNR > 1 { split($1, p, "/"); img = p[length(p)]; best = ""; bd = 3
      for (k = 1; k <= n[img]; k++) { dx = $4 - tx[img, k]; dy = $5 - ty[img, k]; d = sqrt(dx * dx + dy * dy)
        if (d < bd) { bd = d; best = tg[img, k] } }
      if (best != "") { matched++; if (!((best, $3) in seen)) { seen[best, $3] = 1; ids[best]++ } } }
    END { bad = 0; for (g in ids) if (ids[g] != 1) bad++; printf "%d %d\n", matched, bad }' \
    "$TMP/seq/glints.csv" "$TMP/seq/g.csv")
matched=${ids% *}; split=${ids#* }
[ "${matched:-0}" -ge 100 ] && [ "${split:-1}" -eq 0 ] && ok || fail "glint ids: $matched matched, $split reflections with more than one id"
expect_exit 2 "--glints needs --sequence" -- "$PT" track --glints "$TMP/g.csv" -o /dev/null "$TMP/seq/000000.png"
one_line "$TMP/err" "--glints without --sequence"

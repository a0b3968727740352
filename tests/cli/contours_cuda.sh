# Sourced by tests/run_cli.sh: `contours -b cuda` (exit 3 without a
# GPU, never a fall-back; with one, output equal to -b seq) and --repeat timing.
CIMG=testdata/contours/nested.png
[ -f "$CIMG" ] || CIMG=$(ls testdata/contours/*.png | head -n 1)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    for m in list ccomp tree; do
        "$PT" contours -b seq --mode $m "$CIMG" >"$TMP/cs.csv" 2>/dev/null
        "$PT" contours -b cuda --mode $m "$CIMG" >"$TMP/cc.csv" 2>"$TMP/err"
        cmp -s "$TMP/cs.csv" "$TMP/cc.csv" && ok || fail "contours -b cuda --mode $m differs from -b seq"
    done
else
    expect_exit 3 "contours -b cuda without GPU" -- "$PT" contours -b cuda "$CIMG"
    one_line "$TMP/err" "contours -b cuda without GPU"
    expect_grep "cuda" "$TMP/err" "contours -b cuda message"
fi
expect_exit 0 "contours --repeat" -- "$PT" contours -b omp -j 2 --count --repeat 3 "$CIMG"
expect_grep "^timing: backend=omp threads=2 tile=0 size=[0-9]+x[0-9]+ borders=[0-9]+ points=[0-9]+ runs=3 median_ms=[0-9.]+ min_ms=[0-9.]+" "$TMP/err" "contours timing line"
n=$(cat "$TMP/out"); b=$(sed -n 's/.* borders=\([0-9]*\).*/\1/p' "$TMP/err")
[ "$n" = "$b" ] && ok || fail "contours --count $n but timing says $b borders"
expect_exit 2 "contours --repeat 0" -- "$PT" contours --repeat 0 "$CIMG"
expect_exit 2 "contours --tile 3" -- "$PT" contours --tile 3 "$CIMG"
"$PT" contours -b seq --mode tree "$CIMG" >"$TMP/cs.csv" 2>/dev/null
"$PT" contours -b omp --tile 4 --mode tree "$CIMG" >"$TMP/co.csv" 2>/dev/null
cmp -s "$TMP/cs.csv" "$TMP/co.csv" && ok || fail "contours -b omp --tile 4 differs from -b seq"

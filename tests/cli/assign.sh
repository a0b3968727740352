# Sourced by tests/run_cli.sh: assign and mtt end to end.

# total_of FILE: the total from assign's stderr line "total T (...)".
total_of() { sed -n 's/^total \([-0-9.e+]*\) .*/\1/p' "$1"; }

# Output format and a hand-checked optimum: min 1 + 2 + 2 = 5, max 4 + 5 + 2 = 11.
printf '4,1,3\n2,0,5\n3,2,2\n' >"$TMP/a3.csv"
expect_exit 0 "assign 3x3" -- "$PT" assign -b seq "$TMP/a3.csv"
expect_grep "^row,col,value$" "$TMP/out" "assign header"
[ "$(sed 1d "$TMP/out" | tr '\n' ' ')" = "0,1,1 1,0,2 2,2,2 " ] && ok || fail "assign 3x3 rows: $(tr '\n' ' ' <"$TMP/out")"
[ "$(total_of "$TMP/err")" = "5" ] && ok || fail "assign 3x3 min total: $(cat "$TMP/err")"
expect_exit 0 "assign 3x3 --max" -- "$PT" assign -b omp -j 2 --max "$TMP/a3.csv"
[ "$(total_of "$TMP/err")" = "11" ] && ok || fail "assign 3x3 max total: $(cat "$TMP/err")"
expect_exit 0 "assign -o" -- "$PT" assign -b exact -o "$TMP/a3.out" "$TMP/a3.csv"
[ "$(wc -l <"$TMP/a3.out")" -eq 4 ] && ok || fail "assign -o wrote $(wc -l <"$TMP/a3.out") lines, wanted 4"

# Rectangular: 2x3 assigns both rows; 3x2 leaves one row out (min 1 + 2 = 3 either way).
printf '5,9,1\n2,4,1\n' >"$TMP/a23.csv"
printf '5,2\n9,4\n1,1\n' >"$TMP/a32.csv"
for f in a23 a32; do
    expect_exit 0 "assign $f" -- "$PT" assign -b seq "$TMP/$f.csv"
    [ "$(total_of "$TMP/err")" = "3" ] && ok || fail "assign $f total: $(cat "$TMP/err")"
    [ "$(sed 1d "$TMP/out" | wc -l)" -eq 2 ] && ok || fail "assign $f: $(sed 1d "$TMP/out" | wc -l) rows, wanted 2"
done

# Every auction back end reaches the exact optimum on small seeded matrices
# (square, rectangular both ways, few distinct values, wide range).
rand_case() { rr=$1; rc=$2; rm_=$3; rs=$4; }
gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then gpu=1; fi
for case in "12 12 5 1" "20 31 100 2" "33 17 3 3" "48 48 1000 4"; do
    rand_case $case
    awk -v r="$rr" -v c="$rc" -v m="$rm_" -v s="$rs" 'BEGIN { srand(s);
        for (i = 0; i < r; i++) { line = ""; for (j = 0; j < c; j++) line = line (j ? "," : "") int(rand() * m); print line } }' \
        >"$TMP/rand.csv"
    for dir in --min --max; do
        "$PT" assign -b exact $dir "$TMP/rand.csv" >/dev/null 2>"$TMP/exact.err"
        want=$(total_of "$TMP/exact.err")
        backends="seq omp"; [ $gpu -eq 1 ] && backends="seq omp cuda"
        for b in $backends; do
            "$PT" assign -b $b -j 2 $dir "$TMP/rand.csv" >"$TMP/rand.out" 2>"$TMP/rand.err"
            got=$(total_of "$TMP/rand.err")
            [ -n "$want" ] && [ "$got" = "$want" ] && ok || fail "assign ${rr}x$rc $dir -b $b total '$got', exact '$want'"
            # The rows listed add up to the total, each column at most once.
            sum=$(sed 1d "$TMP/rand.out" | awk -F, '{ s += $3 } END { printf "%.15g", s }')
            dup=$(sed 1d "$TMP/rand.out" | cut -d, -f2 | sort | uniq -d | wc -l)
            [ "$sum" = "$got" ] && [ "$dup" -eq 0 ] && ok || fail "assign ${rr}x$rc -b $b: rows sum $sum, $dup repeated columns"
        done
    done
done

# Random problems from the command line, both distributions.
expect_exit 0 "assign --random tracking" -- "$PT" assign -b seq --random 40 --cols 50 --dist tracking --seed 3
r1=$(total_of "$TMP/err")
expect_exit 0 "assign --random exact" -- "$PT" assign -b exact --random 40 --cols 50 --dist tracking --seed 3
[ -n "$r1" ] && [ "$r1" = "$(total_of "$TMP/err")" ] && ok || fail "--random tracking: seq $r1 vs exact $(total_of "$TMP/err")"

# Bad input: exit 1 and one line naming the file and the reason.
printf '1,2\n3,x\n' >"$TMP/bad1.csv"
printf '1,2,3\n4,5\n' >"$TMP/bad2.csv"
printf '1,nan\n2,3\n' >"$TMP/bad3.csv"
: >"$TMP/bad4.csv"
for f in bad1:"not a number" bad2:"ragged row" bad3:"NaN" bad4:"empty file"; do
    name=${f%%:*}; why=${f#*:}
    expect_exit 1 "assign $name" -- "$PT" assign "$TMP/$name.csv"
    one_line "$TMP/err" "assign $name"
    expect_grep "$name.csv.*$why" "$TMP/err" "assign $name message"
done
expect_exit 1 "assign missing file" -- "$PT" assign "$TMP/missing.csv"
one_line "$TMP/err" "assign missing file"
expect_exit 2 "assign unknown back end" -- "$PT" assign -b gpu "$TMP/a3.csv"
one_line "$TMP/err" "assign unknown back end"
expect_exit 2 "assign --random without --seed" -- "$PT" assign --random 5
expect_exit 2 "assign file and --random" -- "$PT" assign --random 5 --seed 1 "$TMP/a3.csv"
expect_exit 2 "assign bad --random" -- "$PT" assign --random 0 --seed 1

# mtt: a noise-free belt tracks without identity errors; output frame,x,y,track,id.
expect_exit 0 "synth --particles" -- "$PT" synth --particles --objects 30 --frames 40 --noise 0 --seed 5 -o "$TMP/belt.csv"
for b in seq omp exact; do
    expect_exit 0 "mtt -b $b" -- "$PT" mtt -b $b -j 2 --velocity 4,0 -o "$TMP/tracks.csv" "$TMP/belt.csv"
    expect_grep "^frame,x,y,track,id$" "$TMP/tracks.csv" "mtt header"
    expect_grep "ID switches 0, MOTA 1.0000, IDF1 1.0000" "$TMP/err" "mtt -b $b noise-free metrics"
    rows_in=$(sed 1d "$TMP/belt.csv" | wc -l); rows_out=$(sed 1d "$TMP/tracks.csv" | wc -l)
    [ "$rows_in" -eq "$rows_out" ] && ok || fail "mtt -b $b: $rows_out rows for $rows_in measurements"
done
printf 'frame,x,y\n0,1,2\n1,abc,2\n' >"$TMP/badm.csv"
expect_exit 1 "mtt bad measurement" -- "$PT" mtt "$TMP/badm.csv"
one_line "$TMP/err" "mtt bad measurement"
expect_grep "badm.csv" "$TMP/err" "mtt bad measurement names the file"
expect_exit 2 "mtt unknown back end" -- "$PT" mtt -b gpu "$TMP/belt.csv"
# mtt --dense: the paper's one matrix per frame, with either auction, tracks the
# noise-free belt as the clusters do; --frame-times has one row per frame.
for a in default jacobi; do
    expect_exit 0 "mtt --dense --auction $a" -- "$PT" mtt -b seq --dense --auction $a --velocity 4,0 \
        --frame-times "$TMP/times.csv" -o "$TMP/tracks-dense.csv" "$TMP/belt.csv"
    expect_grep "ID switches 0, MOTA 1.0000, IDF1 1.0000" "$TMP/err" "mtt --dense --auction $a metrics"
    expect_grep "^frame,measurements,ms$" "$TMP/times.csv" "mtt --frame-times header"
    frames=$(tail -n +2 "$TMP/belt.csv" | cut -d, -f1 | sort -u | wc -l)
    n=$(($(wc -l <"$TMP/times.csv") - 1))
    [ "$n" -eq "$frames" ] && ok || fail "mtt --frame-times: $n rows for $frames frames"
done
expect_exit 2 "mtt --auction jacobi without --dense" -- "$PT" mtt --auction jacobi "$TMP/belt.csv"
one_line "$TMP/err" "mtt --auction jacobi without --dense"
expect_grep "dense" "$TMP/err" "mtt --auction jacobi names --dense"
expect_exit 2 "mtt --auction jacobi -b exact" -- "$PT" mtt -b exact --dense --auction jacobi "$TMP/belt.csv"

# -b cuda: without a GPU exit 3 and one line; with one, the same optimum and tracks.
if [ $gpu -eq 0 ]; then
    expect_exit 3 "assign -b cuda without GPU" -- "$PT" assign -b cuda "$TMP/a3.csv"
    one_line "$TMP/err" "assign -b cuda without GPU"
    expect_grep "cuda" "$TMP/err" "assign -b cuda message"
    expect_exit 3 "mtt -b cuda without GPU" -- "$PT" mtt -b cuda "$TMP/belt.csv"
    one_line "$TMP/err" "mtt -b cuda without GPU"
else
    expect_exit 0 "assign -b cuda" -- "$PT" assign -b cuda "$TMP/a3.csv"
    [ "$(total_of "$TMP/err")" = "5" ] && ok || fail "assign -b cuda 3x3 total: $(cat "$TMP/err")"
    expect_grep "^cuda: prepare .* kernel" "$TMP/err" "assign -b cuda statistics"
    expect_exit 0 "mtt -b cuda" -- "$PT" mtt -b cuda --velocity 4,0 -o "$TMP/tracks.csv" "$TMP/belt.csv"
    expect_grep "ID switches 0, MOTA 1.0000, IDF1 1.0000" "$TMP/err" "mtt -b cuda noise-free metrics"
fi

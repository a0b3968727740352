# Sourced by tests/run_cli.sh: eval reports how many result rows matched the
# ground truth; none at all is an error with the matching rule, some is a
# warning (pupiltrack-eval(1)).
EM=$TMP/eval-match
mkdir -p "$EM/elsewhere"
echo "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message" >"$EM/head.csv"
# Results written from the repository root: testdata/synth/NNNNNN.png.
{ cat "$EM/head.csv"
  awk -F, 'NR > 1 { printf "testdata/synth/%s,,starburst,omp,ok,%s,%s,%s,,,,1,1,\n", $1, $3, $4, $5 }' \
      testdata/synth/groundtruth.csv; } >"$EM/all.csv"
expect_exit 0 "eval, every row matched" -- "$PT" eval --gt testdata/synth/groundtruth.csv -o "$EM/c.csv" "$EM/all.csv"
expect_grep "matched +20 result rows to ground truth, 0 not" "$TMP/err" "eval reports matched rows"
if grep -q warning "$TMP/err"; then fail "eval warned with every row matched"; else ok; fi
# The same results scored from another folder match nothing: an error, no curve.
cp "$EM/all.csv" "$EM/elsewhere/all.csv"
rm -f "$EM/c.csv"
expect_exit 1 "eval, no row matched" -- sh -c "cd '$EM/elsewhere' && '$PT' eval --gt '$(pwd)/testdata/synth/groundtruth.csv' -o c.csv all.csv"
one_line "$TMP/err" "eval, no row matched"
expect_grep "all.csv: none of its 20 rows matches.*matched by \(image, eye\)" "$TMP/err" "no-match error gives the rule"
[ ! -e "$EM/elsewhere/c.csv" ] && ok || fail "eval wrote a curve though no row matched"
# An empty results file is no evidence either.
expect_exit 1 "eval, no result rows" -- "$PT" eval --gt testdata/synth/groundtruth.csv -o /dev/null "$EM/head.csv"
expect_grep "no result rows to score" "$TMP/err" "empty results named"
# Some rows matched: scored, with warnings naming what did not match.
{ head -11 "$EM/all.csv"; echo "elsewhere/x.png,,starburst,omp,ok,1,1,1,,,,1,1,"; } >"$EM/part.csv"
expect_exit 0 "eval, partial match" -- "$PT" eval --gt testdata/synth/groundtruth.csv -o /dev/null "$EM/part.csv"
expect_grep "warning: .*part.csv: 1 of 11 result rows have no ground-truth row \(e.g. 'elsewhere/x.png'\)" "$TMP/err" "unmatched rows warned"
expect_grep "warning: .*part.csv: 10 ground-truth rows with a pupil have no result row" "$TMP/err" "missing rows warned"
expect_grep "matched +10 result rows to ground truth, 1 not" "$TMP/err" "partial counts reported"

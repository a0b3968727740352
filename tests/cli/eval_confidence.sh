# Sourced by tests/run_cli.sh: eval reports how well the confidence column
# tells good detections from bad ones (pupiltrack(1), METRICS: confidence).
EC=$TMP/eval-conf
mkdir -p "$EC"
echo "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message" >"$EC/head.csv"
# Even frames exact with confidence 0.9, odd frames 8 px off with 0.2: AUC 1.
{ cat "$EC/head.csv"
  awk -F, 'NR > 1 { off = (NR % 2) ? 8 : 0; c = (NR % 2) ? 0.2 : 0.9;
                    printf "testdata/synth/%s,,tl,omp,ok,%s,%s,%s,,,,%s,1,\n", $1, $3 + off, $4, $5, c }' \
      testdata/synth/groundtruth.csv; } >"$EC/sep.csv"
expect_exit 0 "eval, confidence separates" -- "$PT" eval --gt testdata/synth/groundtruth.csv -o /dev/null "$EC/sep.csv"
expect_grep "confidence ROC AUC +1\.000 within 5 px" "$TMP/err" "eval prints the AUC"
expect_grep "confidence >= 0\.40 +10 of 20 frames \( 50\.0 %\) kept: 100\.0 % within 5 px" "$TMP/err" "default threshold line"
# The same confidences swapped: every good frame below every bad one.
sed 's/,0\.9,1,$/,X,1,/; s/,0\.2,1,$/,0.9,1,/; s/,X,1,$/,0.2,1,/' "$EC/sep.csv" >"$EC/swap.csv"
expect_exit 0 "eval, confidence reversed" -- "$PT" eval --gt testdata/synth/groundtruth.csv --confidence-threshold 0.25 -o /dev/null "$EC/swap.csv"
expect_grep "confidence ROC AUC +0\.000 within 5 px" "$TMP/err" "reversed confidence: AUC 0"
expect_grep "confidence >= 0\.25 +10 of 20 frames \( 50\.0 %\) kept: +0\.0 % within 5 px" "$TMP/err" "given threshold"
expect_exit 0 "eval --confidence-table" -- "$PT" eval --gt testdata/synth/groundtruth.csv --confidence-table -o /dev/null "$EC/sep.csv"
n=$(grep -c "confidence >= " "$TMP/err")
[ "$n" -eq 21 ] && ok || fail "confidence table: $n lines, wanted 21"
expect_exit 2 "eval, bad threshold" -- "$PT" eval --gt testdata/synth/groundtruth.csv --confidence-threshold 1.5 "$EC/sep.csv"
one_line "$TMP/err" "eval, bad threshold"
expect_grep "confidence-threshold must be a number in \[0,1\], not '1.5'" "$TMP/err" "bad threshold named"

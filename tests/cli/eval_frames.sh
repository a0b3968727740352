# Sourced by tests/run_cli.sh: eval --frames writes a row per scored frame,
# and its errors agree with eval's own summary.
"$PT" synth -n 12 --size 320x256 --seed 19 --difficulty hard -o "$TMP/evf" >/dev/null 2>&1
"$PT" track -a starburst -o "$TMP/evf.csv" "$TMP/evf" 2>/dev/null
# leave one frame's result out: it is scored as missing
grep -v '000004.png' "$TMP/evf.csv" >"$TMP/evf-less.csv"
expect_exit 0 "eval --frames" -- "$PT" eval --gt "$TMP/evf/groundtruth.csv" --frames "$TMP/evf-frames.csv" \
    -o /dev/null "$TMP/evf-less.csv"
cp "$TMP/err" "$TMP/evf-summary.txt"
expect_grep '^image,eye,outcome,px_error,rel_error,confidence$' "$TMP/evf-frames.csv" "eval --frames header"
expect_grep '^000004.png,,missing,,,0.0000$' "$TMP/evf-frames.csv" "eval --frames: the frame without a result"
want=$(awk 'index($0, "relative error <= 10 %") { for (i = 1; i <= NF; i++) if ($(i+1) == "of") print $(i) }' \
       "$TMP/evf-summary.txt" | tr -d '(')
got=$(awk -F, 'NR > 1 && $5 != "" && $5 + 0 <= 0.1 + 1e-9 { n++ } END { print n + 0 }' "$TMP/evf-frames.csv")
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else
    fail "eval --frames: $got rows within 10 %, the summary says '$want'"; fi
rows=$(($(wc -l <"$TMP/evf-frames.csv") - 1))
frames=$(awk 'index($0, "relative error <= 10 %") { for (i = 1; i <= NF; i++) if ($i == "of") print $(i+1) }' \
         "$TMP/evf-summary.txt" | tr -d ')')
if [ "$rows" = "$frames" ]; then ok; else fail "eval --frames: $rows rows for $frames scored frames"; fi
expect_exit 1 "eval --frames into a missing folder" -- "$PT" eval --gt "$TMP/evf/groundtruth.csv" \
    --frames "$TMP/no/such/dir/f.csv" -o /dev/null "$TMP/evf.csv"
one_line "$TMP/err" "eval --frames into a missing folder"

# Sourced by tests/run_cli.sh: tl's second look with thresholds near the
# dark level (pupiltrack(1), PARAMETERS: tl_dark_retry) on binocular
# low-contrast eyes (synth --hazard low-contrast, 40 frames 1280x1024),
# where evenly spaced thresholds all lie above the iris and the iris wins:
# - within 10 %: 58 of 78 eyes against 32 with -p tl_dark_retry=0 (floor
#   54, and at least 15 more);
# - every row it changes had a pupil and still has one (a found fit with a
#   darker disc is what is looked at again, and only a found pupil kept);
# - --sequence and --preset paper are left alone;
# - -b cuda gives the same rows, in single and in pipelined calls.

"$PT" synth -n 40 --binocular --size 1280x1024 --seed 93 --hazard low-contrast \
    -o "$TMP/dr" >/dev/null 2>&1
dr_within10() { # CSV: eyes within 10 % relative error
    "$PT" eval --gt "$TMP/dr/groundtruth.csv" "$1" 2>&1 >/dev/null |
        awk '/relative error <= 10 %/ { gsub(/[()]/, "", $8); print $8 }'
}
"$PT" track -a tl -b omp --binocular -o "$TMP/dr_on.csv" "$TMP/dr" 2>/dev/null
"$PT" track -a tl -b omp --binocular -p tl_dark_retry=0 -o "$TMP/dr_off.csv" "$TMP/dr" \
    2>/dev/null
on=$(dr_within10 "$TMP/dr_on.csv"); off=$(dr_within10 "$TMP/dr_off.csv")
if [ -n "$on" ] && [ -n "$off" ] && [ "$on" -ge $((off + 15)) ] && [ "$on" -ge 54 ]; then ok; else
    fail "tl_dark_retry: $on eyes within 10 % against $off without (floor 54)"; fi
# the rule, row by row (columns status 5, cx 6 .. confidence 12)
bad=$(paste -d, "$TMP/dr_off.csv" "$TMP/dr_on.csv" | awk -F, 'NR > 1 {
    n = NF / 2; changed = 0
    for (i = 5; i <= 12; i++) if ($i != $(i + n)) changed = 1
    if (!changed) next
    kept++
    if ($5 != "ok" || $(5 + n) != "ok") bad++
} END { print (kept > 0 ? bad + 0 : "none") }')
if [ "$bad" = 0 ]; then ok; else fail "tl_dark_retry: rule broken on $bad rows (or none changed)"; fi
for dr_mode in "--sequence" "--preset paper"; do
    "$PT" track -a tl -b omp --binocular $dr_mode -o "$TMP/dr_a.csv" "$TMP/dr" 2>/dev/null
    "$PT" track -a tl -b omp --binocular $dr_mode -p tl_dark_retry=0 -o "$TMP/dr_b.csv" \
        "$TMP/dr" 2>/dev/null
    cut -d, -f1-12 "$TMP/dr_a.csv" >"$TMP/dr_a.cut"
    cut -d, -f1-12 "$TMP/dr_b.csv" >"$TMP/dr_b.cut"
    expect_same "$TMP/dr_a.cut" "$TMP/dr_b.cut" "tl_dark_retry changed $dr_mode rows"
done
expect_exit 2 "tl_dark_retry above its range" -- \
    "$PT" track -a tl -p tl_dark_retry=2 -o "$TMP/dr_bad.csv" "$TMP/dr"
# -b cuda takes the same decisions on the same answers: rows byte for byte,
# binocular and monocular, and in pipelined calls of 8 frames (the second
# look at a call's frames follows once their results are complete).
# Skipped without a usable GPU.
if cuda_usable; then
    for mode in "--binocular" ""; do
        for b in omp cuda; do
            "$PT" track -a tl -b $b $mode "$TMP/dr" 2>/dev/null |
                cut -d, -f1,2,5-12 >"$TMP/dr-$b.csv"
        done
        expect_same "$TMP/dr-omp.csv" "$TMP/dr-cuda.csv" \
            "tl_dark_retry $mode: -b cuda differs from -b omp"
    done
    "$PT" bench --from-files -a tl -b cuda --binocular --batch 8 -o "$TMP/dr-p.csv" "$TMP/dr" \
        >/dev/null 2>&1
    cut -d, -f1,2,5-12 "$TMP/dr_on.csv" >"$TMP/dr-t.cut"
    cut -d, -f1,2,5-12 "$TMP/dr-p.csv" >"$TMP/dr-p.cut"
    expect_same "$TMP/dr-t.cut" "$TMP/dr-p.cut" \
        "tl_dark_retry: pipelined -b cuda calls differ from -b omp"
else
    echo "SKIP: -b cuda tl_dark_retry agreement (no usable GPU)"
fi

# Sourced by tests/run_cli.sh: under-exposed eyes (synth --exposure 0.2: the
# pupil near grey level 7, the iris near 16, as on remote infrared cameras),
# 40 frames 320x256. Starburst's edge threshold follows each eye's contrast
# (edge_contrast) and tl's thresholds lie between each eye's dark and
# surround levels (tl_range=eye); with the fixed settings (edge_contrast=0,
# tl_range=fixed) both lose most of these pupils, which the last two checks
# assert so the floors keep measuring the mechanisms. Starburst's inner pass
# (inner_pass) finds many of these pupils inside the iris-sized fits of the
# fixed threshold too, so that check turns it off. These frames are read
# as they are (--gain 1); the default gain stretches them (99 % of their
# grey levels lie below about 30), after which the fixed settings find most
# pupils too, which the last check asserts.

dim_rate() { # RESULTS LABEL -> the percentage eval printed for LABEL
    "$PT" eval --gt "$TMP/dim/groundtruth.csv" -o /dev/null "$1" 2>&1 >/dev/null |
        awk -v pat="$2" 'index($0, pat) { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i } END { print v + 0 }'
}
dim_check() { # WHAT RATE FLOOR (at least) | WHAT RATE -CEILING (below)
    if [ "${3#-}" != "$3" ]; then
        if awk -v r="$2" -v c="${3#-}" 'BEGIN { exit !(r < c) }'; then ok; else
            fail "dim synth $1: $2 % not below ${3#-} %"; fi
    elif awk -v r="$2" -v f="$3" 'BEGIN { exit !(r >= f) }'; then ok; else
        fail "dim synth $1: $2 % < floor $3 %"; fi
    echo "accuracy: dim synth $1: $2 %"
}
"$PT" synth -n 40 --seed 5 --exposure 0.2 -o "$TMP/dim" >/dev/null 2>&1
for alg in starburst tl hough; do
    "$PT" track -a $alg --gain 1 -o "$TMP/dim_$alg.csv" "$TMP/dim" 2>/dev/null
    dim_check "$alg within 5 px" "$(dim_rate "$TMP/dim_$alg.csv" "centre error <= 5 px")" 85
    dim_check "$alg rel10" "$(dim_rate "$TMP/dim_$alg.csv" "relative error <= 10 %")" 65
done
"$PT" track -a starburst --gain 1 -p edge_contrast=0 -p inner_pass=off -o "$TMP/dim_fixed.csv" "$TMP/dim" 2>/dev/null
dim_check "starburst edge_contrast=0 inner_pass=off rel10" "$(dim_rate "$TMP/dim_fixed.csv" "relative error <= 10 %")" -50
"$PT" track -a tl --gain 1 -p tl_range=fixed -o "$TMP/dim_fixed.csv" "$TMP/dim" 2>/dev/null
dim_check "tl tl_range=fixed rel10" "$(dim_rate "$TMP/dim_fixed.csv" "relative error <= 10 %")" -50
"$PT" track -a tl -p tl_range=fixed -o "$TMP/dim_fixed.csv" "$TMP/dim" 2>/dev/null
dim_check "tl tl_range=fixed, default gain, rel10" "$(dim_rate "$TMP/dim_fixed.csv" "relative error <= 10 %")" 80

# Sourced by tests/run_cli.sh: `contours --repeat` on the CPU back ends (and
# on cuda where a GPU is usable) prints every phase it times (pupiltrack(1),
# contours): each a non-negative number of ms, taken from the median run, so
# that together they are no more than the whole call (median_ms) up to the
# rounding of the printed values.
TIMG=testdata/contours/noise_big.png
# timing_phases LINE: the NAME_ms keys after min_ms, space separated.
timing_phases() {
    printf '%s\n' "$1" | sed 's/.* min_ms=[0-9.]*//' | tr ' ' '\n' | sed -n 's/^\([a-z]*_ms\)=.*/\1/p' | tr '\n' ' '
}
TCASES="seq|list|3|preprocess_ms trace_ms assemble_ms
seq|tree|4|preprocess_ms trace_ms assemble_ms
omp|list|3|preprocess_ms trace_ms connect_ms assemble_ms
omp|tree|4|preprocess_ms trace_ms connect_ms assemble_ms"
# with a GPU, the cuda line too (its phases are in the same line format)
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    TCASES="$TCASES
cuda|list|3|upload_ms trace_ms connect_ms assemble_ms download_ms host_ms
cuda|tree|4|upload_ms trace_ms connect_ms assemble_ms download_ms host_ms"
fi
printf '%s\n' "$TCASES" >"$TMP/tcases"
while IFS= read -r tcase; do
    tcase="$tcase "
    tb=${tcase%%|*}; trest=${tcase#*|}; tm=${trest%%|*}; trest=${trest#*|}
    tn=${trest%%|*}; twant=${trest#*|}
    expect_exit 0 "contours -b $tb --mode $tm --repeat $tn" -- \
        "$PT" contours -b "$tb" -j 2 --tile 16 --mode "$tm" --count --repeat "$tn" "$TIMG" </dev/null
    tline=$(grep '^timing: ' "$TMP/err")
    tgot=$(timing_phases "$tline")
    [ "$tgot" = "$twant" ] && ok || fail "contours -b $tb --mode $tm timing phases '$tgot', wanted '$twant'"
    # every phase a plain non-negative decimal; their sum at most median_ms
    printf '%s\n' "$tline" | tr ' ' '\n' | awk -F= -v what="-b $tb --mode $tm" '
        $1 == "median_ms" { whole = $2; seen = 1 }
        $1 ~ /_ms$/ && $1 != "median_ms" && $1 != "min_ms" {
            if ($2 !~ /^[0-9]+\.[0-9]+$/) { print "phase " $1 "=" $2 " not a non-negative number"; bad = 1 }
            sum += $2; n++
        }
        END {
            if (!seen || n == 0) { print "no median_ms or no phase"; exit 1 }
            # each printed value is rounded to 0.0005 ms
            if (sum > whole + 0.0005 * (n + 1)) { printf "phases add up to %.3f ms, whole call %.3f ms\n", sum, whole; bad = 1 }
            exit bad
        }' >"$TMP/tcheck" && ok || fail "contours $tb --mode $tm timing: $(cat "$TMP/tcheck")"
done <"$TMP/tcases"

# Sourced by tests/run_cli.sh: -b cuda reports the confidence -b omp reports
# (pupiltrack(1), METRICS: confidence), with each detector, in --sequence
# and --ellipse mode: columns image, status .. confidence the same byte for
# byte. Skipped without a usable GPU.
if cuda_usable; then
    for a in starburst tl hough; do
        for mode in "" "--ellipse" "--sequence"; do
            "$PT" track -a $a -b omp $mode testdata/synth 2>/dev/null | cut -d, -f1,5-12 >"$TMP/conf-omp.csv"
            "$PT" track -a $a -b cuda $mode testdata/synth 2>/dev/null | cut -d, -f1,5-12 >"$TMP/conf-cuda.csv"
            expect_same "$TMP/conf-omp.csv" "$TMP/conf-cuda.csv" "-a $a $mode: -b cuda confidence or fit differs from -b omp"
        done
    done
else
    echo "SKIP: -b cuda confidence agreement (no usable GPU)"
fi

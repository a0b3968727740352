# Sourced by tests/run_cli.sh: a multi-page TIFF's bad pages get rows of
# their own (file#page); 16-bit files use the significant bits they declare;
# every notfound row says why (pupiltrack(1), IMAGES).
# pages.tif: page 0 and 3 eye frames, 1 float samples, 2 damaged data.
expect_exit 1 "track a TIFF with two bad pages" -- "$PT" track -o "$TMP/pages.csv" testdata/images/pages.tif
pages=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $5 }' "$TMP/pages.csv")
[ "$pages" = "testdata/images/pages.tif#0:ok testdata/images/pages.tif#1:error testdata/images/pages.tif#2:error testdata/images/pages.tif#3:ok " ] &&
    ok || fail "one row per page with its own status expected, got: $pages"
expect_grep "^testdata/images/pages.tif#1,.*,error,.*page 1: unsupported 32 bits per sample" "$TMP/pages.csv" "float page's own error"
expect_grep "^testdata/images/pages.tif#2,.*,error,.*page 2: cannot read row" "$TMP/pages.csv" "damaged page's own error"
n=$(wc -l <"$TMP/err")
[ "$n" -eq 2 ] && ok || fail "one stderr line per bad page expected, got $n"
expect_grep "^pupiltrack: testdata/images/pages.tif#2: " "$TMP/err" "bad page named with its number"
# sbit12.png: 12-bit values in 16-bit samples with sBIT 12 track as with --bits 12.
expect_exit 0 "track 12-bit PNG with sBIT" -- "$PT" track testdata/images/sbit12.png
cut -d, -f1-11 "$TMP/out" >"$TMP/sbit-auto.csv"
expect_grep "^testdata/images/sbit12.png,,starburst,omp,ok," "$TMP/sbit-auto.csv" "sBIT used to scale"
expect_exit 0 "track 12-bit PNG with --bits 12" -- "$PT" track --bits 12 testdata/images/sbit12.png
cut -d, -f1-11 "$TMP/out" >"$TMP/sbit-12.csv"
cmp -s "$TMP/sbit-auto.csv" "$TMP/sbit-12.csv" && ok || fail "sBIT 12 and --bits 12 differ"
# --bits 16 overrides the file: the frame is then dark. Read as it is
# (--gain 1) with a fixed edge threshold its pupil is not found, and the row
# says why; the default gain stretches the dark frame and finds it.
expect_exit 0 "track 12-bit PNG with --bits 16" -- "$PT" track --bits 16 --gain 1 -p edge_contrast=0 testdata/images/sbit12.png
expect_grep "^testdata/images/sbit12.png,,starburst,omp,notfound,.*,image too dark: .*--bits" "$TMP/out" "dark frame's reason"
expect_exit 0 "track 12-bit PNG with --bits 16, default gain" -- "$PT" track --bits 16 -p edge_contrast=0 testdata/images/sbit12.png
expect_grep "^testdata/images/sbit12.png,,starburst,omp,ok," "$TMP/out" "the default gain stretches a dark frame"
expect_exit 2 "--gain below 1 refused" -- "$PT" track --gain 0.5 testdata/images/sbit12.png
expect_grep "gain" "$TMP/err" "--gain's refusal names the option"
# A dark eye with contrast (a dim camera, 8 bits): the detector's own
# reason first, the darkness as a hint.
{ printf 'P5\n64 64\n255\n'; awk 'BEGIN { for (y = 0; y < 64; y++) for (x = 0; x < 64; x++) printf "%c", 5 + int(x * 40 / 63) }'; } >"$TMP/dark_ramp.pgm"
expect_exit 0 "track a dark ramp" -- "$PT" track -a tl --gain 1 "$TMP/dark_ramp.pgm"
expect_grep ",notfound,.*,tl: no dark region[^,]*; image dark: 99 % of grey values below" "$TMP/out" "dark frame with contrast: the detector's reason first"
# Every notfound row, of every detector, gives a reason.
for alg in starburst tl hough; do
    expect_exit 0 "$alg on frames without a pupil" -- "$PT" track -a $alg testdata/contours/checker.png testdata/contours/all_zeros.png testdata/synth/000000.png
    empty=$(awk -F, 'NR > 1 && $5 == "notfound" && $14 == ""' "$TMP/out" | wc -l)
    nf=$(awk -F, 'NR > 1 && $5 == "notfound"' "$TMP/out" | wc -l)
    [ "$nf" -ge 2 ] && [ "$empty" -eq 0 ] && ok || fail "$alg: $empty of $nf notfound rows without a reason"
done
expect_grep "all_zeros.png,.*,notfound,.*uniform image: grey value 0" "$TMP/out" "uniform frame's reason"

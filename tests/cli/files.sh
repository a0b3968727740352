# Sourced by tests/run_cli.sh: multi-page TIFF stacks read from the mapped
# file (rows those of the same frames as PGM), pages that cannot be read
# (compressed with an unknown scheme, short strips, a cut file), and bench
# --from-files with its stage figures.
"$PT" synth -n 3 --format pgm -o "$TMP/fs" >/dev/null 2>&1
# each PGM is a 15-byte header ("P5\n320 256\n255\n") and 320x256 bytes
for k in 0 1 2; do tail -c 81920 "$TMP/fs/00000$k.pgm"; done >"$TMP/fs.raw"
sh tests/tiff_stack.sh 320 256 "$TMP/fs.raw" >"$TMP/fs.tif"
expect_exit 0 "track PGM frames" -- "$PT" track -o "$TMP/fs_pgm.csv" "$TMP/fs"
expect_exit 0 "track a TIFF stack" -- "$PT" track -o "$TMP/fs_tif.csv" "$TMP/fs.tif"
expect_grep "fs.tif#2,,starburst,omp," "$TMP/fs_tif.csv" "TIFF pages named FILE#i"
cut -d, -f2-12 "$TMP/fs_pgm.csv" >"$TMP/fs_pgm.cut"
cut -d, -f2-12 "$TMP/fs_tif.csv" | cmp -s - "$TMP/fs_pgm.cut" && ok ||
    fail "TIFF stack: results differ from the PGM frames"

# bench --from-files: end to end and each stage; its rows are track's
expect_exit 0 "bench --from-files" -- "$PT" bench --from-files -o "$TMP/fs_bench.csv" "$TMP/fs.tif"
expect_grep "^end to end: [0-9.]+ fps" "$TMP/out" "bench --from-files: end-to-end rate"
for stage in "read/decode +[0-9.]+ ms/frame" "upload +none" "detect +[0-9.]+ ms/frame" \
    "results +[0-9.]+ ms/frame"; do
    expect_grep "^  $stage" "$TMP/out" "bench --from-files: stage '$stage'"
done
expect_grep "^read: 3 in place" "$TMP/out" "bench --from-files: TIFF frames used in place"
cut -d, -f1-12 "$TMP/fs_bench.csv" | cmp -s - "$(cut -d, -f1-12 "$TMP/fs_tif.csv" >"$TMP/fs_tif.cut"; echo "$TMP/fs_tif.cut")" &&
    ok || fail "bench --from-files -o: rows differ from track's"
expect_exit 0 "bench --from-files --decode-only" -- "$PT" bench --from-files --decode-only -j 2 "$TMP/fs"
expect_grep "^read: 0 in place .*, 0 converted from a mapping, 3 decoded" "$TMP/out" "--decode-only: PGM frames decoded"
expect_grep "^end to end: [0-9.]+ fps" "$TMP/out" "--decode-only: the reading rate"
expect_exit 2 "--no-pin without --from-files" -- "$PT" bench --no-pin "$TMP/fs"

# a page whose strips hold too few bytes: its own error row, the others tracked
TIFF_SHORT_PAGE=1 sh tests/tiff_stack.sh 320 256 "$TMP/fs.raw" >"$TMP/short.tif"
expect_exit 1 "TIFF page with short strips" -- "$PT" track -o "$TMP/fs_bad.csv" "$TMP/short.tif" "$TMP/fs/000000.pgm"
expect_grep "short.tif#1: TIFF page 1: its strips hold 100 bytes, a 320x256 8-bit page needs 81920" "$TMP/err" "short page named"
one_line "$TMP/err" "short page"
expect_grep "short.tif#1,,starburst,omp,error" "$TMP/fs_bad.csv" "short page: error row"
expect_grep "short.tif#2,,starburst,omp,ok" "$TMP/fs_bad.csv" "short page: the next page tracked"
expect_grep "000000.pgm,,starburst,omp,ok" "$TMP/fs_bad.csv" "short page: the batch goes on"

# a file cut inside its last page
head -c 200000 "$TMP/fs.tif" >"$TMP/cut.tif"
expect_exit 1 "cut TIFF stack" -- "$PT" track -o "$TMP/fs_bad.csv" "$TMP/cut.tif" "$TMP/fs/000000.pgm"
expect_grep "cut.tif#2: TIFF page 2: truncated: its pixels \(bytes [0-9]+ to [0-9]+\) run past the end of the file \(200000 bytes\)" \
    "$TMP/err" "cut stack named"
one_line "$TMP/err" "cut stack"
[ "$(grep -c 'cut.tif#[01],,starburst,omp,ok' "$TMP/fs_bad.csv")" -eq 2 ] && ok ||
    fail "cut stack: the pages before the cut tracked"
expect_grep "000000.pgm,,starburst,omp,ok" "$TMP/fs_bad.csv" "cut stack: the batch goes on"
expect_exit 1 "bench --from-files, cut stack" -- "$PT" bench --from-files "$TMP/cut.tif"
expect_grep "cut.tif#2: TIFF page 2: truncated" "$TMP/err" "bench: cut stack named"
expect_grep "^read: 2 in place.* 1 errors" "$TMP/out" "bench: cut stack counted"

# compressed with a scheme libtiff does not know: libtiff's reason, a page each
TIFF_COMPRESSION=34712 sh tests/tiff_stack.sh 320 256 "$TMP/fs.raw" >"$TMP/j2k.tif"
expect_exit 1 "TIFF of an unknown compression" -- "$PT" track -o "$TMP/fs_bad.csv" "$TMP/j2k.tif"
expect_grep "j2k.tif#0: TIFF page 0: .*ompression" "$TMP/err" "unknown compression named"
[ "$(grep -c 'j2k.tif#[012],,starburst,omp,error' "$TMP/fs_bad.csv")" -eq 3 ] && ok ||
    fail "unknown compression: an error row a page"

# Sourced by tests/run_cli.sh: raw frame stacks (.npy, .raw with --size and
# --depth): frames named FILE#i with the results of the same frames as PGM.
"$PT" synth -n 3 --format pgm -o "$TMP/st" >/dev/null 2>&1
# the frames' pixels: each PGM is a 15-byte header ("P5\n320 256\n255\n") and 320x256 bytes
for k in 0 1 2; do tail -c 81920 "$TMP/st/00000$k.pgm"; done >"$TMP/st.raw"
# .npy version 1.0: magic, version, header length 118 ('v'), the dict padded to 128 bytes
{
    printf '\223NUMPY\001\000v\000'
    printf "%-117s\n" "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 256, 320), }"
    cat "$TMP/st.raw"
} >"$TMP/st.npy"
expect_exit 0 "track PGM frames" -- "$PT" track -o "$TMP/st_pgm.csv" "$TMP/st"
expect_exit 0 "track a .npy stack" -- "$PT" track -o "$TMP/st_npy.csv" "$TMP/st.npy"
expect_exit 0 "track a .raw stack" -- "$PT" track --size 320x256 -o "$TMP/st_raw.csv" "$TMP/st.raw"
expect_grep "st.npy#2,,starburst,omp," "$TMP/st_npy.csv" "frames named FILE#i"
cut -d, -f2-12 "$TMP/st_pgm.csv" >"$TMP/st_pgm.cut"
for s in npy raw; do
    cut -d, -f2-12 "$TMP/st_$s.csv" | cmp -s - "$TMP/st_pgm.cut" && ok || fail ".$s stack: results differ from the PGM frames"
done
# a dark stack (pupiltrack(1), IMAGES, --gain): stretched as the PGM frames
# are with the same gain, and read as it is with --gain 1
"$PT" synth -n 3 --exposure 0.2 --format pgm -o "$TMP/dk" >/dev/null 2>&1
for k in 0 1 2; do tail -c 81920 "$TMP/dk/00000$k.pgm"; done >"$TMP/dk.raw"
expect_exit 0 "track dark PGM frames, gain 4" -- "$PT" track --gain 4 -o "$TMP/dk_pgm.csv" "$TMP/dk"
expect_exit 0 "track a dark .raw stack, gain 4" -- "$PT" track --gain 4 --size 320x256 -o "$TMP/dk_raw.csv" "$TMP/dk.raw"
cut -d, -f2-12 "$TMP/dk_pgm.csv" >"$TMP/dk_pgm.cut"
cut -d, -f2-12 "$TMP/dk_raw.csv" | cmp -s - "$TMP/dk_pgm.cut" && ok || fail "dark .raw stack with --gain 4: results differ from the PGM frames"
expect_exit 0 "track a dark .raw stack, default gain" -- "$PT" track --size 320x256 -o "$TMP/dk_auto.csv" "$TMP/dk.raw"
expect_exit 0 "track a dark .raw stack, gain 1" -- "$PT" track --gain 1 --size 320x256 -o "$TMP/dk_one.csv" "$TMP/dk.raw"
cut -d, -f2-12 "$TMP/dk_one.csv" >"$TMP/dk_one.cut"
cut -d, -f2-12 "$TMP/dk_auto.csv" | cmp -s - "$TMP/dk_one.cut" && fail "dark .raw stack: the default gain changed nothing" || ok
# a folder lists .npy stacks beside images
mkdir -p "$TMP/stdir" && cp "$TMP/st.npy" "$TMP/stdir/"
expect_exit 0 "track a folder with a .npy" -- "$PT" track -o "$TMP/st_dir.csv" "$TMP/stdir"
[ "$(grep -c 'st.npy#' "$TMP/st_dir.csv")" -eq 3 ] && ok || fail "folder: 3 stack rows expected"
# bad stacks: one line each naming the file and why, an error row, the batch goes on
expect_exit 1 ".raw without --size" -- "$PT" track -o "$TMP/st_bad.csv" "$TMP/st.raw" "$TMP/st/000000.pgm"
expect_grep "st.raw: a .raw file needs the frame size: --size WxH" "$TMP/err" ".raw without --size named"
one_line "$TMP/err" ".raw without --size"
expect_grep "000000.pgm,,starburst,omp,ok" "$TMP/st_bad.csv" "batch goes on after a bad stack"
expect_exit 1 ".raw of the wrong size" -- "$PT" track --size 320x250 -o "$TMP/st_bad.csv" "$TMP/st.raw"
expect_grep "not a whole number of 320x250 8-bit frames" "$TMP/err" "wrong .raw size named"
head -c 5000 "$TMP/st.npy" >"$TMP/cut.npy"
expect_exit 1 "truncated .npy" -- "$PT" track -o "$TMP/st_bad.csv" "$TMP/cut.npy"
expect_grep "cut.npy: truncated: 3 frames of 320x256 announced, 0 present" "$TMP/err" "truncated .npy named"
expect_exit 2 "--depth 12" -- "$PT" track --depth 12 "$TMP/st.raw"

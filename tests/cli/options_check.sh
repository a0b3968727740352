# Sourced by tests/run_cli.sh: options that contradict each other are
# refused, options that do nothing here are warned about, folders without
# images are named with what was skipped (pupiltrack(1)).
IMG=testdata/synth/000000.png
# min_radius above max_radius: refused in one line, exit 2.
expect_exit 2 "min_radius > max_radius" -- "$PT" track -a hough -p min_radius=100 -p max_radius=10 $IMG
one_line "$TMP/err" "min_radius > max_radius"
expect_grep "min_radius=100 is greater than max_radius=10" "$TMP/err" "radius range refused"
expect_exit 2 "sweep: min_radius > max_radius" -- "$PT" sweep --gt testdata/synth/groundtruth.csv -p min_radius=30 -p max_radius=20 -o "$TMP/oc-sw0" $IMG
expect_grep "min_radius=30 is greater than max_radius=20" "$TMP/err" "sweep: radius range refused"
# A parameter of another detector: tracked, with a warning naming both.
expect_exit 0 "starburst with a tl parameter" -- "$PT" track -a starburst -p tl_step=20 $IMG
expect_grep "warning: -p tl_step: a parameter of tl, not used by starburst" "$TMP/err" "tl parameter warned"
expect_exit 0 "tl with a starburst parameter" -- "$PT" track -a tl -p rays=5 $IMG
expect_grep "warning: -p rays: a parameter of starburst, not used by tl" "$TMP/err" "starburst parameter warned"
expect_exit 0 "starburst with its own parameter" -- "$PT" track -a starburst -p rays=5 -p min_radius=5 $IMG
[ -s "$TMP/err" ] && fail "warning for a parameter the detector uses: $(head -1 "$TMP/err")" || ok
# --devices and --streams: CUDA options, warned about with -b omp; --streams
# is accepted by track and sweep as the README writes it.
expect_exit 0 "track --devices with -b omp" -- "$PT" track -b omp --devices 0 $IMG
expect_grep "warning: --devices applies to -b cuda only; ignored with -b omp" "$TMP/err" "--devices warned"
expect_exit 0 "track --streams 1" -- "$PT" track --streams 1 $IMG
expect_grep "warning: --streams applies to -b cuda only" "$TMP/err" "--streams warned with omp"
expect_exit 0 "sweep --streams 1" -- "$PT" sweep --gt testdata/synth/groundtruth.csv --streams 1 -g smooth=gaussian -o "$TMP/oc-sw1" testdata/synth/000000.png testdata/synth/000001.png
expect_exit 0 "bench --streams 1" -- "$PT" bench --streams 1 --frames 2 --batch 1 $IMG
expect_exit 2 "track --streams 0" -- "$PT" track --streams 0 $IMG
# sweep --devices merges by itself: no shard tells the user to merge.
expect_exit 0 "sweep --devices 2" -- "$PT" sweep --gt testdata/synth/groundtruth.csv --devices 2 -g smooth=gaussian -o "$TMP/oc-sw2" testdata/synth/000000.png testdata/synth/000001.png
if grep -q "joins the shards" "$TMP/err"; then fail "sweep --devices tells the user to merge after merging"; else ok; fi
[ -f "$TMP/oc-sw2/summary.csv" ] && ok || fail "sweep --devices 2 wrote no summary"
# -b cuda without a GPU: exit 3 and why, in the user's terms (a GPU
# machine answers differently: the GPU tests check it).
if [ -e /dev/nvidia0 ] || [ -e /dev/nvidiactl ]; then
    ok
else
    expect_exit 3 "track -b cuda without a GPU" -- "$PT" track -b cuda $IMG
    if grep -q "built without CUDA" "$TMP/err"; then
        ok # this build has no CUDA back end: nothing more to check
    else
        expect_grep "^pupiltrack: -b cuda: no NVIDIA driver or GPU found" "$TMP/err" "no-driver message"
    fi
fi
# Folders: one without supported images is named with what was skipped (exit
# 1); a mixed folder's other files are skipped with a warning.
mkdir -p "$TMP/oc-jpg" "$TMP/oc-empty" "$TMP/oc-mixed"
: >"$TMP/oc-jpg/b.jpg"; : >"$TMP/oc-jpg/a.jpg"
cp $IMG "$TMP/oc-mixed/"; : >"$TMP/oc-mixed/c.jpg"
expect_exit 1 "track a folder of JPEGs" -- "$PT" track "$TMP/oc-jpg"
one_line "$TMP/err" "track a folder of JPEGs"
expect_grep "oc-jpg: no .png, .tif, .tiff, .pgm, .npy or video files in this folder \(2 other files skipped, e.g. 'a.jpg'\)" "$TMP/err" "JPEG folder named"
expect_exit 1 "track an empty folder" -- "$PT" track "$TMP/oc-empty"
expect_grep "oc-empty: no .png, .tif, .tiff, .pgm, .npy or video files in this folder \(it holds no files\)" "$TMP/err" "empty folder named"
expect_exit 0 "track a mixed folder" -- "$PT" track "$TMP/oc-mixed"
expect_grep "warning: .*oc-mixed: 1 image skipped, not .png, .tif, .tiff, .pgm, .npy or video \(e.g. 'c.jpg'\)" "$TMP/err" "skipped JPEG warned"
expect_grep "oc-mixed/000000.png,,starburst" "$TMP/out" "mixed folder's PNG tracked"
cp testdata/synth/groundtruth.csv "$TMP/oc-mixed/"
expect_exit 0 "track a folder with its ground truth" -- "$PT" track "$TMP/oc-mixed"
n=$(wc -l <"$TMP/err")
[ "$n" -eq 1 ] && ok || fail "a CSV beside the frames is skipped silently: $n stderr lines"

# Sourced by tests/run_cli.sh: video input (FFmpeg). Lossless videos of synth
# frames give the PNG frames' results as FILE#i; a lossy one stays close; a
# cut or damaged video gives its good frames and one error. A build without
# FFmpeg's libraries refuses video with one line saying so.
"$PT" track -o "$TMP/v_probe.csv" "$TMP/no_such_video.mkv" >/dev/null 2>"$TMP/v_probe.err"
if grep -q "built without FFmpeg" "$TMP/v_probe.err"; then
    one_line "$TMP/v_probe.err" "video refused without FFmpeg"
    expect_grep "no_such_video.mkv,,starburst,omp,error" "$TMP/v_probe.csv" "refused video: error row"
    echo "SKIP: video tests: this pupiltrack was built without FFmpeg's libraries"
elif ! command -v ffmpeg >/dev/null 2>&1; then
    expect_grep "no_such_video.mkv: cannot open the video" "$TMP/v_probe.err" "missing video named"
    echo "SKIP: video tests: no ffmpeg program to make test videos (apt-get install ffmpeg)"
else
    # FFmpeg's libraries are loaded when a video is opened, not at start:
    # a run without video does not load them (pupiltrack(1), IMAGES)
    if command -v ldd >/dev/null 2>&1; then
        ldd "$PT" | grep -q 'libav\(format\|codec\|util\)' &&
            fail "pupiltrack loads FFmpeg's libraries at start" || ok
    fi
    "$PT" synth -n 8 -o "$TMP/vf" >/dev/null 2>&1
    enc() { ffmpeg -nostdin -y -loglevel error -framerate 30 -i "$TMP/vf/%06d.png" "$@"; }
    enc -c:v ffv1 -pix_fmt gray "$TMP/v_ffv1.mkv" &&
    enc -c:v libx264 -qp 0 -pix_fmt gray "$TMP/v_x264.mp4" &&
    enc -c:v libx264 -crf 18 -pix_fmt yuv420p "$TMP/v_lossy.mp4" && ok || fail "ffmpeg could not make the test videos"
    expect_exit 0 "track PNG frames" -- "$PT" track -o "$TMP/v_png.csv" "$TMP/vf"
    cut -d, -f2-12 "$TMP/v_png.csv" >"$TMP/v_png.cut"
    for v in v_ffv1.mkv v_x264.mp4; do
        expect_exit 0 "track $v" -- "$PT" track -o "$TMP/v.csv" "$TMP/$v"
        cut -d, -f2-12 "$TMP/v.csv" | cmp -s - "$TMP/v_png.cut" && ok || fail "$v: results differ from the PNG frames"
        expect_grep "^$TMP/$v#7,,starburst" "$TMP/v.csv" "$v: frames named FILE#i"
    done
    # the container's presentation time, 1/30 s apart, in the last column
    expect_grep "\.mp4#3,.*,0\.100000$" "$TMP/v.csv" "video frames carry their timestamp"
    # LPW-style truth (one "x y" line per frame) for a video read directly:
    # import lpw names the frames VIDEO#i, which eval matches
    awk -F, 'NR > 1 { print $6, $7 }' "$TMP/v_png.csv" >"$TMP/v_ffv1.txt"
    expect_exit 0 "import lpw for a video" -- "$PT" import lpw "$TMP/v_ffv1.txt" \
        --pattern 'v_ffv1.mkv#%d' --first 0 -o "$TMP/v_gt.csv"
    expect_exit 0 "track a video for eval" -- "$PT" track -o "$TMP/v_ffv1.csv" "$TMP/v_ffv1.mkv"
    (cd "$TMP" && "$PT" eval --gt v_gt.csv -o /dev/null v_ffv1.csv) >/dev/null 2>"$TMP/v_eval.err"
    expect_grep "centre error <= 5 px +100.00 % +\(8 of 8\)" "$TMP/v_eval.err" "eval matches video frames by FILE#i"
    # lossy (x264 CRF 18, 4:2:0): every frame found as in the PNGs, median centre within 1 px
    expect_exit 0 "track a lossy video" -- "$PT" track -o "$TMP/v.csv" "$TMP/v_lossy.mp4"
    med=$(paste -d, "$TMP/v_png.csv" "$TMP/v.csv" | awk -F, 'NR > 1 {
            if ($5 != $20) bad = 1; d = sqrt(($6 - $21)^2 + ($7 - $22)^2); print d }
            END { if (bad) print 1000 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    awk -v m="$med" 'BEGIN { exit !(m <= 1.0) }' && ok || fail "lossy video: median centre moved $med px (> 1) or a status changed"
    # cut short: the good frames, then one error row and one line
    size=$(wc -c <"$TMP/v_ffv1.mkv")
    head -c $((size * 6 / 10)) "$TMP/v_ffv1.mkv" >"$TMP/v_cut.mkv"
    expect_exit 1 "a cut video" -- "$PT" track -o "$TMP/v.csv" "$TMP/v_cut.mkv" "$TMP/vf/000000.png"
    one_line "$TMP/err" "a cut video"
    expect_grep "v_cut.mkv: the video ends after [0-9]+ of the 8 frames" "$TMP/err" "cut video named"
    n_ok=$(grep -c "v_cut.mkv#[0-9]*,,starburst,omp,ok" "$TMP/v.csv")
    [ "$n_ok" -ge 3 ] && [ "$n_ok" -lt 8 ] && ok || fail "cut video: $n_ok good rows"
    expect_grep "000000.png,,starburst,omp,ok" "$TMP/v.csv" "the batch goes on after a cut video"
    # damaged H.264: frames up to the damage, one error
    size=$(wc -c <"$TMP/v_x264.mp4")
    { head -c $((size / 2)) "$TMP/v_x264.mp4"; head -c 4000 /dev/zero | tr '\0' '\125'
      tail -c +$((size / 2 + 4001)) "$TMP/v_x264.mp4"; } >"$TMP/v_bad.mp4"
    expect_exit 1 "a damaged video" -- "$PT" track -o "$TMP/v.csv" "$TMP/v_bad.mp4"
    one_line "$TMP/err" "a damaged video"
    expect_grep "v_bad.mp4#[0-9]+,,starburst,omp,error" "$TMP/v.csv" "damaged video: error row"
    # a dark video (pupiltrack(1), IMAGES, --gain): at a given gain its frames
    # give the PGM frames' results; the default gain, set by its first frame,
    # changes them from the frames as read
    "$PT" synth -n 3 --exposure 0.2 -o "$TMP/vd" >/dev/null 2>&1
    ffmpeg -nostdin -y -loglevel error -framerate 30 -i "$TMP/vd/%06d.png" -c:v ffv1 -pix_fmt gray "$TMP/v_dark.mkv" && ok || fail "ffmpeg could not make the dark video"
    expect_exit 0 "track dark PNG frames, gain 4" -- "$PT" track --gain 4 -o "$TMP/vd_png.csv" "$TMP/vd"
    expect_exit 0 "track a dark video, gain 4" -- "$PT" track --gain 4 -o "$TMP/vd_v.csv" "$TMP/v_dark.mkv"
    cut -d, -f2-12 "$TMP/vd_png.csv" >"$TMP/vd_png.cut"
    cut -d, -f2-12 "$TMP/vd_v.csv" | cmp -s - "$TMP/vd_png.cut" && ok || fail "dark video with --gain 4: results differ from the PNG frames"
    expect_exit 0 "track a dark video, default gain" -- "$PT" track -o "$TMP/vd_auto.csv" "$TMP/v_dark.mkv"
    expect_exit 0 "track a dark video, gain 1" -- "$PT" track --gain 1 -o "$TMP/vd_one.csv" "$TMP/v_dark.mkv"
    cut -d, -f2-12 "$TMP/vd_one.csv" >"$TMP/vd_one.cut"
    cut -d, -f2-12 "$TMP/vd_auto.csv" | cmp -s - "$TMP/vd_one.cut" && fail "dark video: the default gain changed nothing" || ok
fi

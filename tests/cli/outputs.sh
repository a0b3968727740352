# Sourced by tests/run_cli.sh: every write is checked and every output file
# appears complete or not at all (pupiltrack(1), FILES): a full disk
# (/dev/full, a 64 KiB tmpfs when it can be mounted), a folder that cannot be
# written, a run killed with kill -9.

# small_disk DIR: mount a 64 KiB tmpfs at DIR; fails when that is not
# allowed here (not root, no mount), and the tests that need it are skipped.
small_disk() {
    mkdir -p "$1" && mount -t tmpfs -o size=64k tmpfs "$1" 2>/dev/null
}
# fill_disk DIR: fill the rest of the tmpfs at DIR.
fill_disk() {
    cat /dev/zero >"$1/filler" 2>/dev/null
}
# no_tmp DIR WHAT: no temporary file was left behind in DIR.
no_tmp() {
    if ls "$1" | grep -q '\.tmp$'; then fail "$2: temporary file left: $(ls "$1" | grep '\.tmp$')"; else ok; fi
}
# same_file A B WHAT
same_file() {
    if cmp -s "$1" "$2"; then ok; else fail "$3: $(basename "$2") changed"; fi
}
# names_reason WHAT FILE: one line on stderr naming FILE and the full disk
names_reason() {
    one_line "$TMP/err" "$1"
    expect_grep "$2: cannot write: No space left on device" "$TMP/err" "$1"
}

# Results on a full device: standard output and -o.
expect_exit 1 "track > /dev/full" -- sh -c "'$PT' track testdata/synth >/dev/full"
names_reason "track > /dev/full" "stdout"
expect_exit 1 "track -o /dev/full" -- "$PT" track -o /dev/full testdata/synth
names_reason "track -o /dev/full" "/dev/full"
expect_exit 1 "track --glints /dev/full" -- "$PT" track --sequence --glints /dev/full -o "$TMP/gl.csv" testdata/synth
names_reason "track --glints /dev/full" "/dev/full"
[ ! -e "$TMP/gl.csv" ] && ok || fail "track --glints /dev/full left the results file"

# Results on standard output: a full device is an error for every command.
"$PT" synth --particles --objects 5 --frames 5 --seed 1 -o "$TMP/belt5.csv" 2>/dev/null
"$PT" track -o "$TMP/track20.csv" testdata/synth 2>/dev/null
for cmd in "eval --gt testdata/synth/groundtruth.csv $TMP/track20.csv" "mtt $TMP/belt5.csv" \
           "synth --particles --objects 5 --frames 5 --seed 1" "assign --random 50 --seed 1" \
           "import swirski testdata/import/swirski/pupil-ellipses.txt" \
           "contours testdata/contours/all_ones.png"; do
    expect_exit 1 "${cmd%% *} > /dev/full" -- sh -c "'$PT' $cmd >/dev/full"
    expect_grep "stdout: cannot write: No space left on device" "$TMP/err" "${cmd%% *} > /dev/full"
done

for cmd in "params" "--help" "track --help" "--version"; do
    expect_exit 1 "pupiltrack $cmd > /dev/full" -- sh -c "'$PT' $cmd >/dev/full"
    names_reason "pupiltrack $cmd > /dev/full" "stdout"
done

# A killed run keeps the previous complete results and leaves no partial file
# under the final name (kill -9 once the run has started writing).
mkdir -p "$TMP/kill"
"$PT" track -o "$TMP/kill/r.csv" testdata/synth 2>/dev/null
cp "$TMP/kill/r.csv" "$TMP/kill.before"
many=""; for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do many="$many testdata/synth"; done
"$PT" track -j 1 -o "$TMP/kill/r.csv" $many 2>/dev/null &
pid=$!
for k in $(seq 100); do ls "$TMP/kill" | grep -q '\.tmp$' && break; sleep 0.05; done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
same_file "$TMP/kill.before" "$TMP/kill/r.csv" "track killed with kill -9"
rm -f "$TMP"/kill/*.tmp

# A 64 KiB tmpfs: results and --draw overlays on a full disk.
if small_disk "$TMP/disk"; then
    "$PT" track -o "$TMP/disk/r.csv" testdata/synth/000000.png 2>/dev/null
    cp "$TMP/disk/r.csv" "$TMP/disk.before"
    fill_disk "$TMP/disk"
    expect_exit 1 "track -o on a full disk" -- "$PT" track -o "$TMP/disk/r.csv" testdata/synth
    names_reason "track -o on a full disk" "$TMP/disk/r.csv"
    same_file "$TMP/disk.before" "$TMP/disk/r.csv" "track -o on a full disk"
    no_tmp "$TMP/disk" "track -o on a full disk"
    mkdir -p "$TMP/disk/draw" 2>/dev/null
    expect_exit 1 "track --draw on a full disk" -- "$PT" track --draw "$TMP/disk/draw" -o "$TMP/drawn.csv" testdata/synth
    expect_grep "testdata_synth_000000.png: cannot write" "$TMP/err" "--draw failure named"
    expect_grep "overlays could not be written" "$TMP/err" "--draw failures counted"

    # Every command that writes a file: on a full disk it fails with one line
    # naming the file and the reason, and the previous file stays as it was.
    "$PT" synth --particles --objects 5 --frames 5 --seed 1 -o "$TMP/belt5.csv" 2>/dev/null
    for cmd in "eval --gt testdata/synth/groundtruth.csv -o OUT $TMP/kill.before" \
               "mtt -o OUT $TMP/belt5.csv" \
               "synth --particles --objects 5 --frames 5 --seed 1 -o OUT" \
               "assign --random 50 --seed 1 -o OUT" \
               "assign --random 50 --seed 1 --save-npy OUT -o $TMP/assign.csv" \
               "import swirski testdata/import/swirski/pupil-ellipses.txt -o OUT" \
               "contours testdata/contours/all_ones.png -o OUT"; do
        name=${cmd%% *}
        rm -f "$TMP/disk/filler"
        echo previous >"$TMP/disk/previous"
        echo previous >"$TMP/disk.previous"
        fill_disk "$TMP/disk"
        expect_exit 1 "$name on a full disk" -- $(echo "$PT $cmd" | sed "s|OUT|$TMP/disk/previous|")
        expect_grep "$TMP/disk/previous: cannot write: No space left on device" "$TMP/err" "$cmd on a full disk"
        same_file "$TMP/disk.previous" "$TMP/disk/previous" "$name on a full disk"
        no_tmp "$TMP/disk" "$name on a full disk"
    done
    # synth: frames and ground truth on a full disk
    expect_exit 1 "synth on a full disk" -- "$PT" synth -n 3 -o "$TMP/disk/synth"
    expect_grep "cannot write: No space left on device" "$TMP/err" "synth on a full disk"
    [ ! -e "$TMP/disk/synth/groundtruth.csv" ] && ok || fail "synth on a full disk wrote the ground truth"
    # sweep: results on a full disk stop the sweep, naming the file
    rm -f "$TMP/disk/filler"; mkdir -p "$TMP/disk/sw/results"; fill_disk "$TMP/disk"
    expect_exit 1 "sweep on a full disk" -- "$PT" sweep --gt testdata/synth/groundtruth.csv -o "$TMP/disk/sw" testdata/synth
    expect_grep "cannot write: No space left on device" "$TMP/err" "sweep on a full disk"
    [ ! -e "$TMP/disk/sw/results/0000.csv" ] && [ ! -e "$TMP/disk/sw/summary.csv" ] && ok ||
        fail "sweep on a full disk left results under their final names"
    umount "$TMP/disk"
else
    echo "SKIP: a 64 KiB tmpfs cannot be mounted here (not root?): full-disk tests use /dev/full only"
fi

# track's progress line (stderr on a terminal) counts tracked files: it moves
# when a batch (32 frames) has been tracked and written, not as files are
# decoded, and ends at the total.
if command -v script >/dev/null 2>&1; then
    script -qec "'$PT' track -o '$TMP/progress.csv' testdata/synth testdata/synth testdata/synth" /dev/null \
        </dev/null >"$TMP/progress" 2>&1
    counts=$(tr '\r' '\n' <"$TMP/progress" | sed -n 's/^track \([0-9]*\)\/60, [0-9]* s left.*/\1/p' | tr '\n' ' ')
    [ "$counts" = "32 60 " ] && ok || fail "track progress counts '$counts', wanted '32 60 '"
else
    echo "SKIP: no script(1) to give track a terminal: progress line not tested"
fi

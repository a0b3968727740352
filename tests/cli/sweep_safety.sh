# Sourced by tests/run_cli.sh: sweeps and merges that cannot lose or mix
# results (pupiltrack-sweep(1), pupiltrack-merge(1)): concurrent runs into
# one folder, inputs checked before the first frame, damaged or conflicting
# parts refused before anything is written, every error row counted.
GT=testdata/synth/groundtruth.csv
G2="-g smooth=gaussian,median"

# Two sweeps into one folder: the second names the first's process and
# exits 1; the first's results are whole (20 rows per image set, one end line).
many=""; for k in 1 2 3 4 5 6 7 8; do many="$many testdata/synth"; done
"$PT" sweep --gt $GT $G2 -j 1 -o "$TMP/lk" $many 2>/dev/null &
first=$!
for k in $(seq 200); do [ -s "$TMP/lk/sweep.lock" ] && break; sleep 0.05; done
expect_exit 1 "a second sweep into a busy folder" -- "$PT" sweep --gt $GT $G2 -j 1 -o "$TMP/lk" $many
one_line "$TMP/err" "a second sweep into a busy folder"
expect_grep "$TMP/lk: another sweep or merge \(process $first\) is writing into this folder" "$TMP/err" "the holder is named"
wait $first; rc=$?
[ $rc -eq 0 ] && ok || fail "the first sweep exited $rc"
for f in "$TMP"/lk/results/000[01].csv; do
    rows=$(grep -c '^testdata/synth/' "$f"); ends=$(grep -c '^# sweep: ' "$f")
    [ "$rows" -eq 160 ] && [ "$ends" -eq 1 ] && ok || fail "$(basename "$f"): $rows rows and $ends end lines, wanted 160 and 1"
done
# ... and so is a second run of the same shard, while another shard may run.
"$PT" sweep --gt $GT $G2 -j 1 --shard 1/2 -o "$TMP/lks" $many 2>/dev/null &
first=$!
for k in $(seq 200); do [ -s "$TMP/lks/sweep.part-1-of-2.lock" ] && break; sleep 0.05; done
expect_exit 1 "the same shard twice at once" -- "$PT" sweep --gt $GT $G2 -j 1 --shard 1/2 -o "$TMP/lks" $many
expect_grep "process $first" "$TMP/err" "the shard's holder is named"
expect_exit 1 "merge while a shard runs" -- "$PT" merge "$TMP/lks"
expect_grep "another run of this shard \(process $first\)" "$TMP/err" "merge names the running shard"
expect_exit 0 "another shard beside it" -- "$PT" sweep --gt $GT $G2 -j 1 --shard 2/2 -o "$TMP/lks" $many
wait $first

# The inputs are checked before the first frame: a bad ground-truth row stops
# the sweep at once, naming the file and line, with no results written.
cp $GT "$TMP/badgt.csv"; echo "000099.png,,abc,1,1,,,," >>"$TMP/badgt.csv"
expect_exit 1 "sweep with a bad ground-truth row" -- "$PT" sweep --gt "$TMP/badgt.csv" $G2 -o "$TMP/bg" testdata/synth
one_line "$TMP/err" "sweep with a bad ground-truth row"
expect_grep "badgt.csv: line 22" "$TMP/err" "bad ground-truth row named"
n=$(ls "$TMP/bg/results" 2>/dev/null | wc -l)
[ "$n" -eq 0 ] && ok || fail "a sweep with bad ground truth wrote $n results files"
expect_exit 1 "sweep into a folder that cannot be made" -- "$PT" sweep --gt $GT -o /dev/null/sweep testdata/synth
one_line "$TMP/err" "sweep into a folder that cannot be made"

# summary.csv counts every status=error row, as stderr does, also those of
# images the ground truth does not list.
mkdir -p "$TMP/extra"
cp testdata/synth/000000.png testdata/synth/000001.png "$TMP/extra/"
printf 'not an image' >"$TMP/extra/zz-extra.png"
expect_exit 1 "sweep with an unlisted corrupt image" -- "$PT" sweep --gt $GT $G2 -o "$TMP/ex" "$TMP/extra"
expect_grep "2 result rows have status=error" "$TMP/err" "stderr counts the error rows"
errs=$(awk -F, 'NR > 1 { printf "%s ", $5 }' "$TMP/ex/summary.csv")
[ "$errs" = "1 1 " ] && ok || fail "summary errors column '$errs', wanted '1 1 '"

# merge: each part is checked, nothing is written unless all are sound.
for k in 1 2; do "$PT" sweep --gt $GT $G2 --shard $k/2 -o "$TMP/mg" testdata/synth 2>/dev/null; done
cp -r "$TMP/mg" "$TMP/mg-good"
# merge_refused WHAT PATTERN: merge of $TMP/mg fails naming PATTERN, writes nothing
merge_refused() {
    expect_exit 1 "merge: $1" -- "$PT" merge -o "$TMP/mg-out" "$TMP/mg"
    one_line "$TMP/err" "merge: $1"
    expect_grep "$2" "$TMP/err" "merge: $1"
    [ ! -e "$TMP/mg-out/results/0000.csv" ] && [ ! -e "$TMP/mg-out/summary.csv" ] && ok ||
        fail "merge: $1: wrote results before failing"
    rm -rf "$TMP/mg" "$TMP/mg-out"; cp -r "$TMP/mg-good" "$TMP/mg"
}
P=$TMP/mg/results/0001.part-2-of-2.csv
sed -i '2,4d' "$P"
merge_refused "a part with rows deleted" "0001.part-2-of-2.csv: rows for 7 images where the shard has 10"
sed -i '$d' "$P"
merge_refused "a part without its end line" "0001.part-2-of-2.csv: incomplete"
tail -n +2 "$TMP/mg-good/results/0001.part-2-of-2.csv" >>"$P"
merge_refused "a part written twice over" "0001.part-2-of-2.csv: 2 end lines"
sed -i '3s/^testdata\/synth\/000011.png/testdata\/synth\/000003.png/' "$P"
merge_refused "a part made for other images" "other images"
mkdir -p "$TMP/mg2/results"; cp "$TMP/mg/sweep.txt" "$TMP/mg2/"
sed '2s/,ok,/,notfound,/' "$TMP/mg-good/results/0000.part-1-of-2.csv" >"$TMP/mg2/results/0000.part-1-of-2.csv"
if cmp -s "$TMP/mg2/results/0000.part-1-of-2.csv" "$TMP/mg-good/results/0000.part-1-of-2.csv"; then
    fail "test set-up: the conflicting part is not different"; fi
expect_exit 1 "merge: one shard, two different parts" -- "$PT" merge -o "$TMP/mg-out" "$TMP/mg" "$TMP/mg2"
expect_grep "0000.part-1-of-2.csv: differs from" "$TMP/err" "conflicting parts named"
[ ! -e "$TMP/mg-out/summary.csv" ] && ok || fail "merge of conflicting parts wrote the summary"
# From another folder the relative ground-truth path fails first: nothing written.
expect_exit 1 "merge from the wrong folder" -- sh -c "cd '$TMP' && '$PT' merge mg"
[ ! -e "$TMP/mg/results/0000.csv" ] && ok || fail "merge from the wrong folder wrote results before failing"
expect_exit 0 "merge of sound parts" -- "$PT" merge "$TMP/mg"

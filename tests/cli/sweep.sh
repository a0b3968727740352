# Sourced by tests/run_cli.sh: sweep and merge end to end.
GT=testdata/synth/groundtruth.csv
GRID="-g reflection_kernel=13:25:4 -g smooth=gaussian,median"

# sweep_masked DIR: the sweep's outputs with the timing fields blanked (results
# column ms, track_s of the trailer, summary mean_ms and fps): everything else
# must be reproducible byte for byte.
sweep_masked() {
    cat "$1/sweep.txt" "$1/curve.csv"
    for f in "$1"/results/[0-9][0-9][0-9][0-9].csv; do
        echo "== $(basename "$f")"
        awk -F, -v OFS=, '/^# sweep: /{ sub(/track_s=.*/, "track_s="); print; next }
                          NR > 1 { $13 = "" } { print }' "$f"
    done
    awk -F, -v OFS=, '{ $NF = ""; $(NF-1) = ""; print }' "$1/summary.csv"
}
# sweep_same A B WHAT
sweep_same() {
    sweep_masked "$1" >"$TMP/masked-a"; sweep_masked "$2" >"$TMP/masked-b"
    if cmp -s "$TMP/masked-a" "$TMP/masked-b"; then ok; else
        fail "$3: outputs differ"; diff "$TMP/masked-a" "$TMP/masked-b" | head -5; fi
}

expect_exit 0 "sweep --help" -- "$PT" sweep --help
expect_grep "usage" "$TMP/out" "sweep --help"
expect_exit 0 "merge --help" -- "$PT" merge --help
expect_grep "usage" "$TMP/out" "merge --help"

# A 4 x 2 grid: 8 configurations, each with its results, 62 curve rows, a summary row.
expect_exit 0 "sweep 4x2 grid" -- "$PT" sweep --gt $GT $GRID -o "$TMP/sw" testdata/synth
nres=$(ls "$TMP/sw/results" | grep -c '^[0-9]*\.csv$')
[ "$nres" -eq 8 ] && ok || fail "sweep wrote $nres results files, wanted 8"
nsum=$(($(wc -l <"$TMP/sw/summary.csv") - 1))
[ "$nsum" -eq 8 ] && ok || fail "summary has $nsum rows, wanted 8"
ncurve=$(($(wc -l <"$TMP/sw/curve.csv") - 1))
[ "$ncurve" -eq $((8 * (41 + 21))) ] && ok || fail "curve has $ncurve rows, wanted 496"
expect_grep "^config,metric,threshold,detected,total,rate,reflection_kernel,smooth$" "$TMP/sw/curve.csv" "curve header with swept columns"
expect_grep "^config,reflection_kernel,smooth,frames,notfound,errors,false_positives,rate_rel5,rate_rel10,rate_px5,mean_ms,fps$" "$TMP/sw/summary.csv" "summary header"
expect_grep "^reflection_kernel=25 smooth=median,25,median,20," "$TMP/sw/summary.csv" "last configuration in the summary"
for f in "$TMP"/sw/results/*.csv; do
    n=$(grep -c "^testdata/synth/" "$f")
    [ "$n" -eq 20 ] || { fail "$(basename "$f"): $n rows, wanted 20"; break; }
done; ok
# Curves never fall as the threshold grows (rows are in threshold order).
if awk -F, 'NR > 1 { k = $1 "/" $2; if (k in last && $6 + 0 < last[k]) bad = 1; last[k] = $6 + 0 }
            END { exit bad }' "$TMP/sw/curve.csv"; then ok; else fail "a sweep curve falls"; fi

# Each configuration equals track + eval run by hand with the same parameters.
expect_exit 0 "track by hand" -- "$PT" track -p reflection_kernel=21 -p smooth=median -o "$TMP/hand.csv" testdata/synth
cut -d, -f1-12 "$TMP/hand.csv" >"$TMP/hand12"
grep -v '^#' "$TMP/sw/results/0005.csv" | cut -d, -f1-12 >"$TMP/sweep12"
cmp -s "$TMP/hand12" "$TMP/sweep12" && ok || fail "sweep results of configuration 5 differ from track"
expect_exit 0 "eval by hand" -- "$PT" eval --gt $GT --config "reflection_kernel=21 smooth=median" -o "$TMP/hand-curve.csv" "$TMP/hand.csv"
tail -n +2 "$TMP/hand-curve.csv" >"$TMP/hand-curve"
grep "^reflection_kernel=21 smooth=median," "$TMP/sw/curve.csv" | cut -d, -f1-6 >"$TMP/sweep-curve"
cmp -s "$TMP/hand-curve" "$TMP/sweep-curve" && ok || fail "sweep curve of configuration 5 differs from eval"
# The summary's rates are the curve's rates at 5 %, 10 % and 5 px.
want=$(awk -F, '$1 == "reflection_kernel=21 smooth=median" && (($2 == "relative" && ($3 == 5 || $3 == 10)) || ($2 == "pixel" && $3 == 5)) { printf "%s,", $6 }' "$TMP/sw/curve.csv")
got=$(awk -F, '$1 == "reflection_kernel=21 smooth=median" { printf "%s,%s,%s,", $8, $9, $10 }' "$TMP/sw/summary.csv")
[ "$want" = "$got" ] && ok || fail "summary rates $got differ from the curve's $want"
awk -F, 'NR > 1 && !($11 > 0 && $12 > 0) { bad = 1 } END { exit bad }' "$TMP/sw/summary.csv" && ok || fail "summary lacks mean ms or fps"

# Shards: 3 shards into one folder, merged, equal the unsharded run.
for k in 1 2 3; do
    expect_exit 0 "shard $k/3" -- "$PT" sweep --gt $GT $GRID --shard $k/3 -o "$TMP/sh" testdata/synth
done
[ ! -e "$TMP/sh/summary.csv" ] && ok || fail "a shard wrote the summary before merge"
expect_exit 0 "merge" -- "$PT" merge "$TMP/sh"
sweep_same "$TMP/sw" "$TMP/sh" "3 shards merged vs unsharded"
# ... and shards in separate folders merged into a new one.
for k in 1 2; do
    "$PT" sweep --gt $GT $GRID --shard $k/2 -o "$TMP/part$k" testdata/synth 2>/dev/null
done
expect_exit 0 "merge separate folders" -- "$PT" merge -o "$TMP/joined" "$TMP/part1" "$TMP/part2"
sweep_same "$TMP/sw" "$TMP/joined" "2 shard folders merged vs unsharded"
# A missing shard is named, not merged.
rm "$TMP/part2/results/0003.part-2-of-2.csv"
expect_exit 1 "merge with a shard missing" -- "$PT" merge -o "$TMP/joined2" "$TMP/part1" "$TMP/part2"
expect_grep "0003.part-2-of-2.csv" "$TMP/err" "missing shard named"
expect_exit 1 "merge of a non-sweep folder" -- "$PT" merge testdata/synth
# --devices 2: two shards at once, merged (the omp back end needs no GPU).
expect_exit 0 "sweep --devices 2" -- "$PT" sweep --gt $GT $GRID --devices 2 -o "$TMP/dev" testdata/synth
sweep_same "$TMP/sw" "$TMP/dev" "--devices 2 vs one process"

# Resume: a run killed at any moment, run again, gives the uninterrupted output.
"$PT" sweep --gt $GT $GRID -o "$TMP/killed" testdata/synth 2>/dev/null &
pid=$!; sleep 0.4; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
expect_exit 0 "resume after kill" -- "$PT" sweep --gt $GT $GRID -o "$TMP/killed" testdata/synth
sweep_same "$TMP/sw" "$TMP/killed" "killed and resumed vs uninterrupted"
# ... also from a known state: two configurations lost, one half written.
cp -r "$TMP/sw" "$TMP/cut"
rm "$TMP/cut/results/0006.csv" "$TMP/cut/results/0007.csv" "$TMP/cut/curve.csv" "$TMP/cut/summary.csv"
head -c 700 "$TMP/sw/results/0006.csv" >"$TMP/cut/results/0006.csv.tmp"
touch -d '2000-01-01' "$TMP/cut/results/0000.csv"
expect_exit 0 "resume after a cut" -- "$PT" sweep --gt $GT $GRID -o "$TMP/cut" testdata/synth
sweep_same "$TMP/sw" "$TMP/cut" "resumed vs uninterrupted"
[ "$(stat -c %Y "$TMP/cut/results/0000.csv")" = "$(date -d 2000-01-01 +%s)" ] && ok || fail "resume redid a finished configuration"
# ... and within a configuration, from its last checkpoint: the rows of the first
# 8 files are kept (a marked confidence proves it), the other 12 computed again.
expect_exit 0 "sweep --batch 4" -- "$PT" sweep --gt $GT -g smooth=median --batch 4 -o "$TMP/midref" testdata/synth
mkdir -p "$TMP/mid/results"; cp "$TMP/midref/sweep.txt" "$TMP/mid/"
head -n 9 "$TMP/midref/results/0000.csv" | awk -F, -v OFS=, 'NR == 4 { $12 = "0.1234" } { print }' >"$TMP/mid/results/0000.csv.tmp"
echo "files=8 bytes=$(wc -c <"$TMP/mid/results/0000.csv.tmp") frames=8 track_s=0.5" >"$TMP/mid/results/0000.csv.tmp.resume"
echo "testdata/synth/999.png,,starburst,omp,ok,1,1,1,,,,1,1," >>"$TMP/mid/results/0000.csv.tmp"
expect_exit 0 "resume within a configuration" -- "$PT" sweep --gt $GT -g smooth=median --batch 4 -o "$TMP/mid" testdata/synth
[ "$(grep -c ',0\.1234,' "$TMP/mid/results/0000.csv")" -eq 1 ] && ok || fail "resume did not keep the checkpointed rows"
grep -q '999.png' "$TMP/mid/results/0000.csv" && fail "resume kept a row written after the checkpoint" || ok
tail -n +10 "$TMP/midref/results/0000.csv" | grep -v "^#" | cut -d, -f1-12 >"$TMP/mid-a"
tail -n +10 "$TMP/mid/results/0000.csv" | grep -v "^#" | cut -d, -f1-12 >"$TMP/mid-b"
cmp -s "$TMP/mid-a" "$TMP/mid-b" && ok || fail "rows after the checkpoint differ from an uninterrupted run"
expect_grep "^# sweep: frames=20 " "$TMP/mid/results/0000.csv" "timing carried over the resume"
[ ! -e "$TMP/mid/results/0000.csv.tmp.resume" ] && ok || fail "checkpoint left behind"
# A different sweep into the same folder is refused: results are never mixed.
expect_exit 2 "different sweep into the folder" -- "$PT" sweep --gt $GT -g reflection_kernel=13 -o "$TMP/sw" testdata/synth
one_line "$TMP/err" "different sweep into the folder"
expect_grep "sweep.txt" "$TMP/err" "manifest named"
expect_exit 2 "different -p into the folder" -- "$PT" sweep --gt $GT $GRID -p rays=30 -o "$TMP/sw" testdata/synth

# A corrupt image: one error row per configuration, the rest present, exit 1.
mkdir -p "$TMP/badset"
cp testdata/synth/000000.png testdata/synth/000001.png testdata/synth/000002.png "$TMP/badset/"
head -c 200 testdata/synth/000003.png >"$TMP/badset/000003.png"
cp $GT "$TMP/badset/"
expect_exit 1 "sweep with a corrupt image" -- "$PT" sweep --gt "$TMP/badset/groundtruth.csv" -g smooth=gaussian,median -o "$TMP/swbad" "$TMP/badset"
for f in "$TMP"/swbad/results/000[01].csv; do
    ne=$(grep -c ",error," "$f"); ng=$(grep -c -E ",(ok|notfound)," "$f")
    [ "$ne" -eq 1 ] && [ "$ng" -eq 3 ] && ok || fail "$(basename "$f"): $ne error and $ng good rows, wanted 1 and 3"
done
nnamed=$(grep -c "000003.png" "$TMP/err")
[ "$nnamed" -eq 1 ] && ok || fail "corrupt image named $nnamed times on stderr, wanted once"
expect_grep "^smooth=median,median,20,[0-9]+,1," "$TMP/swbad/summary.csv" "summary counts the error"

# Bad arguments: exit 2 and one clear line.
expect_exit 2 "-g unknown key" -- "$PT" sweep --gt $GT -g nosuch=1,2 -o "$TMP/x" testdata/synth
one_line "$TMP/err" "-g unknown key"; expect_grep "nosuch" "$TMP/err" "unknown key named"
expect_exit 2 "-g value out of range" -- "$PT" sweep --gt $GT -g rays=10,0 -o "$TMP/x" testdata/synth
expect_grep "rays" "$TMP/err" "bad value's key named"
expect_exit 2 "-g range of a choice" -- "$PT" sweep --gt $GT -g smooth=1:3:1 -o "$TMP/x" testdata/synth
expect_exit 2 "-g backwards range" -- "$PT" sweep --gt $GT -g rays=20:10:2 -o "$TMP/x" testdata/synth
expect_exit 2 "-g malformed" -- "$PT" sweep --gt $GT -g rays -o "$TMP/x" testdata/synth
expect_exit 2 "-g key twice" -- "$PT" sweep --gt $GT -g rays=10 -g rays=20 -o "$TMP/x" testdata/synth
expect_exit 2 "-g unknown algorithm" -- "$PT" sweep --gt $GT -g algorithm=starburst,nosuch -o "$TMP/x" testdata/synth
expect_exit 2 "-g unknown backend" -- "$PT" sweep --gt $GT -g backend=omp,nosuch -o "$TMP/x" testdata/synth
expect_exit 2 "--shard 3/2" -- "$PT" sweep --gt $GT --shard 3/2 -o "$TMP/x" testdata/synth
one_line "$TMP/err" "--shard 3/2"
expect_exit 2 "sweep without --gt" -- "$PT" sweep -o "$TMP/x" testdata/synth
expect_exit 2 "sweep unknown option" -- "$PT" sweep --frobnicate --gt $GT testdata/synth
expect_exit 2 "--sequence with shards" -- "$PT" sweep --sequence --shard 1/2 --gt $GT -o "$TMP/x" testdata/synth
[ ! -e "$TMP/x" ] && ok || fail "a refused sweep created its output folder"
# Ranges reach their end without drifting; run settings sweep like parameters.
expect_exit 0 "real range and run settings" -- "$PT" sweep --gt $GT -g hough_angle_step=0.3:0.9:0.3 -g threads=1,2 -a hough -o "$TMP/rng" testdata/synth/000000.png
expect_grep "^hough_angle_step=0.9 threads=2,0.9,2," "$TMP/rng/summary.csv" "0.3:0.9:0.3 ends at 0.9"

# scripts/slurm-sweep.sh: the array tasks run here (--local), then merged, equal one run.
expect_exit 0 "slurm-sweep.sh --local" -- sh scripts/slurm-sweep.sh --local -n 3 --pt "$PT" -- --gt $GT $GRID -o "$TMP/slurm" testdata/synth
sweep_same "$TMP/sw" "$TMP/slurm" "slurm-sweep.sh --local vs one run"
# ... and with a stand-in sbatch: an array of N tasks, then a merge after all succeed.
mkdir -p "$TMP/fakebin"
printf '#!/bin/sh\necho "$*" >>"%s/sbatch.log"\necho 4242\n' "$TMP" >"$TMP/fakebin/sbatch"
chmod +x "$TMP/fakebin/sbatch"
expect_exit 0 "slurm-sweep.sh submit" -- env PATH="$TMP/fakebin:$PATH" sh scripts/slurm-sweep.sh -n 5 --gpus 2 --pt "$PT" -- --gt $GT -o "$TMP/sl2" testdata/synth
expect_grep "^--parsable --array=1-5 --job-name=pt-sweep --gres=gpu:2 .*--devices 2 --shard [$][{]SLURM_ARRAY_TASK_ID[}]/5" "$TMP/sbatch.log" "array job submitted"
expect_grep "^--parsable --dependency=afterok:4242 .*merge" "$TMP/sbatch.log" "merge after the array"
expect_exit 2 "slurm-sweep.sh without -o" -- sh scripts/slurm-sweep.sh --local --pt "$PT" -- --gt $GT testdata/synth

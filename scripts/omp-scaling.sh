#!/bin/sh
# How -b omp scales with cores, and why not perfectly: for each detector,
#   alone   `bench -j 1` with the machine otherwise idle,
#   loaded  N copies of `bench -j 1` at once (one per core): one core's speed
#           when every core is busy (shared caches, memory, clocks),
#   all     `bench -j N`,
# each measured REPEAT times, alternating, the median kept. speed-up =
# all / alone (the figure); parallel efficiency = all / (N x loaded),
# what the OpenMP code itself loses against N independent single-thread runs.
# Usage: scripts/omp-scaling.sh [PUPILTRACK]; ALGS, N (default nproc), REPEAT,
# FRAMES (per thread) as variables. Output: one table on stdout.
set -u
PT=${1:-./pupiltrack}
N=${N:-$(nproc)}
REPEAT=${REPEAT:-3}
FRAMES=${FRAMES:-48}
DIR=${DIR:-/tmp/pt-scaling}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -d "$DIR" ] || "$PT" synth -n 64 --size 1280x1024 --seed 3 -o "$DIR" >/dev/null || exit 1

fps() { sed -n 's/^throughput: \([0-9.]*\) fps.*/\1/p' "$1"; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

printf "%-10s %8s %8s %9s %8s %10s\n" detector alone loaded "all($N)" speed-up efficiency
for a in ${ALGS:-starburst tl hough}; do
    frames=$FRAMES
    [ "$a" = hough ] && frames=$((FRAMES / 4))
    : >"$TMP/alone"; : >"$TMP/loaded"; : >"$TMP/all"
    for r in $(seq "$REPEAT"); do
        "$PT" bench -b omp -a "$a" -j 1 --frames "$frames" --batch "$frames" "$DIR" >"$TMP/o" 2>&1
        fps "$TMP/o" >>"$TMP/alone"
        i=0
        while [ $i -lt "$N" ]; do
            "$PT" bench -b omp -a "$a" -j 1 --frames "$frames" --batch "$frames" "$DIR" >"$TMP/l$i" 2>&1 &
            i=$((i + 1))
        done
        wait
        cat "$TMP"/l* | sed -n 's/^throughput: \([0-9.]*\) fps.*/\1/p' | median >>"$TMP/loaded"
        "$PT" bench -b omp -a "$a" -j "$N" --frames $((frames * N)) --batch $((frames * N)) "$DIR" \
            >"$TMP/o" 2>&1
        fps "$TMP/o" >>"$TMP/all"
    done
    alone=$(median <"$TMP/alone") loaded=$(median <"$TMP/loaded") all=$(median <"$TMP/all")
    awk -v a="$a" -v s="$alone" -v l="$loaded" -v p="$all" -v n="$N" 'BEGIN {
        printf "%-10s %8.1f %8.1f %9.1f %7.1fx %9.2f\n", a, s, l, p, p / s, p / (n * l) }'
done

#!/bin/sh
# Assignment and tracking benchmark for BENCHMARKS.md, in one run:
#   1. `pupiltrack assign` with -b seq, -b omp (all cores), -b cuda and
#      scipy.optimize.linear_sum_assignment on the same random integer
#      problems (uniform and tracking-like costs, n = 256 ... 8192), with the
#      totals checked equal (all are exact for integer costs);
#   2. `pupiltrack mtt` time per frame at 100 ... 5000 objects per frame
#      against the 5 ms budget of a 200 Hz camera.
# Prints two markdown tables on stdout (progress on stderr).
#
# usage: scripts/bench_assign.sh [./pupiltrack]
# environment:
#   SIZES="256 512 1024 2048 4096 8192"   DISTS="uniform tracking"
#   SEQ_MAX=8192      largest n run with -b seq (it is the slowest)
#   BACKENDS="seq omp cuda"   (cuda is skipped with a note when unavailable)
#   OBJECTS="100 500 1000 2000 5000"  MTT_FRAMES=100
#   PYTHON=python3    interpreter with numpy + scipy (skipped when missing)
#   TMPDIR            where the .npy matrices go (up to 512 MB each)
# Times: `ms` as printed by pupiltrack (the solve alone, after a warm-up on a
# 2x2 problem: benefits conversion, copies and kernel for cuda; problem
# generation excluded); scipy: the linear_sum_assignment call alone.
set -u
PT=${1:-./pupiltrack}
SIZES=${SIZES:-"256 512 1024 2048 4096 8192"}
DISTS=${DISTS:-"uniform tracking"}
SEQ_MAX=${SEQ_MAX:-8192}
BACKENDS=${BACKENDS:-"seq omp cuda"}
OBJECTS=${OBJECTS:-"100 500 1000 2000 5000"}
MTT_FRAMES=${MTT_FRAMES:-100}
PYTHON=${PYTHON:-python3}
HERE=$(dirname "$0")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pt-bench-assign.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

if [ ! -x "$PT" ]; then
    echo "bench_assign: $PT is not an executable pupiltrack (build it with make)" >&2
    exit 2
fi
have_scipy=0
if "$PYTHON" -c 'import numpy, scipy.optimize' 2>/dev/null; then have_scipy=1; else
    echo "bench_assign: $PYTHON lacks numpy/scipy: the scipy column is skipped" >&2; fi
have_cuda=1
if ! "$PT" assign -b cuda --random 2 --seed 1 >/dev/null 2>"$WORK/cuda.err"; then
    have_cuda=0
    echo "bench_assign: -b cuda unavailable, skipped: $(cat "$WORK/cuda.err")" >&2
fi

# field FILE: the total and ms from "total T (RxC, min, B, X ms)".
total_of() { sed -n 's/^total \([-0-9.e+]*\) .*/\1/p' "$1"; }
ms_of() { sed -n 's/^total .*, \([0-9.]*\) ms)$/\1/p' "$1"; }

echo "Assignment: $(nproc) CPU cores; $(nvidia-smi -L 2>/dev/null | head -1 || echo 'no GPU')"
echo "Command: scripts/bench_assign.sh (pupiltrack assign --random N --dist D --seed 1; scipy $("$PYTHON" -c 'import scipy; print(scipy.__version__)' 2>/dev/null || echo n/a))"
echo
echo "| costs | n | seq ms | omp ms | cuda ms (kernel) | cuda bids | scipy ms | scipy / cuda | totals |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
for dist in $DISTS; do
    for n in $SIZES; do
        echo "assign $dist n=$n ..." >&2
        seq_ms="-"; omp_ms="-"; cuda_ms="-"; bids="-"; scipy_ms="-"; ratio="-"
        totals=""; agree=1
        npy_opt=""
        [ $have_scipy -eq 1 ] && npy_opt="--save-npy $WORK/m.npy"
        first=1
        for b in $BACKENDS; do
            [ "$b" = seq ] && [ "$n" -gt "$SEQ_MAX" ] && continue
            [ "$b" = cuda ] && [ $have_cuda -eq 0 ] && continue
            if [ $first -eq 1 ]; then extra=$npy_opt; first=0; else extra=""; fi
            if ! "$PT" assign -b "$b" --random "$n" --dist "$dist" --seed 1 $extra -o /dev/null 2>"$WORK/err"; then
                echo "bench_assign: -b $b n=$n failed: $(head -1 "$WORK/err")" >&2
                agree=0
                continue
            fi
            t=$(total_of "$WORK/err"); ms=$(ms_of "$WORK/err")
            totals="$totals $t"
            case $b in
            seq) seq_ms=$ms ;;
            omp) omp_ms=$ms ;;
            cuda)
                kern=$(sed -n 's/^cuda: .*kernel \([0-9.]*\) ms.*/\1/p' "$WORK/err")
                bids=$(sed -n 's/^cuda: .* \([0-9]*\) bids.*/\1/p' "$WORK/err")
                cuda_ms="$ms ($kern)" ;;
            esac
        done
        if [ $have_scipy -eq 1 ] && [ -f "$WORK/m.npy" ]; then
            if "$PYTHON" "$HERE/bench_assign.py" "$WORK/m.npy" >"$WORK/scipy.out" 2>&1; then
                scipy_ms=$(sed -n 's/^scipy total .* ms \([0-9.]*\)$/\1/p' "$WORK/scipy.out")
                totals="$totals $(sed -n 's/^scipy total \([-0-9.e+]*\) ms.*/\1/p' "$WORK/scipy.out")"
                if [ "$cuda_ms" != "-" ]; then
                    c=${cuda_ms%% *}
                    ratio=$(awk -v s="$scipy_ms" -v c="$c" 'BEGIN { if (c > 0) printf "%.1fx", s / c; else print "-" }')
                fi
            else
                echo "bench_assign: scipy failed: $(tail -1 "$WORK/scipy.out")" >&2
            fi
            rm -f "$WORK/m.npy"
        fi
        distinct=$(echo $totals | tr ' ' '\n' | sort -u | grep -c .)
        if [ $agree -eq 1 ] && [ "$distinct" -eq 1 ]; then verdict="equal ($(echo $totals | cut -d' ' -f1))"
        else verdict="DIFFER:$totals"; fi
        echo "| $dist | $n | $seq_ms | $omp_ms | $cuda_ms | $bids | $scipy_ms | $ratio | $verdict |"
    done
done

echo
echo "Tracking (pupiltrack mtt, synth --particles --noise 0.5, $MTT_FRAMES frames; budget 5 ms per frame at 200 Hz)"
echo
mtt_backends="seq omp"
[ $have_cuda -eq 1 ] && mtt_backends="seq omp cuda"
header="| objects/frame |"; rule="|---:|"
for b in $mtt_backends; do header="$header $b ms/frame |"; rule="$rule---:|"; done
echo "$header IDF1 (seq) | within 5 ms |"
echo "$rule---:|---|"
for k in $OBJECTS; do
    echo "mtt $k objects ..." >&2
    "$PT" synth --particles --objects "$k" --frames "$MTT_FRAMES" --noise 0.5 --seed 1 -o "$WORK/belt.csv" 2>/dev/null
    row="| $k |"; idf1="-"; fastest=""
    for b in $mtt_backends; do
        if "$PT" mtt -b "$b" -o /dev/null "$WORK/belt.csv" 2>"$WORK/err"; then
            ms=$(sed -n 's/^mtt: .*, \([0-9.]*\) ms per frame.*/\1/p' "$WORK/err")
            [ "$b" = seq ] && idf1=$(sed -n 's/.*IDF1 \([0-9.]*\).*/\1/p' "$WORK/err")
            fastest=$(awk -v a="${fastest:-1e30}" -v b="$ms" 'BEGIN { print (b < a) ? b : a }')
        else
            ms="failed"
            echo "bench_assign: mtt -b $b failed: $(head -1 "$WORK/err")" >&2
        fi
        row="$row $ms |"
    done
    ok=$(awk -v f="${fastest:-1e30}" 'BEGIN { print (f <= 5.0) ? "yes" : "no" }')
    echo "$row $idf1 | $ok |"
done

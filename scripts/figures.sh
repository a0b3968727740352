#!/bin/sh
# Regenerate the evaluation figures and tables of the three papers pupiltrack
# grew from, one folder each:
#
#   scripts/figures.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR
#
#   OUTDIR/pupil     scripts/figures/pupil.sh DATASET_DIR GT.csv (Mompeán et
#                    al., binocular GPU pupil tracking, J. Supercomputing 2018)
#   OUTDIR/contours  scripts/figures/contours.sh (García-Mollá et al., parallel
#                    border tracking)
#   OUTDIR/auction   scripts/figures/auction.sh (Maier et al., GPU auction for
#                    sensor-based sorting)
#
# --quick: small grids, images and streams (CI, a first look). --draw-only:
# redraws the pupil figures from OUTDIR/pupil/sweeps without running
# anything (the other two papers' tables are measured, so they are skipped).
# scripts/figures/README.md lists every figure and table and where each
# stands. Environment: PT (pupiltrack binary, default ./pupiltrack) and
# each script's own (see their headers).
set -eu

usage() { echo "usage: scripts/figures.sh [--quick] [--draw-only] DATASET_DIR GT.csv OUTDIR" >&2; exit 2; }
QUICK=""; DRAW_ONLY=""
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=--quick; shift ;;
    --draw-only) DRAW_ONLY=--draw-only; shift ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -eq 3 ] || usage
HERE=$(cd "$(dirname "$0")" && pwd)
rc=0
sh "$HERE/figures/pupil.sh" $QUICK $DRAW_ONLY "$1" "$2" "$3/pupil" || { echo "figures.sh: pupil.sh failed" >&2; rc=1; }
if [ -z "$DRAW_ONLY" ]; then
    sh "$HERE/figures/contours.sh" $QUICK "$3/contours" || { echo "figures.sh: contours.sh failed" >&2; rc=1; }
    sh "$HERE/figures/auction.sh" $QUICK "$3/auction" || { echo "figures.sh: auction.sh failed" >&2; rc=1; }
fi
exit $rc

#!/bin/sh
# Run a pupiltrack sweep as a Slurm job array, one shard per task, then merge.
#
#   scripts/slurm-sweep.sh [OPTIONS] -- SWEEP_ARGUMENTS...
#
# SWEEP_ARGUMENTS are those of `pupiltrack sweep` and must include -o OUTDIR on
# a file system every node sees. Task i (1..N) runs
#   pupiltrack sweep SWEEP_ARGUMENTS --shard i/N
# and a last job, started when all tasks have succeeded (afterok), runs
#   pupiltrack merge OUTDIR
# A task that fails or is cut off can simply be resubmitted: a sweep resumes.
#
# Options:
#   -n N              shards = array tasks (default 8)
#   --gpus G          GPUs per task; each task then runs G shards at once with
#                     `sweep --devices G` (N*G shards in all)
#   --sbatch "ARGS"   extra sbatch arguments, e.g. "--partition=gpu --time=2:00:00"
#   --pt PATH         the pupiltrack binary (default: ./pupiltrack, made absolute)
#   --dry-run         print the sbatch commands instead of submitting them
#   --local           no Slurm: run the tasks one after the other here, then merge
set -eu

usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
say() { echo "slurm-sweep.sh: $*" >&2; }

SHARDS=8; GPUS=0; EXTRA=""; PT=./pupiltrack; MODE=submit
while [ $# -gt 0 ]; do
    case $1 in
    -n) SHARDS=${2:?-n needs a value}; shift 2 ;;
    --gpus) GPUS=${2:?--gpus needs a value}; shift 2 ;;
    --sbatch) EXTRA=${2:?--sbatch needs a value}; shift 2 ;;
    --pt) PT=${2:?--pt needs a value}; shift 2 ;;
    --dry-run) MODE=dry; shift ;;
    --local) MODE=local; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) say "unknown option '$1' (sweep arguments go after --)"; exit 2 ;;
    esac
done
case $SHARDS in ''|*[!0-9]*|0) say "-n: '$SHARDS' is not a positive integer"; exit 2 ;; esac
case $GPUS in ''|*[!0-9]*) say "--gpus: '$GPUS' is not a whole number"; exit 2 ;; esac
[ $# -gt 0 ] || { say "no sweep arguments (after --)"; exit 2; }
case $PT in /*) ;; *) PT=$(pwd)/${PT#./} ;; esac
[ -x "$PT" ] || { say "$PT: not an executable pupiltrack (use --pt)"; exit 2; }

# Quote one argument for sh: 'it'\''s'.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
ARGS=""; OUTDIR=""; prev=""
for a in "$@"; do
    [ "$prev" = "-o" ] && OUTDIR=$a
    case $a in --shard|--devices) say "$a is set by this script; leave it out"; exit 2 ;; esac
    ARGS="$ARGS $(quote "$a")"; prev=$a
done
[ -n "$OUTDIR" ] || { say "the sweep arguments need -o OUTDIR (on a shared file system)"; exit 2; }

DEVICES=""; GRES=""
if [ "$GPUS" -gt 0 ]; then DEVICES=" --devices $GPUS"; GRES="--gres=gpu:$GPUS"; fi
# A shard that finds unreadable images exits 1 (error rows): the task still
# succeeds so that the merge runs and reports them.
TASK="cd $(quote "$(pwd)") && $(quote "$PT") sweep$ARGS$DEVICES --shard \${SLURM_ARRAY_TASK_ID}/$SHARDS; rc=\$?; [ \$rc -le 1 ] || exit \$rc"
MERGE="cd $(quote "$(pwd)") && $(quote "$PT") merge $(quote "$OUTDIR")"

case $MODE in
local)
    # Each task as Slurm would run it, then the merge.
    i=1
    while [ $i -le "$SHARDS" ]; do
        rc=0; SLURM_ARRAY_TASK_ID=$i sh -c "$TASK" || rc=$?
        [ $rc -eq 0 ] || { say "task $i failed (exit $rc)"; exit $rc; }
        i=$((i + 1))
    done
    sh -c "$MERGE" ;;
dry)
    echo "sbatch --parsable --array=1-$SHARDS --job-name=pt-sweep $GRES $EXTRA --wrap $(quote "$TASK")"
    echo "sbatch --dependency=afterok:JOBID --job-name=pt-merge $EXTRA --wrap $(quote "$MERGE")" ;;
submit)
    command -v sbatch >/dev/null 2>&1 || { say "sbatch not found: not a Slurm machine (try --local)"; exit 3; }
    jobid=$(sbatch --parsable --array=1-"$SHARDS" --job-name=pt-sweep $GRES $EXTRA --wrap "$TASK")
    jobid=${jobid%%;*}
    merge=$(sbatch --parsable --dependency=afterok:"$jobid" --job-name=pt-merge $EXTRA --wrap "$MERGE")
    say "submitted array job $jobid ($SHARDS tasks) and merge job ${merge%%;*}; results in $OUTDIR" ;;
esac

/* The order of the CUDA tl detector's threshold tasks (cuda/detect/tl_internal.h)
 * and which of their rounds run: plain integer arithmetic, shared by the
 * kernels and tests/test_tl_tasks.c (PT_HD, header-only).
 *
 * Each job (eye) has `slots` threshold slots: the first `count` (tl_count,
 * or the fixed thresholds) always tried, the rest (lib/detect/tl_small.h's
 * second dark level) only for the jobs that try it. The first jobs * count
 * tasks are every job's first thresholds (task = job * count + i); the
 * next ones the other slots of the jobs listed in `second` (`seconds` of
 * them, in job order), slots - count tasks each; the tasks past those up to
 * jobs * slots hold nothing. The first ones run in rounds of `batch` slots
 * from task 0; the others in rounds from task jobs * count, each only where
 * the list reaches into it, so the second level costs only for the jobs
 * that try it. */
#ifndef PT_CUDA_TL_TASKS_H
#define PT_CUDA_TL_TASKS_H

#include "lib/core/pt_hd.h"

/* The job of threshold task `task` (0 <= task < jobs * slots) and, in
 * *slot, its threshold slot in 0..slots-1; -1 (and job 0) for a task past
 * the listed jobs' second slots. */
static inline PT_HD int pt_tl_task_slot(int task, int jobs, int count, int slots,
                                        const int *second, int seconds, int *slot)
{
    if (task < jobs * count) {
        *slot = task % count;
        return task / count;
    }
    int k = task - jobs * count, extra = slots - count;
    if (extra <= 0 || k / extra >= seconds) {
        *slot = -1;
        return 0;
    }
    *slot = count + k % extra;
    return second[k / extra];
}

/* Whether the round of other slots' tasks starting at task `at` (at least
 * jobs * count) holds a task, given the number of jobs that try them. */
static inline PT_HD int pt_tl_round_runs(int at, int jobs, int count, int slots, int seconds)
{
    return at < jobs * count + seconds * (slots - count);
}

#endif

/* The order of the CUDA tl detector's threshold tasks and which of their
 * rounds run (cuda/detect/tl_tasks.h), as cuda/detect/tl.cu schedules them:
 * every job's first thresholds once, the other slots once for exactly the
 * listed jobs, no round skipped that holds a task, none run that holds
 * none. Plain host arithmetic, tested without a GPU. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuda/detect/tl_tasks.h"
#include "tests/pt_test.h"

#define MAX_JOBS 128
#define MAX_SLOTS 24

typedef struct {
    int rounds;   /* rounds launched */
    int launched; /* slots of those rounds */
    int live;     /* tasks among them with a threshold slot */
} schedule;

/* The rounds of tl.cu's run_thresholds over jobs with `slots` threshold slots,
 * the jobs with tried[j] set listed; visits[j][i] counts the tasks of job j's
 * slot i that the rounds run. */
static schedule run_schedule(int jobs, int count, int slots, int batch, const int *tried,
                             int visits[MAX_JOBS][MAX_SLOTS], const char *what)
{
    int second[MAX_JOBS], seconds = 0;
    for (int j = 0; j < jobs; j++)
        if (tried[j] && slots > count)
            second[seconds++] = j;
    memset(visits, 0, sizeof(int) * MAX_JOBS * MAX_SLOTS);
    schedule s = {0, 0, 0};
    int sure = jobs * count, end = jobs * slots;
    for (int at = 0; at < end; at += batch) {
        int first_set = at < sure;
        int stop = first_set ? (sure - at < batch ? sure : at + batch)
                             : (end - at < batch ? end : at + batch);
        int runs = first_set || pt_tl_round_runs(at, jobs, count, slots, seconds);
        int live = 0;
        for (int task = at; task < stop; task++) {
            int slot, job = pt_tl_task_slot(task, jobs, count, slots, second, seconds, &slot);
            if (slot < 0)
                continue;
            live++;
            PT_CHECK(job >= 0 && job < jobs && slot < slots, "%s: task %d: job %d slot %d", what,
                     task, job, slot);
            if (runs && job >= 0 && job < jobs && slot < slots)
                visits[job][slot]++;
        }
        PT_CHECK(runs == (live > 0), "%s: the round at %d holds %d tasks, runs %d", what, at,
                 live, runs);
        if (runs) {
            s.rounds++;
            s.launched += stop - at;
            s.live += live;
        }
        if (first_set)
            at = stop - batch; /* the other slots' rounds start at sure */
    }
    return s;
}

/* Each job's first count slots run once, the others once where tried, else never. */
static void expect_cover(int jobs, int count, int slots, int batch, const int *tried,
                         const char *what)
{
    static int visits[MAX_JOBS][MAX_SLOTS];
    char label[160];
    snprintf(label, sizeof label, "%s, %d jobs, count %d, slots %d, batch %d", what, jobs, count,
             slots, batch);
    schedule s = run_schedule(jobs, count, slots, batch, tried, visits, label);
    int wrong = 0, listed = 0;
    for (int j = 0; j < jobs; j++) {
        listed += tried[j] && slots > count;
        for (int i = 0; i < slots; i++)
            wrong += visits[j][i] != (i < count || tried[j]);
    }
    PT_CHECK(wrong == 0, "%s: %d (job, slot) pairs run other than once where due", label, wrong);
    PT_CHECK(s.live == jobs * count + listed * (slots - count), "%s: %d tasks run", label, s.live);
    /* the first thresholds' rounds, then as many as the listed jobs' tasks fill */
    int extra = listed * (slots - count);
    int rounds = (jobs * count + batch - 1) / batch + (extra + batch - 1) / batch;
    PT_CHECK(s.rounds == rounds, "%s: %d rounds run, not %d", label, s.rounds, rounds);
}

int main(void)
{
    static const int jobs_of[] = {1, 2, 7, 64, 128};
    static const int counts[] = {1, 3, 5, 12};
    static const int batches[] = {1, 5, 7, 47, 1000};
    int tried[MAX_JOBS];
    uint64_t seed = 12345;
    for (size_t a = 0; a < sizeof jobs_of / sizeof *jobs_of; a++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (size_t k = 0; k < sizeof batches / sizeof *batches; k++) {
                int jobs = jobs_of[a], count = counts[c], batch = batches[k];
                for (int pattern = 0; pattern < 5; pattern++) {
                    for (int j = 0; j < jobs; j++) {
                        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                        tried[j] = pattern == 0   ? 0
                                   : pattern == 1 ? 1
                                   : pattern == 2 ? j % 9 == 4
                                   : pattern == 3 ? j == jobs - 1
                                                  : (int)(seed >> 62) == 0;
                    }
                    expect_cover(jobs, count, 2 * count, batch, tried, "two dark levels");
                    /* one set of slots (tl_small_also off, tl_range=fixed): nothing listed */
                    expect_cover(jobs, count, count, batch, tried, "one set");
                }
            }
    /* a chunk of 64 ordinary 1280x1024 frames (47 slots per round, tl_count 5),
     * 7 eyes trying the second dark level: 367 slots in 8 rounds, against 640
     * in 14 for all the eyes' second slots */
    static int visits[MAX_JOBS][MAX_SLOTS];
    for (int j = 0; j < 64; j++)
        tried[j] = j % 9 == 4;
    schedule s = run_schedule(64, 5, 10, 47, tried, visits, "64 frames, 7 trying");
    PT_CHECK(s.rounds == 8 && s.launched == 367 && s.live == 355,
             "64 frames, 7 trying: %d rounds, %d slots, %d tasks", s.rounds, s.launched, s.live);
    for (int j = 0; j < 64; j++)
        tried[j] = 1;
    s = run_schedule(64, 5, 10, 47, tried, visits, "64 frames, all trying");
    PT_CHECK(s.rounds == 14 && s.launched == 640 && s.live == 640,
             "64 frames, all trying: %d rounds, %d slots, %d tasks", s.rounds, s.launched, s.live);
    return PT_TEST_SUMMARY("tl_tasks");
}

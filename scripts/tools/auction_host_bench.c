/* Host side of the auction's benefits (lib/assign/auction_scale.c), timed alone:
 * the range pass (pt_auction_scale), the scaled conversion
 * (pt_auction_convert, 32 or 64 bits) and the 16-bit one
 * (pt_auction_convert_compact, when the range allows), each the least of
 * REPS runs, for each thread count given.
 *   auction_host_bench N [COLS] [--dist uniform|tracking] [--range R]
 *                      [--frac] [--max] [--seed S] [--reps K] [-j 1,2,16]
 * The costs are pupiltrack assign --random's (filled by one thread, as there);
 * --frac adds 0, 0.25, 0.5 to successive entries (non-integer costs).
 * Build: make tools (or make build/tools/auction_host_bench). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "lib/assign/assign.h"

typedef struct {
    int rows, cols, frac, maximize, reps;
    long range;
    uint64_t seed;
    pt_assign_dist dist;
    char threads[256];
} bench_options;

static int parse(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){0, 0, 0, 0, 5, 0, 1, PT_ASSIGN_UNIFORM, "1,2"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--frac"))
            o->frac = 1;
        else if (!strcmp(a, "--max"))
            o->maximize = 1;
        else if (!strcmp(a, "--range") && v)
            o->range = atol(argv[++i]);
        else if (!strcmp(a, "--seed") && v)
            o->seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(a, "--reps") && v)
            o->reps = atoi(argv[++i]);
        else if (!strcmp(a, "--dist") && v)
            o->dist = !strcmp(argv[++i], "tracking") ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM;
        else if (!strcmp(a, "-j") && v)
            snprintf(o->threads, sizeof o->threads, "%s", argv[++i]);
        else if (a[0] != '-' && !o->rows)
            o->rows = atoi(a);
        else if (a[0] != '-' && !o->cols)
            o->cols = atoi(a);
        else
            return 0;
    }
    if (!o->cols)
        o->cols = o->rows;
    if (!o->range)
        o->range = o->rows > o->cols ? o->rows : o->cols;
    return o->rows > 0 && o->cols > 0 && o->reps > 0;
}

/* Least milliseconds of reps runs of each step; 0 where a step is not run. */
static int time_steps(const pt_assign_problem *p, int threads, int reps, void *dst, double best[3],
                      pt_auction_scaling *s, pt_error *err)
{
    best[0] = best[1] = best[2] = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        if (pt_auction_scale(p, threads, s, err))
            return 0;
        double t1 = omp_get_wtime();
        pt_auction_convert(p, s, 0, s->persons, dst, threads);
        double t2 = omp_get_wtime();
        if (s->compact)
            pt_auction_convert_compact(p, s, 0, s->persons, dst, threads);
        double t3 = omp_get_wtime(), step[3] = {t1 - t0, t2 - t1, t3 - t2};
        for (int k = 0; k < 3; k++)
            best[k] = 1000.0 * step[k] < best[k] ? 1000.0 * step[k] : best[k];
    }
    if (!s->compact)
        best[2] = 0.0;
    return 1;
}

int main(int argc, char **argv)
{
    bench_options o;
    if (!parse(argc, argv, &o)) {
        fprintf(stderr, "usage: auction_host_bench N [COLS] [--dist uniform|tracking] [--range R] [--frac] "
                        "[--max] [--seed S] [--reps K] [-j 1,2,16]\n");
        return 2;
    }
    pt_assign_problem p;
    pt_error err;
    if (pt_assign_random(&p, o.rows, o.cols, o.dist, o.range, o.seed, &err)) {
        fprintf(stderr, "auction_host_bench: %s\n", err.what);
        return 1;
    }
    p.maximize = o.maximize;
    long entries = (long)o.rows * o.cols;
    for (long k = 0; o.frac && k < entries; k++)
        p.cost[k] += 0.25 * (double)(k % 3);
    void *dst = malloc(sizeof(int64_t) * (size_t)entries);
    if (!dst) {
        fprintf(stderr, "auction_host_bench: out of memory\n");
        pt_assign_problem_free(&p);
        return 1;
    }
    int status = 0;
    for (const char *t = o.threads; *t && !status;) {
        int threads = atoi(t);
        double best[3];
        pt_auction_scaling s;
        if (threads < 1 || !time_steps(&p, threads, o.reps, dst, best, &s, &err)) {
            fprintf(stderr, "auction_host_bench: %s\n", threads < 1 ? "bad -j list" : err.what);
            status = 1;
            break;
        }
        printf("%dx%d %s%s threads %d: range %.2f ms (%.2f ns/entry), convert%d %.2f ms, compact16 ", o.rows,
               o.cols, o.dist == PT_ASSIGN_TRACKING ? "tracking" : "uniform", o.frac ? " frac" : "", threads,
               best[0], 1e6 * best[0] / (double)entries, s.narrow ? 32 : 64, best[1]);
        if (s.compact)
            printf("%.2f ms\n", best[2]);
        else
            printf("-\n");
        t = strchr(t, ',');
        t = t ? t + 1 : "";
    }
    free(dst);
    pt_assign_problem_free(&p);
    return status;
}

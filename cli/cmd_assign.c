/* pupiltrack assign: linear assignment of a CSV cost matrix or a random problem. */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/core/output_file.h"
#include "lib/assign/assign.h"
#include "cli/cli.h"
#include "cli/options.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack assign [-b seq|omp|cuda|exact] [-j N] [--max|--min] [-o OUT.csv] COST.csv\n"
            "       pupiltrack assign [...] --random N [--cols M] [--dist uniform|tracking]\n"
            "                         [--range R] --seed S\n"
            "Solve the linear assignment problem of a dense cost matrix (CSV, one matrix row\n"
            "per line, no header) by the auction algorithm with epsilon-scaling.\n"
            "  -b seq|omp|cuda|exact  back end (default omp); exact = shortest augmenting path\n"
            "                         (Jonker-Volgenant); cuda also prints its stage times and bids\n"
            "  -j N                   threads for -b omp (default: all cores)\n"
            "  --auction default|jacobi  the solver: pupiltrack's asynchronous auction with a\n"
            "                         shortest-path finish (default), or Maier et al.'s Jacobi\n"
            "                         auction with packed 32-bit bids (seq, omp, cuda; n <= 4096)\n"
            "  --min | --max          minimise cost (default) or maximise utility\n"
            "  --random N             random N x N problem instead of a file (--cols M: N x M)\n"
            "  --dist uniform|tracking  uniform integers 0..R-1 (R = --range, default max(N,M)) or\n"
            "                         distances (tenths of a pixel) between moved points\n"
            "  --seed S               seed of the random problem (required with --random)\n"
            "  -o OUT.csv             output file (default stdout)\n"
            "  --save-npy M.npy       also write the cost matrix as a NumPy float64 array\n"
            "Writes 'row,col,value' for each assigned row, the total on stderr. Integer costs\n"
            "give an optimal assignment; other costs are quantised to a fine binary fraction.\n");
}


static int write_assignment(const char *out_path, const pt_assign_problem *p, const pt_assign_result *r)
{
    pt_output out;
    pt_error err;
    pt_error_clear(&err);
    if (pt_output_open(&out, out_path, 0, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    fprintf(out.fp, "row,col,value\n");
    for (int row = 0; row < p->rows; row++)
        if (r->col_of_row[row] >= 0)
            fprintf(out.fp, "%d,%d,%.15g\n", row, r->col_of_row[row],
                    p->cost[(size_t)row * p->cols + r->col_of_row[row]]);
    if (pt_output_close(&out, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    return PT_EXIT_OK;
}

/* The cost matrix as a NumPy .npy file (float64, C order), so a benchmark can
 * hand the very same problem to scipy. */
static int save_npy(const char *path, const pt_assign_problem *p)
{
    pt_output out;
    pt_error err;
    pt_error_clear(&err);
    if (pt_output_open(&out, path, 0, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    FILE *f = out.fp;
    char header[128];
    int len = snprintf(header, sizeof header, "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }",
                       p->rows, p->cols);
    int total = 10 + len + 1, pad = (64 - total % 64) % 64; /* header padded to 64 bytes, ends in '\n' */
    static const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    unsigned short hlen = (unsigned short)(len + pad + 1);
    unsigned char le[2] = {(unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    fwrite(magic, 1, 8, f);
    fwrite(le, 1, 2, f);
    fwrite(header, 1, (size_t)len, f);
    for (int k = 0; k < pad; k++)
        fputc(' ', f);
    fputc('\n', f);
    /* x86 and ARM hosts are little-endian, as the descriptor says. */
    size_t entries = (size_t)p->rows * (size_t)p->cols;
    fwrite(p->cost, sizeof(double), entries, f);
    if (pt_output_close(&out, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    return PT_EXIT_OK;
}

static const char *const dist_names[] = {"uniform", "tracking", NULL};
static const char *const auction_names[] = {"default", "jacobi", NULL};
static const int auction_values[] = {0, 1};
static const int dist_values[] = {PT_ASSIGN_UNIFORM, PT_ASSIGN_TRACKING};

int pt_cmd_assign(int argc, char **argv)
{
    const char *backend = "omp", *out_path = NULL, *input = NULL, *npy_path = NULL;
    long random_n = 0, cols = 0, seed = -1, range = 0, threads = 0;
    int maximize = 0, have_seed = 0, dist = PT_ASSIGN_UNIFORM, jacobi = 0;
    const pt_cli_option opts[] = {
        {"-b", PT_OPT_STRING, &backend, 0, 0, "a back end", NULL, NULL, NULL},
        {"-o", PT_OPT_STRING, &out_path, 0, 0, "a file", NULL, NULL, NULL},
        {"--save-npy", PT_OPT_STRING, &npy_path, 0, 0, "a file", NULL, NULL, NULL},
        {"--max", PT_OPT_FLAG, &maximize, 1, 0, NULL, NULL, NULL, NULL},
        {"--min", PT_OPT_FLAG, &maximize, 0, 0, NULL, NULL, NULL, NULL},
        {"-j", PT_OPT_LONG, &threads, 1, 4096, "a thread count", NULL, NULL, NULL},
        {"--random", PT_OPT_LONG, &random_n, 1, 1 << 20, "a size", NULL, NULL, NULL},
        {"--cols", PT_OPT_LONG, &cols, 1, 1 << 20, "a size", NULL, NULL, NULL},
        {"--range", PT_OPT_LONG, &range, 1, 1L << 40, "a range", NULL, NULL, NULL},
        {"--seed", PT_OPT_LONG, &seed, 0, 0x7fffffffffffffffL, "a seed", NULL, NULL, &have_seed},
        {"--dist", PT_OPT_CHOICE, &dist, 0, 0, "distribution", dist_names, dist_values, NULL},
        {"--auction", PT_OPT_CHOICE, &jacobi, 0, 0, "auction", auction_names, auction_values, NULL},
    };
    int npos, rc0 = pt_cli_parse("assign", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                                 usage, &input, 1, &npos);
    if (rc0)
        return PT_CLI_PARSE_EXIT(rc0);
    const pt_assign_backend *solver =
        jacobi ? pt_assign_jacobi_by_name(backend) : pt_assign_backend_by_name(backend);
    if (!solver) {
        char names[64];
        pt_cli_fail("-b: %s back end '%s' (%s)", jacobi ? "--auction jacobi has no" : "unknown",
                    backend,
                    pt_backend_list(jacobi ? PT_CAP_ASSIGN_JACOBI : PT_CAP_ASSIGN, names,
                                    sizeof names));
        return PT_EXIT_USAGE;
    }
    if (!input == !random_n) {
        pt_cli_fail("assign: give either a cost matrix CSV or --random N (try --help)");
        return PT_EXIT_USAGE;
    }
    if (random_n && !have_seed) {
        pt_cli_fail("assign: --random needs --seed S");
        return PT_EXIT_USAGE;
    }
    pt_error err;
    pt_error_clear(&err);
    if (solver->available && solver->available(&err)) {
        pt_cli_report(&err);
        return PT_EXIT_UNAVAILABLE;
    }
    pt_assign_problem p;
    pt_status st = random_n ? pt_assign_random(&p, (int)random_n, (int)(cols ? cols : random_n), (pt_assign_dist)dist,
                                               range, (uint64_t)seed, &err)
                            : pt_assign_load_csv(input, &p, &err);
    if (st) {
        pt_cli_report(&err);
        return st == PT_ERR_PARAM ? PT_EXIT_USAGE : PT_EXIT_INPUT;
    }
    p.maximize = maximize;
    if (npy_path && save_npy(npy_path, &p)) {
        pt_assign_problem_free(&p);
        return PT_EXIT_INPUT;
    }
    pt_assign_result r;
    if ((st = pt_assign_result_alloc(&r, p.rows, &err))) {
        pt_cli_report(&err);
        pt_assign_problem_free(&p);
        return PT_EXIT_INPUT;
    }
    /* Warm-up on a 2x2 problem so the timing leaves out the CUDA context or thread team start. */
    double warm_cost[4] = {0, 1, 1, 0};
    int warm_cols[2];
    pt_assign_problem warm = {2, 2, warm_cost, 0};
    pt_assign_result warm_r = {warm_cols, 0.0};
    pt_error warm_err;
    solver->solve(&warm, (int)threads, &warm_r, NULL, 0, &warm_err);
    /* A 2x2 solve runs on one thread: start the team the large problems'
     * range pass, conversions and bids run on, as a first parallel region
     * creates its threads. */
    int team = threads > 0 ? (int)threads : omp_get_max_threads();
#pragma omp parallel num_threads(team)
    {
        (void)0;
    }
    char report[512] = "";
    double start = omp_get_wtime();
    st = solver->solve(&p, (int)threads, &r, report, sizeof report, &err);
    double ms = 1000.0 * (omp_get_wtime() - start);
    int rc = PT_EXIT_OK;
    if (st) {
        if (!err.file[0] && input)
            snprintf(err.file, sizeof err.file, "%s", input);
        pt_cli_report(&err);
        rc = st == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
    } else {
        rc = write_assignment(out_path, &p, &r);
        fprintf(stderr, "total %.15g (%dx%d, %s, %s, %.1f ms)\n", r.total, p.rows, p.cols,
                maximize ? "max" : "min", backend, ms);
        if (report[0])
            fprintf(stderr, "%s\n", report);
    }
    pt_assign_result_free(&r);
    pt_assign_problem_free(&p);
    return rc;
}

/* pupiltrack assign: linear assignment of a CSV cost matrix or a random problem. */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/output_file.h"
#include "lib/assign/assign.h"
#include "cli/cli.h"

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

int pt_cmd_assign(int argc, char **argv)
{
    const char *backend = "omp", *out_path = NULL, *input = NULL, *npy_path = NULL;
    long random_n = 0, cols = 0, seed = -1, range = 0, threads = 0;
    int maximize = 0, have_seed = 0;
    pt_assign_dist dist = PT_ASSIGN_UNIFORM;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(a, "-b") && has_value) {
            backend = argv[++i];
        } else if (!strcmp(a, "-o") && has_value) {
            out_path = argv[++i];
        } else if (!strcmp(a, "--save-npy") && has_value) {
            npy_path = argv[++i];
        } else if (!strcmp(a, "--max")) {
            maximize = 1;
        } else if (!strcmp(a, "--min")) {
            maximize = 0;
        } else if (!strcmp(a, "-j") && has_value) {
            if (!pt_cli_parse_long(argv[++i], 1, 4096, &threads)) {
                pt_cli_fail("-j: expected a thread count 1..4096, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--random") && has_value) {
            if (!pt_cli_parse_long(argv[++i], 1, 1 << 20, &random_n)) {
                pt_cli_fail("--random: expected a size 1..1048576, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--cols") && has_value) {
            if (!pt_cli_parse_long(argv[++i], 1, 1 << 20, &cols)) {
                pt_cli_fail("--cols: expected a size 1..1048576, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--range") && has_value) {
            if (!pt_cli_parse_long(argv[++i], 1, 1L << 40, &range)) {
                pt_cli_fail("--range: expected 1..2^40, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--seed") && has_value) {
            if (!pt_cli_parse_long(argv[++i], 0, 0x7fffffffffffffffL, &seed)) {
                pt_cli_fail("--seed: expected a non-negative integer, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
            have_seed = 1;
        } else if (!strcmp(a, "--dist") && has_value) {
            const char *d = argv[++i];
            if (!strcmp(d, "uniform"))
                dist = PT_ASSIGN_UNIFORM;
            else if (!strcmp(d, "tracking"))
                dist = PT_ASSIGN_TRACKING;
            else {
                pt_cli_fail("--dist: expected uniform or tracking, got '%s'", d);
                return PT_EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("assign: unknown option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (!input) {
            input = a;
        } else {
            pt_cli_fail("assign: more than one cost matrix ('%s', '%s')", input, a);
            return PT_EXIT_USAGE;
        }
    }
    const pt_assign_backend *solver = pt_assign_backend_by_name(backend);
    if (!solver) {
        pt_cli_fail("-b: unknown back end '%s' (%s)", backend, pt_assign_backend_names());
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
    pt_status st = random_n ? pt_assign_random(&p, (int)random_n, (int)(cols ? cols : random_n), dist,
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
    solver->solve(&warm, (int)threads, &warm_r, &warm_err);
    /* A 2x2 solve runs on one thread: start the team the large problems'
     * range pass, conversions and bids run on, as a first parallel region
     * creates its threads. */
    int team = threads > 0 ? (int)threads : omp_get_max_threads();
#pragma omp parallel num_threads(team)
    {
        (void)0;
    }
    pt_auction_gpu_stats gpu;
    int is_cuda = !strcmp(solver->name, "cuda");
    double start = omp_get_wtime();
    if (is_cuda)
        st = pt_assign_auction_cuda(&p, &r, &gpu, &err); /* the same solver, with its statistics */
    else
        st = solver->solve(&p, (int)threads, &r, &err);
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
        if (is_cuda)
            fprintf(stderr,
                    "cuda: prepare %.2f ms (range pass %.2f%s), upload %.2f ms, kernel %.2f ms, copy back %.2f ms, "
                    "%ld phases, %ld bids (%ld scanned the row), %ld persons assigned by a shortest path (%ld steps, %.2f ms), "
                    "%d x %d threads, %d-bit benefits\n",
                    gpu.prepare_ms, gpu.range_ms, gpu.one_pass ? ": none, the upload found the range" : "",
                    gpu.upload_ms, gpu.kernel_ms, gpu.copy_ms, gpu.phases, gpu.bids,
                    gpu.refills, gpu.finishes, gpu.path_steps, gpu.path_ms,
                    gpu.blocks, gpu.threads_per_block, gpu.benefit_bits);
    }
    pt_assign_result_free(&r);
    pt_assign_problem_free(&p);
    return rc;
}

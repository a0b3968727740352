/* libFuzzer target: the cost-matrix loader of assign (pupiltrack-assign(1),
 * Bad input), then, for a small matrix it accepted, the exact solver and the
 * sequential auction, which must give complete assignments and, on integer
 * costs, the same total. */
#include <math.h>

#include "fuzz/fuzz_files.h"
#include "lib/assign/assign.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    fuzz_write("cost.csv", data, size, path, sizeof path);
    pt_assign_problem p;
    pt_error err;
    if (pt_assign_load_csv(path, &p, &err) != PT_OK)
        return 0;
    if (p.rows < 1 || p.cols < 1 || (long)p.rows * p.cols > PT_ASSIGN_MAX_ENTRIES)
        __builtin_trap();
    if ((long)p.rows * p.cols <= 400) {
        pt_assign_result exact, seq;
        if (pt_assign_result_alloc(&exact, p.rows, &err) == PT_OK &&
            pt_assign_result_alloc(&seq, p.rows, &err) == PT_OK) {
            int have_exact = pt_assign_exact(&p, &exact, &err) == PT_OK;
            int have_seq = pt_assign_auction(&p, &seq, &err) == PT_OK;
            if (have_exact && !pt_assign_is_complete(&p, exact.col_of_row))
                __builtin_trap();
            if (have_seq && !pt_assign_is_complete(&p, seq.col_of_row))
                __builtin_trap();
            /* integer costs of a modest range: the auction is exactly optimal */
            int small = 1;
            for (long k = 0; k < (long)p.rows * p.cols; k++)
                small &= fabs(p.cost[k]) <= 1e6;
            if (have_exact && have_seq && small && pt_assign_is_integer(&p) &&
                exact.total != seq.total)
                __builtin_trap();
        }
        pt_assign_result_free(&exact);
        pt_assign_result_free(&seq);
    }
    pt_assign_problem_free(&p);
    return 0;
}

/* libFuzzer target: the CSV reader on arbitrary bytes, plus the results
 * reader, which shares it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/csv.h"
#include "lib/io/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pt_error err;
    pt_csv_reader *r;
    if (pt_csv_open_memory((const char *)data, size, "fuzz.csv", &r, &err) == PT_OK) {
        int n;
        size_t total = 0;
        while (pt_csv_next(r, &n, &err) == PT_OK && n > 0) {
            for (int i = 0; i < n; i++)
                total += strlen(pt_csv_field(r, i));
            double v;
            (void)pt_csv_parse_double(pt_csv_field(r, 0), &v);
            (void)pt_csv_line(r);
        }
        (void)total;
        pt_csv_close(r);
    }
    pt_results res;
    if (pt_results_load_memory((const char *)data, size, "fuzz.csv", &res, &err) == PT_OK)
        pt_results_free(&res);
    return 0;
}

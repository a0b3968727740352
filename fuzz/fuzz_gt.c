/* libFuzzer target: the ground-truth parser from memory, lookups of every row
 * it accepted, and the importers on the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/io/gt.h"
#include "lib/io/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pt_error err;
    pt_gt gt;
    /* a base folder that does not exist keeps realpath from touching real files */
    if (pt_gt_load_memory((const char *)data, size, "fuzz.csv", "/nonexistent-fuzz-dir/", &gt,
                          &err) == PT_OK) {
        for (int i = 0; i < gt.count; i++)
            if (!pt_gt_find(&gt, gt.entries[i].path, gt.entries[i].eye))
                __builtin_trap(); /* every accepted row must be found again */
        pt_gt_free(&gt);
    }
    for (int format = PT_IMPORT_SWIRSKI; format <= PT_IMPORT_LPW; format++) {
        pt_import_data imp;
        if (pt_import_parse_memory((const char *)data, size, "fuzz.txt",
                                   (pt_import_format)format, 1, &imp, &err) == PT_OK) {
            FILE *devnull = fopen("/dev/null", "w");
            pt_import_options opt = {"dir", NULL, 480, 1};
            if (devnull) {
                pt_import_write(devnull, "null", &imp, &opt, &err);
                fclose(devnull);
            }
            pt_import_free(&imp);
        }
    }
    return 0;
}

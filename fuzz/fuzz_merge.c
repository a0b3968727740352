/* libFuzzer target: merge's reading of shard parts. The input's parts
 * (split at a line "----") are the manifest's grid line, the parts
 * results/0000.part-1-of-2.csv and results/0000.part-2-of-2.csv, and the
 * ground truth the reports score them against; merge runs on that folder as
 * `pupiltrack merge OUTDIR` would (pupiltrack-sweep(1)). Messages go to
 * stderr; only crashes and undefined behaviour count. */
#include "cli/cli.h"
#include "eval/sweep_files.h"
#include "fuzz/fuzz_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256], outdir[256];
    size_t n;
    const uint8_t *grid = fuzz_part(data, size, 0, &n);
    if (!grid || n > 200 || memchr(grid, '\n', n) || memchr(grid, '\0', n))
        return 0;
    char gt[256];
    const uint8_t *truth = fuzz_part(data, size, 3, &n);
    fuzz_write("gt.csv", truth ? truth : (const uint8_t *)"", truth ? n : 0, gt, sizeof gt);
    snprintf(outdir, sizeof outdir, "%s/merge", fuzz_scratch());
    fuzz_clear(outdir);
    /* the manifest merge reads: its gt is the scratch file, never a path from the input */
    char manifest[1024];
    int len = snprintf(manifest, sizeof manifest, "gt %s\nshape auto\n", gt);
    size_t grid_len = 0;
    fuzz_part(data, size, 0, &grid_len);
    if (grid_len > 0)
        len += snprintf(manifest + len, sizeof manifest - (size_t)len, "grid %.*s\n", (int)grid_len,
                        (const char *)grid);
    fuzz_write("merge/" PT_SWEEP_MANIFEST, (const uint8_t *)manifest, (size_t)len, path, sizeof path);
    for (int k = 1; k <= 2; k++) {
        const uint8_t *rows = fuzz_part(data, size, k, &n);
        if (!rows)
            continue;
        char name[64];
        snprintf(name, sizeof name, "merge/results/0000.part-%d-of-2.csv", k);
        snprintf(path, sizeof path, "%s/merge/results", fuzz_scratch());
        mkdir(path, 0700);
        fuzz_write(name, rows, n, path, sizeof path);
    }
    char *argv[] = {"merge", outdir, NULL};
    (void)pt_cmd_merge(2, argv);
    return 0;
}

/* libFuzzer target: the files a sweep reads back. The input's parts (split
 * at a line "----") are a manifest (OUTDIR/sweep.txt, read as merge and a
 * resumed sweep do), a checkpoint line (NAME.tmp.resume) and a results file
 * whose last line is the timing line ("# sweep: frames=N track_s=S"); see
 * pupiltrack-sweep(1). */
#include <math.h>

#include "eval/sweep_checkpoint.h"
#include "eval/sweep_files.h"
#include "eval/sweep_report.h"
#include "fuzz/fuzz_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    size_t n;
    const uint8_t *part;
    pt_error err;
    if ((part = fuzz_part(data, size, 0, &n))) {
        fuzz_write("out/" PT_SWEEP_MANIFEST, part, n, path, sizeof path);
        pt_sweep_manifest m;
        char outdir[256];
        snprintf(outdir, sizeof outdir, "%s/out", fuzz_scratch());
        if (pt_sweep_manifest_read(outdir, &m, &err) == PT_OK) {
            long configs = pt_sweep_grid_size(&m.grid);
            if (configs < 1 || configs > PT_SWEEP_MAX_CONFIGS || !m.text)
                __builtin_trap();
            char label[4096];
            pt_sweep_config_label(&m.grid, configs - 1, label, sizeof label);
            pt_sweep_manifest_free(&m);
        }
    }
    if ((part = fuzz_part(data, size, 1, &n))) {
        pt_sweep_checkpoint c;
        if (pt_sweep_checkpoint_parse((const char *)part, n, &c, &err) == PT_OK &&
            (c.files < 0 || c.bytes <= 0 || c.timing.frames < 0 || !isfinite(c.timing.track_s)))
            __builtin_trap();
    }
    if ((part = fuzz_part(data, size, 2, &n))) {
        pt_sweep_timing t;
        if (pt_sweep_timing_parse((const char *)part, n, &t) &&
            (t.frames < 0 || !isfinite(t.track_s) || t.track_s < 0))
            __builtin_trap();
        pt_results res;
        if (pt_sweep_results_parse((const char *)part, n, "fuzz.csv", &res, &t, &err) == PT_OK)
            pt_results_free(&res);
    }
    return 0;
}

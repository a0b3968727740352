/* The sweep's checkpoint line and timing line read back only when sane:
 * what the fuzz target fuzz/fuzz_sweep_files.c holds them to
 * (pupiltrack-sweep(1), resuming and merging). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eval/sweep_checkpoint.h"
#include "eval/sweep_report.h"
#include "tests/pt_test.h"

static int parses(const char *line, pt_sweep_checkpoint *c)
{
    pt_error err;
    return pt_sweep_checkpoint_parse(line, strlen(line), c, &err) == PT_OK;
}

static void test_checkpoint(void)
{
    pt_sweep_checkpoint back;
    /* the line the sweep writes (eval/sweep_run.c) */
    PT_CHECK(parses("files=3 bytes=1234 frames=3 track_s=0.250000\n", &back) && back.files == 3 &&
                 back.bytes == 1234 && back.timing.frames == 3 && back.timing.track_s == 0.25,
             "a checkpoint line reads back");
    static const char *const bad[] = {
        "",
        "files=3 bytes=1234 frames=3",
        "files=-1 bytes=10 frames=1 track_s=0.1\n",
        "files=1 bytes=0 frames=1 track_s=0.1\n",
        "files=1 bytes=10 frames=-4 track_s=0.1\n",
        "files=1 bytes=10 frames=1 track_s=nan\n",
        "files=1 bytes=10 frames=1 track_s=-2\n",
        "files=1 bytes=10 frames=1 track_s=inf\n",
        "files=1 bytes=10 frames=9223372036854775807 track_s=1\n",
        "files=1 bytes=10 frames=1 track_s=0.1 trailing\n",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        PT_CHECK(!parses(bad[k], &back) && back.files == 0 && back.bytes == 0,
                 "refused: '%s'", bad[k]);
    /* not NUL-terminated within size */
    char raw[8];
    memcpy(raw, "files=1 ", 8);
    pt_error err;
    PT_CHECK(pt_sweep_checkpoint_parse(raw, sizeof raw, &back, &err) != PT_OK, "cut line refused");
}

static void test_timing(void)
{
    static const struct {
        const char *text;
        int ok;
        long frames;
        double track_s;
    } cases[] = {
        {"image\n# sweep: frames=7 track_s=0.5\n", 1, 7, 0.5},
        {"image\n# sweep: frames=-5 track_s=0.5\n", 0, 0, 0},
        {"image\n# sweep: frames=5 track_s=nan\n", 0, 0, 0},
        {"image\n# sweep: frames=5 track_s=inf\n", 0, 0, 0},
        {"image\n# sweep: frames=5 track_s=-1\n", 0, 0, 0},
        {"image\n# sweep: frames=9223372036854775807 track_s=1\n", 0, 0, 0},
        {"image\n", 0, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pt_sweep_timing t;
        int ok = pt_sweep_timing_parse(cases[k].text, strlen(cases[k].text), &t);
        PT_CHECK(ok == cases[k].ok && t.frames == cases[k].frames && t.track_s == cases[k].track_s,
                 "timing line %zu: ok %d frames %ld track_s %g", k, ok, t.frames, t.track_s);
    }
}

int main(void)
{
    test_checkpoint();
    test_timing();
    return PT_TEST_SUMMARY("sweep_checkpoint");
}

/* Merge's checks of a shard's part and the timing line that ends it
 * (pupiltrack-sweep(1), MERGE). */
#include <string.h>

#include "eval/sweep_files.h"
#include "eval/sweep_merge.h"
#include "tests/pt_test.h"

#define HEADER PT_RESULTS_HEADER "\n"
#define ROW(name, eye) name "," eye ",starburst,omp,ok,1,2,3,,,,0.9,1.5,,\n"
#define END "# sweep: frames=3 track_s=0.250000\n"

/* The hash a sweep over these paths records in sweep.txt. */
static unsigned long long hash_of(const char *const *paths, int n)
{
    unsigned long long h = PT_SWEEP_HASH_START;
    for (int i = 0; i < n; i++)
        h = pt_sweep_hash_path(h, paths[i], strlen(paths[i]));
    return h;
}

static pt_status check(const char *text, int eyes, int files, unsigned long long *hash,
                       pt_error *err)
{
    pt_sweep_timing t;
    *hash = PT_SWEEP_HASH_START;
    pt_error_clear(err);
    return pt_sweep_part_check("part.csv", text, strlen(text), eyes, files, hash, &t, err);
}

static void test_sound_parts(void)
{
    static const char *const paths[] = {"a.png", "b.tif", "c.png"};
    unsigned long long h;
    pt_error err;
    const char *mono = HEADER ROW("a.png", "") ROW("b.tif#0", "") ROW("b.tif#1", "")
        ROW("c.png", "") END;
    PT_CHECK(check(mono, 1, 3, &h, &err) == PT_OK, "a sound part: %s", err.what);
    PT_CHECK(h == hash_of(paths, 3), "pages of one file count once, in order");
    const char *bino = HEADER ROW("a.png", "L") ROW("a.png", "R") ROW("b.tif", "L")
        ROW("b.tif", "R") ROW("c.png", "L") ROW("c.png", "R") END;
    PT_CHECK(check(bino, 2, 3, &h, &err) == PT_OK && h == hash_of(paths, 3),
             "binocular rows, one per eye: %s", err.what);
    pt_sweep_timing t;
    PT_CHECK(pt_sweep_timing_parse(mono, strlen(mono), &t) && t.frames == 3 &&
                 t.track_s == 0.25,
             "the end line is read back (%ld, %g)", t.frames, t.track_s);
}

static void test_damaged_parts(void)
{
    unsigned long long h;
    pt_error err;
    PT_CHECK(check(HEADER ROW("a.png", "") ROW("c.png", "") END, 1, 3, &h, &err) &&
                 strstr(err.what, "rows for 2 images where the shard has 3"),
             "rows deleted: %s", err.what);
    PT_CHECK(check(HEADER ROW("a.png", "") ROW("b.png", "") ROW("c.png", ""), 1, 3, &h, &err) &&
                 strstr(err.what, "incomplete"),
             "no end line: %s", err.what);
    PT_CHECK(check(HEADER ROW("a.png", "") END ROW("b.png", "") END, 1, 2, &h, &err) &&
                 strstr(err.what, "2 end lines"),
             "two runs' rows in one part: %s", err.what);
    PT_CHECK(check(HEADER ROW("a.png", "") END "x\n", 1, 1, &h, &err) &&
                 strstr(err.what, "incomplete"),
             "something after the end line: %s", err.what);
    PT_CHECK(check("image,status\n" ROW("a.png", "") END, 1, 1, &h, &err) &&
                 strstr(err.what, "header"),
             "another header: %s", err.what);
    PT_CHECK(check(HEADER ROW("a.png", "L") ROW("b.png", "R") END, 2, 1, &h, &err) &&
                 strstr(err.what, "other eye"),
             "an eye missing: %s", err.what);
    PT_CHECK(check(HEADER ROW("a.png", "L") END, 2, 1, &h, &err) &&
                 strstr(err.what, "eyes per frame"),
             "odd rows, binocular: %s", err.what);
}

int main(void)
{
    test_sound_parts();
    test_damaged_parts();
    return PT_TEST_SUMMARY("sweep_parts");
}

/* Importers: Swirski, ExCuSe/ElSe/PupilNet and LPW sample files in
 * testdata/import/ convert to the checked-in ground-truth CSVs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/gt.h"
#include "lib/io/import.h"
#include "tests/pt_test.h"

static const char *data_dir = "testdata/import";

static char *read_text(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", data_dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Convert src with opt and compare with the expected CSV. */
static void check_conversion(const char *src, pt_import_format format, long first,
                             const pt_import_options *opt, const char *expected)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", data_dir, src);
    pt_import_data data;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_import_parse(path, format, first, &data, &err) == PT_OK, "%s parses: %s", src,
             err.what);
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    PT_CHECK(pt_import_write(f, "mem", &data, opt, &err) == PT_OK, "%s writes: %s", src, err.what);
    fclose(f);
    char *want = read_text(expected);
    PT_CHECK(want && !strcmp(out, want), "%s:\n%s\nexpected:\n%s", src, out, want ? want : "?");
    /* and the output is valid ground truth */
    pt_gt gt;
    PT_CHECK(pt_gt_load_memory(out, size, "out.csv", "", &gt, &err) == PT_OK &&
                 gt.count == data.count,
             "%s: output loads as ground truth: %s", src, err.what);
    pt_gt_free(&gt);
    free(want);
    free(out);
    pt_import_free(&data);
}

static void test_samples(void)
{
    pt_import_options opt = {"", NULL, 0, 1};
    check_conversion("swirski/pupil-ellipses.txt", PT_IMPORT_SWIRSKI, 0, &opt,
                     "swirski/expected.csv");
    opt.height = 288;
    check_conversion("excuse/data.txt", PT_IMPORT_EXCUSE, 0, &opt, "excuse/expected_h288.csv");
    opt.height = 0;
    check_conversion("lpw/1.txt", PT_IMPORT_LPW, 1, &opt, "lpw/expected.csv");
}

static void test_options(void)
{
    const char *t = "5 7 10 20\n";
    pt_import_data data;
    pt_error err;
    PT_CHECK(pt_import_parse_memory(t, strlen(t), "e.txt", PT_IMPORT_EXCUSE, 0, &data, &err) ==
                 PT_OK,
             "no header needed");
    pt_import_options opt = {"../images", "img_%04d.png", 0, 0};
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    PT_CHECK(pt_import_write(f, "mem", &data, &opt, &err) == PT_ERR_PARAM &&
                 !strcmp(err.file, "--height"),
             "excuse without a height refused");
    opt.height = 100;
    PT_CHECK(pt_import_write(f, "mem", &data, &opt, &err) == PT_OK, "with height");
    fclose(f);
    PT_CHECK(strstr(out, "\n../images/img_0007.png,5.0000,90.0000\n") != NULL,
             "folder prefix and pattern: %s", out);
    free(out);
    pt_import_free(&data);
    char name[64];
    PT_CHECK(pt_import_check_pattern("%d.png") == 0 && pt_import_check_pattern("a%%_%05d") == 0,
             "good patterns");
    PT_CHECK(pt_import_check_pattern("%s") < 0 && pt_import_check_pattern("plain.png") < 0 &&
                 pt_import_check_pattern("%d_%d") < 0 && pt_import_check_pattern("%123d") < 0,
             "bad patterns refused");
    PT_CHECK(pt_import_format_name("a%%_%05d.png", 42, name, sizeof name) == 0 &&
                 !strcmp(name, "a%_00042.png"),
             "pattern expansion: %s", name);
    PT_CHECK(pt_import_format_name("%d", 123456, name, 4) < 0, "overflowing name refused");
    PT_CHECK(pt_import_format_from_name("pupilnet") == PT_IMPORT_EXCUSE &&
                 pt_import_format_from_name("bogus") < 0,
             "format names");
}

static void expect_error(pt_import_format format, const char *text, int line, const char *what)
{
    pt_import_data data;
    pt_error err;
    pt_error_clear(&err);
    char want[32];
    snprintf(want, sizeof want, "line %d", line);
    pt_status st = pt_import_parse_memory(text, strlen(text), "src.txt", format, 0, &data, &err);
    PT_CHECK(st == PT_ERR_FORMAT && strstr(err.what, want) && !strcmp(err.file, "src.txt") &&
                 data.count == 0,
             "%s: %d '%s'", what, st, err.what);
}

static void test_malformed(void)
{
    expect_error(PT_IMPORT_SWIRSKI, "0 | 1 2 3 4 0\n1 | 1 2 3 4\n", 2, "swirski short");
    expect_error(PT_IMPORT_SWIRSKI, "0 1 2 3 4 0\n", 1, "swirski without bar");
    expect_error(PT_IMPORT_SWIRSKI, "1.5 | 1 2 3 4 0\n", 1, "swirski fractional frame");
    expect_error(PT_IMPORT_SWIRSKI, "0 | 1 nan 3 4 0\n", 1, "swirski NaN");
    expect_error(PT_IMPORT_EXCUSE, "idx image_no x y\n1 1 2 3\n2 2 x 3\n", 3, "excuse text");
    expect_error(PT_IMPORT_EXCUSE, "1 -2 2 3\n", 1, "excuse negative image number");
    expect_error(PT_IMPORT_LPW, "1 2\n\n# c\n1 2 3\n", 4, "lpw three numbers");
    expect_error(PT_IMPORT_LPW, "1 2\nfoo bar\n", 2, "lpw header after data");
    pt_import_data data;
    pt_error err;
    PT_CHECK(pt_import_parse("/nonexistent/x.txt", PT_IMPORT_LPW, 0, &data, &err) == PT_ERR_IO,
             "missing source file");
}

int main(void)
{
    FILE *probe = fopen("testdata/import/lpw/1.txt", "r");
    if (!probe)
        data_dir = "../testdata/import";
    else
        fclose(probe);
    test_samples();
    test_options();
    test_malformed();
    return PT_TEST_SUMMARY("import");
}

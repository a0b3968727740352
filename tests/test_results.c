/* Results CSV: exact header and rows, empty fields, quoting, reading back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io/results.h"
#include "tests/pt_test.h"

static char *write_rows(void (*fill)(FILE *), size_t *size)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, size);
    fill(f);
    fclose(f);
    return buf;
}

static void fill_sample(FILE *f)
{
    pt_result r;
    memset(&r, 0, sizeof r);
    pt_results_write_header(f);
    r.status = PT_DETECT_OK;
    r.has_circle = 1;
    r.circle = (pt_circle){10.5, 20.25, 7};
    r.confidence = 0.75;
    r.ms = 1.5;
    pt_results_write_row(f, "a.png", "starburst", "omp", &r);
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_OK;
    r.eye = 'L';
    r.has_ellipse = 1;
    r.ellipse = (pt_ellipse){1, 2, 5, 4, 170.5};
    r.confidence = 1;
    pt_results_write_row(f, "dir/b,c.tif#3", "tl", "cuda", &r);
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_NOTFOUND;
    r.eye = 'R';
    r.has_circle = 1; /* ignored: not found has no geometry */
    pt_results_write_row(f, "b.png", "hough", "omp", &r);
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_ERROR;
    snprintf(r.message, sizeof r.message, "cannot decode: bad \"IHDR\", size 0");
    pt_results_write_row(f, "c.png", "hough", "omp", &r);
}

static void test_write_exact(void)
{
    size_t size;
    char *text = write_rows(fill_sample, &size);
    const char *want =
        "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message,timestamp\n"
        "a.png,,starburst,omp,ok,10.5000,20.2500,7.0000,,,,0.7500,1.5000,,\n"
        "\"dir/b,c.tif#3\",L,tl,cuda,ok,1.0000,2.0000,,5.0000,4.0000,170.5000,1.0000,0.0000,,\n"
        "b.png,R,hough,omp,notfound,,,,,,,0.0000,0.0000,,\n"
        "c.png,,hough,omp,error,,,,,,,0.0000,0.0000,\"cannot decode: bad \"\"IHDR\"\", size 0\",\n";
    PT_CHECK(!strcmp(text, want), "exact output:\n%s\nwanted:\n%s", text, want);
    free(text);
}

/* A video frame's presentation time is the last column and reads back. */
static void test_timestamp(void)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    pt_result r;
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_NOTFOUND;
    pt_results_write_header(f);
    pt_results_write_row_at(f, "v.mp4#3", "tl", "omp", &r, 0.1);
    pt_results_write_row(f, "a.png", "tl", "omp", &r);
    fclose(f);
    PT_CHECK(strstr(buf, "v.mp4#3,,tl,omp,notfound,,,,,,,0.0000,0.0000,,0.100000\n") != NULL,
             "timestamp written: %s", buf);
    pt_results res;
    pt_error err;
    PT_CHECK(pt_results_load_memory(buf, size, "t.csv", &res, &err) == PT_OK, "reads: %s", err.what);
    if (res.count == 2) {
        PT_CHECK(fabs(res.rows[0].timestamp - 0.1) < 1e-9, "timestamp read %g", res.rows[0].timestamp);
        PT_CHECK(isnan(res.rows[1].timestamp), "no timestamp is NAN, got %g", res.rows[1].timestamp);
    } else {
        PT_CHECK(0, "%d rows read", res.count);
    }
    pt_results_free(&res);
    free(buf);
}

static void test_read_back(void)
{
    size_t size;
    char *text = write_rows(fill_sample, &size);
    pt_results res;
    pt_error err;
    PT_CHECK(pt_results_load_memory(text, size, "res.csv", &res, &err) == PT_OK, "reads back: %s",
             err.what);
    PT_CHECK(res.count == 4, "four rows");
    if (res.count == 4) {
        const pt_result *a = &res.rows[0].result;
        PT_CHECK(a->status == PT_DETECT_OK && a->has_circle && !a->has_ellipse &&
                     a->circle.cx == 10.5 && a->circle.cy == 20.25 && a->circle.r == 7 &&
                     a->confidence == 0.75 && a->ms == 1.5 && a->eye == 0,
                 "circle row round trip");
        PT_CHECK(!strcmp(res.rows[0].algorithm, "starburst") && !strcmp(res.rows[0].backend, "omp"),
                 "algorithm and backend");
        const pt_result *b = &res.rows[1].result;
        PT_CHECK(!strcmp(res.rows[1].image, "dir/b,c.tif#3") && b->eye == 'L' && b->has_ellipse &&
                     !b->has_circle && b->ellipse.a == 5 && b->ellipse.theta == 170.5,
                 "ellipse row with quoted image name");
        PT_CHECK(res.rows[2].result.status == PT_DETECT_NOTFOUND && !res.rows[2].result.has_circle,
                 "notfound row");
        PT_CHECK(res.rows[3].result.status == PT_DETECT_ERROR &&
                     !strcmp(res.rows[3].result.message, "cannot decode: bad \"IHDR\", size 0"),
                 "error message round trip");
        PT_CHECK(res.rows[3].line == 5, "line numbers kept (%ld)", res.rows[3].line);
    }
    pt_results_free(&res);
    free(text);
}

static void expect_error(const char *text, int line, const char *what)
{
    pt_results res;
    pt_error err;
    pt_error_clear(&err);
    char want[32];
    snprintf(want, sizeof want, "line %d", line);
    pt_status st = pt_results_load_memory(text, strlen(text), "res.csv", &res, &err);
    PT_CHECK(st == PT_ERR_FORMAT && !strcmp(err.file, "res.csv") && strstr(err.what, want) &&
                 res.count == 0,
             "%s: %d '%s'", what, st, err.what);
}

static void test_malformed(void)
{
    expect_error("image,status,cx,cy,r\na.png,maybe,1,2,3\n", 2, "bad status");
    expect_error("image,status,cx,cy,r\na.png,ok,1,2,x\n", 2, "non-numeric");
    expect_error("image,status,cx,cy,r\na.png,ok,1,NaN,3\n", 2, "NaN");
    expect_error("image,status,cx,cy,r\na.png,ok,1,2\n", 2, "ragged");
    expect_error("a.png,ok,1,2\n", 1, "no header");
    expect_error("image,status,cx,cy,a,b,theta\na.png,ok,1,2,3,,\n", 2, "partial ellipse");
    expect_error("status,image,r\nok,a.png,3\n", 2, "radius without centre");
    pt_results res;
    pt_error err;
    const char *any_order = "status,r,cy,cx,image\nok,3,2,1,a.png\n";
    PT_CHECK(pt_results_load_memory(any_order, strlen(any_order), "r.csv", &res, &err) == PT_OK &&
                 res.count == 1 && res.rows[0].result.circle.cx == 1 &&
                 res.rows[0].result.circle.cy == 2,
             "columns in any order");
    pt_results_free(&res);
    PT_CHECK(pt_results_load("/nonexistent/r.csv", &res, &err) == PT_ERR_IO, "missing file");
}

int main(void)
{
    test_write_exact();
    test_timestamp();
    test_read_back();
    test_malformed();
    return PT_TEST_SUMMARY("results");
}

/* Ground-truth CSV: columns in any order, relative paths, pages, eyes, blinks,
 * no-pupil rows, and malformed input naming the file and line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/io/gt.h"
#include "tests/pt_test.h"

static char tmpdir[64];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static pt_status load_text(const char *text, pt_gt *gt, pt_error *err)
{
    return pt_gt_load_memory(text, strlen(text), "gt.csv", "data/", gt, err);
}

static void test_columns_any_order(void)
{
    pt_gt gt;
    pt_error err;
    const char *t = "# made by hand\n"
                    "theta,b,a,note,r,cy,cx,eye,image\n"
                    "10,3,4,\"left, open\",,20,30,L,img1.png\n"
                    ",,,,5,21,31,R,img1.png\n"
                    "190,2,2,x,,0,0,,stack.tif#2\n";
    PT_CHECK(load_text(t, &gt, &err) == PT_OK, "loads: %s", err.what);
    PT_CHECK(gt.count == 3, "three rows (%d)", gt.count);
    const pt_gt_entry *l = pt_gt_find(&gt, "data/img1.png", 'L');
    PT_CHECK(l && l->has_ellipse && !l->has_circle && l->ellipse.a == 4 && l->ellipse.b == 3 &&
                 l->ellipse.theta == 10 && l->cx == 30 && l->cy == 20,
             "ellipse row read by column name");
    const pt_gt_entry *r = pt_gt_find(&gt, "data/img1.png", 'R');
    PT_CHECK(r && r->has_circle && !r->has_ellipse && r->circle.r == 5 && r->circle.cx == 31,
             "circle row, other eye");
    PT_CHECK(!pt_gt_find(&gt, "data/img1.png", 0), "eye is part of the key");
    const pt_gt_entry *p = pt_gt_find(&gt, "data/stack.tif#2", 0);
    PT_CHECK(p && !strcmp(p->image, "stack.tif#2") && !strcmp(p->path, "data/stack.tif#2"),
             "page suffix kept in raw name and path");
    PT_CHECK(p && fabs(p->ellipse.theta - 10) < 1e-12, "theta 190 normalised to 10");
    PT_CHECK(!pt_gt_find(&gt, "data/stack.tif#3", 0), "other page not matched");
    PT_CHECK(pt_gt_find(&gt, "./data//x/../img1.png", 'L') == l, "lexically normalised match");
    PT_CHECK(pt_gt_find(&gt, "img1.png", 'L') == l, "falls back to the raw name");
    pt_gt_free(&gt);
}

static void test_no_pupil_blink(void)
{
    pt_gt gt;
    pt_error err;
    const char *t = "image,cx,cy,r,blink\na.png,,,,0\nb.png,1,2,3,1\nc.png,1,2,,\n";
    PT_CHECK(load_text(t, &gt, &err) == PT_OK, "loads: %s", err.what);
    const pt_gt_entry *a = pt_gt_find(&gt, "data/a.png", 0);
    const pt_gt_entry *b = pt_gt_find(&gt, "data/b.png", 0);
    const pt_gt_entry *c = pt_gt_find(&gt, "data/c.png", 0);
    PT_CHECK(a && !a->has_pupil && !a->blink, "empty cx = no pupil");
    PT_CHECK(b && b->has_pupil && b->blink, "blink flag");
    PT_CHECK(c && c->has_pupil && !c->has_circle && !c->has_ellipse, "centre only");
    pt_result res;
    pt_gt_entry_to_result(b, &res);
    PT_CHECK(res.status == PT_DETECT_OK && res.has_circle && res.circle.r == 3, "as result");
    pt_gt_entry_to_result(a, &res);
    PT_CHECK(res.status == PT_DETECT_NOTFOUND, "no pupil as notfound");
    pt_gt_free(&gt);
}

/* The error must name gt.csv and the given line. */
static void expect_error(const char *text, int line, const char *what)
{
    pt_gt gt;
    pt_error err;
    pt_error_clear(&err);
    pt_status st = load_text(text, &gt, &err);
    char want[32];
    snprintf(want, sizeof want, "line %d", line);
    PT_CHECK(st == PT_ERR_FORMAT && !strcmp(err.file, "gt.csv") && strstr(err.what, want),
             "%s: got status %d '%s: %s'", what, st, err.file, err.what);
    PT_CHECK(gt.count == 0 && gt.entries == NULL, "%s: nothing kept", what);
}

static void test_malformed(void)
{
    expect_error("image,cx,cy,r\na.png,1,2,3\nb.png,abc,2,3\n", 3, "non-numeric");
    expect_error("image,cx,cy,r\na.png,nan,2,3\n", 2, "NaN");
    expect_error("image,cx,cy,r\na.png,1,inf,3\n", 2, "inf");
    expect_error("image,cx,cy,r\na.png,1,2,-3\n", 2, "negative radius");
    expect_error("image,cx,cy,a,b,theta\na.png,1,2,0,0,0\n", 2, "a = 0");
    expect_error("image,cx,cy,a,b,theta\n\n#c\na.png,1,2,3,4,0\n", 4, "b > a");
    expect_error("image,cx,cy,a,b,theta\na.png,1,2,4,3,\n", 2, "theta missing");
    expect_error("image,cx,cy,r\na.png,1,2\n", 2, "ragged short");
    expect_error("image,cx,cy,r\na.png,1,2,3,4\n", 2, "ragged long");
    expect_error("a.png,1,2,3\n", 1, "missing header");
    expect_error("image,cx,cy\na.png,1,\n", 2, "cy missing");
    expect_error("image,eye,cx,cy\na.png,X,1,2\n", 2, "bad eye");
    expect_error("image,cx,cy,blink\na.png,1,2,yes\n", 2, "bad blink");
    expect_error("image,cx,cy\na.png,1,2\nb.png,1,2\n./a.png,3,4\n", 4, "duplicate row");
    expect_error("image,cx,cy\n,1,2\n", 2, "empty image");
    expect_error("image,cx,cy,a\n", 1, "partial ellipse header");
    pt_gt gt;
    pt_error err;
    PT_CHECK(load_text("", &gt, &err) == PT_ERR_FORMAT && strstr(err.what, "header"),
             "empty file needs a header");
}

static void test_file_relative_paths(void)
{
    char sub[128], path[160], img[160];
    snprintf(sub, sizeof sub, "%s/set1", tmpdir);
    mkdir(sub, 0700);
    snprintf(img, sizeof img, "%s/eye.png", sub);
    write_file(img, "not really a png");
    snprintf(path, sizeof path, "%s/gt.csv", sub);
    write_file(path, "image,cx,cy,r\r\neye.png,10,11,5\r\nmissing.png,1,1,1\r\n");
    pt_gt gt;
    pt_error err;
    PT_CHECK(pt_gt_load(path, &gt, &err) == PT_OK, "loads file: %s", err.what);
    char want[200];
    snprintf(want, sizeof want, "%s/eye.png", sub);
    const pt_gt_entry *e = pt_gt_find(&gt, want, 0);
    PT_CHECK(e && !strcmp(e->path, want) && !strcmp(e->image, "eye.png"),
             "image resolved against the CSV's folder");
    /* the same file through another spelling of the path (realpath) */
    char other[240];
    snprintf(other, sizeof other, "%s/../set1/./eye.png", sub);
    PT_CHECK(pt_gt_find(&gt, other, 0) == e, "found through a different path to the same file");
    snprintf(other, sizeof other, "%s/missing.png", sub);
    PT_CHECK(pt_gt_find(&gt, other, 0) != NULL, "non-existent image matched lexically");
    pt_gt_free(&gt);
    PT_CHECK(pt_gt_load("/nonexistent/gt.csv", &gt, &err) == PT_ERR_IO &&
                 !strcmp(err.file, "/nonexistent/gt.csv"),
             "unreadable file named");
    remove(path);
    remove(img);
    rmdir(sub);
}

static void test_many_rows(void)
{
    size_t cap = 1 << 22;
    char *t = malloc(cap);
    size_t n = (size_t)snprintf(t, cap, "image,eye,cx,cy,r\n");
    for (int i = 0; i < 20000; i++)
        n += (size_t)snprintf(t + n, cap - n, "f%05d.png,%s,%d,%d,%d\n", i / 2, i % 2 ? "R" : "L",
                              i, i + 1, 3 + i % 7);
    pt_gt gt;
    pt_error err;
    PT_CHECK(pt_gt_load_memory(t, n, "big.csv", "", &gt, &err) == PT_OK, "20000 rows");
    int good = 1;
    for (int i = 0; i < 20000; i += 97) {
        char name[32];
        snprintf(name, sizeof name, "f%05d.png", i / 2);
        const pt_gt_entry *e = pt_gt_find(&gt, name, i % 2 ? 'R' : 'L');
        good &= e && e->cx == i;
    }
    PT_CHECK(good, "hash lookups find every probed row");
    pt_gt_free(&gt);
    free(t);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pt_gt_XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    test_columns_any_order();
    test_no_pupil_blink();
    test_malformed();
    test_file_relative_paths();
    test_many_rows();
    rmdir(tmpdir);
    return PT_TEST_SUMMARY("gt");
}

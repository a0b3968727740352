/* report.html of a sweep (eval/sweep_html.h): the best configuration, the
 * worst frames, and the page's curves, table, images and escaping. */
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "eval/sweep_html.h"
#include "tests/pt_test.h"

static const char gt_text[] = "image,eye,cx,cy,r,blink\n"
                              "a.png,,50,50,10,0\n"
                              "b.png,,50,50,10,0\n"
                              "c.png,,50,50,10,0\n"
                              "d.png,,50,50,10,0\n"
                              "e.png,,50,50,10,1\n"
                              "f.png,,,,,0\n";

/* a exact, b 1 px off (10 %), c not found, d 3 px off (30 %), e a blink,
 * f without a pupil (a false positive): worst first c, d, b, a. */
static const char res_text[] =
    "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message\n"
    "a.png,,tl,omp,ok,50,50,10,,,,1,1,\n"
    "b.png,,tl,omp,ok,51,50,10,,,,1,1,\n"
    "c.png,,tl,omp,notfound,,,,,,,0,1,\n"
    "d.png,,tl,omp,ok,53,50,10,,,,1,1,\n"
    "e.png,,tl,omp,notfound,,,,,,,0,1,\n"
    "f.png,,tl,omp,ok,50,50,10,,,,1,1,\n";

static void test_worst_frames(void)
{
    pt_gt gt;
    pt_results res;
    pt_error err;
    PT_CHECK(pt_gt_load_memory(gt_text, strlen(gt_text), "gt.csv", "", &gt, &err) == PT_OK,
             "gt loads: %s", err.what);
    PT_CHECK(pt_results_load_memory(res_text, strlen(res_text), "res.csv", &res, &err) == PT_OK,
             "results load: %s", err.what);
    pt_sweep_html_frame w[8];
    int n = pt_sweep_html_worst(&gt, &res, PT_SHAPE_AUTO, w, 8);
    PT_CHECK(n == 4, "4 frames with a pupil, not blinks (%d)", n);
    const char *order[] = {"c.png", "d.png", "b.png", "a.png"};
    for (int i = 0; i < n && i < 4; i++)
        PT_CHECK(!strcmp(w[i].image, order[i]), "worst %d is %s (%s)", i, order[i], w[i].image);
    PT_CHECK(n > 0 && !strcmp(w[0].what, "not detected"), "c: %s", w[0].what);
    PT_CHECK(n > 1 && strstr(w[1].what, "beyond 20") != NULL, "d: %s", w[1].what);
    PT_CHECK(n > 2 && strstr(w[2].what, "10 %") != NULL, "b: %s", w[2].what);
    PT_CHECK(n > 0 && w[0].png[0] == '\0', "no drawing named");
    n = pt_sweep_html_worst(&gt, &res, PT_SHAPE_AUTO, w, 2);
    PT_CHECK(n == 2 && !strcmp(w[0].image, "c.png") && !strcmp(w[1].image, "d.png"),
             "max keeps the worst two");
    pt_results_free(&res);
    pt_gt_free(&gt);
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static char *read_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 20);
    if (text)
        fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    return text;
}

/* Files in dir whose name ends in ".tmp". */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        n += len > 4 && !strcmp(e->d_name + len - 4, ".tmp");
    }
    if (d)
        closedir(d);
    return n;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        n++;
    return n;
}

/* Three configurations; the second has the best rate at 10 %, tied with
 * the third at 10 % and 5 %, and wins on fps. */
static const char summary_text[] =
    "config,tl_step,frames,notfound,errors,false_positives,rate_rel5,rate_rel10,rate_px5,"
    "mean_ms,fps\n"
    "tl_step=10,10,4,1,0,0,0.25,0.25,0.75,3,10\n"
    "tl_step=20,20,4,1,0,0,0.5,0.75,0.75,2,30\n"
    "tl_step=<40>,40,4,1,0,0,0.5,0.75,0.75,1,20\n";

static void write_curves(const char *dir)
{
    const char *labels[] = {"tl_step=10", "tl_step=20", "tl_step=<40>"};
    char path[512];
    snprintf(path, sizeof path, "%s/curve.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("config,metric,threshold,detected,total,rate,tl_step\n", f);
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < PT_EVAL_REL_STEPS; i++)
            fprintf(f, "%s,relative,%g,%d,4,%g,x\n", labels[c], 0.5 * i, i / 14, (i / 14) / 4.0);
        for (int i = 0; i < PT_EVAL_PX_STEPS; i++)
            fprintf(f, "%s,pixel,%d,%d,4,%g,x\n", labels[c], i, i / 7, (i / 7) / 4.0);
    }
    fclose(f);
}

static void test_best_and_page(void)
{
    char dir[] = "/tmp/pt-test-html.XXXXXX";
    PT_CHECK(mkdtemp(dir) != NULL, "temporary folder");
    pt_error err;
    long best = -1;
    PT_CHECK(pt_sweep_html_best(dir, &best, &err) != PT_OK, "no summary.csv: an error");
    PT_CHECK(strstr(err.file, "summary.csv") != NULL, "the error names the file: %s", err.file);
    write_file(dir, "summary.csv", summary_text);
    PT_CHECK(pt_sweep_html_best(dir, &best, &err) == PT_OK, "best: %s", err.what);
    PT_CHECK(best == 1, "the best is the second (rate at 10 %%, then 5 %%, then fps): %ld",
             best);

    pt_sweep_html_frame w[2];
    memset(w, 0, sizeof w);
    snprintf(w[0].image, sizeof w[0].image, "eyes/a b#1.png");
    snprintf(w[0].what, sizeof w[0].what, "not detected");
    snprintf(w[0].png, sizeof w[0].png, "report/eyes_a b_1.png");
    snprintf(w[1].image, sizeof w[1].image, "eyes/c.png");
    snprintf(w[1].what, sizeof w[1].what, "relative error beyond 20 %%");
    PT_CHECK(pt_sweep_html_write(dir, best, w, 2, &err) != PT_OK, "no curve.csv: an error");
    char *page = read_file(dir, "report.html");
    PT_CHECK(page == NULL && temporaries(dir) == 0, "no report.html after a failure");
    free(page);

    write_curves(dir);
    PT_CHECK(pt_sweep_html_write(dir, best, w, 2, &err) == PT_OK, "write: %s", err.what);
    page = read_file(dir, "report.html");
    PT_CHECK(page != NULL, "report.html written");
    PT_CHECK(temporaries(dir) == 0, "no temporary file left");
    if (page) {
        PT_CHECK(!strncmp(page, "<!DOCTYPE html>", 15), "an HTML page");
        PT_CHECK(strstr(page, "</html>") != NULL, "whole");
        PT_CHECK(count(page, "<svg") == 2, "two charts (%d)", count(page, "<svg"));
        PT_CHECK(count(page, "<polyline") == 6, "a curve per configuration and chart (%d)",
                 count(page, "<polyline"));
        PT_CHECK(count(page, "stroke=\"#000\"") == 2, "the best drawn in black, once per chart");
        PT_CHECK(count(page, "<tr") == 4, "header and three rows (%d)", count(page, "<tr"));
        PT_CHECK(strstr(page, "<tr class=\"best\"><td><span class=\"swatch\" style=\"background:"
                              "#000\"></span></td><td>tl_step=20<") != NULL,
                 "the best row is marked");
        PT_CHECK(strstr(page, "tl_step=&lt;40&gt;") != NULL && !strstr(page, "<40>"),
                 "labels escaped");
        PT_CHECK(count(page, "<img ") == 1, "an image for the drawn frame only");
        PT_CHECK(strstr(page, "src=\"report/eyes_a%20b_1.png\"") != NULL,
                 "the image's URL encoded");
        PT_CHECK(strstr(page, "eyes/c.png: relative error beyond 20 %") != NULL,
                 "an undrawn frame is still listed");
        PT_CHECK(!strstr(page, "<script"), "no scripts");
        PT_CHECK(!strstr(page, "http://") || strstr(page, "xmlns=\"http://www.w3.org/2000/svg\""),
                 "no network links");
        /* the best's relative curve: 0 up to 6.5 %, then 25 %: y = 294 - 264 * 0.25 */
        PT_CHECK(strstr(page, "213.5,228.0") != NULL, "curve points placed (7 %% at 25 %%)");
    }
    free(page);
    PT_CHECK(pt_sweep_html_write(dir, 3, w, 2, &err) != PT_OK, "a configuration out of range");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    PT_CHECK(system(cmd) == 0, "clean up");
}

int main(void)
{
    test_worst_frames();
    test_best_and_page();
    return PT_TEST_SUMMARY("sweep_html");
}

/* Canny: edges of a drawn disc lie on its outline; thresholds follow the
 * gradient histogram. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp/detect/canny.h"
#include "tests/pt_test.h"

/* Anti-aliased dark disc (4x4 supersampling) on a bright background. */
static void draw_disc(uint8_t *img, int w, int h, double cx, double cy, double r, int inside,
                      int outside)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int hits = 0;
            for (int sy = 0; sy < 4; sy++)
                for (int sx = 0; sx < 4; sx++) {
                    double px = x - 0.375 + 0.25 * sx, py = y - 0.375 + 0.25 * sy;
                    hits += (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r;
                }
            img[y * w + x] = (uint8_t)lround(outside + (inside - outside) * hits / 16.0);
        }
}

static void test_disc_edges_on_circle(void)
{
    enum { W = 160, H = 120 };
    static uint8_t img[W * H];
    const double cx = 80.3, cy = 57.6, r = 30.0;
    draw_disc(img, W, H, cx, cy, r, 30, 180);
    pt_arena arena;
    pt_arena_init(&arena);
    pt_canny_edges c;
    pt_error err;
    PT_CHECK(pt_canny_detect(img, W, W, H, 1.5, 0.8, 0.4, &arena, &c, &err) == PT_OK,
             "canny runs");
    int far = 0, found = 0;
    int covered[72] = {0}; /* 5-degree sectors that hold an edge pixel */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (!c.edges[y * W + x])
                continue;
            found++;
            double d = hypot(x - cx, y - cy);
            if (fabs(d - r) > 1.0)
                far++;
            double a = atan2(y - cy, x - cx) * 180.0 / M_PI + 180.0;
            covered[(int)(a / 5.0) % 72] = 1;
        }
    int sectors = 0;
    for (int i = 0; i < 72; i++)
        sectors += covered[i];
    PT_CHECK(found == c.edge_count, "edge_count %d matches the map %d", c.edge_count, found);
    PT_CHECK(found > 150, "a closed outline has > 150 pixels, got %d", found);
    PT_CHECK(far == 0, "%d of %d edge pixels are more than 1 px off the circle", far, found);
    PT_CHECK(sectors == 72, "outline covers %d of 72 sectors", sectors);
    PT_CHECK_NEAR(c.low, 0.4 * c.high, 1e-4, "low = 0.4 * high");
    /* The gradient points outward (dark inside): at the right-most point gx > 0. */
    int xr = (int)lround(cx + r), yr = (int)lround(cy);
    PT_CHECK(c.gx[yr * W + xr] > 0.0f, "gradient points from dark to bright");
    /* A unit ramp gives a gradient of about 1. */
    static uint8_t ramp[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ramp[y * W + x] = (uint8_t)x;
    pt_canny_detect(ramp, W, W, H, 2.0, 0.8, 0.4, &arena, &c, &err);
    PT_CHECK_NEAR(c.gx[60 * W + 80], 1.0, 0.01, "ramp gradient x");
    PT_CHECK_NEAR(c.gy[60 * W + 80], 0.0, 0.01, "ramp gradient y");
    pt_arena_free(&arena);
}

static void test_blank_has_no_edges(void)
{
    enum { W = 64, H = 48 };
    static uint8_t img[W * H];
    memset(img, 90, sizeof img);
    pt_arena arena;
    pt_arena_init(&arena);
    pt_canny_edges c;
    pt_error err;
    pt_canny_detect(img, W, W, H, 1.5, 0.8, 0.4, &arena, &c, &err);
    PT_CHECK(c.edge_count == 0 && c.high == 0.0f, "blank: %d edges, high %g", c.edge_count,
             (double)c.high);
    pt_arena_free(&arena);
}

static void test_quantile_from_histogram(void)
{
    enum { N = 1000 };
    float v[N + 200];
    int hist[4096];
    for (int i = 0; i < N; i++)
        v[i] = (float)(i + 1); /* 1..1000 */
    for (int i = N; i < N + 200; i++)
        v[i] = 0.0f; /* zeros do not count */
    float q80 = pt_canny_quantile(v, N + 200, 0.8, hist, 4096);
    PT_CHECK_NEAR(q80, 800.0, 1.0, "80 % quantile of 1..1000");
    float q50 = pt_canny_quantile(v, N + 200, 0.5, hist, 4096);
    PT_CHECK_NEAR(q50, 500.0, 1.0, "median of 1..1000");
    int above = 0;
    for (int i = 0; i < N; i++)
        above += v[i] > q80;
    PT_CHECK(above >= 195 && above <= 205, "about 20 %% above the high threshold: %d", above);
    PT_CHECK(pt_canny_quantile(v + N, 200, 0.8, hist, 4096) == 0.0f, "all zero -> 0");
}

static void test_higher_quantile_fewer_edges(void)
{
    enum { W = 128, H = 96 };
    static uint8_t img[W * H];
    uint32_t s = 99;
    for (int i = 0; i < W * H; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        img[i] = (uint8_t)(100 + s % 40);
    }
    pt_arena arena;
    pt_arena_init(&arena);
    pt_canny_edges c;
    pt_error err;
    pt_canny_detect(img, W, W, H, 1.0, 0.5, 0.4, &arena, &c, &err);
    int loose = c.edge_count;
    float high_loose = c.high;
    pt_canny_detect(img, W, W, H, 1.0, 0.95, 0.4, &arena, &c, &err);
    PT_CHECK(c.high > high_loose, "higher quantile, higher threshold");
    PT_CHECK(c.edge_count < loose, "higher quantile, fewer edges (%d vs %d)", c.edge_count,
             loose);
    pt_arena_free(&arena);
}

int main(void)
{
    test_disc_edges_on_circle();
    test_blank_has_no_edges();
    test_quantile_from_histogram();
    test_higher_quantile_fewer_edges();
    return PT_TEST_SUMMARY("canny");
}

/* Canny-Hough's flat edges (lib/detect/hough_flat.h) and the dark-edge
 * vote's shared steps (lib/detect/hough_dark_vote.h): a straight edge (a
 * lid's chord) and a circle of the largest radius searched are told apart,
 * a lash across the straight edge does not hide it, and the vote's circles
 * that a candidate before them repeats are dropped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/hough_dark_vote.h"
#include "lib/detect/hough_flat.h"
#include "tests/pt_test.h"

#define W 400
#define H 400

typedef struct {
    uint8_t map[W * H];
    float gx[W * H], gy[W * H];
} edge_map;

/* An edge pixel at (x, y) with gradient (gx, gy). */
static void put(edge_map *m, int x, int y, double gx, double gy)
{
    if (x < 0 || y < 0 || x >= W || y >= H)
        return;
    m->map[y * W + x] = 1;
    m->gx[y * W + x] = (float)gx;
    m->gy[y * W + x] = (float)gy;
}

/* The outline of a circle of radius r at (cx, cy), gradient pointing out
 * (dark inside), a point every half px along it. */
static void circle(edge_map *m, double cx, double cy, double r)
{
    int steps = (int)ceil(4.0 * M_PI * r);
    for (int k = 0; k < steps; k++) {
        double t = k * (2.0 * M_PI / steps);
        put(m, (int)floor(cx + r * cos(t) + 0.5), (int)floor(cy + r * sin(t) + 0.5), cos(t),
            sin(t));
    }
}

/* The share of the edge pixels of m that are flat at reach. */
static double flat_share(const edge_map *m, double reach)
{
    int edges = 0, flat = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (m->map[y * W + x]) {
                edges++;
                flat += pt_hough_flat_edge(m->map, 1, m->gx, m->gy, W, H, x, y, reach);
            }
    return edges ? (double)flat / edges : 0.0;
}

static void test_line_and_circle(void)
{
    int max_r = 160;
    double reach = pt_hough_flat_reach(max_r);
    PT_CHECK(fabs(reach - sqrt(320.0)) < 1e-12, "reach sqrt(2 max_r): %g", reach);
    edge_map *m = calloc(1, sizeof *m);
    /* a lid's chord, slightly tilted, dark below: gradient pointing up */
    for (int x = 40; x < 360; x++)
        put(m, x, (int)floor(150.0 + 0.1 * x + 0.5), 0.1, -1.0);
    double line = flat_share(m, reach);
    PT_CHECK(line > 0.9, "a straight edge is flat: %.2f", line);
    /* lashes across it every 25 px leave it flat */
    for (int x = 50; x < 360; x += 25)
        for (int d = -3; d <= 3; d++)
            m->map[(int)floor(150.0 + 0.1 * x + 0.5) * W + x + d] = 0;
    line = flat_share(m, reach);
    PT_CHECK(line > 0.8, "a straight edge cut by lashes is flat: %.2f", line);
    memset(m, 0, sizeof *m);
    /* pupils up to half the largest radius searched are not (the nearest
     * pixel and the half-px samples across the tangent let a circle of
     * about 0.6 x max_r and more count as flat) */
    for (int r = 20; r <= max_r / 2; r += 20) {
        memset(m, 0, sizeof *m);
        circle(m, 200.0, 200.0, r);
        double share = flat_share(m, reach);
        PT_CHECK(share == 0.0, "circle of radius %d: %.3f of its pixels flat", r, share);
    }
    /* a lid's large curve (radius 4 x max_r) is */
    memset(m, 0, sizeof *m);
    circle(m, 200.0, 200.0 + 4.0 * max_r, 4.0 * max_r);
    double lid = flat_share(m, reach);
    PT_CHECK(lid > 0.9, "radius 4 x max_r: %.2f flat", lid);
    free(m);
}

static void test_dark_vote_new(void)
{
    pt_circle cand[6] = {{100.0, 100.0, 40.0}, {100.0, 100.0, 80.0}, {0, 0, 0}};
    /* the same circle (within 0.05 r and 10 %), then a shifted one */
    cand[2] = (pt_circle){101.0, 100.5, 42.0};
    cand[3] = (pt_circle){110.0, 100.0, 40.0};
    int n = pt_hough_dark_vote_new(cand, 2, 2);
    PT_CHECK(n == 1 && cand[2].cx == 110.0, "the repeat dropped, the shifted circle kept: %d",
             n);
    cand[2] = (pt_circle){100.0, 100.0, 60.0};
    cand[3] = (pt_circle){100.0, 100.0, 75.0};
    n = pt_hough_dark_vote_new(cand, 2, 2);
    PT_CHECK(n == 1 && cand[2].r == 60.0, "radius 60 kept, 75 (within 10 %% of 80) dropped: %d",
             n);
    PT_CHECK(pt_hough_dark_vote_limit(-1.0, 12) < 0, "no seed: no vote");
    PT_CHECK(pt_hough_dark_vote_limit(20.7, 12) == 32, "seed level 20 + 12");
    PT_CHECK(pt_hough_dark_vote_limit(250.0, 12) == 255, "at most 255");
}

int main(void)
{
    test_line_and_circle();
    test_dark_vote_new();
    return PT_TEST_SUMMARY("hough_flat");
}

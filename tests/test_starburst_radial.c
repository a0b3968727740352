/* Starburst's radial votes (lib/detect/starburst_radial.h): a point votes
 * for a circle only when its edge direction lies within vote_angle of the
 * circle's radius through it; and the vectorised count that the CPU's
 * RANSAC takes (pt_ransac_circle_radial_votes, lib/detect/ransac.h) makes
 * the same decision point by point. */
#include <math.h>

#include "lib/detect/ransac.h"
#include "lib/detect/starburst_radial.h"
#include "tests/pt_noise.h"
#include "tests/pt_test.h"

static pt_test_rng rng = {0x13198A2E03707344ULL};

static pt_sb_config config(double angle)
{
    pt_sb_config k = {0};
    k.vote_cos = angle > 0 ? cos(angle * M_PI / 180.0) : -2.0;
    return k;
}

static pt_point dir(double deg)
{
    pt_point n = {(float)cos(deg * M_PI / 180.0), (float)sin(deg * M_PI / 180.0)};
    return n;
}

/* The count point by point: pt_sb_circle_vote && pt_sb_radial_vote. */
static int plain_count(const pt_sb_config *k, const pt_circle *c, const pt_point *p,
                       const pt_point *d, int n)
{
    int votes = 0;
    for (int j = 0; j < n; j++)
        votes += pt_sb_circle_vote(k, c, p[j].x, p[j].y) && pt_sb_radial_vote(k, c, p[j], d[j]);
    return votes;
}

/* Random circles and points on, near and off them, with directions radial,
 * a little off, at the angle's edge to the last bit, across, zero, or at the
 * centre: the vectorised count equals the plain one, and with beat it is
 * exact above beat and at most beat otherwise. */
static void test_vector_count(void)
{
    enum { N = 150 };
    pt_point p[N], d[N];
    int differ = 0, early_wrong = 0, cases = 0, voted = 0, refused = 0, one_root_differ = 0;
    for (int trial = 0; trial < 4000; trial++) {
        double angle = trial % 5 == 0 ? 20 : 1 + 80 * pt_test_uniform(&rng);
        pt_sb_config k = config(angle);
        k.circle_votes = PT_SB_VOTES_INLIER;
        k.inlier = trial % 3 == 0 ? 2.0 : 0.2 + 6 * pt_test_uniform(&rng);
        pt_circle c = {1280 * pt_test_uniform(&rng), 1024 * pt_test_uniform(&rng),
                       2 + 300 * pt_test_uniform(&rng)};
        for (int j = 0; j < N; j++) {
            double a = 2 * M_PI * pt_test_uniform(&rng);
            double rad = j % 4 == 0 ? c.r * 2 * pt_test_uniform(&rng)
                                    : c.r + pt_test_gauss(&rng, k.inlier);
            p[j].x = (float)(c.cx + rad * cos(a));
            p[j].y = (float)(c.cy + rad * sin(a));
            double dx = p[j].x - c.cx, dy = p[j].y - c.cy;
            double off;
            switch (j % 6) {
            case 0: off = 0; break;
            case 1: off = angle * (2 * pt_test_uniform(&rng) - 1) * 1.2; break;
            case 2: off = (j % 12 < 6 ? 1 : -1) * angle; break;        /* the edge */
            case 3: off = 180 * (2 * pt_test_uniform(&rng) - 1); break; /* anything */
            default: off = 0;
            }
            double base = atan2(dy, dx), t = base + off * M_PI / 180.0;
            d[j].x = (float)cos(t);
            d[j].y = (float)sin(t);
            if (j % 6 == 2) /* nudge across the edge by the float neighbours */
                d[j].x = nextafterf(d[j].x, (trial + j) % 3 == 0 ? INFINITY : -INFINITY);
            if (j % 6 == 4)
                d[j].x = d[j].y = 0.0f; /* no direction */
            if (j % 6 == 5 && trial % 7 != 0) { /* along an axis: a lid's or a column's edge */
                d[j].x = (float)((j / 6) % 3 - 1);
                d[j].y = d[j].x != 0.0f ? 0.0f : ((j / 6) % 2 ? 1.0f : -1.0f);
            }
            if (j % 6 == 5 && trial % 7 == 0) { /* the centre */
                p[j].x = (float)c.cx;
                p[j].y = (float)c.cy;
                c.cx = p[j].x;
                c.cy = p[j].y;
            }
        }
        /* the one-root form the GPU counts with */
        for (int j = 0; j < N; j++)
            one_root_differ += pt_sb_circle_radial_vote(&k, &c, p[j], d[j]) !=
                               (pt_sb_circle_vote(&k, &c, p[j].x, p[j].y) &&
                                pt_sb_radial_vote(&k, &c, p[j], d[j]));
        for (int n = 0; n <= N; n += trial % 2 ? 37 : 1) {
            int want = plain_count(&k, &c, p, d, n);
            differ += pt_ransac_circle_radial_votes(p, d, n, &c, k.inlier, k.vote_cos, -1) != want;
            int beat = (int)(n * pt_test_uniform(&rng));
            int got = pt_ransac_circle_radial_votes(p, d, n, &c, k.inlier, k.vote_cos, beat);
            early_wrong += want > beat ? got != want : got > beat;
            cases++;
        }
        for (int j = 0; j < N; j++)
            if (pt_sb_circle_vote(&k, &c, p[j].x, p[j].y)) {
                if (pt_sb_radial_vote(&k, &c, p[j], d[j]))
                    voted++;
                else
                    refused++;
            }
    }
    PT_CHECK(differ == 0, "vectorised radial count equals the plain one: %d differences in %d",
             differ, cases);
    PT_CHECK(early_wrong == 0, "early stop keeps the decision: %d wrong in %d", early_wrong, cases);
    PT_CHECK(one_root_differ == 0, "pt_sb_circle_radial_vote equals the two tests: %d differences",
             one_root_differ);
    PT_CHECK(voted > 10000 && refused > 10000, "both decisions tested: %d votes, %d refused",
             voted, refused);
    /* a tie, dx nx + dy ny == min_cos x distance exactly, votes */
    pt_sb_config half = config(60);
    half.vote_cos = 0.5;
    half.circle_votes = PT_SB_VOTES_INLIER;
    half.inlier = 2.0;
    pt_circle c10 = {100.0, 100.0, 10.0};
    pt_point tie = {110.0f, 100.0f}, tie_dir = {0.5f, 0.8660254f};
    PT_CHECK(pt_sb_circle_radial_vote(&half, &c10, tie, tie_dir),
             "a direction exactly at the angle votes (one root)");
    PT_CHECK(pt_sb_radial_vote(&half, &c10, tie, tie_dir) &&
                 pt_ransac_circle_radial_votes(&tie, &tie_dir, 1, &c10, 2.0, 0.5, -1) == 1,
             "a direction exactly at the angle votes");
    pt_circle bad = {NAN, 0, 5};
    PT_CHECK(pt_ransac_circle_radial_votes(p, d, N, &bad, 2.0, 0.9, -1) == 0,
             "NaN centre: no votes");
}

int main(void)
{
    pt_circle c = {100.0, 80.0, 40.0};
    pt_sb_config on = config(20), off = config(0);
    PT_CHECK(pt_sb_radial_on(&on) && !pt_sb_radial_on(&off), "vote_angle 0 is off");
    pt_sb_config band = on;
    band.circle_votes = PT_SB_VOTES_BAND;
    PT_CHECK(!pt_sb_radial_on(&band), "circle_votes=band: every point in the band votes");
    /* a point on the circle at 30 degrees, its edge direction radial */
    pt_point p = {(float)(100 + 40 * cos(M_PI / 6)), (float)(80 + 40 * sin(M_PI / 6))};
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, dir(30)), "a radial edge direction votes");
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, dir(45)), "15 degrees off: within 20");
    PT_CHECK(!pt_sb_radial_vote(&on, &c, p, dir(55)), "25 degrees off: not within 20");
    PT_CHECK(!pt_sb_radial_vote(&on, &c, p, dir(210)), "dark outside (inward rise) never votes");
    /* a lid's edge across the circle's top: direction straight up (bright lid above) */
    pt_point lid = {(float)(100 + 30), (float)(80 - 26.46)};
    PT_CHECK(!pt_sb_radial_vote(&on, &c, lid, dir(-90)),
             "a horizontal lid edge 49 degrees from the radius does not vote");
    pt_point top = {100.0f, 40.0f};
    PT_CHECK(pt_sb_radial_vote(&on, &c, top, dir(-90)), "where the lid touches the top it does");
    /* nothing to test: off, a zero direction, the centre */
    PT_CHECK(pt_sb_radial_vote(&off, &c, p, dir(120)), "off: every point votes");
    pt_point zero = {0.0f, 0.0f}, centre = {100.0f, 80.0f};
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, zero), "no edge direction: votes");
    PT_CHECK(pt_sb_radial_vote(&on, &c, centre, dir(0)), "the centre: votes");
    test_vector_count();
    return PT_TEST_SUMMARY("starburst_radial");
}

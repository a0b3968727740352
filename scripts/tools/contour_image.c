/* Binary test images for the contours benchmark, as 8-bit PGM (0 / 255) on
 * stdout: contour_image KIND WIDTH HEIGHT [SEED]
 *   sparse  few borders: 24 rings (filled ellipses with an elliptical hole)
 *   blobs   many borders: 10 % of the area in small random ellipses, some with holes
 *   blocks  many borders: 50 % random 8x8 blocks
 *   noise   most borders: 50 % random pixels
 * Build: cc -O2 -o build/tools/contour_image scripts/tools/contour_image.c */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double uniform(double lo, double hi) { return lo + (hi - lo) * (double)(rng() >> 11) / 9007199254740992.0; }

/* Paint the ellipse (cx, cy, a, b, theta) with value v. */
static void ellipse(uint8_t *img, int w, int h, double cx, double cy, double a, double b,
                    double th, uint8_t v)
{
    double c = cos(th), s = sin(th), r = a > b ? a : b;
    int x0 = (int)floor(cx - r), x1 = (int)ceil(cx + r);
    int y0 = (int)floor(cy - r), y1 = (int)ceil(cy + r);
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > w - 1) x1 = w - 1;
    if (y1 > h - 1) y1 = h - 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            double dx = x - cx, dy = y - cy;
            double u = (dx * c + dy * s) / a, t = (-dx * s + dy * c) / b;
            if (u * u + t * t <= 1.0)
                img[(size_t)y * w + x] = v;
        }
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: contour_image sparse|blobs|blocks|noise WIDTH HEIGHT [SEED]\n");
        return 2;
    }
    const char *kind = argv[1];
    int w = atoi(argv[2]), h = atoi(argv[3]);
    rng_state = 0x9e3779b97f4a7c15ULL ^ (argc > 4 ? strtoull(argv[4], NULL, 10) : 1);
    if (w < 1 || h < 1 || (long long)w * h > (1LL << 30)) {
        fprintf(stderr, "contour_image: bad size %sx%s\n", argv[2], argv[3]);
        return 2;
    }
    uint8_t *img = calloc((size_t)w * h, 1);
    if (!img) {
        fprintf(stderr, "contour_image: out of memory\n");
        return 1;
    }
    double side = w < h ? w : h;
    if (!strcmp(kind, "sparse")) {
        for (int i = 0; i < 24; i++) {
            double a = uniform(0.03, 0.1) * side, b = a * uniform(0.5, 1.0);
            double cx = uniform(0, w), cy = uniform(0, h), th = uniform(0, M_PI);
            ellipse(img, w, h, cx, cy, a, b, th, 255);
            ellipse(img, w, h, cx, cy, a * 0.6, b * 0.6, th, 0);
        }
    } else if (!strcmp(kind, "blobs")) {
        double area = 0;
        while (area < 0.1 * w * h) {
            double a = uniform(2, 12), b = a * uniform(0.4, 1.0);
            double cx = uniform(0, w), cy = uniform(0, h), th = uniform(0, M_PI);
            ellipse(img, w, h, cx, cy, a, b, th, 255);
            if (a > 6 && rng() % 2)
                ellipse(img, w, h, cx, cy, a * 0.4, b * 0.4, th, 0);
            area += M_PI * a * b;
        }
    } else if (!strcmp(kind, "blocks")) {
        for (int by = 0; by < h; by += 8)
            for (int bx = 0; bx < w; bx += 8) {
                uint8_t v = rng() % 2 ? 255 : 0;
                for (int y = by; y < by + 8 && y < h; y++)
                    memset(img + (size_t)y * w + bx, v, (size_t)(bx + 8 <= w ? 8 : w - bx));
            }
    } else if (!strcmp(kind, "noise")) {
        for (size_t i = 0; i < (size_t)w * h; i++)
            img[i] = rng() >> 63 ? 255 : 0;
    } else {
        fprintf(stderr, "contour_image: unknown kind '%s'\n", kind);
        free(img);
        return 2;
    }
    printf("P5\n%d %d\n255\n", w, h);
    int ok = fwrite(img, 1, (size_t)w * h, stdout) == (size_t)w * h && fflush(stdout) == 0;
    free(img);
    if (!ok) {
        fprintf(stderr, "contour_image: cannot write\n");
        return 1;
    }
    return 0;
}

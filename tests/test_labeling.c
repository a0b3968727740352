/* Labeling equals a brute-force flood fill: same partition, sizes, boxes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp/detect/labeling.h"
#include "tests/pt_test.h"

static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Reference: 8-connected flood fill with an explicit stack. */
static int flood_fill(const uint8_t *mask, int w, int h, int *ref, int *stack)
{
    int count = 0;
    memset(ref, 0, (size_t)w * (size_t)h * sizeof *ref);
    for (int i = 0; i < w * h; i++) {
        if (!mask[i] || ref[i])
            continue;
        count++;
        int top = 0;
        stack[top++] = i;
        ref[i] = count;
        while (top) {
            int p = stack[--top], px = p % w, py = p / w;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int x = px + dx, y = py + dy;
                    if (x < 0 || y < 0 || x >= w || y >= h)
                        continue;
                    int q = y * w + x;
                    if (mask[q] && !ref[q]) {
                        ref[q] = count;
                        stack[top++] = q;
                    }
                }
        }
    }
    return count;
}

static void check_random_mask(int w, int h, int density_pct, uint32_t seed)
{
    uint8_t *mask = malloc((size_t)w * h);
    int *ref = malloc((size_t)w * h * sizeof *ref);
    int *stack = malloc((size_t)w * h * sizeof *stack);
    int *map = malloc(((size_t)w * h + 1) * sizeof *map);
    int *ref_size = calloc((size_t)w * h + 1, sizeof *ref_size);
    for (int i = 0; i < w * h; i++)
        mask[i] = (int)(rng_next(&seed) % 100) < density_pct;
    int ref_count = flood_fill(mask, w, h, ref, stack);

    pt_arena arena;
    pt_arena_init(&arena);
    pt_labeling lab;
    pt_error err;
    pt_status st = pt_labeling_reserve(&lab, w, h, &arena, &err);
    PT_CHECK(st == PT_OK, "labeling failed");
    /* Label a different mask first: reuse must not leak old labels. */
    pt_label_components(mask, w, w / 2, h, &lab);
    pt_label_components(mask, w, w, h, &lab);
    PT_CHECK(lab.count == ref_count, "%dx%d %d%%: %d components, flood fill %d", w, h,
             density_pct, lab.count, ref_count);

    /* Same partition: labels correspond one-to-one. */
    for (int i = 0; i <= w * h; i++)
        map[i] = 0;
    int mismatches = 0;
    for (int i = 0; i < w * h; i++) {
        int l = lab.labels[i], r = ref[i];
        if ((l == 0) != (r == 0)) {
            mismatches++;
            continue;
        }
        if (!l)
            continue;
        ref_size[r]++;
        if (!map[r])
            map[r] = l;
        else if (map[r] != l)
            mismatches++;
    }
    PT_CHECK(mismatches == 0, "%d pixels disagree with the flood fill", mismatches);
    int size_bad = 0, box_bad = 0;
    for (int r = 1; r <= ref_count && lab.count == ref_count; r++) {
        int l = map[r];
        if (l < 1 || l > lab.count || lab.blobs[l - 1].size != ref_size[r])
            size_bad++;
    }
    PT_CHECK(size_bad == 0, "%d component sizes differ", size_bad);
    /* Boxes contain every pixel of their component and are tight. */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int l = lab.labels[y * w + x];
            if (!l)
                continue;
            const pt_blob *b = &lab.blobs[l - 1];
            if (x < b->x0 || x > b->x1 || y < b->y0 || y > b->y1)
                box_bad++;
        }
    PT_CHECK(box_bad == 0, "%d pixels outside their bounding box", box_bad);
    pt_arena_free(&arena);
    free(mask);
    free(ref);
    free(stack);
    free(map);
    free(ref_size);
}

static void test_spiral_merges_late(void)
{
    /* A U shape whose arms only join at the bottom: one component. */
    enum { W = 9, H = 6 };
    uint8_t mask[W * H] = {0};
    for (int y = 0; y < H; y++) {
        mask[y * W + 1] = 1;
        mask[y * W + 7] = 1;
    }
    for (int x = 1; x <= 7; x++)
        mask[(H - 1) * W + x] = 1;
    mask[0 * W + 4] = 1; /* isolated dot */
    pt_arena arena;
    pt_arena_init(&arena);
    pt_labeling lab;
    pt_error err;
    PT_CHECK(pt_labeling_reserve(&lab, W, H, &arena, &err) == PT_OK, "U shape");
    pt_label_components(mask, W, W, H, &lab);
    PT_CHECK(lab.count == 2, "U shape plus dot: %d components", lab.count);
    PT_CHECK(lab.count == 2 && lab.blobs[0].size == 2 * H + 5, "U size %d",
             lab.count ? lab.blobs[0].size : -1);
    PT_CHECK(lab.count == 2 && lab.blobs[0].touches_border && lab.blobs[1].touches_border,
             "both touch the border");
    pt_arena_free(&arena);
}

static void test_diagonal_is_connected(void)
{
    enum { N = 16 };
    uint8_t mask[N * N] = {0};
    for (int i = 0; i < N; i++)
        mask[i * N + (N - 1 - i)] = 1; /* anti-diagonal needs the c neighbour */
    pt_arena arena;
    pt_arena_init(&arena);
    pt_labeling lab;
    pt_error err;
    pt_labeling_reserve(&lab, N, N, &arena, &err);
    pt_label_components(mask, N, N, N, &lab);
    PT_CHECK(lab.count == 1 && lab.blobs[0].size == N, "anti-diagonal: %d components",
             lab.count);
    pt_arena_free(&arena);
}

int main(void)
{
    test_spiral_merges_late();
    test_diagonal_is_connected();
    uint32_t seed = 12345;
    for (int d = 10; d <= 90; d += 10) {
        check_random_mask(97, 61, d, seed + (uint32_t)d);
        check_random_mask(1, 50, d, seed * 3 + (uint32_t)d);
        check_random_mask(50, 1, d, seed * 7 + (uint32_t)d);
        check_random_mask(256, 200, d, seed * 11 + (uint32_t)d);
    }
    return PT_TEST_SUMMARY("labeling");
}

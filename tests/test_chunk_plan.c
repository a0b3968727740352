/* How the CUDA back end cuts calls into chunks (cuda/detect/chunk_plan.c): plain
 * host arithmetic, tested without a GPU. */
#include <stdio.h>
#include <string.h>

#include "cuda/detect/chunk_plan.h"
#include "tests/pt_test.h"

#define MAX_CHUNKS 256

/* The chunk sizes of an n-frame call of same-size frames, as cuda/detect/backend.cu
 * cuts it; returns their number. */
static int cut(const pt_chunk_plan *plan, int n, int *sizes)
{
    int k = 0;
    for (int i = 0; i < n && k < MAX_CHUNKS; k++) {
        int limit = pt_chunk_limit(plan, n, i);
        sizes[k] = limit < n - i ? limit : n - i;
        i += sizes[k];
    }
    return k;
}

/* The call cuts into exactly the sizes expected[0..count). */
static void expect_cut(const pt_chunk_plan *plan, int n, const int *expected, int count,
                       const char *what)
{
    int sizes[MAX_CHUNKS];
    int k = cut(plan, n, sizes);
    int same = k == count;
    for (int j = 0; same && j < k; j++)
        same = sizes[j] == expected[j];
    char got[512] = "";
    for (int j = 0, used = 0; j < k && used < (int)sizeof got - 8; j++)
        used += snprintf(got + used, sizeof got - (size_t)used, "%s%d", j ? "," : "", sizes[j]);
    PT_CHECK(same, "%s: chunks %s", what, got);
}

/* Every call of 1..400 frames: the chunks cover it, each within 1..chunk,
 * the first and the end ones at most half a chunk and a stream's share
 * (not in a sequence or a submitted call). */
static void every_call(const pt_chunk_plan *plan, const char *what)
{
    int bad = 0;
    for (int n = 1; n <= 400; n++) {
        int sizes[MAX_CHUNKS], k = cut(plan, n, sizes), total = 0;
        int share = (n + plan->streams - 1) / plan->streams;
        for (int j = 0; j < k; j++) {
            total += sizes[j];
            int end = j == 0 || n - (total - sizes[j]) <= plan->chunk;
            if (sizes[j] < 1 || sizes[j] > plan->chunk ||
                (!plan->sequence && !plan->submitted && end && (sizes[j] > plan->chunk / 2 || sizes[j] > share)))
                bad++;
        }
        if (total != n)
            bad++;
    }
    PT_CHECK(bad == 0, "%s: %d bad chunks over calls of 1..400 frames", what, bad);
}

int main(void)
{
    pt_chunk_plan plan = {64, 4, 0, 10, 3, 0};
    /* bench's default batch: half chunks at both ends */
    expect_cut(&plan, 256, (const int[]){32, 64, 64, 64, 32}, 5, "256 frames, 4 streams");
    /* track's calls: a stream's share each */
    expect_cut(&plan, 32, (const int[]){8, 8, 8, 8}, 4, "32 frames, 4 streams");
    expect_cut(&plan, 2, (const int[]){1, 1}, 2, "2 frames, 4 streams");
    expect_cut(&plan, 1, (const int[]){1}, 1, "1 frame");
    expect_cut(&plan, 100, (const int[]){25, 64, 11}, 3, "100 frames, 4 streams");
    every_call(&plan, "4 streams");
    plan.streams = 1;
    expect_cut(&plan, 32, (const int[]){32}, 1, "32 frames, 1 stream");
    expect_cut(&plan, 256, (const int[]){32, 64, 64, 64, 32}, 5, "256 frames, 1 stream");
    every_call(&plan, "1 stream");
    plan.streams = 8;
    every_call(&plan, "8 streams");
    /* frames so large that a chunk holds fewer than 8: no end chunks */
    plan.chunk = 5;
    plan.streams = 4;
    expect_cut(&plan, 12, (const int[]){5, 5, 2}, 3, "chunk of 5");
    /* a submitted call: full chunks, also at its ends */
    plan = (pt_chunk_plan){64, 4, 0, 10, 3, 1};
    expect_cut(&plan, 256, (const int[]){64, 64, 64, 64}, 4, "256 frames submitted");
    expect_cut(&plan, 100, (const int[]){64, 36}, 2, "100 frames submitted");
    expect_cut(&plan, 32, (const int[]){32}, 1, "32 frames submitted");
    every_call(&plan, "submitted");
    /* --sequence: chunks of `chunk` in order */
    pt_chunk_plan seq = {16, 4, 1, 10, 3, 0};
    expect_cut(&seq, 40, (const int[]){16, 16, 8}, 3, "--sequence 40 frames");
    every_call(&seq, "--sequence");

    /* the early look: only a call that is one chunk, never in a sequence */
    plan = (pt_chunk_plan){64, 4, 0, 10, 3, 0};
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 3, "one frame: early look after 3");
    PT_CHECK(pt_chunk_iterations(&plan, 32, 0, 8) == 10, "a call of several chunks: all 10");
    PT_CHECK(pt_chunk_iterations(&plan, 32, 8, 8) == 10, "a later chunk: all 10");
    plan.streams = 1;
    PT_CHECK(pt_chunk_iterations(&plan, 32, 0, 32) == 3, "one chunk on one stream: early look");
    plan.max_iterations = 3;
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 3, "max_iterations 3: all of them");
    plan.max_iterations = 2;
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 2, "max_iterations 2: all of them");
    plan.max_iterations = 0;
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 1, "max_iterations 0 counts as 1");
    plan.max_iterations = 10;
    plan.early = 0;
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 10, "no early look (tl, hough)");
    plan.early = 3;
    plan.submitted = 1;
    PT_CHECK(pt_chunk_iterations(&plan, 1, 0, 1) == 10, "submitted: no early look");
    seq.max_iterations = 10;
    PT_CHECK(pt_chunk_iterations(&seq, 1, 0, 1) == 10, "--sequence: no early look");
    return PT_TEST_SUMMARY("chunk_plan");
}

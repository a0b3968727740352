#include "lib/detect/notfound_reason.h"

#include <stdio.h>
#include <string.h>

/* An eye region whose central 98 % of grey values spans fewer levels has no
 * edge a detector could follow. */
#define FLAT_SPAN 12
/* A region whose 99th percentile lies below this uses a sliver of 0..255:
 * typically 16-bit data with fewer significant bits read at full scale. */
#define DARK_TOP 48

/* Grey value below which lies the given share of pixels. */
static int percentile(const long *histogram, long total, double share)
{
    long want = (long)(share * (double)total), seen = 0;
    for (int v = 0; v < 256; v++) {
        seen += histogram[v];
        if (seen > want)
            return v;
    }
    return 255;
}

/* The detector's own reason for finding no pupil. */
static const char *detector_reason(pt_algorithm alg)
{
    if (alg == PT_ALG_TL)
        return "tl: no dark region of pupil size and shape at any threshold";
    if (alg == PT_ALG_HOUGH)
        return "hough: no circle with enough edge support in the radius range";
    return "starburst: no ray edge points fit a pupil boundary";
}

static void explain(pt_result *res, const pt_image *frame, int x0, int width, pt_algorithm alg)
{
    long histogram[256] = {0};
    for (int y = 0; y < frame->height; y++) {
        const uint8_t *row = frame->buf + (size_t)y * frame->stride + x0;
        for (int x = 0; x < width; x++)
            histogram[row[x]]++;
    }
    long total = (long)width * frame->height;
    int low = percentile(histogram, total, 0.01), high = percentile(histogram, total, 0.99);
    if (total == 0)
        snprintf(res->message, sizeof res->message, "empty eye region");
    else if (low == high)
        snprintf(res->message, sizeof res->message, "uniform image: grey value %d throughout",
                 low);
    else if (high < DARK_TOP && high - low < FLAT_SPAN)
        snprintf(res->message, sizeof res->message,
                 "image too dark: 99 %% of grey values below %d (16-bit samples with fewer "
                 "significant bits? see --bits)",
                 high + 1);
    else if (high - low < FLAT_SPAN)
        snprintf(res->message, sizeof res->message,
                 "no contrast: 98 %% of grey values within %d..%d", low, high);
    else if (high < DARK_TOP)
        /* a dark eye (a dim camera) may still hold a pupil the detector
         * missed: its reason first, the darkness as a hint */
        snprintf(res->message, sizeof res->message,
                 "%s; image dark: 99 %% of grey values below %d (16-bit samples with fewer "
                 "significant bits? see --bits)",
                 detector_reason(alg), high + 1);
    else
        snprintf(res->message, sizeof res->message, "%s", detector_reason(alg));
}

void pt_explain_notfound(pt_result *res, int eyes, const pt_image *frame, pt_algorithm alg)
{
    for (int e = 0; e < eyes; e++) {
        if (res[e].status != PT_DETECT_NOTFOUND || res[e].message[0])
            continue;
        int half = eyes == 2 ? frame->width / 2 : frame->width;
        int x0 = eyes == 2 && e == 1 ? half : 0;
        int width = eyes == 2 && e == 1 ? frame->width - half : half;
        explain(&res[e], frame, x0, width, alg);
    }
}

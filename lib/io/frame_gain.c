/* Gain of dark frames (frame_gain.h). */
#include "lib/io/frame_gain.h"

#include <stddef.h>

double pt_frame_gain_auto(const pt_image *img)
{
    long hist[PT_GAIN_SATURATED] = {0};
    long n = 0;
    int step = 1;
    while ((long)(img->width / (step + 1)) * (img->height / (step + 1)) >= PT_GAIN_SAMPLES)
        step++;
    for (int y = 0; y < img->height; y += step) {
        const uint8_t *row = img->buf + (size_t)y * (size_t)img->stride;
        for (int x = 0; x < img->width; x += step)
            if (row[x] < PT_GAIN_SATURATED)
                hist[row[x]]++;
    }
    for (int v = 0; v < PT_GAIN_SATURATED; v++)
        n += hist[v];
    if (n == 0)
        return 1.0;
    /* the least level with at least 99 % of the counted pixels at or below it */
    long need = n - n / 100, seen = 0;
    int p99 = 0;
    while (p99 < PT_GAIN_SATURATED - 1 && (seen += hist[p99]) < need)
        p99++;
    if (p99 >= PT_GAIN_TARGET)
        return 1.0;
    double gain = p99 > 0 ? (double)PT_GAIN_TARGET / p99 : PT_GAIN_MAX;
    return gain > PT_GAIN_MAX ? PT_GAIN_MAX : gain;
}

double pt_frame_gain_resolve(const pt_load_options *opt, const pt_image *first)
{
    if (opt && opt->gain >= 1.0)
        return opt->gain;
    return first ? pt_frame_gain_auto(first) : 1.0;
}

void pt_frame_gain_apply(pt_image *img, double gain)
{
    if (!img || !(gain != 1.0))
        return;
    uint8_t lut[256];
    for (int v = 0; v < 256; v++) {
        double g = v * gain + 0.5;
        lut[v] = g >= 255.0 ? 255 : (uint8_t)g;
    }
    for (int y = 0; y < img->height; y++) {
        uint8_t *row = img->buf + (size_t)y * (size_t)img->stride;
        for (int x = 0; x < img->width; x++)
            row[x] = lut[row[x]];
    }
}

void pt_frame_gain_frames(const pt_load_options *opt, pt_frames *frames)
{
    const pt_image *first = NULL;
    for (int i = 0; i < frames->count && !first; i++)
        first = frames->frames[i];
    double gain = pt_frame_gain_resolve(opt, first);
    for (int i = 0; i < frames->count; i++)
        pt_frame_gain_apply(frames->frames[i], gain);
}

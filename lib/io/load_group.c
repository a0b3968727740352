/* Decoding several inputs of track at the same time (see load_group.h).
 * Decoding a file runs on one thread; one file after the other, it was most
 * of track's time: a 1280x1024 PNG takes ~18 ms to decode, against ~3 ms to
 * track it on two cores and under 1 ms on sixteen. */
#include <omp.h>
#include <string.h>
#include <strings.h>

#include "lib/io/load_group.h"
#include "lib/io/pt_stack.h"
#include "lib/io/pt_video.h"

/* A file of many frames: a TIFF, a .npy/.raw stack or a video. */
static int is_tiff(const char *path)
{
    const char *dot = strrchr(path, '.');
    return (dot && (!strcasecmp(dot, ".tif") || !strcasecmp(dot, ".tiff"))) ||
           pt_stack_path_kind(path) || pt_video_path_is_video(path);
}

int pt_load_group_size(char *const *paths, int count, int max)
{
    if (count < 1 || max < 1 || is_tiff(paths[0]))
        return 1;
    int k = 1;
    while (k < count && k < max && !is_tiff(paths[k]))
        k++;
    return k;
}

void pt_load_group(char *const *paths, int count, const pt_load_options *opt, int threads,
                   pt_loaded_input *out)
{
    int team = threads > 0 ? threads : omp_get_max_threads();
    if (team > count)
        team = count;
#pragma omp parallel for num_threads(team > 0 ? team : 1) schedule(dynamic, 1)
    for (int k = 0; k < count; k++) {
        memset(&out[k].frames, 0, sizeof out[k].frames);
        pt_error_clear(&out[k].err);
        out[k].status = pt_image_load(paths[k], opt, &out[k].frames, &out[k].err);
    }
}

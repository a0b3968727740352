/* Decoding several image files at the same time (track, bench, sweep). */
#ifndef PT_LOAD_GROUP_H
#define PT_LOAD_GROUP_H

#include "lib/io/pt_image.h"

/* Files a caller decodes at once (bench, sweep). */
#define PT_LOAD_GROUP 32

/* One input, decoded: its frames, or the status and error that say why not. */
typedef struct {
    pt_frames frames;
    pt_status status;
    pt_error err;
} pt_loaded_input;

/* How many of paths[0..count) (count >= 1) make the next group: up to max
 * files, ending before a TIFF file, a .npy/.raw stack or a video; these may hold many
 * frames and are a group of their own. Returns at least 1. */
int pt_load_group_size(char *const *paths, int count, int max);

/* Decode paths[0..count) into out[0..count), files side by side on up to
 * threads threads (0: all cores). Each out[k] is independent: free its
 * frames with pt_frames_free. */
void pt_load_group(char *const *paths, int count, const pt_load_options *opt, int threads,
                   pt_loaded_input *out);

#endif

/* libFuzzer target for the raw stack readers (pt_stack.h): any byte string
 * must parse as a .npy or a .raw stack, or fail with a reason; every frame
 * of a parsed stack is read. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/io/pt_stack.h"

/* Read every frame (at most a few, to keep runs fast) and touch its last pixel. */
static void read_frames(const pt_stack *s, int bits, pt_error *err)
{
    for (long i = 0; i < s->count && i < 4; i++) {
        pt_image *img = pt_stack_frame(s, i, bits);
        if (!img)
            continue; /* out of memory for a large frame: allowed */
        if (img->buf[(size_t)(img->height - 1) * img->stride + img->width - 1] == 0x5a)
            err->what[0] = 'x';
        pt_image_destroy(img);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pt_stack s;
    pt_error err;
    int bits = size ? 8 + data[size - 1] % 9 : 16;
    pt_error_clear(&err);
    if (pt_stack_parse_npy(data, size, "fuzz.npy", &s, &err) == PT_OK)
        read_frames(&s, bits, &err);
    else if (err.what[0] == '\0')
        abort(); /* a failure must say why */

    /* .raw: the frame layout from the first three bytes, the rest as frames */
    if (size >= 3) {
        int width = data[0] % 64, height = data[1] % 64, depth = data[2] & 1 ? 16 : 8;
        pt_error_clear(&err);
        if (pt_stack_parse_raw(data + 3, size - 3, "fuzz.raw", width, height, depth, &s,
                               &err) == PT_OK) {
            if ((size_t)s.count * s.frame_bytes != size - 3)
                abort(); /* frames cover the file exactly */
            read_frames(&s, bits, &err);
        } else if (err.what[0] == '\0') {
            abort();
        }
    }
    return 0;
}

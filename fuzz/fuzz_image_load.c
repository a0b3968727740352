/* libFuzzer target: any byte string must load cleanly or fail with a reason. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/io/pt_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pt_load_options opt;
    pt_load_options_default(&opt);
    /* vary the options from the last byte so both reductions and page
     * selection are exercised without changing the format detection */
    if (size > 0) {
        opt.significant_bits = 8 + data[size - 1] % 9;
        opt.page = (data[size - 1] >> 4) % 4 - 1;
    }
    pt_frames frames;
    pt_error err;
    pt_error_clear(&err);
    pt_status st = pt_image_load_memory(data, size, "fuzz", &opt, &frames, &err);
    if (st == PT_OK) {
        for (int i = 0; i < frames.count; i++) {
            const pt_image *img = frames.frames[i];
            /* touch the last pixel so a short buffer would be caught by ASan */
            if (img->buf[(size_t)(img->height - 1) * img->stride + img->width - 1] == 0x5a)
                err.what[0] = 'x';
        }
    } else if (err.what[0] == '\0' || frames.count != 0 || frames.frames != NULL) {
        abort(); /* a failure must say why and leave out empty */
    }
    pt_frames_free(&frames);
    return 0;
}

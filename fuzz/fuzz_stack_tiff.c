/* libFuzzer target for the TIFF page table read from a mapping
 * (pt_stack_parse_tiff): any byte string parses or fails with a reason;
 * every page is read (in place, converted, through libtiff or refused with
 * a reason), and a page read from its run of pixels equals libtiff's
 * decoding of that page whenever libtiff decodes it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/image_decode.h"
#include "lib/io/pt_stack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pt_stack s;
    pt_error err;
    pt_error_clear(&err);
    if (pt_stack_parse_tiff(data, size, "fuzz.tif", &s, &err)) {
        if (err.what[0] == '\0')
            abort(); /* a failure must say why */
        return 0;
    }
    pt_load_options opt;
    pt_load_options_default(&opt);
    for (long i = 0; i < s.count && i < 8; i++) {
        pt_image view, *img = NULL, *ref = NULL;
        int in_place = pt_stack_frame_in_place(&s, i, &view);
        pt_error_clear(&err);
        pt_status st = pt_stack_read_frame(&s, i, &opt, "fuzz.tif", &img, &err);
        if (st != PT_OK && err.what[0] == '\0')
            abort();
        if (in_place && (st != PT_OK || !pt_image_same_pixels(&view, img)))
            abort(); /* in place and converted agree */
        pt_tiff_page *p = &s.pages[i];
        if (st == PT_OK && (p->read == PT_PAGE_IN_PLACE || p->read == PT_PAGE_CONVERT) &&
            pt_tiff_decode_page(data, size, "fuzz.tif", p->ifd, (int)i, &opt, &ref, &err) ==
                PT_OK &&
            !pt_image_same_pixels(img, ref))
            abort(); /* the mapped reading is libtiff's */
        pt_image_destroy(ref);
        pt_image_destroy(img);
    }
    pt_stack_close(&s);
    return 0;
}

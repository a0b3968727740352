/* The page table of a TIFF file read straight from memory (a mapped file):
 * classic TIFF and BigTIFF, either byte order (TIFF 6.0, sections 2 and 7;
 * BigTIFF: 8-byte offsets and counts). A page whose pixels lie uncompressed
 * in one run (one strip, or strips that follow each other without gaps) is
 * read where it lies; any other page is left to libtiff (pupiltrack(1),
 * INPUTS). */
#include "lib/io/pt_stack.h"

#include <stdlib.h>
#include <string.h>

#include "lib/io/image_decode.h"

/* Tags (TIFF 6.0, section 8 and appendix A). */
enum {
    TAG_WIDTH = 256,
    TAG_HEIGHT = 257,
    TAG_BITS = 258,
    TAG_COMPRESSION = 259,
    TAG_PHOTOMETRIC = 262,
    TAG_FILL_ORDER = 266,
    TAG_STRIP_OFFSETS = 273,
    TAG_SAMPLES = 277,
    TAG_ROWS_PER_STRIP = 278,
    TAG_STRIP_BYTES = 279,
    TAG_MAX_SAMPLE = 281,
    TAG_PLANAR = 284,
    TAG_TILE_WIDTH = 322,
    TAG_TILE_OFFSETS = 324,
    TAG_SAMPLE_FORMAT = 339
};

/* Field types and their sizes in bytes. */
enum { TYPE_SHORT = 3, TYPE_LONG = 4, TYPE_IFD = 13, TYPE_LONG8 = 16, TYPE_IFD8 = 18 };

typedef struct {
    const uint8_t *data;
    size_t size;
    int big_endian, big_tiff;
} tiff_bytes;

static uint64_t get16(const tiff_bytes *t, uint64_t at)
{
    const uint8_t *p = t->data + at;
    return t->big_endian ? (uint64_t)p[0] << 8 | p[1] : (uint64_t)p[1] << 8 | p[0];
}

static uint64_t get32(const tiff_bytes *t, uint64_t at)
{
    return t->big_endian ? get16(t, at) << 16 | get16(t, at + 2)
                         : get16(t, at + 2) << 16 | get16(t, at);
}

static uint64_t get64(const tiff_bytes *t, uint64_t at)
{
    return t->big_endian ? get32(t, at) << 32 | get32(t, at + 4)
                         : get32(t, at + 4) << 32 | get32(t, at);
}

/* One directory entry: where its values lie (inline or at an offset). */
typedef struct {
    int present;
    unsigned type;
    uint64_t count, at; /* at: offset of the first value */
} tiff_field;

static int type_size(unsigned type)
{
    switch (type) {
    case TYPE_SHORT:
        return 2;
    case TYPE_LONG:
    case TYPE_IFD:
        return 4;
    case TYPE_LONG8:
    case TYPE_IFD8:
        return 8;
    default:
        return 0; /* other types are not used by the tags read here */
    }
}

/* Value k of an integer field; 0 with *ok cleared when it cannot be read. */
static uint64_t field_value(const tiff_bytes *t, const tiff_field *f, uint64_t k, int *ok)
{
    int n = type_size(f->type);
    if (!f->present || n == 0 || k >= f->count || f->at > t->size ||
        (k + 1) * (uint64_t)n > t->size - f->at) {
        *ok = 0;
        return 0;
    }
    uint64_t at = f->at + k * (uint64_t)n;
    return n == 2 ? get16(t, at) : n == 4 ? get32(t, at) : get64(t, at);
}

/* A field's first value, or fallback when the tag is absent. */
static uint64_t field_or(const tiff_bytes *t, const tiff_field *f, uint64_t fallback, int *ok)
{
    return f->present ? field_value(t, f, 0, ok) : fallback;
}

typedef struct {
    tiff_field width, height, bits, compression, photometric, fill_order, strip_offsets,
        samples, rows_per_strip, strip_bytes, max_sample, planar, tiles, sample_format;
} tiff_fields;

static tiff_field *field_of(tiff_fields *f, unsigned tag)
{
    switch (tag) {
    case TAG_WIDTH:
        return &f->width;
    case TAG_HEIGHT:
        return &f->height;
    case TAG_BITS:
        return &f->bits;
    case TAG_COMPRESSION:
        return &f->compression;
    case TAG_PHOTOMETRIC:
        return &f->photometric;
    case TAG_FILL_ORDER:
        return &f->fill_order;
    case TAG_STRIP_OFFSETS:
        return &f->strip_offsets;
    case TAG_SAMPLES:
        return &f->samples;
    case TAG_ROWS_PER_STRIP:
        return &f->rows_per_strip;
    case TAG_STRIP_BYTES:
        return &f->strip_bytes;
    case TAG_MAX_SAMPLE:
        return &f->max_sample;
    case TAG_PLANAR:
        return &f->planar;
    case TAG_TILE_WIDTH:
    case TAG_TILE_OFFSETS:
        return &f->tiles;
    case TAG_SAMPLE_FORMAT:
        return &f->sample_format;
    default:
        return NULL;
    }
}

/* Reads the directory at ifd into fields; *next: the next directory's offset
 * (0: the last). Returns 0, or -1 when the directory does not lie in the file. */
static int read_directory(const tiff_bytes *t, uint64_t ifd, tiff_fields *fields, uint64_t *next)
{
    memset(fields, 0, sizeof *fields);
    uint64_t head = t->big_tiff ? 8 : 2, entry = t->big_tiff ? 20 : 12, link = t->big_tiff ? 8 : 4;
    if (ifd < 8 || ifd > t->size || t->size - ifd < head)
        return -1;
    uint64_t n = t->big_tiff ? get64(t, ifd) : get16(t, ifd);
    if (n > (t->size - ifd - head) / entry || t->size - ifd - head - n * entry < link)
        return -1;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t e = ifd + head + k * entry;
        tiff_field *f = field_of(fields, (unsigned)get16(t, e));
        if (!f || f->present)
            continue; /* a repeated tag: the first one counts */
        f->present = 1;
        f->type = (unsigned)get16(t, e + 2);
        f->count = t->big_tiff ? get64(t, e + 4) : get32(t, e + 4);
        uint64_t value = e + (t->big_tiff ? 12 : 8), inline_bytes = t->big_tiff ? 8 : 4;
        int size = type_size(f->type);
        if (size && f->count <= inline_bytes / (uint64_t)size)
            f->at = value;
        else
            f->at = t->big_tiff ? get64(t, value) : get32(t, value);
    }
    uint64_t end = ifd + head + n * entry;
    *next = t->big_tiff ? get64(t, end) : get32(t, end);
    return 0;
}

/* How a page is read: in place or converted from its run of pixels, or by
 * libtiff; page->bad_end set when its pixels do not fit in the file. */
static void describe(const tiff_bytes *t, const tiff_fields *f, pt_tiff_page *page)
{
    int ok = 1;
    page->read = PT_PAGE_LIBTIFF;
    uint64_t width = field_or(t, &f->width, 0, &ok), height = field_or(t, &f->height, 0, &ok);
    uint64_t bits = field_or(t, &f->bits, 1, &ok), samples = field_or(t, &f->samples, 1, &ok);
    uint64_t compression = field_or(t, &f->compression, 1, &ok);
    uint64_t fill = field_or(t, &f->fill_order, 1, &ok);
    uint64_t planar = field_or(t, &f->planar, 1, &ok);
    uint64_t format = field_or(t, &f->sample_format, 1, &ok);
    uint64_t photometric = field_or(t, &f->photometric, samples >= 3 ? 2 : 1, &ok);
    uint64_t rows = field_or(t, &f->rows_per_strip, UINT32_MAX, &ok);
    /* single values as the standard has them; anything else: libtiff */
    const tiff_field *single[] = {&f->width,       &f->height,         &f->compression,
                                  &f->photometric, &f->fill_order,     &f->samples,
                                  &f->planar,      &f->rows_per_strip, &f->max_sample};
    for (size_t k = 0; k < sizeof single / sizeof single[0]; k++)
        if (single[k]->present && single[k]->count != 1)
            return;
    /* per sample: one value for every sample, all the same */
    const tiff_field *each[] = {&f->bits, &f->sample_format};
    for (size_t k = 0; k < 2; k++)
        if (each[k]->present) {
            if (each[k]->count != 1 && each[k]->count != samples)
                return;
            uint64_t first = field_value(t, each[k], 0, &ok);
            for (uint64_t v = 1; v < each[k]->count && ok; v++)
                if (field_value(t, each[k], v, &ok) != first)
                    return;
        }
    if (!ok || !f->width.present || !f->height.present || width == 0 || height == 0 ||
        width > PT_IMAGE_MAX_SIDE || height > PT_IMAGE_MAX_SIDE ||
        width * height > (uint64_t)PT_IMAGE_MAX_PIXELS)
        return;
    page->width = (int)width;
    page->height = (int)height;
    /* compressed, bit-reversed, tiled, planar or unusual pages: libtiff */
    if (compression != 1 || fill != 1 || f->tiles.present || (bits != 8 && bits != 16) ||
        samples < 1 || samples > 4 || (planar != 1 && samples > 1) || (format != 1 && format != 4) ||
        (photometric != 0 && photometric != 1 && photometric != 2) ||
        (photometric == 2 && samples < 3) || !f->strip_offsets.present ||
        !f->strip_bytes.present || rows == 0)
        return;
    uint64_t row_bytes = width * samples * (bits / 8);
    uint64_t strips = (height + (rows < height ? rows : height) - 1) /
                      (rows < height ? rows : height);
    if (f->strip_offsets.count < strips || f->strip_bytes.count < strips)
        return;
    uint64_t first = field_value(t, &f->strip_offsets, 0, &ok), held = 0;
    for (uint64_t s = 0; s < strips && ok; s++) {
        uint64_t at = field_value(t, &f->strip_offsets, s, &ok);
        uint64_t bytes = field_value(t, &f->strip_bytes, s, &ok);
        uint64_t strip_rows = s + 1 < strips ? rows : height - s * rows;
        if (s > 0 && at != first + s * rows * row_bytes)
            return; /* strips apart from each other: libtiff */
        if (bytes > strip_rows * row_bytes)
            bytes = strip_rows * row_bytes; /* padding after a strip's rows */
        held += bytes;
        if (s + 1 < strips && bytes < strip_rows * row_bytes)
            return; /* a short strip before others: libtiff says which */
    }
    /* a MaxSampleValue of another type than SHORT or LONG: libtiff reads it
     * (it takes a byte, for one), so the page is its to read */
    unsigned max_sample = 0;
    if (f->max_sample.present)
        max_sample = (unsigned)field_value(t, &f->max_sample, 0, &ok);
    if (!ok)
        return;
    page->has_max_sample = f->max_sample.present;
    page->max_sample = max_sample;
    page->offset = first;
    page->need = height * row_bytes;
    page->held = held;
    page->samples = (int)samples;
    page->bits = (int)bits;
    page->colour = photometric == 2;
    page->invert = photometric == 0;
    page->big_endian = t->big_endian;
    if (held < page->need || first > t->size || t->size - first < page->need)
        page->read = PT_PAGE_BAD;
    else
        page->read = bits == 8 && samples == 1 && photometric == 1 ? PT_PAGE_IN_PLACE
                                                                  : PT_PAGE_CONVERT;
}

/* Directory offsets seen so far, to stop at a loop. */
typedef struct {
    uint64_t *slots;
    size_t capacity, count;
} offset_set;

/* Adds off; returns 1 when it was there already, -1 when out of memory. */
static int offset_seen(offset_set *set, uint64_t off)
{
    if (2 * (set->count + 1) > set->capacity) {
        size_t cap = set->capacity ? 2 * set->capacity : 64;
        uint64_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < set->capacity; i++)
            if (set->slots[i]) {
                size_t h = (size_t)(set->slots[i] * 0x9E3779B97F4A7C15ull) & (cap - 1);
                while (slots[h])
                    h = (h + 1) & (cap - 1);
                slots[h] = set->slots[i];
            }
        free(set->slots);
        set->slots = slots;
        set->capacity = cap;
    }
    size_t h = (size_t)(off * 0x9E3779B97F4A7C15ull) & (set->capacity - 1);
    while (set->slots[h]) {
        if (set->slots[h] == off)
            return 1;
        h = (h + 1) & (set->capacity - 1);
    }
    set->slots[h] = off; /* offsets are >= 8: 0 marks a free slot */
    set->count++;
    return 0;
}

static pt_status add_page(pt_stack *s, size_t *capacity, const pt_tiff_page *page,
                          const char *name, pt_error *err)
{
    if ((size_t)s->count == *capacity) {
        size_t cap = *capacity ? 2 * *capacity : 16;
        pt_tiff_page *grown = realloc(s->pages, cap * sizeof *grown);
        if (!grown)
            return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for the TIFF pages");
        s->pages = grown;
        *capacity = cap;
    }
    s->pages[s->count++] = *page;
    return PT_OK;
}

pt_status pt_stack_parse_tiff(const uint8_t *data, size_t size, const char *name, pt_stack *s,
                              pt_error *err)
{
    memset(s, 0, sizeof s[0]);
    tiff_bytes t = {.data = data, .size = size};
    if (!data || size < 8 || !((data[0] == 'I' && data[1] == 'I') || (data[0] == 'M' && data[1] == 'M')))
        return pt_error_set(err, PT_ERR_FORMAT, name, "not a TIFF file");
    t.big_endian = data[0] == 'M';
    uint64_t version = get16(&t, 2), ifd;
    if (version == 42) {
        ifd = get32(&t, 4);
    } else if (version == 43 && size >= 16 && get16(&t, 4) == 8 && get16(&t, 6) == 0) {
        t.big_tiff = 1;
        ifd = get64(&t, 8);
    } else {
        return pt_error_set(err, PT_ERR_FORMAT, name, "not a TIFF file");
    }
    tiff_fields fields;
    uint64_t next;
    if (read_directory(&t, ifd, &fields, &next))
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "invalid TIFF: the first directory (byte %llu) lies outside the "
                            "file (%zu bytes)",
                            (unsigned long long)ifd, size);
    offset_set seen = {0};
    size_t capacity = 0;
    pt_status st = PT_OK;
    for (;;) {
        pt_tiff_page page;
        memset(&page, 0, sizeof page);
        page.ifd = ifd;
        int again = offset_seen(&seen, ifd);
        if (again < 0) {
            st = pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for the TIFF pages");
            break;
        }
        if (again) {
            /* a directory met twice: the chain loops; the pages so far stand */
            page.read = PT_PAGE_LOOP;
            st = add_page(s, &capacity, &page, name, err);
            break;
        }
        describe(&t, &fields, &page);
        if ((st = add_page(s, &capacity, &page, name, err)) || next == 0)
            break;
        ifd = next;
        if (read_directory(&t, ifd, &fields, &next)) {
            if (page.read == PT_PAGE_BAD && page.held >= page.need)
                break; /* cut inside the last page's pixels: that page says so */
            /* a cut file: the pages before it stand, this one is an error */
            memset(&page, 0, sizeof page);
            page.ifd = ifd;
            page.read = PT_PAGE_NO_DIRECTORY;
            st = add_page(s, &capacity, &page, name, err);
            break;
        }
    }
    free(seen.slots);
    if (st) {
        free(s->pages);
        memset(s, 0, sizeof s[0]);
        return st;
    }
    s->data = data;
    s->data_size = size;
    s->depth = 8;
    s->width = s->pages[0].width;
    s->height = s->pages[0].height;
    return PT_OK;
}

/* The reason a page cannot be read, for its error. */
pt_status pt_stack_tiff_page_error(const pt_stack *s, long index, const char *name, pt_error *err)
{
    const pt_tiff_page *p = &s->pages[index];
    if (p->read == PT_PAGE_NO_DIRECTORY)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "TIFF page %ld: its directory (byte %llu) lies outside the file "
                            "(%zu bytes): the file is cut short",
                            index, (unsigned long long)p->ifd, s->data_size);
    if (p->read == PT_PAGE_LOOP)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "TIFF page %ld: its directory (byte %llu) is that of an earlier "
                            "page: the pages loop",
                            index, (unsigned long long)p->ifd);
    if (p->held < p->need)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "TIFF page %ld: its strips hold %llu bytes, a %dx%d %d-bit page "
                            "needs %llu",
                            index, (unsigned long long)p->held, p->width, p->height,
                            p->bits * p->samples, (unsigned long long)p->need);
    return pt_error_set(err, PT_ERR_FORMAT, name,
                        "TIFF page %ld: truncated: its pixels (bytes %llu to %llu) run past "
                        "the end of the file (%zu bytes)",
                        index, (unsigned long long)p->offset,
                        (unsigned long long)(p->offset + p->need), s->data_size);
}

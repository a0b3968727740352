#include "lib/io/gt.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/csv.h"

#define GT_MAX_ROWS 50000000 /* bad-input guard: far above any public data set */

/* Header columns the parser understands; -1 when absent. */
typedef struct {
    int image, eye, cx, cy, r, a, b, theta, blink;
    int nfields;
} gt_columns;

static char *join_path(const char *dir, const char *name)
{
    size_t ld = dir ? strlen(dir) : 0, ln = strlen(name);
    char *out = malloc(ld + ln + 2);
    if (!out)
        return NULL;
    if (name[0] == '/' || ld == 0) {
        memcpy(out, name, ln + 1);
        return out;
    }
    memcpy(out, dir, ld);
    size_t n = ld;
    if (dir[ld - 1] != '/')
        out[n++] = '/';
    memcpy(out + n, name, ln + 1);
    return out;
}

/* Length of the file part of "file#page" (page all digits), else strlen. */
static size_t file_part_length(const char *path)
{
    const char *hash = strrchr(path, '#');
    if (!hash || !hash[1])
        return strlen(path);
    for (const char *p = hash + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return strlen(path);
    return (size_t)(hash - path);
}

/* "a/./b//c/../d" -> "a/b/d"; leading ".." of a relative path are kept. */
static void normalise_lexically(char *path)
{
    int absolute = path[0] == '/';
    char *out = path; /* write cursor; components are copied left */
    size_t len = 0;
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        const char *start = p;
        while (*p && *p != '/')
            p++;
        size_t n = (size_t)(p - start);
        if (n == 0 || (n == 1 && start[0] == '.'))
            continue;
        if (n == 2 && start[0] == '.' && start[1] == '.') {
            /* pop the last component unless it is itself ".." */
            size_t last = len;
            while (last > 0 && out[last - 1] != '/')
                last--;
            int last_is_dotdot = len - last == 2 && out[last] == '.' && out[last + 1] == '.';
            if (len > (size_t)absolute && !last_is_dotdot) {
                len = last > (size_t)absolute ? last - 1 : (size_t)absolute;
                continue;
            }
            if (absolute && len <= 1)
                continue; /* "/.." is "/" */
        }
        if (len == 0 && absolute)
            out[len++] = '/';
        else if (len > 0 && out[len - 1] != '/')
            out[len++] = '/';
        memmove(out + len, start, n);
        len += n;
    }
    if (len == 0)
        out[len++] = absolute ? '/' : '.';
    out[len] = '\0';
}

char *pt_gt_path_key(const char *path)
{
    size_t file_len = file_part_length(path);
    char *file = strndup(path, file_len);
    if (!file)
        return NULL;
    const char *page = path + file_len;
    char *real = realpath(file, NULL);
    char *key;
    if (real) {
        key = malloc(strlen(real) + strlen(page) + 1);
        if (key) {
            strcpy(key, real);
            strcat(key, page);
        }
        free(real);
    } else {
        normalise_lexically(file);
        key = malloc(strlen(file) + strlen(page) + 1);
        if (key) {
            strcpy(key, file);
            strcat(key, page);
        }
    }
    free(file);
    return key;
}

static uint64_t hash_name(const char *s, char eye)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (h ^ (unsigned char)eye) * 1099511628211ULL;
}

/* Slot for (name, eye) in table: the matching entry's slot or the empty one. */
static size_t probe(const pt_gt *gt, const int *table, int by_key, const char *name, char eye)
{
    size_t mask = gt->slots - 1, i = (size_t)hash_name(name, eye) & mask;
    while (table[i]) {
        const pt_gt_entry *e = &gt->entries[table[i] - 1];
        if (e->eye == eye && !strcmp(by_key ? e->key : e->image, name))
            return i;
        i = (i + 1) & mask;
    }
    return i;
}

static pt_status build_index(pt_gt *gt, pt_error *err)
{
    size_t slots = 16;
    while (slots < (size_t)gt->count * 2 + 1)
        slots *= 2;
    gt->slots = slots;
    gt->by_key = calloc(slots, sizeof *gt->by_key);
    gt->by_image = calloc(slots, sizeof *gt->by_image);
    if (!gt->by_key || !gt->by_image)
        return pt_error_set(err, PT_ERR_NOMEM, gt->source, "out of memory indexing rows");
    for (int i = 0; i < gt->count; i++) {
        pt_gt_entry *e = &gt->entries[i];
        size_t s = probe(gt, gt->by_key, 1, e->key, e->eye);
        if (gt->by_key[s]) {
            const pt_gt_entry *first = &gt->entries[gt->by_key[s] - 1];
            return pt_error_set(err, PT_ERR_FORMAT, gt->source,
                                "line %ld: image '%s'%s%.1s repeats line %ld", e->line, e->image,
                                e->eye ? " eye " : "", &e->eye, first->line);
        }
        gt->by_key[s] = i + 1;
        s = probe(gt, gt->by_image, 0, e->image, e->eye);
        if (!gt->by_image[s])
            gt->by_image[s] = i + 1;
    }
    return PT_OK;
}

const pt_gt_entry *pt_gt_find(const pt_gt *gt, const char *image, char eye)
{
    if (!gt->slots)
        return NULL;
    char *key = pt_gt_path_key(image);
    if (key) {
        size_t s = probe(gt, gt->by_key, 1, key, eye);
        free(key);
        if (gt->by_key[s])
            return &gt->entries[gt->by_key[s] - 1];
    }
    size_t s = probe(gt, gt->by_image, 0, image, eye);
    return gt->by_image[s] ? &gt->entries[gt->by_image[s] - 1] : NULL;
}

static double normalise_theta(double theta)
{
    double t = fmod(theta, 180.0);
    if (t < 0)
        t += 180.0;
    return t >= 180.0 ? 0.0 : t;
}

static pt_status read_header(pt_csv_reader *csv, gt_columns *col, pt_error *err)
{
    int n;
    pt_status st = pt_csv_next(csv, &n, err);
    if (st)
        return st;
    const char *name = pt_csv_name(csv);
    if (n == 0)
        return pt_error_set(err, PT_ERR_FORMAT, name, "empty file: a header line is required");
    col->nfields = n;
    col->image = pt_csv_column(csv, n, "image");
    col->eye = pt_csv_column(csv, n, "eye");
    col->cx = pt_csv_column(csv, n, "cx");
    col->cy = pt_csv_column(csv, n, "cy");
    col->r = pt_csv_column(csv, n, "r");
    col->a = pt_csv_column(csv, n, "a");
    col->b = pt_csv_column(csv, n, "b");
    col->theta = pt_csv_column(csv, n, "theta");
    col->blink = pt_csv_column(csv, n, "blink");
    if (col->image < 0 || col->cx < 0 || col->cy < 0)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "line %ld: header must name the columns image, cx and cy",
                            pt_csv_line(csv));
    int ellipse_cols = (col->a >= 0) + (col->b >= 0) + (col->theta >= 0);
    if (ellipse_cols != 0 && ellipse_cols != 3)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "line %ld: header has only some of the columns a, b, theta",
                            pt_csv_line(csv));
    return PT_OK;
}

/* The number in column c of this row; empty counts as missing (*present = 0). */
static pt_status number_field(pt_csv_reader *csv, int c, const char *what, double *v,
                              int *present, pt_error *err)
{
    *present = 0;
    if (c < 0)
        return PT_OK;
    const char *s = pt_csv_field(csv, c);
    if (!s[0])
        return PT_OK;
    if (pt_csv_parse_double(s, v))
        return pt_error_set(err, PT_ERR_FORMAT, pt_csv_name(csv),
                            "line %ld: %s '%.40s' is not a finite number", pt_csv_line(csv),
                            what, s);
    *present = 1;
    return PT_OK;
}

static pt_status parse_row(pt_csv_reader *csv, const gt_columns *col, const char *base_dir,
                           pt_gt_entry *e, pt_error *err)
{
    const char *name = pt_csv_name(csv);
    long line = pt_csv_line(csv);
    memset(e, 0, sizeof *e);
    e->line = line;
    const char *image = pt_csv_field(csv, col->image);
    if (!image[0])
        return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: empty image name", line);
    if (col->eye >= 0) {
        const char *eye = pt_csv_field(csv, col->eye);
        if (eye[0] && (eye[1] || (eye[0] != 'L' && eye[0] != 'R' && eye[0] != 'l' &&
                                  eye[0] != 'r')))
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "line %ld: eye '%.20s' is not L, R or empty", line, eye);
        e->eye = eye[0] == 'l' ? 'L' : eye[0] == 'r' ? 'R' : eye[0];
    }
    if (col->blink >= 0) {
        const char *blink = pt_csv_field(csv, col->blink);
        if (blink[0] && strcmp(blink, "0") && strcmp(blink, "1"))
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "line %ld: blink '%.20s' is not 0, 1 or empty", line, blink);
        e->blink = blink[0] == '1';
    }
    pt_status st;
    int has_cx, has_cy, has_r, has_a, has_b, has_t;
    double r = 0, a = 0, b = 0, theta = 0;
    if ((st = number_field(csv, col->cx, "cx", &e->cx, &has_cx, err)))
        return st;
    if (has_cx) {
        if ((st = number_field(csv, col->cy, "cy", &e->cy, &has_cy, err)) ||
            (st = number_field(csv, col->r, "r", &r, &has_r, err)) ||
            (st = number_field(csv, col->a, "a", &a, &has_a, err)) ||
            (st = number_field(csv, col->b, "b", &b, &has_b, err)) ||
            (st = number_field(csv, col->theta, "theta", &theta, &has_t, err)))
            return st;
        if (!has_cy)
            return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: cx given but cy empty",
                                line);
        if (has_r && !(r > 0))
            return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: radius r must be > 0",
                                line);
        if ((has_a || has_b || has_t) && !(has_a && has_b && has_t))
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "line %ld: an ellipse needs all of a, b and theta", line);
        if (has_a && !(a > 0 && b > 0))
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "line %ld: ellipse semi-axes a and b must be > 0", line);
        if (has_a && b > a)
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "line %ld: ellipse has b > a (a is the major semi-axis)", line);
        e->has_pupil = 1;
        e->has_circle = has_r;
        e->has_ellipse = has_a;
        e->circle = (pt_circle){e->cx, e->cy, r};
        e->ellipse = (pt_ellipse){e->cx, e->cy, a, b, has_a ? normalise_theta(theta) : 0};
    }
    e->image = strdup(image);
    e->path = join_path(base_dir, image);
    e->key = e->path ? pt_gt_path_key(e->path) : NULL;
    if (!e->image || !e->path || !e->key)
        return pt_error_set(err, PT_ERR_NOMEM, name, "line %ld: out of memory", line);
    return PT_OK;
}

static void free_entry(pt_gt_entry *e)
{
    free(e->image);
    free(e->path);
    free(e->key);
}

void pt_gt_free(pt_gt *gt)
{
    if (!gt)
        return;
    for (int i = 0; i < gt->count; i++)
        free_entry(&gt->entries[i]);
    free(gt->entries);
    free(gt->by_key);
    free(gt->by_image);
    free(gt->source);
    memset(gt, 0, sizeof *gt);
}

static pt_status parse_all(pt_csv_reader *csv, const char *base_dir, pt_gt *gt, pt_error *err)
{
    gt_columns col = {-1, -1, -1, -1, -1, -1, -1, -1, -1, 0};
    pt_status st = read_header(csv, &col, err);
    if (st)
        return st;
    int cap = 0;
    for (;;) {
        int n;
        if ((st = pt_csv_next(csv, &n, err)))
            return st;
        if (n == 0)
            break;
        if (n != col.nfields)
            return pt_error_set(err, PT_ERR_FORMAT, pt_csv_name(csv),
                                "line %ld: %d fields, but the header has %d", pt_csv_line(csv),
                                n, col.nfields);
        if (gt->count == cap) {
            if (cap >= GT_MAX_ROWS)
                return pt_error_set(err, PT_ERR_NOMEM, pt_csv_name(csv),
                                    "more than %d rows", GT_MAX_ROWS);
            int ncap = cap ? cap * 2 : 64;
            pt_gt_entry *p = realloc(gt->entries, (size_t)ncap * sizeof *p);
            if (!p)
                return pt_error_set(err, PT_ERR_NOMEM, pt_csv_name(csv), "out of memory");
            gt->entries = p;
            cap = ncap;
        }
        pt_gt_entry *e = &gt->entries[gt->count];
        st = parse_row(csv, &col, base_dir, e, err);
        if (st) {
            free_entry(e);
            return st;
        }
        gt->count++;
    }
    return build_index(gt, err);
}

static pt_status load_from(pt_csv_reader *csv, const char *name, const char *base_dir,
                           pt_gt *gt, pt_error *err)
{
    memset(gt, 0, sizeof *gt);
    gt->source = strdup(name);
    pt_status st = gt->source ? parse_all(csv, base_dir, gt, err)
                              : pt_error_set(err, PT_ERR_NOMEM, name, "out of memory");
    pt_csv_close(csv);
    if (st)
        pt_gt_free(gt);
    return st;
}

pt_status pt_gt_load(const char *path, pt_gt *gt, pt_error *err)
{
    memset(gt, 0, sizeof *gt);
    pt_csv_reader *csv;
    pt_status st = pt_csv_open(path, &csv, err);
    if (st)
        return st;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup("");
    if (!dir) {
        pt_csv_close(csv);
        return pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    }
    st = load_from(csv, path, dir, gt, err);
    free(dir);
    return st;
}

pt_status pt_gt_load_memory(const char *data, size_t size, const char *name,
                            const char *base_dir, pt_gt *gt, pt_error *err)
{
    memset(gt, 0, sizeof *gt);
    pt_csv_reader *csv;
    pt_status st = pt_csv_open_memory(data, size, name, &csv, err);
    if (st)
        return st;
    return load_from(csv, name, base_dir ? base_dir : "", gt, err);
}

void pt_gt_entry_to_result(const pt_gt_entry *e, pt_result *r)
{
    memset(r, 0, sizeof *r);
    r->eye = e->eye;
    r->status = e->has_pupil ? PT_DETECT_OK : PT_DETECT_NOTFOUND;
    r->has_circle = e->has_circle;
    r->has_ellipse = e->has_ellipse;
    r->circle = e->circle;
    r->ellipse = e->ellipse;
    r->confidence = 1.0;
}

#include "lib/io/import.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/csv.h"

#define IMPORT_MAX_BYTES (256L << 20) /* bad-input guard on the source file */
#define IMPORT_MAX_LINE 4096
#define IMPORT_MAX_TOKENS 8
#define IMPORT_MAX_FRAME 1000000000000L

int pt_import_format_from_name(const char *name)
{
    if (!strcmp(name, "swirski"))
        return PT_IMPORT_SWIRSKI;
    if (!strcmp(name, "excuse") || !strcmp(name, "else") || !strcmp(name, "pupilnet"))
        return PT_IMPORT_EXCUSE;
    if (!strcmp(name, "lpw"))
        return PT_IMPORT_LPW;
    return -1;
}

const char *pt_import_default_pattern(pt_import_format format)
{
    switch (format) {
    case PT_IMPORT_SWIRSKI: return "frames/%d-eye.png";
    case PT_IMPORT_EXCUSE: return "%010d.png";
    default: return "%d.png";
    }
}

/* Walks pattern; emits into buf when buf is non-NULL. Returns the number of
 * %d conversions, or -1 for a bad conversion or overflow. */
static int expand_pattern(const char *pattern, long frame, char *buf, size_t size)
{
    int conversions = 0;
    size_t n = 0;
    for (const char *p = pattern; *p; p++) {
        char piece[128];
        if (*p != '%') {
            piece[0] = *p;
            piece[1] = '\0';
        } else if (p[1] == '%') {
            strcpy(piece, "%");
            p++;
        } else {
            p++;
            int zero = 0, width = 0;
            if (*p == '0') {
                zero = 1;
                p++;
            }
            for (int digits = 0; *p >= '0' && *p <= '9'; p++, digits++) {
                if (digits == 2)
                    return -1;
                width = width * 10 + (*p - '0');
            }
            if (*p != 'd')
                return -1;
            conversions++;
            snprintf(piece, sizeof piece, zero ? "%0*ld" : "%*ld", width, frame);
        }
        size_t len = strlen(piece);
        if (buf) {
            if (n + len + 1 > size)
                return -1;
            memcpy(buf + n, piece, len + 1);
        }
        n += len;
    }
    if (buf && size > 0 && n == 0)
        buf[0] = '\0';
    return conversions;
}

int pt_import_check_pattern(const char *pattern)
{
    return expand_pattern(pattern, 0, NULL, 0) == 1 ? 0 : -1;
}

int pt_import_format_name(const char *pattern, long frame, char *buf, size_t size)
{
    return expand_pattern(pattern, frame, buf, size) == 1 ? 0 : -1;
}

void pt_import_free(pt_import_data *data)
{
    if (!data)
        return;
    free(data->rows);
    data->rows = NULL;
    data->count = 0;
}

static int is_separator(char c)
{
    return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '|';
}

/* Split line (modified in place) into at most max tokens; -1 when there are more. */
static int tokenise(char *line, char **tokens, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p && is_separator(*p))
            p++;
        if (!*p)
            return n;
        if (n == max)
            return -1;
        tokens[n++] = p;
        while (*p && !is_separator(*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static int parse_frame(const char *s, long *out)
{
    double v;
    if (pt_csv_parse_double(s, &v) || v < 0 || v > IMPORT_MAX_FRAME || v != floor(v))
        return -1;
    *out = (long)v;
    return 0;
}

static double theta_degrees(double angle_rad)
{
    double t = fmod(angle_rad * (180.0 / M_PI), 180.0);
    if (t < 0)
        t += 180.0;
    return t >= 180.0 ? 0.0 : t;
}

typedef struct {
    const char *name;
    pt_import_format format;
    long first_frame;
    long data_lines;
    int header_allowed;
} parse_state;

static pt_status parse_line(parse_state *ps, char *line, long lineno, pt_import_row *row,
                            int *used, pt_error *err)
{
    *used = 0;
    char *tok[IMPORT_MAX_TOKENS];
    int has_bar = strchr(line, '|') != NULL;
    int n = tokenise(line, tok, IMPORT_MAX_TOKENS);
    if (n == 0)
        return PT_OK;
    int header_allowed = ps->header_allowed;
    ps->header_allowed = 0;
    double v[IMPORT_MAX_TOKENS];
    int numeric = n > 0;
    for (int i = 0; i < n && numeric; i++)
        numeric = pt_csv_parse_double(tok[i], &v[i]) == 0;
    if (!numeric && header_allowed) {
        double first;
        if (pt_csv_parse_double(tok[0], &first))
            return PT_OK; /* a header line */
    }
    static const int expected[] = {6, 4, 2};
    static const char *const layout[] = {"n | cx cy a b angle_rad", "idx image_no x y", "x y"};
    int want = expected[ps->format];
    if (!numeric || n != want || (ps->format == PT_IMPORT_SWIRSKI && !has_bar))
        return pt_error_set(err, PT_ERR_FORMAT, ps->name,
                            "line %ld: expected '%s' (%d numbers), found %s", lineno,
                            layout[ps->format], want,
                            numeric ? "a different count" : "text that is not a number");
    memset(row, 0, sizeof *row);
    row->line = lineno;
    switch (ps->format) {
    case PT_IMPORT_SWIRSKI:
        if (parse_frame(tok[0], &row->frame))
            return pt_error_set(err, PT_ERR_FORMAT, ps->name,
                                "line %ld: frame number '%.20s' is not a whole number >= 0",
                                lineno, tok[0]);
        row->x = v[1];
        row->y = v[2];
        row->has_pupil = v[3] > 0 && v[4] > 0;
        row->has_ellipse = row->has_pupil;
        if (row->has_pupil) {
            /* a is the major semi-axis; swapping turns the angle by 90 degrees */
            int swap = v[4] > v[3];
            row->a = swap ? v[4] : v[3];
            row->b = swap ? v[3] : v[4];
            row->theta = theta_degrees(v[5] + (swap ? M_PI / 2 : 0));
        }
        break;
    case PT_IMPORT_EXCUSE:
        if (parse_frame(tok[1], &row->frame))
            return pt_error_set(err, PT_ERR_FORMAT, ps->name,
                                "line %ld: image number '%.20s' is not a whole number >= 0",
                                lineno, tok[1]);
        row->x = v[2];
        row->y = v[3];
        row->has_pupil = !(v[2] == 0 && v[3] == 0);
        break;
    case PT_IMPORT_LPW:
        if (ps->first_frame + ps->data_lines > IMPORT_MAX_FRAME)
            return pt_error_set(err, PT_ERR_FORMAT, ps->name, "line %ld: too many frames",
                                lineno);
        row->frame = ps->first_frame + ps->data_lines;
        row->x = v[0];
        row->y = v[1];
        row->has_pupil = !(v[0] == 0 && v[1] == 0);
        break;
    }
    ps->data_lines++;
    *used = 1;
    return PT_OK;
}

pt_status pt_import_parse_memory(const char *text, size_t size, const char *name,
                                 pt_import_format format, long first_frame,
                                 pt_import_data *out, pt_error *err)
{
    memset(out, 0, sizeof *out);
    out->format = format;
    if (format < PT_IMPORT_SWIRSKI || format > PT_IMPORT_LPW)
        return pt_error_set(err, PT_ERR_PARAM, name, "unknown import format");
    if (first_frame < 0 || first_frame > IMPORT_MAX_FRAME)
        return pt_error_set(err, PT_ERR_PARAM, name, "first frame number out of range");
    parse_state ps = {name, format, first_frame, 0, 1};
    char line[IMPORT_MAX_LINE + 1];
    int cap = 0;
    long lineno = 0;
    size_t pos = 0;
    while (pos < size) {
        lineno++;
        size_t start = pos;
        while (pos < size && text[pos] != '\n')
            pos++;
        size_t len = pos - start;
        pos++; /* past the '\n' */
        if (len > 0 && text[start + len - 1] == '\r')
            len--;
        if (len > IMPORT_MAX_LINE) {
            pt_import_free(out);
            return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: longer than %d bytes",
                                lineno, IMPORT_MAX_LINE);
        }
        if (memchr(text + start, '\0', len)) {
            pt_import_free(out);
            return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: NUL byte", lineno);
        }
        memcpy(line, text + start, len);
        line[len] = '\0';
        if (line[0] == '#')
            continue;
        if (out->count == cap) {
            int ncap = cap ? cap * 2 : 256;
            pt_import_row *p = realloc(out->rows, (size_t)ncap * sizeof *p);
            if (!p) {
                pt_import_free(out);
                return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory");
            }
            out->rows = p;
            cap = ncap;
        }
        int used;
        pt_status st = parse_line(&ps, line, lineno, &out->rows[out->count], &used, err);
        if (st) {
            pt_import_free(out);
            return st;
        }
        out->count += used;
    }
    return PT_OK;
}

pt_status pt_import_parse(const char *path, pt_import_format format, long first_frame,
                          pt_import_data *out, pt_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    pt_status st = PT_OK;
    while (text) {
        if (len == cap) {
            if ((long)cap >= IMPORT_MAX_BYTES) {
                st = pt_error_set(err, PT_ERR_FORMAT, path, "larger than %ld MiB",
                                  IMPORT_MAX_BYTES >> 20);
                break;
            }
            char *p = realloc(text, cap * 2);
            if (!p)
                break;
            text = p;
            cap *= 2;
        }
        size_t got = fread(text + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    if (!text)
        st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    else if (!st && ferror(fp))
        st = pt_error_set(err, PT_ERR_IO, path, "read error");
    fclose(fp);
    if (!st)
        st = pt_import_parse_memory(text, len, path, format, first_frame, out, err);
    free(text);
    return st;
}

static void write_name(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n") && s[0] != '#' && s[0] != ' ') {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

pt_status pt_import_write(FILE *out, const char *out_name, const pt_import_data *data,
                          const pt_import_options *opt, pt_error *err)
{
    const char *pattern = opt->pattern ? opt->pattern : pt_import_default_pattern(data->format);
    if (pt_import_check_pattern(pattern))
        return pt_error_set(err, PT_ERR_PARAM, "--pattern",
                            "'%s' must hold exactly one %%d (like %%06d)", pattern);
    if (data->format == PT_IMPORT_EXCUSE && !(opt->height > 0 && isfinite(opt->height)))
        return pt_error_set(err, PT_ERR_PARAM, "--height",
                            "ExCuSe/ElSe/PupilNet coordinates need the image height");
    const char *dir = opt->image_dir ? opt->image_dir : "";
    size_t dir_len = strlen(dir);
    int ellipse = data->format == PT_IMPORT_SWIRSKI;
    fputs(ellipse ? "image,cx,cy,a,b,theta\n" : "image,cx,cy\n", out);
    for (int i = 0; i < data->count; i++) {
        const pt_import_row *row = &data->rows[i];
        char name[4096], file[1024];
        if (pt_import_format_name(pattern, row->frame, file, sizeof file) ||
            dir_len + strlen(file) + 2 > sizeof name)
            return pt_error_set(err, PT_ERR_PARAM, out_name, "image name too long");
        snprintf(name, sizeof name, "%s%s%s", dir,
                 dir_len && dir[dir_len - 1] != '/' ? "/" : "", file);
        write_name(out, name);
        if (!row->has_pupil) {
            fputs(ellipse ? ",,,,,\n" : ",,\n", out);
            continue;
        }
        double x = row->x, y = row->y;
        if (data->format == PT_IMPORT_EXCUSE) {
            /* labelled at twice the scale with the origin at the bottom-left */
            x = row->x / 2;
            y = opt->height - row->y / 2;
        }
        fprintf(out, ",%.4f,%.4f", x, y);
        if (ellipse)
            fprintf(out, ",%.4f,%.4f,%.4f", row->a, row->b, row->theta);
        fputc('\n', out);
    }
    if (ferror(out))
        return pt_error_set(err, PT_ERR_IO, out_name, "write error");
    return PT_OK;
}

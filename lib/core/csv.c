#include "lib/core/csv.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CSV_EOF (-1)
#define CSV_NONE (-2)
#define CSV_IO_CHUNK 65536

struct pt_csv_reader {
    FILE *fp;                  /* NULL when reading from memory */
    const unsigned char *data; /* memory source, or the refilled io buffer */
    size_t size, pos;
    unsigned char *io;
    int pushback;
    int io_failed;
    long line;        /* line of the next character */
    long record_line; /* line where the current record starts */
    char *rec;        /* current record: fields NUL-terminated back to back */
    size_t rec_len, rec_cap;
    int *starts;
    int nfields, starts_cap;
    char *name;
};

static int get_byte(pt_csv_reader *r)
{
    if (r->pushback != CSV_NONE) {
        int c = r->pushback;
        r->pushback = CSV_NONE;
        return c;
    }
    if (r->pos < r->size)
        return r->data[r->pos++];
    if (!r->fp || r->io_failed)
        return CSV_EOF;
    size_t got = fread(r->io, 1, CSV_IO_CHUNK, r->fp);
    if (got == 0) {
        if (ferror(r->fp))
            r->io_failed = 1;
        return CSV_EOF;
    }
    r->data = r->io;
    r->size = got;
    r->pos = 1;
    return r->io[0];
}

static void unget_byte(pt_csv_reader *r, int c) { r->pushback = c; }

static pt_status make_reader(const char *name, pt_csv_reader **out, pt_error *err)
{
    pt_csv_reader *r = calloc(1, sizeof *r);
    if (r)
        r->name = strdup(name ? name : "");
    if (!r || !r->name) {
        free(r);
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory opening the CSV reader");
    }
    r->pushback = CSV_NONE;
    r->line = 1;
    *out = r;
    return PT_OK;
}

/* A UTF-8 byte-order mark (spreadsheet exports) is not part of the first field;
 * the first get_byte fills the buffer, so the next two bytes can be peeked. */
static void skip_bom(pt_csv_reader *r)
{
    int c0 = get_byte(r);
    if (c0 == 0xEF && r->size - r->pos >= 2 && r->data[r->pos] == 0xBB &&
        r->data[r->pos + 1] == 0xBF)
        r->pos += 2;
    else if (c0 != CSV_EOF)
        unget_byte(r, c0);
}

pt_status pt_csv_open(const char *path, pt_csv_reader **out, pt_error *err)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    pt_csv_reader *r = NULL;
    pt_status st = make_reader(path, &r, err);
    if (st) {
        fclose(fp);
        return st;
    }
    r->io = malloc(CSV_IO_CHUNK);
    if (!r->io) {
        fclose(fp);
        pt_csv_close(r);
        return pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    }
    r->fp = fp;
    skip_bom(r);
    *out = r;
    return PT_OK;
}

pt_status pt_csv_open_memory(const char *data, size_t size, const char *name,
                             pt_csv_reader **out, pt_error *err)
{
    *out = NULL;
    pt_csv_reader *r = NULL;
    pt_status st = make_reader(name, &r, err);
    if (st)
        return st;
    r->data = (const unsigned char *)data;
    r->size = data ? size : 0;
    skip_bom(r);
    *out = r;
    return PT_OK;
}

void pt_csv_close(pt_csv_reader *r)
{
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp);
    free(r->io);
    free(r->rec);
    free(r->starts);
    free(r->name);
    free(r);
}

const char *pt_csv_field(const pt_csv_reader *r, int i)
{
    if (i < 0 || i >= r->nfields)
        return "";
    return r->rec + r->starts[i];
}

long pt_csv_line(const pt_csv_reader *r) { return r->record_line; }
const char *pt_csv_name(const pt_csv_reader *r) { return r->name; }

static pt_status append(pt_csv_reader *r, int c, pt_error *err)
{
    if (c == 0)
        return pt_error_set(err, PT_ERR_FORMAT, r->name, "line %ld: NUL byte in the data",
                            r->line);
    if (r->rec_len + 1 >= r->rec_cap) {
        if (r->rec_cap >= PT_CSV_MAX_RECORD)
            return pt_error_set(err, PT_ERR_FORMAT, r->name,
                                "line %ld: record longer than %d bytes", r->record_line,
                                PT_CSV_MAX_RECORD);
        size_t cap = r->rec_cap ? r->rec_cap * 2 : 256;
        if (cap > PT_CSV_MAX_RECORD)
            cap = PT_CSV_MAX_RECORD;
        char *p = realloc(r->rec, cap);
        if (!p)
            return pt_error_set(err, PT_ERR_NOMEM, r->name, "out of memory reading a record");
        r->rec = p;
        r->rec_cap = cap;
    }
    r->rec[r->rec_len++] = (char)c;
    return PT_OK;
}

static pt_status start_field(pt_csv_reader *r, pt_error *err)
{
    if (r->nfields == r->starts_cap) {
        if (r->starts_cap >= PT_CSV_MAX_FIELDS)
            return pt_error_set(err, PT_ERR_FORMAT, r->name, "line %ld: more than %d fields",
                                r->record_line, PT_CSV_MAX_FIELDS);
        int cap = r->starts_cap ? r->starts_cap * 2 : 32;
        int *p = realloc(r->starts, (size_t)cap * sizeof *p);
        if (!p)
            return pt_error_set(err, PT_ERR_NOMEM, r->name, "out of memory reading a record");
        r->starts = p;
        r->starts_cap = cap;
    }
    r->starts[r->nfields++] = (int)r->rec_len;
    return PT_OK;
}

/* Consume the rest of a line end that began with c ('\r' may pair with '\n'). */
static void finish_line_end(pt_csv_reader *r, int c)
{
    if (c == '\r') {
        int next = get_byte(r);
        if (next != '\n')
            unget_byte(r, next);
    }
    r->line++;
}

static void skip_line(pt_csv_reader *r)
{
    int c;
    do
        c = get_byte(r);
    while (c != '\n' && c != '\r' && c != CSV_EOF);
    if (c != CSV_EOF)
        finish_line_end(r, c);
}

/* One quoted field after its opening quote; returns the character after it. */
static pt_status read_quoted(pt_csv_reader *r, int *after, pt_error *err)
{
    pt_status st;
    for (;;) {
        int c = get_byte(r);
        if (c == CSV_EOF)
            return pt_error_set(err, PT_ERR_FORMAT, r->name,
                                "line %ld: quoted field not closed before end of file",
                                r->record_line);
        if (c == '"') {
            int next = get_byte(r);
            if (next != '"') {
                *after = next;
                return PT_OK;
            }
        } else if (c == '\r' || c == '\n') {
            finish_line_end(r, c);
            c = '\n'; /* line ends inside quotes are kept as '\n' */
        }
        if ((st = append(r, c, err)))
            return st;
    }
}

static int is_blank(int c) { return c == ' ' || c == '\t'; }

pt_status pt_csv_next(pt_csv_reader *r, int *nfields, pt_error *err)
{
    *nfields = 0;
    pt_status st;
    for (;;) {
        r->rec_len = 0;
        r->nfields = 0;
        r->record_line = r->line;
        int c = get_byte(r);
        if (c == CSV_EOF)
            break;
        if (c == '#') {
            skip_line(r);
            continue;
        }
        if (c == '\n' || c == '\r') {
            finish_line_end(r, c);
            continue;
        }
        unget_byte(r, c);
        int quoted_any = 0;
        for (;;) {
            if ((st = start_field(r, err)))
                return st;
            size_t field_start = r->rec_len;
            do
                c = get_byte(r);
            while (is_blank(c));
            if (c == '"') {
                quoted_any = 1;
                if ((st = read_quoted(r, &c, err)))
                    return st;
                while (is_blank(c))
                    c = get_byte(r);
                if (c != ',' && c != '\n' && c != '\r' && c != CSV_EOF)
                    return pt_error_set(err, PT_ERR_FORMAT, r->name,
                                        "line %ld: unexpected character after a closing quote",
                                        r->line);
            } else {
                while (c != ',' && c != '\n' && c != '\r' && c != CSV_EOF) {
                    if ((st = append(r, c, err)))
                        return st;
                    c = get_byte(r);
                }
                while (r->rec_len > field_start && is_blank(r->rec[r->rec_len - 1]))
                    r->rec_len--;
            }
            if ((st = append(r, 1, err)))
                return st;
            r->rec[r->rec_len - 1] = '\0';
            if (c == ',')
                continue;
            if (c != CSV_EOF)
                finish_line_end(r, c);
            break;
        }
        /* A line of spaces only is blank, not a record with one empty field. */
        if (r->nfields == 1 && !quoted_any && r->rec[0] == '\0')
            continue;
        *nfields = r->nfields;
        return PT_OK;
    }
    if (r->io_failed == 1)
        return pt_error_set(err, PT_ERR_IO, r->name, "read error: %s", strerror(errno));
    return PT_OK;
}

int pt_csv_parse_double(const char *field, double *out)
{
    if (!field[0])
        return -1;
    char *end;
    errno = 0;
    double v = strtod(field, &end);
    /* strtod accepts "nan", "inf" and hex floats; only finite decimals are data. */
    if (*end != '\0' || !isfinite(v) || errno == ERANGE)
        return -1;
    for (const char *p = field; *p; p++)
        if (*p == 'x' || *p == 'X')
            return -1;
    *out = v;
    return 0;
}

int pt_csv_column(const pt_csv_reader *r, int nfields, const char *name)
{
    for (int i = 0; i < nfields; i++)
        if (!strcasecmp(pt_csv_field(r, i), name))
            return i;
    return -1;
}

void pt_csv_write_field(FILE *out, const char *s)
{
    size_t n = strlen(s);
    int quote = n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
                          s[n - 1] == '\t' || s[0] == '#');
    for (const char *p = s; *p && !quote; p++)
        quote = *p == ',' || *p == '"' || *p == '\n' || *p == '\r';
    if (!quote) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* Streaming CSV reader: RFC 4180 quoting, LF/CRLF/CR line ends, '#' comment
 * lines and blank lines skipped, unquoted fields trimmed of spaces and tabs.
 * Field, record and field-count limits keep hostile input from exhausting
 * memory; every error names the source and the line. */
#ifndef PT_CSV_H
#define PT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "lib/core/pt_error.h"

#define PT_CSV_MAX_RECORD (1 << 20) /* bytes in one record, all fields together */
#define PT_CSV_MAX_FIELDS 4096      /* fields in one record */

typedef struct pt_csv_reader pt_csv_reader;

/* Open a file ("-" is not special). */
pt_status pt_csv_open(const char *path, pt_csv_reader **out, pt_error *err);
/* Read from memory (not copied: data must outlive the reader); name is used in
 * messages. */
pt_status pt_csv_open_memory(const char *data, size_t size, const char *name,
                             pt_csv_reader **out, pt_error *err);
/* Next record. On success *nfields is its field count, or 0 at end of input.
 * Fields stay valid until the next call. */
pt_status pt_csv_next(pt_csv_reader *r, int *nfields, pt_error *err);
/* Field i (NUL-terminated; a field holding a NUL byte is rejected). */
const char *pt_csv_field(const pt_csv_reader *r, int i);
/* 1-based line on which the current record starts. */
long pt_csv_line(const pt_csv_reader *r);
/* The name given at open (the path). */
const char *pt_csv_name(const pt_csv_reader *r);
void pt_csv_close(pt_csv_reader *r);

/* A whole field as a finite number: 0 on success; -1 for text that is not a
 * number, NaN or infinity (the caller names the file and line). */
int pt_csv_parse_double(const char *field, double *out);
/* Index of the header field named name (case-insensitive), or -1. */
int pt_csv_column(const pt_csv_reader *r, int nfields, const char *name);

/* Write one field so that this reader reads it back unchanged: quoted (with
 * doubled quotes) when it holds a comma, quote or line end, or when it would
 * be trimmed or taken for a comment. Write errors show in ferror(out). */
void pt_csv_write_field(FILE *out, const char *s);

#endif

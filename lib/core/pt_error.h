/* Errors are values: library functions return a pt_status and fill a pt_error;
 * only cli/ prints them and chooses exit codes. */
#ifndef PT_ERROR_H
#define PT_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PT_OK = 0,
    PT_ERR_IO,          /* cannot open, read or write a file */
    PT_ERR_FORMAT,      /* file content cannot be decoded or parsed */
    PT_ERR_PARAM,       /* bad option, parameter or argument */
    PT_ERR_NOMEM,       /* allocation failed or size limit exceeded */
    PT_ERR_UNAVAILABLE, /* back end or device not usable here */
    PT_ERR_INTERNAL
} pt_status;

typedef struct {
    pt_status status;
    char file[512]; /* the file (or option) the error is about; may be empty */
    char what[512]; /* human-readable reason, no trailing newline */
} pt_error;

/* Record an error; returns status so callers can `return pt_error_set(...)`. */
pt_status pt_error_set(pt_error *err, pt_status status, const char *file,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void pt_error_clear(pt_error *err);
/* "file: what" (or just "what" when file is empty) into buf. */
const char *pt_error_format(const pt_error *err, char *buf, int size);

#ifdef __cplusplus
}
#endif

#endif

/* CSV reader: quoting, comments, blank lines, CRLF, limits, line numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/core/csv.h"
#include "tests/pt_test.h"

/* Reads all records of text; returns the count, -1 on error. Fields of record
 * want_record are joined with '|' into joined. */
static int read_all(const char *text, size_t size, int want_record, char *joined, size_t jsize,
                    long *line_of_want, pt_error *err)
{
    pt_csv_reader *r;
    if (pt_csv_open_memory(text, size, "mem.csv", &r, err))
        return -1;
    int records = 0;
    joined[0] = '\0';
    for (;;) {
        int n;
        if (pt_csv_next(r, &n, err)) {
            pt_csv_close(r);
            return -1;
        }
        if (n == 0)
            break;
        if (records == want_record) {
            if (line_of_want)
                *line_of_want = pt_csv_line(r);
            for (int i = 0; i < n; i++) {
                if (i)
                    strncat(joined, "|", jsize - strlen(joined) - 1);
                strncat(joined, pt_csv_field(r, i), jsize - strlen(joined) - 1);
            }
        }
        records++;
    }
    pt_csv_close(r);
    return records;
}

static void test_quoting(void)
{
    const char *t = "a,\"b,c\",\"say \"\"hi\"\"\"\n\"multi\nline\",x,\"\"\n";
    char j[256];
    pt_error err;
    long line = 0;
    PT_CHECK(read_all(t, strlen(t), 0, j, sizeof j, NULL, &err) == 2, "two records");
    PT_CHECK(!strcmp(j, "a|b,c|say \"hi\""), "quoted comma and doubled quotes: %s", j);
    read_all(t, strlen(t), 1, j, sizeof j, &line, &err);
    PT_CHECK(!strcmp(j, "multi\nline|x|"), "line end inside quotes and empty quoted: %s", j);
    PT_CHECK(line == 2, "second record starts on line 2 (%ld)", line);
}

static void test_comments_blank_crlf(void)
{
    const char *t = "# comment, with comma\r\n\r\nh1 , h2\r\n   \r\n#x\r\n 1, 2 \r\n3,4";
    char j[256];
    pt_error err;
    long line = 0;
    PT_CHECK(read_all(t, strlen(t), 0, j, sizeof j, &line, &err) == 3, "comments, blank lines skipped");
    PT_CHECK(!strcmp(j, "h1|h2"), "trimmed header: '%s'", j);
    PT_CHECK(line == 3, "header on line 3 (%ld)", line);
    read_all(t, strlen(t), 1, j, sizeof j, &line, &err);
    PT_CHECK(!strcmp(j, "1|2") && line == 6, "CRLF record '%s' line %ld", j, line);
    read_all(t, strlen(t), 2, j, sizeof j, &line, &err);
    PT_CHECK(!strcmp(j, "3|4") && line == 7, "last record without newline '%s' line %ld", j, line);
    const char *bom = "\xEF\xBB\xBFimage,cx\n";
    read_all(bom, strlen(bom), 0, j, sizeof j, NULL, &err);
    PT_CHECK(!strcmp(j, "image|cx"), "byte-order mark dropped: '%s'", j);
    const char *cr = "a,b\rc,d\r";
    PT_CHECK(read_all(cr, strlen(cr), 1, j, sizeof j, &line, &err) == 2 && !strcmp(j, "c|d") &&
                 line == 2,
             "lone CR ends a line");
}

static void test_errors(void)
{
    char j[256];
    pt_error err;
    pt_error_clear(&err);
    const char *open_quote = "a,b\n1,\"never closed\n2,3\n";
    PT_CHECK(read_all(open_quote, strlen(open_quote), 0, j, sizeof j, NULL, &err) < 0,
             "unterminated quote is an error");
    PT_CHECK(strstr(err.what, "line 2") && !strcmp(err.file, "mem.csv"), "names file and line: %s: %s",
             err.file, err.what);
    const char *junk = "a,b\n\"x\"y,2\n";
    PT_CHECK(read_all(junk, strlen(junk), 0, j, sizeof j, NULL, &err) < 0 &&
                 strstr(err.what, "line 2"),
             "text after closing quote: %s", err.what);
    const char nul[] = "a,b\n1,\0\n";
    PT_CHECK(read_all(nul, sizeof nul - 1, 0, j, sizeof j, NULL, &err) < 0, "NUL byte rejected");
    /* a record beyond the limit is refused, not buffered */
    size_t big = PT_CSV_MAX_RECORD + 10;
    char *huge = malloc(big);
    memset(huge, 'x', big);
    PT_CHECK(read_all(huge, big, 0, j, sizeof j, NULL, &err) < 0 && err.status == PT_ERR_FORMAT,
             "overlong record rejected");
    /* too many fields */
    for (size_t i = 0; i < big; i++)
        huge[i] = ',';
    PT_CHECK(read_all(huge, big, 0, j, sizeof j, NULL, &err) < 0, "too many fields rejected");
    free(huge);
    PT_CHECK(read_all("", 0, 0, j, sizeof j, NULL, &err) == 0, "empty input has no records");
}

static void test_numbers(void)
{
    double v = 0;
    PT_CHECK(pt_csv_parse_double("12.5", &v) == 0 && v == 12.5, "decimal");
    PT_CHECK(pt_csv_parse_double("-1e2", &v) == 0 && v == -100, "exponent");
    PT_CHECK(pt_csv_parse_double("nan", &v) < 0, "NaN rejected");
    PT_CHECK(pt_csv_parse_double("inf", &v) < 0, "inf rejected");
    PT_CHECK(pt_csv_parse_double("-Infinity", &v) < 0, "-Infinity rejected");
    PT_CHECK(pt_csv_parse_double("1e999", &v) < 0, "overflow rejected");
    PT_CHECK(pt_csv_parse_double("12abc", &v) < 0, "trailing garbage rejected");
    PT_CHECK(pt_csv_parse_double("0x10", &v) < 0, "hex rejected");
    PT_CHECK(pt_csv_parse_double("", &v) < 0, "empty is not a number");
}

static void test_file(void)
{
    char dir[] = "/tmp/pt_csv_XXXXXX";
    PT_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[256];
    snprintf(path, sizeof path, "%s/t.csv", dir);
    FILE *f = fopen(path, "w");
    /* more than one read chunk so records straddle buffer refills */
    fputs("id,text\n", f);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "%d,\"row, number %d\"\r\n", i, i);
    fclose(f);
    pt_csv_reader *r;
    pt_error err;
    PT_CHECK(pt_csv_open(path, &r, &err) == PT_OK, "open file");
    int n, rows = 0, good = 1;
    pt_csv_next(r, &n, &err);
    while (pt_csv_next(r, &n, &err) == PT_OK && n > 0) {
        char want[64];
        snprintf(want, sizeof want, "row, number %d", rows);
        good &= n == 2 && !strcmp(pt_csv_field(r, 1), want) && pt_csv_line(r) == rows + 2;
        rows++;
    }
    PT_CHECK(rows == 20000 && good, "all rows across buffer refills (%d)", rows);
    pt_csv_close(r);
    PT_CHECK(pt_csv_open("/nonexistent/x.csv", &r, &err) == PT_ERR_IO &&
                 !strcmp(err.file, "/nonexistent/x.csv"),
             "missing file names the path");
    remove(path);
    rmdir(dir);
}

/* pt_csv_write_field: what it writes reads back as the same field. */
static void test_write_field(void)
{
    const char *fields[] = {"plain", "a,b", "say \"hi\"", " lead", "trail\t", "#hash",
                            "two\nlines", "", "x#y"};
    const int n = (int)(sizeof fields / sizeof *fields);
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    PT_CHECK(f != NULL, "fmemopen");
    if (!f)
        return;
    for (int i = 0; i < n; i++) {
        pt_csv_write_field(f, fields[i]);
        fputc(i + 1 < n ? ',' : '\n', f);
    }
    long len = ftell(f);
    fclose(f);
    pt_csv_reader *r;
    pt_error err;
    int got = 0;
    PT_CHECK(pt_csv_open_memory(buf, (size_t)len, "w.csv", &r, &err) == PT_OK, "open written");
    PT_CHECK(pt_csv_next(r, &got, &err) == PT_OK && got == n, "%d fields read back (%d)", n, got);
    for (int i = 0; i < n && i < got; i++)
        PT_CHECK(!strcmp(pt_csv_field(r, i), fields[i]), "field %d reads back: '%s'", i,
                 pt_csv_field(r, i));
    pt_csv_close(r);
}

int main(void)
{
    test_quoting();
    test_write_field();
    test_comments_blank_crlf();
    test_errors();
    test_numbers();
    test_file();
    return PT_TEST_SUMMARY("csv");
}

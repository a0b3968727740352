/* track_frames: detect the pupil in binary PGM frames through libpupiltrack's
 * C interface (pupiltrack(3)) and print one CSV row per frame and eye.
 *
 *   cc -o track_frames track_frames.c $(pkg-config --cflags --libs pupiltrack)
 *   ./track_frames [-a ALG] [-b BACKEND] [-p KEY=VALUE]... FRAME.pgm...
 *
 * A real acquisition program hands pt_detector_detect the camera's buffer
 * instead; the PGM reader stands in for the camera here. */
#include <pupiltrack.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64

/* Skip blanks and '#' comments of a PGM header. */
static void skip_space(FILE *f)
{
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '#')
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        else if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            ungetc(c, f);
            return;
        }
    }
}

/* A binary PGM (P5): *pixels holds height rows of width samples, 8-bit
 * (maxval < 256) or 16-bit in the machine's byte order. 0 on success. */
static int read_pgm(const char *path, void **pixels, int *width, int *height, int *depth)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int w = 0, h = 0, maxval = 0, ok = fgetc(f) == 'P' && fgetc(f) == '5';
    if (ok) {
        skip_space(f);
        ok = fscanf(f, "%d", &w) == 1;
        skip_space(f);
        ok = ok && fscanf(f, "%d", &h) == 1;
        skip_space(f);
        ok = ok && fscanf(f, "%d", &maxval) == 1 && fgetc(f) != EOF;
    }
    ok = ok && w > 0 && h > 0 && w <= 65536 && h <= 65536 && maxval > 0 && maxval < 65536;
    int bytes = maxval < 256 ? 1 : 2;
    size_t size = ok ? (size_t)w * (size_t)h * (size_t)bytes : 0;
    uint8_t *buf = ok ? malloc(size) : NULL;
    ok = buf && fread(buf, 1, size, f) == size;
    fclose(f);
    if (!ok) {
        free(buf);
        return -1;
    }
    if (bytes == 2) /* PGM stores 16-bit samples big-endian */
        for (size_t i = 0; i < size / 2; i++) {
            uint16_t v = (uint16_t)(buf[2 * i] << 8 | buf[2 * i + 1]);
            memcpy(buf + 2 * i, &v, 2);
        }
    *pixels = buf;
    *width = w;
    *height = h;
    *depth = bytes * 8;
    return 0;
}

static void print_row(const char *name, const pt_pupil *p)
{
    static const char *const status[] = {"ok", "notfound", "error"};
    printf("%s,%s,%s,", name, p->eye == 'L' ? "L" : p->eye == 'R' ? "R" : "",
           status[p->status]);
    if (p->status == PT_PUPIL_FOUND)
        printf("%.4f,%.4f,", p->cx, p->cy);
    else
        printf(",,");
    if (p->has_circle)
        printf("%.4f", p->radius);
    printf(",%.4f,%s\n", p->confidence, p->status == PT_PUPIL_ERROR ? p->message : "");
}

int main(int argc, char **argv)
{
    const char *algorithm = "starburst", *backend = "omp";
    const char *params[MAX_PARAMS];
    int nparams = 0, first = 1;
    for (; first < argc; first++) {
        const char *a = argv[first];
        if (first + 1 < argc && !strcmp(a, "-a"))
            algorithm = argv[++first];
        else if (first + 1 < argc && !strcmp(a, "-b"))
            backend = argv[++first];
        else if (first + 1 < argc && !strcmp(a, "-p") && nparams < MAX_PARAMS)
            params[nparams++] = argv[++first];
        else
            break;
    }
    if (first == argc || argv[first][0] == '-') {
        fprintf(stderr, "usage: track_frames [-a ALG] [-b BACKEND] [-p KEY=VALUE]... FRAME.pgm...\n");
        return 2;
    }

    pt_detector *d;
    char message[512];
    pt_api_status st = pt_detector_open(&d, algorithm, backend, params, nparams, message,
                                        sizeof message);
    if (st != PT_API_OK) {
        fprintf(stderr, "track_frames: %s\n", message);
        return st == PT_API_ERR_UNAVAILABLE ? 3 : 2;
    }
    int failures = 0;
    printf("image,eye,status,cx,cy,r,confidence,message\n");
    for (int i = first; i < argc; i++) {
        void *pixels;
        int width, height, depth;
        if (read_pgm(argv[i], &pixels, &width, &height, &depth)) {
            fprintf(stderr, "%s: not a readable binary PGM\n", argv[i]);
            failures++;
            continue;
        }
        size_t stride = (size_t)width * (size_t)(depth / 8);
        st = pt_detector_detect(d, pixels, width, height, stride, depth);
        free(pixels);
        if (st != PT_API_OK) {
            fprintf(stderr, "%s: %s\n", argv[i], pt_detector_message(d));
            failures++;
            continue;
        }
        for (int eye = 0; eye < pt_detector_eyes(d); eye++) {
            pt_pupil p;
            if (pt_detector_result(d, 0, eye, &p) == PT_API_OK)
                print_row(argv[i], &p);
        }
    }
    pt_detector_close(d);
    return failures ? 1 : 0;
}

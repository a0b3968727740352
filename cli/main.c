/* pupiltrack: dispatch to subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/io/pt_video.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} pt_command;

static const pt_command commands[] = {
    {"track", pt_cmd_track, "detect pupils in images, folders, TIFF pages, stacks, videos"},
    {"eval", pt_cmd_eval, "accuracy curves of a results CSV against ground truth"},
    {"sweep", pt_cmd_sweep, "run a detector over a parameter grid: results, curves, summary"},
    {"merge", pt_cmd_merge, "join the shards of a sweep (sweep --shard K/N)"},
    {"synth", pt_cmd_synth, "synthetic infrared eye images (or --particles streams)"},
    {"import", pt_cmd_import, "convert Swirski, ExCuSe/ElSe/PupilNet, LPW ground truth"},
    {"params", pt_cmd_params, "list detector parameters, defaults and ranges"},
    {"bench", pt_cmd_bench, "throughput and per-stage timings of a detector"},
    {"contours", pt_cmd_contours, "all borders of a binary image (OpenCV findContours)"},
    {"assign", pt_cmd_assign, "linear assignment by the auction algorithm"},
    {"mtt", pt_cmd_mtt, "multi-target tracking of point measurements"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: pupiltrack COMMAND [OPTIONS]...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'pupiltrack COMMAND --help' describes a command; see pupiltrack(1).\n");
}

/* What went to standard output through stdio (help, params, bench) must
 * have arrived: a full disk or a closed pipe is an error too. */
static int stdout_checked(int rc)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int code = errno ? errno : EIO;
        pt_cli_fail("stdout: cannot write: %s", strerror(code));
        return rc ? rc : PT_EXIT_INPUT;
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* Into a file or pipe, the text goes out at the end in one piece, so that
     * a failed write is seen with its reason (stdout_checked). */
    char *out_buffer = isatty(STDOUT_FILENO) ? NULL : malloc(1 << 16);
    if (out_buffer)
        setvbuf(stdout, out_buffer, _IOFBF, 1 << 16); /* kept until the process ends */
    if (argc < 2) {
        usage(stderr);
        return PT_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return stdout_checked(PT_EXIT_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("pupiltrack %s\n", PT_VERSION);
        return stdout_checked(PT_EXIT_OK);
    }
    /* a video's problems are reported once, as pupiltrack's own lines */
    pt_video_quiet();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return stdout_checked(commands[i].run(argc - 1, argv + 1));
    pt_cli_fail("unknown command '%s' (try 'pupiltrack --help')", argv[1]);
    return PT_EXIT_USAGE;
}

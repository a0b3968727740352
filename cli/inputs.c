#include "cli/inputs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static int push(pt_input_list *list, const char *path)
{
    if (list->count == list->capacity) {
        int cap = list->capacity ? list->capacity * 2 : 64;
        char **p = realloc(list->paths, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        list->paths = p;
        list->capacity = cap;
    }
    list->paths[list->count] = strdup(path);
    if (!list->paths[list->count])
        return -1;
    list->count++;
    return 0;
}

int pt_path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_image_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot || name[0] == '.')
        return 0;
    static const char *const exts[] = {".png", ".tif", ".tiff", ".pgm", ".npy",
                                       ".mp4", ".avi", ".mkv", ".mov"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot, exts[i]))
            return 1;
    return 0;
}

/* pupiltrack(1), IMAGES: folders contribute .png, .tif, .tiff and .pgm files. */
static void report_skipped(pt_input_list *list, const char *path, int images, int skipped,
                           const char *example, int skipped_images, const char *image_example)
{
    if (images == 0) {
        list->empty_folders++;
        if (skipped)
            fprintf(stderr,
                    "pupiltrack: %s: no .png, .tif, .tiff, .pgm, .npy or video files in this folder "
                    "(%d other file%s skipped, e.g. '%s')\n",
                    path, skipped, skipped == 1 ? "" : "s", example);
        else
            fprintf(stderr, "pupiltrack: %s: no .png, .tif, .tiff, .pgm, .npy or video files in this folder "
                            "(it holds no files)\n", path);
    } else if (skipped_images) {
        fprintf(stderr,
                "pupiltrack: warning: %s: %d image%s skipped, not .png, .tif, .tiff, .pgm, .npy or video "
                "(e.g. '%s')\n",
                path, skipped_images, skipped_images == 1 ? "" : "s", image_example);
    }
}

/* Images of formats pupiltrack does not read: skipped with a warning (other
 * files, such as a ground-truth CSV beside the frames, silently). */
static int is_other_image_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot)
        return 0;
    static const char *const exts[] = {".jpg", ".jpeg", ".bmp", ".gif", ".webp",
                                       ".jp2", ".heic", ".avif", ".exr", ".ppm"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot, exts[i]))
            return 1;
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pt_inputs_add(pt_input_list *list, const char *path)
{
    if (!pt_path_is_dir(path))
        return push(list, path);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    int first = list->count;
    size_t plen = strlen(path);
    int sep = plen > 0 && path[plen - 1] != '/';
    struct dirent *e;
    int rc = 0, skipped = 0, skipped_images = 0;
    char example[256] = "", image_example[256] = "";
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = plen + 1 + strlen(e->d_name) + 1;
        char *full = malloc(len);
        if (!full) {
            rc = -1;
            break;
        }
        strcpy(full, path);
        if (sep)
            strcat(full, "/");
        strcat(full, e->d_name);
        if (is_image_name(e->d_name)) {
            rc = push(list, full);
        } else if (!pt_path_is_dir(full)) {
            if (skipped++ == 0 || strcmp(e->d_name, example) < 0)
                snprintf(example, sizeof example, "%s", e->d_name);
            if (is_other_image_name(e->d_name) &&
                (skipped_images++ == 0 || strcmp(e->d_name, image_example) < 0))
                snprintf(image_example, sizeof image_example, "%s", e->d_name);
        }
        free(full);
        if (rc)
            break;
    }
    closedir(dir);
    if (rc == 0)
        report_skipped(list, path, list->count - first, skipped, example, skipped_images,
                       image_example);
    qsort(list->paths + first, (size_t)(list->count - first), sizeof *list->paths,
          compare_names);
    return rc;
}

void pt_inputs_free(pt_input_list *list)
{
    for (int i = 0; i < list->count; i++)
        free(list->paths[i]);
    free(list->paths);
    list->paths = NULL;
    list->count = list->capacity = 0;
}

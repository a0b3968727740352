/* The image inputs of track/bench: files and folders expanded to a sorted list. */
#ifndef PT_CLI_INPUTS_H
#define PT_CLI_INPUTS_H

typedef struct {
    char **paths;
    int count, capacity;
    int empty_folders; /* folders that held no image (each named on stderr) */
} pt_input_list;

/* Append path; a directory adds its image files (.png .tif .tiff .pgm .npy, videos
 * .mp4 .avi .mkv .mov, any case;
 * .raw stacks are named one by one),
 * sorted by name, not recursively. Returns 0, or -1 when a directory cannot be read
 * (the caller reports it). A path that does not exist is added as it is so that
 * loading it reports the error and the batch records it. A folder without
 * images is named on stderr with what it holds (counted in empty_folders);
 * images of other formats (.jpg, ...) beside supported ones are warned about. */
int pt_inputs_add(pt_input_list *list, const char *path);
void pt_inputs_free(pt_input_list *list);
int pt_path_is_dir(const char *path);

#endif

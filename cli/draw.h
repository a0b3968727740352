/* --draw: a PNG per frame showing what the detector saw. */
#ifndef PT_CLI_DRAW_H
#define PT_CLI_DRAW_H

#include "lib/detect/pt_backend.h"

/* Writes DIR/<name with '/' and '#' replaced by '_'>.png: the frame in grey,
 * detector points in green, the fit in red, ground truth (may be NULL, one per
 * eye, has_circle/has_ellipse as in pt_result) in blue. */
pt_status pt_draw_frame(const char *dir, const char *name, const pt_image *frame,
                        const pt_result *results, const pt_overlay *overlays,
                        const pt_result *truth, int eyes, pt_error *err);

/* The file --draw writes for frame name: "dir/eye.png#3" -> DIR/dir_eye_3SUFFIX.png
 * (the image's own extension dropped, '/' and '#' replaced by '_'). */
void pt_draw_path(char *path, int size, const char *dir, const char *name, const char *suffix);

#endif

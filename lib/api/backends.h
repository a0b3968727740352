/* The detection back ends by name: the CLI's -b and pt_detector_open. */
#ifndef PT_API_BACKENDS_H
#define PT_API_BACKENDS_H

#include "lib/detect/pt_backend.h"

/* NULL when the name is unknown. */
const pt_backend *pt_backend_by_name(const char *name);
/* "omp|cuda" */
const char *pt_backend_names(void);

#endif

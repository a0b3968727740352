/* The back-end table the CLI selects from with -b. */
#ifndef PT_CLI_BACKENDS_H
#define PT_CLI_BACKENDS_H

#include "lib/detect/pt_backend.h"

/* NULL when the name is unknown. */
const pt_backend *pt_backend_by_name(const char *name);
/* "omp|cuda" */
const char *pt_backend_names(void);

#endif

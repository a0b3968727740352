#include "lib/api/backends.h"

#include <string.h>

static const pt_backend *const backends[] = {&pt_backend_omp, &pt_backend_cuda};

const pt_backend *pt_backend_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (!strcmp(backends[i]->name, name))
            return backends[i];
    return NULL;
}

const char *pt_backend_names(void) { return "omp|cuda"; }

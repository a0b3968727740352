/* The back-end registry (registry.h). */
#include "lib/api/registry.h"

#include <string.h>

#include "lib/assign/auction_jacobi.h"
#include "lib/detect/glint_retry.h"

static const pt_backend_entry rows[] = {
    {"seq", NULL, &pt_contours_seq, &pt_assign_seq, &pt_assign_seq_jacobi, NULL},
    {"omp", &pt_backend_omp_glint_retry, &pt_contours_omp, &pt_assign_omp,
     &pt_assign_omp_jacobi, &pt_glints_host},
    {"cuda", &pt_backend_cuda_glint_retry, &pt_contours_cuda, &pt_assign_cuda,
     &pt_assign_cuda_jacobi, &pt_glints_host},
    {"exact", NULL, NULL, &pt_assign_exact_solver, NULL, NULL},
};

static int offers(const pt_backend_entry *e, pt_capability cap)
{
    switch (cap) {
    case PT_CAP_TRACK: return e->track != NULL;
    case PT_CAP_CONTOURS: return e->contours != NULL;
    case PT_CAP_ASSIGN: return e->assign != NULL;
    case PT_CAP_ASSIGN_JACOBI: return e->assign_jacobi != NULL;
    }
    return 0;
}

const pt_backend_entry *pt_backend_find(const char *name, pt_capability cap)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(rows[i].name, name))
            return offers(&rows[i], cap) ? &rows[i] : NULL;
    return NULL;
}

const char *pt_backend_list(pt_capability cap, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (!offers(&rows[i], cap))
            continue;
        size_t len = strlen(rows[i].name) + (used ? 1 : 0);
        if (used + len + 1 > size)
            break;
        if (used)
            buf[used++] = '|';
        strcpy(buf + used, rows[i].name);
        used += strlen(rows[i].name);
    }
    return buf;
}

const pt_backend *pt_track_backend(const char *name)
{
    const pt_backend_entry *e = pt_backend_find(name, PT_CAP_TRACK);
    return e ? e->track : NULL;
}

const pt_contours_backend *pt_contours_backend_by_name(const char *name)
{
    const pt_backend_entry *e = pt_backend_find(name, PT_CAP_CONTOURS);
    return e ? e->contours : NULL;
}

const pt_assign_backend *pt_assign_backend_by_name(const char *name)
{
    const pt_backend_entry *e = pt_backend_find(name, PT_CAP_ASSIGN);
    return e ? e->assign : NULL;
}

const pt_assign_backend *pt_assign_jacobi_by_name(const char *name)
{
    const pt_backend_entry *e = pt_backend_find(name, PT_CAP_ASSIGN_JACOBI);
    return e ? e->assign_jacobi : NULL;
}

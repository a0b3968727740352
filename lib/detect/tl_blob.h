/* Which blob tl fits at a threshold (pupiltrack(1), tl_min), shared by both
 * back ends (PT_HD, header-only).
 *
 * A pupil is a filled, compact dark region: whether round, elongated or
 * cut by a lid, its pixels fill a good share of the disc spanning its rows.
 * A thin dark ring (the limbus around the iris, a lid's shadow along the
 * eye) or a lash can hold more pixels but fills little of that disc.
 * Blobs not touching the eye region's border come first; among them (or,
 * where all touch it, among all) compact blobs before the others, then the
 * biggest. */
#ifndef PT_TL_BLOB_H
#define PT_TL_BLOB_H

#include "lib/core/pt_hd.h"

/* a blob is compact when its pixels fill at least this share of the disc
 * whose diameter is its number of rows */
#define PT_TL_COMPACT_FILL 0.35

static inline PT_HD int pt_tl_blob_compact(int size, int rows)
{
    double r = 0.5 * (double)rows;
    return (double)size >= PT_TL_COMPACT_FILL * (3.14159265358979323846 * r * r);
}

#endif

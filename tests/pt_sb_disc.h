/* A test frame for Starburst's edge steps (tests of lib/detect/starburst_*.h):
 * a PT_SB_DISC_W x PT_SB_DISC_W frame with a dark disc (40) centred at
 * (PT_SB_DISC_CX, PT_SB_DISC_CY) whose border ramps linearly to 140 from
 * radius 18 to 22 (midpoint 20); rows above lid_y are bright (150), as an
 * eyelid would be. */
#ifndef PT_SB_DISC_H
#define PT_SB_DISC_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/detect/starburst_ray.h"

#define PT_SB_DISC_W 128
#define PT_SB_DISC_CX 64.3
#define PT_SB_DISC_CY 63.7

/* Draws the frame into buf (PT_SB_DISC_W squared bytes) and returns a view
 * of it with edge threshold 10 and gap 2. */
static inline pt_sb_view pt_sb_disc_view(uint8_t *buf, int lid_y)
{
    for (int y = 0; y < PT_SB_DISC_W; y++)
        for (int x = 0; x < PT_SB_DISC_W; x++) {
            double dx = x - PT_SB_DISC_CX, dy = y - PT_SB_DISC_CY;
            double rho = sqrt(dx * dx + dy * dy);
            double v = rho < 18 ? 40 : (rho < 22 ? 40 + 25 * (rho - 18) : 140);
            if (y < lid_y)
                v = 150;
            buf[y * PT_SB_DISC_W + x] = (uint8_t)lround(v);
        }
    pt_sb_view c;
    memset(&c, 0, sizeof c);
    c.buf = buf;
    c.width = c.height = c.stride = PT_SB_DISC_W;
    c.xmax = c.ymax = PT_SB_DISC_W - 1;
    c.threshold = 10;
    c.gap = 2;
    return c;
}

#endif

/* SPDX-License-Identifier: MIT */
/* The wallpaper (core layer, core/background.c): garnet.ini's background-image, read once and
 * drawn under every window. */
#ifndef GARNET_CORE_BACKGROUND_H
#define GARNET_CORE_BACKGROUND_H

#include "compositor.h"

/* The wallpaper, if any, stretched over target (an output's buffer; its clip is kept). */
void garnet_background_paint(struct garnet_compositor *c, pixman_image_t *target);

#endif

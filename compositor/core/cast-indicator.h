/* SPDX-License-Identifier: MIT */
/* The screen-cast indicator (core): a red square with a white ring in the top right corner of
 * every output while any screen cast runs, drawn by the renderer above everything (windows,
 * the consent dialog, the lock), so that no client can cover it. Whoever runs casts (the
 * portal protocol) says when they run. */
#ifndef GARNET_CORE_CAST_INDICATOR_H
#define GARNET_CORE_CAST_INDICATOR_H

#include <pixman.h>
#include <stdbool.h>

struct garnet_compositor;
struct garnet_output;

/* Casts run (true) or none does any more; false on failure to draw it (logged). */
bool garnet_cast_indicator_set(struct garnet_compositor *c, bool casting);
/* Where it is on output o (global space), false while no cast runs; its picture. */
bool garnet_cast_indicator_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_cast_indicator_image(struct garnet_compositor *c);

#endif

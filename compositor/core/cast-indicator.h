/* SPDX-License-Identifier: MIT */
/* The screen-cast indicator (core): while any screen cast runs, a red square with a white ring
 * in the top right corner of every output and, under it, the list of who records (each
 * application as garnet verified it, and what it sees), drawn by the renderer above
 * everything (windows, the consent dialog, the lock), so that no client can cover it. The
 * list shows for options.cast_list_seconds after each change and when the user asks (the
 * show-casts binding); the square stays. Whoever runs casts (the portal protocol) says which. */
#ifndef GARNET_CORE_CAST_INDICATOR_H
#define GARNET_CORE_CAST_INDICATOR_H

#include <pixman.h>
#include <stdbool.h>
#include <stddef.h>

struct garnet_compositor;
struct garnet_output;

/* The casts running now, one line each ("who: what"); count 0: none any more. False when
 * the pictures could not be made (logged): a new cast must not run unseen. */
bool garnet_cast_indicator_set(struct garnet_compositor *c, const char *const *lines,
			       size_t count);
/* Shows the list again (the user asked), while any cast runs. */
void garnet_cast_indicator_show_list(struct garnet_compositor *c);
/* Where the square is on output o (global space), false while no cast runs; its picture. */
bool garnet_cast_indicator_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_cast_indicator_image(struct garnet_compositor *c);
/* Where the list is on output o, false while it is not shown; its picture. */
bool garnet_cast_indicator_list_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_cast_indicator_list_image(struct garnet_compositor *c);

#endif

/* SPDX-License-Identifier: MIT */
/* garnet_portal_v1 (protocols/portal.c): what the shell, the lock and the renderer ask of the
 * casts the desktop portal's backend runs for applications. */
#ifndef GARNET_PROTOCOLS_PORTAL_H
#define GARNET_PROTOCOLS_PORTAL_H

#include <pixman.h>
#include <stdbool.h>

struct garnet_compositor;
struct garnet_output;

bool garnet_portal_init(struct garnet_compositor *c);
/* The user's stop binding: every cast ends (the backend hears stopped). */
void garnet_portal_stop_all(struct garnet_compositor *c);
/* Where the indicator is on output o (global space), false while no cast runs; its picture. */
bool garnet_portal_indicator_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_portal_indicator_image(struct garnet_compositor *c);

#endif

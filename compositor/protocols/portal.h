/* SPDX-License-Identifier: MIT */
/* garnet_portal_v1 (protocols/portal.c): what the shell asks of the casts the desktop
 * portal's backend runs for applications (their indicator is core/cast-indicator.h). */
#ifndef GARNET_PROTOCOLS_PORTAL_H
#define GARNET_PROTOCOLS_PORTAL_H

#include <stdbool.h>

struct garnet_compositor;

bool garnet_portal_init(struct garnet_compositor *c);
/* The user's stop binding: every cast ends (the backend hears stopped). */
void garnet_portal_stop_all(struct garnet_compositor *c);

#endif

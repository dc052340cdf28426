/* SPDX-License-Identifier: MIT */
/* The nested backend: garnet as a client of another Wayland compositor, one window per output,
 * input from that compositor's seat. For developers and for ./run inside a Wayland desktop. */
#ifndef GARNET_WAYLAND_H
#define GARNET_WAYLAND_H

#include "garnet/output.h"

/* Connects to the compositor named by parent_display (NULL: WAYLAND_DISPLAY, which must be set and
 * not be garnet's own socket) and opens a window per mode. Returns false with the reason logged. Closing a window ends garnet. */
GARNET_EXPORT bool garnet_wayland_backend_create(struct garnet_compositor *c,
						 const char *parent_display,
						 const struct garnet_output_mode *modes, int count);

#endif

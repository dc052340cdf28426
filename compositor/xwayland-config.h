/* SPDX-License-Identifier: MIT */
/* X11 support as garnet.ini's [xwayland] asks (doc/xwayland.md). */
#ifndef GARNET_XWAYLAND_CONFIG_H
#define GARNET_XWAYLAND_CONFIG_H

#include <stdbool.h>

#include "config.h"

struct garnet_compositor;
struct garnet_xwayland;

/* NULL with *ok true when X11 support is off (or the server is not installed and enable was
 * not asked for); *ok false on an error, printed. */
struct garnet_xwayland *xwayland_config_apply(struct garnet_compositor *c, const struct config *cfg,
					      bool *ok);

#endif

// SPDX-License-Identifier: MIT
// The backend garnet runs on: headless, drm or nested in another wayland compositor.
#ifndef GARNET_BACKENDS_H
#define GARNET_BACKENDS_H

#include "cli.h"
#include "config.h"

/* Is name a backend this build has? false is said on stderr. */
bool backend_known(const char *name);
/* Starts cfg->backend with its outputs (the command line's size for the first one); false
 * is said on stderr or in the log. */
bool backend_start(struct garnet_compositor *c, struct config *cfg, const struct cli *cli);

#endif

// SPDX-License-Identifier: MIT
// The programs garnet starts: [launcher] entries with their trusted identities, autostart.
#ifndef GARNET_LAUNCHER_H
#define GARNET_LAUNCHER_H

#include "cli.h"
#include "config.h"
#include "garnet-security.h"

/* Starts the [launcher] entries not left to a binding, and lets bindings start the rest. */
void launcher_start(struct garnet_security *security, struct garnet_compositor *c,
		    const struct config *cfg);
/* Runs the autostart commands of garnet.ini, then those of --autostart. */
void launcher_autostart(struct garnet_compositor *c, const struct config *cfg,
			const struct cli *cli);

#endif

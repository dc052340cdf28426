// SPDX-License-Identifier: MIT
// [xwayland] of garnet.ini: whether garnet runs X11 applications, with which server, and which
// programs share a domain.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/xwayland.h"
#include "xwayland-config.h"

#define DEFAULT_XWAYLAND "/usr/bin/Xwayland"

/* "NAME:PROG PROG..." (checked by config.c) into the domain's declaration. */
static bool declare(struct garnet_xwayland *xwl, const char *line)
{
	char *copy = strdup(line), *colon, *save = NULL;
	const char *programs[64];
	int n = 0;
	bool ok;

	if (!copy)
		return false;
	colon = strchr(copy, ':');
	*colon = '\0';
	for (char *w = strtok_r(colon + 1, " \t,", &save); w && n < 63;
	     w = strtok_r(NULL, " \t,", &save))
		programs[n++] = w;
	programs[n] = NULL;
	ok = garnet_xwayland_declare_domain(xwl, copy, programs);
	free(copy);
	return ok;
}

struct garnet_xwayland *xwayland_config_apply(struct garnet_compositor *c, const struct config *cfg,
					      bool *ok)
{
	const char *path = cfg->xwayland_path ? cfg->xwayland_path : DEFAULT_XWAYLAND;
	struct garnet_xwayland *xwl;

	*ok = true;
	if (cfg->xwayland_enable == 0)
		return NULL;
	if (access(path, X_OK) < 0) {
		if (cfg->xwayland_enable < 0)
			return NULL;
		fprintf(stderr, "garnet: [xwayland] %s is not an executable\n", path);
		*ok = false;
		return NULL;
	}
	xwl = garnet_xwayland_create(c, path);
	if (!xwl) {
		*ok = cfg->xwayland_enable < 0; /* logged; X11 was not asked for */
		return NULL;
	}
	if (cfg->xwayland_idle_timeout >= 0)
		garnet_xwayland_set_idle_timeout(xwl, cfg->xwayland_idle_timeout);
	for (int i = 0; i < cfg->xwayland_domain_count; i++) {
		if (!declare(xwl, cfg->xwayland_domains[i])) {
			fprintf(stderr, "garnet: [xwayland] domain=%s: cannot declare it\n",
				cfg->xwayland_domains[i]);
			garnet_xwayland_destroy(xwl);
			*ok = false;
			return NULL;
		}
	}
	return xwl;
}

// SPDX-License-Identifier: MIT
// Starts the backend garnet.ini or the command line chose, with its outputs.
#include <stdio.h>
#include <string.h>

#include "backends.h"
#include "garnet/headless.h"
#include "garnet/wayland.h"

bool backend_known(const char *name)
{
	if (strcmp(name, "headless") == 0 || strcmp(name, "drm") == 0 ||
	    strcmp(name, "wayland") == 0)
		return true;
	fprintf(stderr, "garnet: backend '%s' is not available (this build has: "
			"headless, drm, wayland)\n", name);
	return false;
}

bool backend_start(struct garnet_compositor *c, struct config *cfg, const struct cli *cli)
{
	struct garnet_drm_options drm = {
		.seat = cli->seat,
		.tty = cli->tty,
		.drm_device = cli->drm_device,
		.outputs = cfg->drm_outputs,
		.output_count = cfg->output_count,
		.input = cfg->input,
	};

	if (strcmp(cfg->backend, "drm") == 0) {
		for (int i = 0; i < cfg->output_count; i++) {
			cfg->drm_outputs[i].scale = cfg->outputs[i].scale;
			cfg->drm_outputs[i].transform = cfg->outputs[i].transform;
		}
		if (garnet_drm_backend_create(c, &drm))
			return true;
		fprintf(stderr, "garnet: cannot start the drm backend (see the log above)\n");
		return false;
	}
	if (cfg->output_count == 0)
		cfg->outputs[cfg->output_count++] = (struct garnet_output_mode){
			.width = 1024, .height = 768, .scale = 1, .refresh_mhz = 60000};
	if (cli->width)
		cfg->outputs[0].width = cli->width;
	if (cli->height)
		cfg->outputs[0].height = cli->height;
	if (cli->scale)
		cfg->outputs[0].scale = cli->scale;
	if (strcmp(cfg->backend, "wayland") == 0) {
		if (garnet_wayland_backend_create(c, NULL, cfg->outputs, cfg->output_count))
			return true;
		fprintf(stderr, "garnet: cannot start the wayland backend (see the log above)\n");
		return false;
	}
	for (int i = 0; i < cfg->output_count; i++) {
		if (!garnet_headless_add_output(c, &cfg->outputs[i]))
			return false;
	}
	return true;
}

// SPDX-License-Identifier: MIT
// An output's mode, scale, transform and position changed at runtime (an output configuration
// client, through zwlr_output_manager_v1): checked whole before anything moves, so a refused
// configuration leaves the output as it was; then every client and the scene catch up.
#include "output.h"
#include "surface.h"
#include "view.h"
#include "shell-hooks.h"
#include "transform.h"

void garnet_output_get_config(struct garnet_output *output, struct garnet_output_config *config)
{
	config->mode = output->mode;
	config->x = output->x;
	config->y = output->y;
}

static bool same_timing(const struct garnet_output_mode *a, const struct garnet_output_mode *b)
{
	return a->width == b->width && a->height == b->height && a->refresh_mhz == b->refresh_mhz;
}

static const char *check(struct garnet_output *output, const struct garnet_output_config *cfg,
			 bool test)
{
	const struct garnet_output_mode *m = &cfg->mode;

	if (m->width <= 0 || m->height <= 0 || m->width > 16384 || m->height > 16384)
		return "mode size outside 1 to 16384";
	if (m->refresh_mhz < 0 || m->refresh_mhz > 1000000)
		return "refresh outside 0 to 1000 Hz";
	if (m->scale < 1 || m->scale > 8)
		return "scale outside 1 to 8";
	if (m->transform < WL_OUTPUT_TRANSFORM_NORMAL ||
	    m->transform > WL_OUTPUT_TRANSFORM_FLIPPED_270)
		return "unknown transform";
	if (cfg->x < -GARNET_OUTPUT_POSITION_MAX || cfg->x > GARNET_OUTPUT_POSITION_MAX ||
	    cfg->y < -GARNET_OUTPUT_POSITION_MAX || cfg->y > GARNET_OUTPUT_POSITION_MAX)
		return "position too far from the origin";
	/* A logical size of 0 would leave nothing to place windows on. */
	if (m->width < m->scale || m->height < m->scale)
		return "mode smaller than its scale";
	if (same_timing(m, &output->mode))
		return NULL;
	if (!output->impl->set_mode)
		return "the backend drives this output in its present mode only";
	/* The backend checks the mode it offers or can drive; test first, so that nothing of
	 * the output changes unless all of it can. */
	if (!output->impl->set_mode(output, m, true))
		return "the backend cannot drive this mode";
	return NULL;
}

static bool update_surface_outputs(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	garnet_surface_update_outputs(surface);
	return true;
}

bool garnet_output_configure(struct garnet_output *output, const struct garnet_output_config *cfg,
			     bool test, const char **why)
{
	struct garnet_compositor *c = output->compositor;
	struct wl_resource *resource;
	pixman_box32_t old = {output->x, output->y, output->x + output->width,
			      output->y + output->height};

	*why = check(output, cfg, test);
	if (*why)
		return false;
	if (test)
		return true;
	if (!same_timing(&cfg->mode, &output->mode) &&
	    !output->impl->set_mode(output, &cfg->mode, false)) {
		*why = "the backend failed to change the mode";
		return false;
	}
	/* What it showed is repainted where other outputs (or nothing) now are. */
	garnet_compositor_damage_box(c, &old);
	output->mode = cfg->mode;
	output->x = cfg->x;
	output->y = cfg->y;
	garnet_output_update_logical_size(output);
	/* The buffers' old contents were painted for another size or matrix. */
	garnet_damage_ring_finish(&output->ring);
	garnet_damage_ring_init(&output->ring);
	garnet_output_damage_whole(output);
	wl_resource_for_each(resource, &output->resources)
		garnet_output_send_info(output, resource);
	garnet_log(c, GARNET_LOG_INFO, "output",
		   "%s: now %dx%d scale %d transform %d refresh %d mHz at %d,%d", output->name,
		   cfg->mode.width, cfg->mode.height, cfg->mode.scale, cfg->mode.transform,
		   cfg->mode.refresh_mhz, cfg->x, cfg->y);
	wl_signal_emit_mutable(&output->events.change, output);
	if (c->protocol_hooks.output_changed)
		c->protocol_hooks.output_changed(output);
	if (c->shell) {
		/* Windows left outside every output come back; maximized ones fill it again. */
		c->shell_hooks->output_removed(c->shell);
		c->shell_hooks->usable_area_changed(c->shell, output);
	}
	garnet_scene_for_each_surface(c, update_surface_outputs, NULL);
	return true;
}

// SPDX-License-Identifier: MIT
// wp_fractional_scale_manager_v1: tells a surface the scale it would best be drawn at (in
// 120ths), the largest scale of the outputs it shows on, so clients such as GTK and foot can
// render sharply. garnet's outputs have whole-number scales, so the value is a multiple of 120.
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "fractional-scale-v1-server-protocol.h"
#include "surface-addon.h"

struct fractional_scale {
	struct garnet_surface_addon base;
	uint32_t sent; /* last preferred_scale sent, 0 before the first */
};

static uint32_t preferred_scale(struct garnet_surface *surface)
{
	struct garnet_output *output;
	int32_t scale = 0;

	wl_list_for_each(output, &surface->compositor->outputs, link)
		if ((surface->output_mask & (1u << output->index)) && output->mode.scale > scale)
			scale = output->mode.scale;
	/* Not on screen yet: it will most likely appear on the first output. */
	if (scale == 0 && !wl_list_empty(&surface->compositor->outputs)) {
		output = wl_container_of(surface->compositor->outputs.next, output, link);
		scale = output->mode.scale;
	}
	return (uint32_t)(scale > 0 ? scale : 1) * 120;
}

/* The outputs a surface is on change as it is committed, moved with its parent, or mapped. */
static void scale_update(struct garnet_surface_addon *addon)
{
	struct fractional_scale *fs = wl_container_of(addon, fs, base);
	uint32_t scale;

	if (!addon->surface)
		return;
	scale = preferred_scale(addon->surface);
	if (scale != fs->sent) {
		fs->sent = scale;
		wp_fractional_scale_v1_send_preferred_scale(addon->resource, scale);
	}
}

static const struct wp_fractional_scale_v1_interface scale_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void manager_get_fractional_scale(struct wl_client *client, struct wl_resource *resource,
					 uint32_t id, struct wl_resource *surface_resource)
{
	struct garnet_surface_addon *addon =
		garnet_surface_addon_create(resource, id, surface_resource);

	(void)client;
	if (addon)
		scale_update(addon);
}

static const struct wp_fractional_scale_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_fractional_scale = manager_get_fractional_scale,
};

static const struct garnet_surface_addon_kind fractional_kind = {
	.manager_interface = &wp_fractional_scale_manager_v1_interface,
	.manager_impl = &manager_impl,
	.interface = &wp_fractional_scale_v1_interface,
	.impl = &scale_impl,
	.exists_error = WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS,
	.size = sizeof(struct fractional_scale),
	.committed = scale_update,
};

bool garnet_fractional_scale_init(struct garnet_compositor *c)
{
	return garnet_surface_addon_manager_init(c, &fractional_kind);
}

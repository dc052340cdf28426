// SPDX-License-Identifier: MIT
// wp_fractional_scale_manager_v1: tells a surface the scale it would best be drawn at (in
// 120ths), the largest scale of the outputs it shows on, so clients such as GTK and foot can
// render sharply. garnet's outputs have whole-number scales, so the value is a multiple of 120.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "fractional-scale-v1-server-protocol.h"

struct fractional_manager {
	struct garnet_compositor *compositor;
	struct wl_list scales; /* fractional_scale.link */
	struct wl_listener compositor_destroy;
};

struct fractional_scale {
	struct wl_resource *resource;
	struct garnet_surface *surface; /* NULL once the surface is destroyed */
	uint32_t sent;                  /* last preferred_scale sent, 0 before the first */
	struct wl_listener surface_destroy, surface_commit;
	struct wl_list link;
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

static void scale_update(struct fractional_scale *fs)
{
	uint32_t scale;

	if (!fs->surface)
		return;
	scale = preferred_scale(fs->surface);
	if (scale != fs->sent) {
		fs->sent = scale;
		wp_fractional_scale_v1_send_preferred_scale(fs->resource, scale);
	}
}

/* The outputs a surface is on change as it is committed, moved with its parent, or mapped. */
static void scale_surface_commit(struct wl_listener *listener, void *data)
{
	struct fractional_scale *fs = wl_container_of(listener, fs, surface_commit);

	(void)data;
	scale_update(fs);
}

static void scale_detach(struct fractional_scale *fs)
{
	garnet_list_unlink(&fs->surface_destroy.link);
	garnet_list_unlink(&fs->surface_commit.link);
	fs->surface = NULL;
}

static void scale_surface_destroy(struct wl_listener *listener, void *data)
{
	struct fractional_scale *fs = wl_container_of(listener, fs, surface_destroy);

	(void)data;
	scale_detach(fs);
}

static void scale_resource_destroy(struct wl_resource *resource)
{
	struct fractional_scale *fs = wl_resource_get_user_data(resource);

	scale_detach(fs);
	wl_list_remove(&fs->link);
	free(fs);
}

static const struct wp_fractional_scale_v1_interface scale_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void manager_get_fractional_scale(struct wl_client *client, struct wl_resource *resource,
					 uint32_t id, struct wl_resource *surface_resource)
{
	struct fractional_manager *m = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct fractional_scale *fs;

	wl_list_for_each(fs, &m->scales, link) {
		if (fs->surface == surface) {
			wl_resource_post_error(resource,
					       WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS,
					       "wl_surface@%u already has a wp_fractional_scale_v1",
					       wl_resource_get_id(surface_resource));
			return;
		}
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		wl_resource_post_no_memory(resource);
		return;
	}
	fs->resource = wl_resource_create(client, &wp_fractional_scale_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!fs->resource) {
		free(fs);
		wl_resource_post_no_memory(resource);
		return;
	}
	fs->surface = surface;
	fs->surface_destroy.notify = scale_surface_destroy;
	wl_signal_add(&surface->events.destroy, &fs->surface_destroy);
	fs->surface_commit.notify = scale_surface_commit;
	wl_signal_add(&surface->events.commit, &fs->surface_commit);
	wl_list_insert(&m->scales, &fs->link);
	wl_resource_set_implementation(fs->resource, &scale_impl, fs, scale_resource_destroy);
	scale_update(fs);
}

static const struct wp_fractional_scale_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_fractional_scale = manager_get_fractional_scale,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &wp_fractional_scale_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct fractional_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_fractional_scale_init(struct garnet_compositor *c)
{
	struct fractional_manager *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->scales);
	if (!garnet_global_create(c, &wp_fractional_scale_manager_v1_interface, 1, m, manager_bind,
				  false)) {
		free(m);
		return false;
	}
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}

// SPDX-License-Identifier: MIT
// wp_viewporter: crop (source rectangle) and scale (destination size) of a surface.
#include <stdlib.h>

#include "viewporter-server-protocol.h"
#include "../core/coords.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "client-protocols.h"

static struct garnet_surface *viewport_surface(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void viewport_resource_destroy(struct wl_resource *resource)
{
	struct garnet_surface *surface = viewport_surface(resource);

	if (!surface)
		return;
	/* Removing the viewport unsets both rectangles on the next commit. */
	surface->pending.src_width = -1;
	surface->pending.dst_width = surface->pending.dst_height = 0;
	surface->viewport = NULL;
}

static void viewport_set_source(struct wl_client *client, struct wl_resource *resource,
				wl_fixed_t x, wl_fixed_t y, wl_fixed_t width, wl_fixed_t height)
{
	struct garnet_surface *surface = viewport_surface(resource);

	if (!surface) {
		wl_resource_post_error(resource, WP_VIEWPORT_ERROR_NO_SURFACE,
				       "the wl_surface of this viewport is gone");
		return;
	}
	if (x == wl_fixed_from_int(-1) && y == x && width == x && height == x) {
		surface->pending.src_width = -1;
		return;
	}
	if (x < 0 || y < 0 || width <= 0 || height <= 0) {
		wl_resource_post_error(resource, WP_VIEWPORT_ERROR_BAD_VALUE,
				       "source rectangle %f,%f %fx%f is invalid",
				       wl_fixed_to_double(x), wl_fixed_to_double(y),
				       wl_fixed_to_double(width), wl_fixed_to_double(height));
		return;
	}
	surface->pending.src_x = wl_fixed_to_double(x);
	surface->pending.src_y = wl_fixed_to_double(y);
	surface->pending.src_width = wl_fixed_to_double(width);
	surface->pending.src_height = wl_fixed_to_double(height);
}

static void viewport_set_destination(struct wl_client *client, struct wl_resource *resource,
				     int32_t width, int32_t height)
{
	struct garnet_surface *surface = viewport_surface(resource);

	if (!surface) {
		wl_resource_post_error(resource, WP_VIEWPORT_ERROR_NO_SURFACE,
				       "the wl_surface of this viewport is gone");
		return;
	}
	if (width == -1 && height == -1) {
		surface->pending.dst_width = surface->pending.dst_height = 0;
		return;
	}
	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, WP_VIEWPORT_ERROR_BAD_VALUE,
				       "destination size %dx%d is invalid", width, height);
		return;
	}
	surface->pending.dst_width = garnet_coord_clamp(width);
	surface->pending.dst_height = garnet_coord_clamp(height);
}

static const struct wp_viewport_interface viewport_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

static void viewport_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_surface *surface = data;

	wl_list_remove(&listener->link);
	free(listener);
	if (surface->viewport)
		wl_resource_set_user_data(surface->viewport, NULL);
}

static void viewporter_get_viewport(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, struct wl_resource *surface_resource)
{
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct wl_listener *listener;
	struct wl_resource *viewport;

	if (surface->viewport) {
		wl_resource_post_error(resource, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS,
				       "wl_surface@%u already has a viewport",
				       wl_resource_get_id(surface_resource));
		return;
	}
	listener = calloc(1, sizeof(*listener));
	viewport = wl_resource_create(client, &wp_viewport_interface,
				      wl_resource_get_version(resource), id);
	if (!listener || !viewport) {
		free(listener);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(viewport, &viewport_impl, surface,
				       viewport_resource_destroy);
	surface->viewport = viewport;
	listener->notify = viewport_surface_destroyed;
	wl_signal_add(&surface->events.destroy, listener);
}

static const struct wp_viewporter_interface viewporter_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_viewport = viewporter_get_viewport,
};

static void viewporter_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wp_viewporter_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &viewporter_impl, data, NULL);
}

bool garnet_viewporter_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wp_viewporter_interface, 1, c, viewporter_bind,
				    false) != NULL;
}

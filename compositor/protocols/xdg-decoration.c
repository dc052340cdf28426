// SPDX-License-Identifier: MIT
// zxdg_decoration_manager_v1: garnet draws no window decorations, so every toplevel is told to
// draw its own (client_side), whatever it asks for.
#include "xdg-decoration-unstable-v1-server-protocol.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "toplevel.h"
#include "xdg-shell.h"
#include "client-protocols.h"

static void answer(struct wl_resource *resource)
{
	struct garnet_toplevel *toplevel = wl_resource_get_user_data(resource);

	if (!toplevel)
		return;
	zxdg_toplevel_decoration_v1_send_configure(resource,
						   ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	/* The mode applies with the next xdg_surface.configure; before the initial commit, the
	 * initial configure will be that one. */
	if (toplevel->configured_once)
		toplevel->impl->configure(toplevel);
}

static void decoration_set_mode(struct wl_client *client, struct wl_resource *resource,
				uint32_t mode)
{
	answer(resource);
}

static void decoration_unset_mode(struct wl_client *client, struct wl_resource *resource)
{
	answer(resource);
}

static const struct zxdg_toplevel_decoration_v1_interface decoration_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_mode = decoration_set_mode,
	.unset_mode = decoration_unset_mode,
};

static void decoration_resource_destroy(struct wl_resource *resource)
{
	struct garnet_toplevel *toplevel = wl_resource_get_user_data(resource);

	if (toplevel)
		toplevel->decoration = NULL;
}

static void manager_get_toplevel_decoration(struct wl_client *client,
					    struct wl_resource *resource, uint32_t id,
					    struct wl_resource *toplevel_resource)
{
	struct garnet_toplevel *toplevel = garnet_xdg_toplevel_from_resource(toplevel_resource);
	struct wl_resource *decoration;

	if (toplevel && toplevel->decoration) {
		wl_resource_post_error(resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED,
				       "the toplevel already has a decoration object");
		return;
	}
	if (toplevel && garnet_surface_is_mapped(toplevel->surface)) {
		wl_resource_post_error(resource, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_UNCONFIGURED_BUFFER,
				       "decoration object created for a toplevel with a buffer");
		return;
	}
	decoration = wl_resource_create(client, &zxdg_toplevel_decoration_v1_interface,
					wl_resource_get_version(resource), id);
	if (!decoration) {
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(decoration, &decoration_impl, toplevel,
				       decoration_resource_destroy);
	if (toplevel)
		toplevel->decoration = decoration;
}

static const struct zxdg_decoration_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_toplevel_decoration = manager_get_toplevel_decoration,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zxdg_decoration_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_xdg_decoration_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zxdg_decoration_manager_v1_interface, 1, c, manager_bind,
				    false) != NULL;
}

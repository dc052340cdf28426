// SPDX-License-Identifier: MIT
// wp_tearing_control_manager_v1: a surface (a game) asks that its frames be shown at once, even
// torn, rather than at the next vblank. The hint is double-buffered surface state kept here per
// surface; garnet's KMS backend only flips at vblank, so every surface is shown as vsync.
#include "../core/compositor.h"
#include "client-protocols.h"
#include "surface-addon.h"
#include "tearing-control-v1-server-protocol.h"

struct tearing_hint {
	struct garnet_surface_addon base;
	uint32_t pending, current;
};

static void hint_committed(struct garnet_surface_addon *addon)
{
	struct tearing_hint *hint = wl_container_of(addon, hint, base);

	hint->current = hint->pending;
}

static void hint_set_presentation_hint(struct wl_client *client, struct wl_resource *resource,
				       uint32_t value)
{
	struct tearing_hint *hint = wl_resource_get_user_data(resource);

	(void)client;
	/* The enum has no error for a value it does not know: such a hint asks for nothing. */
	if (value > WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC)
		value = WP_TEARING_CONTROL_V1_PRESENTATION_HINT_VSYNC;
	hint->pending = value;
}

static const struct wp_tearing_control_v1_interface hint_impl = {
	.set_presentation_hint = hint_set_presentation_hint,
	.destroy = garnet_resource_destroy_request,
};

static void manager_get_tearing_control(struct wl_client *client, struct wl_resource *resource,
					uint32_t id, struct wl_resource *surface_resource)
{
	(void)client;
	garnet_surface_addon_create(resource, id, surface_resource);
}

static const struct wp_tearing_control_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_tearing_control = manager_get_tearing_control,
};

static const struct garnet_surface_addon_kind tearing_kind = {
	.manager_interface = &wp_tearing_control_manager_v1_interface,
	.manager_impl = &manager_impl,
	.interface = &wp_tearing_control_v1_interface,
	.impl = &hint_impl,
	.exists_error = WP_TEARING_CONTROL_MANAGER_V1_ERROR_TEARING_CONTROL_EXISTS,
	.size = sizeof(struct tearing_hint),
	.committed = hint_committed,
};

bool garnet_tearing_control_init(struct garnet_compositor *c)
{
	return garnet_surface_addon_manager_init(c, &tearing_kind);
}

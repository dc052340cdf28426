// SPDX-License-Identifier: MIT
// wp_content_type_manager_v1: a surface says what it shows (photo, video, game). The hint is
// double-buffered surface state, kept here per surface. garnet's pixman renderer treats every
// kind alike, so nothing reads the hint yet and it changes nothing a user sees.
#include "../core/compositor.h"
#include "client-protocols.h"
#include "content-type-v1-server-protocol.h"
#include "surface-addon.h"

struct content_hint {
	struct garnet_surface_addon base;
	uint32_t pending, current;
};

static void hint_committed(struct garnet_surface_addon *addon)
{
	struct content_hint *hint = wl_container_of(addon, hint, base);

	hint->current = hint->pending;
}

static void hint_set_content_type(struct wl_client *client, struct wl_resource *resource,
				  uint32_t type)
{
	struct content_hint *hint = wl_resource_get_user_data(resource);

	(void)client;
	/* The enum has no error for a value it does not know: such a hint says nothing. */
	if (type > WP_CONTENT_TYPE_V1_TYPE_GAME)
		type = WP_CONTENT_TYPE_V1_TYPE_NONE;
	hint->pending = type;
}

static const struct wp_content_type_v1_interface hint_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_content_type = hint_set_content_type,
};

static void manager_get_surface_content_type(struct wl_client *client, struct wl_resource *resource,
					     uint32_t id, struct wl_resource *surface_resource)
{
	(void)client;
	garnet_surface_addon_create(resource, id, surface_resource);
}

static const struct wp_content_type_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_surface_content_type = manager_get_surface_content_type,
};

static const struct garnet_surface_addon_kind content_type_kind = {
	.manager_interface = &wp_content_type_manager_v1_interface,
	.manager_impl = &manager_impl,
	.interface = &wp_content_type_v1_interface,
	.impl = &hint_impl,
	.exists_error = WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED,
	.size = sizeof(struct content_hint),
	.committed = hint_committed,
};

bool garnet_content_type_init(struct garnet_compositor *c)
{
	return garnet_surface_addon_manager_init(c, &content_type_kind);
}

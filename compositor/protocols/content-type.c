// SPDX-License-Identifier: MIT
// wp_content_type_manager_v1: a surface says what it shows (photo, video, game). The hint is
// double-buffered surface state, kept here per surface. garnet's pixman renderer treats every
// kind alike, so nothing reads the hint yet and it changes nothing a user sees.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "content-type-v1-server-protocol.h"

struct content_type_manager {
	struct wl_list hints; /* content_hint.link */
	struct wl_listener compositor_destroy;
};

struct content_hint {
	struct wl_resource *resource;
	struct garnet_surface *surface; /* NULL once the surface is destroyed: inert */
	uint32_t pending, current;
	struct wl_listener surface_destroy, surface_commit;
	struct wl_list link;
};

static void hint_detach(struct content_hint *hint)
{
	garnet_list_unlink(&hint->surface_destroy.link);
	garnet_list_unlink(&hint->surface_commit.link);
	hint->surface = NULL;
}

static void hint_surface_destroy(struct wl_listener *listener, void *data)
{
	struct content_hint *hint = wl_container_of(listener, hint, surface_destroy);

	(void)data;
	hint_detach(hint);
}

static void hint_surface_commit(struct wl_listener *listener, void *data)
{
	struct content_hint *hint = wl_container_of(listener, hint, surface_commit);

	(void)data;
	hint->current = hint->pending;
}

static void hint_resource_destroy(struct wl_resource *resource)
{
	struct content_hint *hint = wl_resource_get_user_data(resource);

	hint_detach(hint);
	wl_list_remove(&hint->link);
	free(hint);
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
	struct content_type_manager *m = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct content_hint *hint;

	wl_list_for_each(hint, &m->hints, link) {
		if (hint->surface == surface) {
			wl_resource_post_error(resource,
					       WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED,
					       "wl_surface@%u already has a wp_content_type_v1",
					       wl_resource_get_id(surface_resource));
			return;
		}
	}
	hint = calloc(1, sizeof(*hint));
	if (!hint) {
		wl_resource_post_no_memory(resource);
		return;
	}
	hint->resource = wl_resource_create(client, &wp_content_type_v1_interface,
					    wl_resource_get_version(resource), id);
	if (!hint->resource) {
		free(hint);
		wl_resource_post_no_memory(resource);
		return;
	}
	hint->surface = surface;
	hint->surface_destroy.notify = hint_surface_destroy;
	wl_signal_add(&surface->events.destroy, &hint->surface_destroy);
	hint->surface_commit.notify = hint_surface_commit;
	wl_signal_add(&surface->events.commit, &hint->surface_commit);
	wl_list_insert(&m->hints, &hint->link);
	wl_resource_set_implementation(hint->resource, &hint_impl, hint, hint_resource_destroy);
}

static const struct wp_content_type_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_surface_content_type = manager_get_surface_content_type,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wp_content_type_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct content_type_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_content_type_init(struct garnet_compositor *c)
{
	struct content_type_manager *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	wl_list_init(&m->hints);
	if (!garnet_global_create(c, &wp_content_type_manager_v1_interface, 1, m, manager_bind,
				  false)) {
		free(m);
		return false;
	}
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}

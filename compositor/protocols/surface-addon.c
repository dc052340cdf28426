// SPDX-License-Identifier: MIT
// One protocol object per surface (surface-addon.h): creation with the manager's error for a
// second one, the surface's commits, and the surface going first (the object stays, inert).
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "surface-addon.h"

struct addon_manager {
	const struct garnet_surface_addon_kind *kind;
	struct wl_list addons; /* garnet_surface_addon.link */
	struct wl_listener compositor_destroy;
};

static void addon_detach(struct garnet_surface_addon *addon)
{
	garnet_list_unlink(&addon->surface_destroy.link);
	garnet_list_unlink(&addon->surface_commit.link);
	/* Inert: off the manager's list, which every creation walks. */
	garnet_list_unlink(&addon->link);
	addon->surface = NULL;
}

static void addon_surface_destroy(struct wl_listener *listener, void *data)
{
	struct garnet_surface_addon *addon = wl_container_of(listener, addon, surface_destroy);

	(void)data;
	addon_detach(addon);
}

static void addon_surface_commit(struct wl_listener *listener, void *data)
{
	struct garnet_surface_addon *addon = wl_container_of(listener, addon, surface_commit);

	(void)data;
	addon->kind->committed(addon);
}

static void addon_resource_destroy(struct wl_resource *resource)
{
	struct garnet_surface_addon *addon = wl_resource_get_user_data(resource);

	addon_detach(addon);
	free(addon);
}

struct garnet_surface_addon *garnet_surface_addon_create(struct wl_resource *manager, uint32_t id,
							  struct wl_resource *surface_resource)
{
	struct addon_manager *m = wl_resource_get_user_data(manager);
	const struct garnet_surface_addon_kind *kind = m->kind;
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_surface_addon *addon;

	wl_list_for_each(addon, &m->addons, link) {
		if (addon->surface == surface) {
			wl_resource_post_error(manager, kind->exists_error,
					       "wl_surface@%u already has a %s",
					       wl_resource_get_id(surface_resource),
					       kind->interface->name);
			return NULL;
		}
	}
	addon = calloc(1, kind->size);
	if (!addon) {
		wl_resource_post_no_memory(manager);
		return NULL;
	}
	addon->resource = wl_resource_create(wl_resource_get_client(manager), kind->interface,
					     wl_resource_get_version(manager), id);
	if (!addon->resource) {
		free(addon);
		wl_resource_post_no_memory(manager);
		return NULL;
	}
	addon->kind = kind;
	addon->surface = surface;
	addon->surface_destroy.notify = addon_surface_destroy;
	wl_signal_add(&surface->events.destroy, &addon->surface_destroy);
	wl_list_init(&addon->surface_commit.link);
	if (kind->committed) {
		addon->surface_commit.notify = addon_surface_commit;
		wl_signal_add(&surface->events.commit, &addon->surface_commit);
	}
	wl_list_insert(&m->addons, &addon->link);
	wl_resource_set_implementation(addon->resource, kind->impl, addon, addon_resource_destroy);
	return addon;
}

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct addon_manager *m = data;
	struct wl_resource *resource =
		wl_resource_create(client, m->kind->manager_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, m->kind->manager_impl, m, NULL);
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct addon_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_surface_addon_manager_init(struct garnet_compositor *c,
				       const struct garnet_surface_addon_kind *kind)
{
	struct addon_manager *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->kind = kind;
	wl_list_init(&m->addons);
	if (!garnet_global_create(c, kind->manager_interface, 1, m, manager_bind, false)) {
		free(m);
		return false;
	}
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}

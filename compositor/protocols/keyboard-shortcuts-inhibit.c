// SPDX-License-Identifier: MIT
// zwp_keyboard_shortcuts_inhibit_manager_v1: a surface (a remote desktop viewer, a virtual
// machine) asks that the keys garnet would take for its bindings go to it instead. The
// inhibitor acts only while its surface has the keyboard focus, and never over garnet's lock
// and quit bindings, the VT switch keys, the lock screen or the consent dialog: a client can
// keep Super+Tab for itself, but cannot keep the user from locking, leaving or quitting.
// Default-allowed for every client for that reason (doc/security.md).
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-server-protocol.h"

struct inhibit_manager {
	struct garnet_seat *seat;
	struct wl_list inhibitors; /* inhibitor.link */
	struct wl_listener keyboard_focus;
	struct wl_listener compositor_destroy;
};

struct inhibitor {
	struct wl_resource *resource;
	struct inhibit_manager *manager;
	struct garnet_surface *surface; /* NULL once the surface is destroyed: inert */
	bool active;
	struct wl_listener surface_destroy;
	struct wl_list link;
};

static void inhibitor_update(struct inhibitor *inhibitor)
{
	bool active = inhibitor->surface &&
		      inhibitor->manager->seat->keyboard_focus == inhibitor->surface;

	if (active == inhibitor->active)
		return;
	inhibitor->active = active;
	if (active)
		zwp_keyboard_shortcuts_inhibitor_v1_send_active(inhibitor->resource);
	else
		zwp_keyboard_shortcuts_inhibitor_v1_send_inactive(inhibitor->resource);
}

static void manager_keyboard_focus(struct wl_listener *listener, void *data)
{
	struct inhibit_manager *m = wl_container_of(listener, m, keyboard_focus);
	struct inhibitor *inhibitor;

	(void)data;
	wl_list_for_each(inhibitor, &m->inhibitors, link)
		inhibitor_update(inhibitor);
}

/* The seat asks before each binding it would run. */
static bool shortcuts_inhibited(void *data)
{
	struct inhibit_manager *m = data;
	struct inhibitor *inhibitor;

	wl_list_for_each(inhibitor, &m->inhibitors, link)
		if (inhibitor->active)
			return true;
	return false;
}

static void inhibitor_surface_destroy(struct wl_listener *listener, void *data)
{
	struct inhibitor *inhibitor = wl_container_of(listener, inhibitor, surface_destroy);

	(void)data;
	garnet_list_unlink(&inhibitor->surface_destroy.link);
	/* Inert from now on: off the list every key press walks, so that a client making and
	 * dropping surfaces in a loop cannot make the list grow. */
	garnet_list_unlink(&inhibitor->link);
	inhibitor->surface = NULL;
	inhibitor->active = false;
}

static void inhibitor_resource_destroy(struct wl_resource *resource)
{
	struct inhibitor *inhibitor = wl_resource_get_user_data(resource);

	garnet_list_unlink(&inhibitor->surface_destroy.link);
	garnet_list_unlink(&inhibitor->link);
	free(inhibitor);
}

static const struct zwp_keyboard_shortcuts_inhibitor_v1_interface inhibitor_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void manager_inhibit_shortcuts(struct wl_client *client, struct wl_resource *resource,
				      uint32_t id, struct wl_resource *surface_resource,
				      struct wl_resource *seat_resource)
{
	struct inhibit_manager *m = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct inhibitor *inhibitor;

	(void)seat_resource; /* garnet has one seat */
	wl_list_for_each(inhibitor, &m->inhibitors, link) {
		if (inhibitor->surface == surface) {
			wl_resource_post_error(
				resource,
				ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED,
				"wl_surface@%u already has a shortcuts inhibitor",
				wl_resource_get_id(surface_resource));
			return;
		}
	}
	inhibitor = calloc(1, sizeof(*inhibitor));
	if (!inhibitor) {
		wl_resource_post_no_memory(resource);
		return;
	}
	inhibitor->resource =
		wl_resource_create(client, &zwp_keyboard_shortcuts_inhibitor_v1_interface,
				   wl_resource_get_version(resource), id);
	if (!inhibitor->resource) {
		free(inhibitor);
		wl_resource_post_no_memory(resource);
		return;
	}
	inhibitor->manager = m;
	inhibitor->surface = surface;
	inhibitor->surface_destroy.notify = inhibitor_surface_destroy;
	wl_signal_add(&surface->events.destroy, &inhibitor->surface_destroy);
	wl_list_insert(&m->inhibitors, &inhibitor->link);
	wl_resource_set_implementation(inhibitor->resource, &inhibitor_impl, inhibitor,
				       inhibitor_resource_destroy);
	inhibitor_update(inhibitor);
}

static const struct zwp_keyboard_shortcuts_inhibit_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.inhibit_shortcuts = manager_inhibit_shortcuts,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct inhibit_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->keyboard_focus.link);
	wl_list_remove(&m->compositor_destroy.link);
	m->seat->shortcuts_inhibited = NULL;
	free(m);
}

bool garnet_keyboard_shortcuts_inhibit_init(struct garnet_compositor *c)
{
	struct inhibit_manager *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->seat = c->seat;
	wl_list_init(&m->inhibitors);
	if (!garnet_global_create(c, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, 1, m,
				  manager_bind, false)) {
		free(m);
		return false;
	}
	m->keyboard_focus.notify = manager_keyboard_focus;
	wl_signal_add(&c->seat->events.keyboard_focus, &m->keyboard_focus);
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	c->seat->shortcuts_inhibited = shortcuts_inhibited;
	c->seat->shortcuts_inhibit_data = m;
	return true;
}

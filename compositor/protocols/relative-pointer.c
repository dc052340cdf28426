// SPDX-License-Identifier: MIT
// zwp_relative_pointer_manager_v1: pointer motion as deltas (games, 3D views), sent only to the
// client whose surface has the pointer focus, ahead of the wl_pointer events of the same frame.
// The headless seat knows absolute positions only, so deltas are the moves it makes.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/surface.h"
#include "../core/seat.h"
#include "client-protocols.h"
#include "relative-pointer-unstable-v1-server-protocol.h"

struct relative_manager {
	struct garnet_compositor *compositor;
	struct wl_list pointers; /* zwp_relative_pointer_v1 resources (wl_resource_get_link) */
	struct wl_listener motion;
	struct wl_listener compositor_destroy;
};

static void relative_motion(struct wl_listener *listener, void *data)
{
	struct relative_manager *m = wl_container_of(listener, m, motion);
	struct garnet_seat_motion *motion = data;
	struct garnet_surface *focus = m->compositor->seat->pointer_focus;
	uint64_t usec = (uint64_t)motion->time_msec * 1000;
	struct wl_client *client;
	struct wl_resource *resource;
	wl_fixed_t dx = wl_fixed_from_double(motion->dx), dy = wl_fixed_from_double(motion->dy);
	wl_fixed_t ux = wl_fixed_from_double(motion->dx_unaccel);
	wl_fixed_t uy = wl_fixed_from_double(motion->dy_unaccel);

	if (!focus || !garnet_seat_may_deliver(m->compositor->seat, focus, GARNET_INPUT_POINTER) ||
	    (dx == 0 && dy == 0 && ux == 0 && uy == 0))
		return;
	client = wl_resource_get_client(focus->resource);
	wl_resource_for_each(resource, &m->pointers) {
		if (wl_resource_get_client(resource) == client)
			zwp_relative_pointer_v1_send_relative_motion(resource, (uint32_t)(usec >> 32),
								     (uint32_t)usec, dx, dy, ux,
								     uy);
	}
}

static const struct zwp_relative_pointer_v1_interface pointer_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void manager_get_relative_pointer(struct wl_client *client, struct wl_resource *resource,
					 uint32_t id, struct wl_resource *pointer)
{
	struct relative_manager *m = wl_resource_get_user_data(resource);
	struct wl_resource *rp = wl_resource_create(client, &zwp_relative_pointer_v1_interface,
						    wl_resource_get_version(resource), id);

	(void)pointer; /* garnet has one seat, so one pointer */
	if (!rp) {
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(rp, &pointer_impl, m, garnet_resource_unlink);
	wl_list_insert(&m->pointers, wl_resource_get_link(rp));
}

static const struct zwp_relative_pointer_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_relative_pointer = manager_get_relative_pointer,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &zwp_relative_pointer_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct relative_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->motion.link);
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_relative_pointer_init(struct garnet_compositor *c)
{
	struct relative_manager *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->pointers);
	if (!garnet_global_create(c, &zwp_relative_pointer_manager_v1_interface, 1, m,
				  manager_bind, false)) {
		free(m);
		return false;
	}
	m->motion.notify = relative_motion;
	wl_signal_add(&c->seat->events.motion, &m->motion);
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}

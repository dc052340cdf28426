// SPDX-License-Identifier: MIT
// zwp_pointer_gestures_v1: touchpad swipes, pinches and holds (libinput's gestures). A gesture
// goes to the surface the pointer was over when it began, through that client's gesture
// objects only, and only while the seat may deliver pointer input to it (not over the lock or
// the consent dialog); a gesture whose surface went away is followed by nobody. A gesture cut
// off (garnet took the input, or its surface may no longer have it) ends, cancelled, for the
// client that had it: it never waits for an end that would not come.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "pointer-gestures-unstable-v1-server-protocol.h"

#define KINDS 3

struct gesture_target {
	struct garnet_surface *surface; /* NULL: no gesture of this kind under way */
	struct wl_listener surface_destroy;
};

struct gestures {
	struct garnet_compositor *compositor;
	/* Per garnet_gesture_kind: the gesture objects (wl_resource_get_link) and the surface
	 * the gesture in progress began on. */
	struct wl_list resources[KINDS];
	struct gesture_target targets[KINDS];
	struct wl_listener gesture;
	struct wl_listener compositor_destroy;
};

static void target_set(struct gesture_target *target, struct garnet_surface *surface)
{
	garnet_list_unlink(&target->surface_destroy.link);
	target->surface = surface;
	if (surface)
		wl_signal_add(&surface->events.destroy, &target->surface_destroy);
}

static void target_surface_destroy(struct wl_listener *listener, void *data)
{
	struct gesture_target *target = wl_container_of(listener, target, surface_destroy);

	(void)data;
	target_set(target, NULL);
}

static void send(struct wl_resource *r, const struct garnet_gesture *g, uint32_t serial,
		 struct garnet_surface *surface)
{
	wl_fixed_t dx = wl_fixed_from_double(g->dx), dy = wl_fixed_from_double(g->dy);

	switch (g->kind) {
	case GARNET_GESTURE_SWIPE:
		if (g->phase == GARNET_GESTURE_BEGIN)
			zwp_pointer_gesture_swipe_v1_send_begin(r, serial, g->time_msec,
								surface->resource, g->fingers);
		else if (g->phase == GARNET_GESTURE_UPDATE)
			zwp_pointer_gesture_swipe_v1_send_update(r, g->time_msec, dx, dy);
		else
			zwp_pointer_gesture_swipe_v1_send_end(r, serial, g->time_msec,
							      g->cancelled);
		break;
	case GARNET_GESTURE_PINCH:
		if (g->phase == GARNET_GESTURE_BEGIN)
			zwp_pointer_gesture_pinch_v1_send_begin(r, serial, g->time_msec,
								surface->resource, g->fingers);
		else if (g->phase == GARNET_GESTURE_UPDATE)
			zwp_pointer_gesture_pinch_v1_send_update(r, g->time_msec, dx, dy,
								 wl_fixed_from_double(g->scale),
								 wl_fixed_from_double(g->rotation));
		else
			zwp_pointer_gesture_pinch_v1_send_end(r, serial, g->time_msec,
							      g->cancelled);
		break;
	case GARNET_GESTURE_HOLD:
		if (g->phase == GARNET_GESTURE_BEGIN)
			zwp_pointer_gesture_hold_v1_send_begin(r, serial, g->time_msec,
							       surface->resource, g->fingers);
		else if (g->phase == GARNET_GESTURE_END)
			zwp_pointer_gesture_hold_v1_send_end(r, serial, g->time_msec, g->cancelled);
		break;
	}
}

static void to_client(struct gestures *gs, const struct garnet_gesture *g, uint32_t serial,
		      struct garnet_surface *surface)
{
	struct wl_client *client = wl_resource_get_client(surface->resource);
	struct wl_resource *r;

	wl_resource_for_each(r, &gs->resources[g->kind])
	{
		if (wl_resource_get_client(r) == client)
			send(r, g, serial, surface);
	}
}

/* The gesture of that kind under way (if any) ends, cancelled, for its client. */
static void cancel(struct gestures *gs, enum garnet_gesture_kind kind, uint32_t time_msec)
{
	struct gesture_target *target = &gs->targets[kind];
	struct garnet_gesture end = {
		.kind = kind,
		.phase = GARNET_GESTURE_END,
		.time_msec = time_msec,
		.cancelled = true,
	};

	if (!target->surface)
		return;
	to_client(gs, &end, wl_display_next_serial(gs->compositor->display), target->surface);
	target_set(target, NULL);
}

static void gestures_deliver(struct wl_listener *listener, void *data)
{
	struct gestures *gs = wl_container_of(listener, gs, gesture);
	const struct garnet_gesture *g = data;
	struct garnet_seat *seat = gs->compositor->seat;
	struct gesture_target *target;
	struct garnet_surface *surface;
	uint32_t serial = 0;

	if ((unsigned int)g->kind >= KINDS)
		return;
	target = &gs->targets[g->kind];
	if (g->phase == GARNET_GESTURE_BEGIN) {
		/* A begin without the end of the one before: that one is over. */
		cancel(gs, g->kind, g->time_msec);
		target_set(target, seat->pointer_focus);
	}
	surface = target->surface;
	if (!surface)
		return;
	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_POINTER)) {
		if (g->phase == GARNET_GESTURE_BEGIN)
			target_set(target, NULL);
		else
			cancel(gs, g->kind, g->time_msec);
		return;
	}
	if (g->phase != GARNET_GESTURE_UPDATE)
		serial = wl_display_next_serial(gs->compositor->display);
	to_client(gs, g, serial, surface);
	if (g->phase == GARNET_GESTURE_END)
		target_set(target, NULL);
}

static const struct zwp_pointer_gesture_swipe_v1_interface swipe_impl = {
	.destroy = garnet_resource_destroy_request,
};
static const struct zwp_pointer_gesture_pinch_v1_interface pinch_impl = {
	.destroy = garnet_resource_destroy_request,
};
static const struct zwp_pointer_gesture_hold_v1_interface hold_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void gesture_create(struct wl_client *client, struct wl_resource *manager, uint32_t id,
			   enum garnet_gesture_kind kind)
{
	static const struct wl_interface *const ifaces[KINDS] = {
		&zwp_pointer_gesture_swipe_v1_interface,
		&zwp_pointer_gesture_pinch_v1_interface,
		&zwp_pointer_gesture_hold_v1_interface,
	};
	static const void *const impls[KINDS] = {&swipe_impl, &pinch_impl, &hold_impl};
	struct gestures *gs = wl_resource_get_user_data(manager);
	int version = wl_resource_get_version(manager);
	struct wl_resource *r;

	if (version > ifaces[kind]->version)
		version = ifaces[kind]->version;
	r = wl_resource_create(client, ifaces[kind], version, id);
	if (!r) {
		wl_resource_post_no_memory(manager);
		return;
	}
	wl_resource_set_implementation(r, impls[kind], gs, garnet_resource_unlink);
	wl_list_insert(&gs->resources[kind], wl_resource_get_link(r));
}

/* garnet has one seat, so one pointer: the wl_pointer argument names nothing more. */
static void manager_get_swipe(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			      struct wl_resource *pointer)
{
	(void)pointer;
	gesture_create(client, resource, id, GARNET_GESTURE_SWIPE);
}

static void manager_get_pinch(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			      struct wl_resource *pointer)
{
	(void)pointer;
	gesture_create(client, resource, id, GARNET_GESTURE_PINCH);
}

static void manager_get_hold(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			     struct wl_resource *pointer)
{
	(void)pointer;
	gesture_create(client, resource, id, GARNET_GESTURE_HOLD);
}

static const struct zwp_pointer_gestures_v1_interface manager_impl = {
	.get_swipe_gesture = manager_get_swipe,
	.get_pinch_gesture = manager_get_pinch,
	.release = garnet_resource_destroy_request,
	.get_hold_gesture = manager_get_hold,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_pointer_gestures_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

static void gestures_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct gestures *gs = wl_container_of(listener, gs, compositor_destroy);

	(void)data;
	for (int i = 0; i < KINDS; i++) {
		target_set(&gs->targets[i], NULL);
		garnet_resources_make_inert(&gs->resources[i]);
	}
	wl_list_remove(&gs->gesture.link);
	wl_list_remove(&gs->compositor_destroy.link);
	free(gs);
}

bool garnet_pointer_gestures_init(struct garnet_compositor *c)
{
	struct gestures *gs = calloc(1, sizeof(*gs));

	if (!gs)
		return false;
	gs->compositor = c;
	for (int i = 0; i < KINDS; i++) {
		wl_list_init(&gs->resources[i]);
		garnet_listener_init(&gs->targets[i].surface_destroy, target_surface_destroy);
	}
	if (!garnet_global_create(c, &zwp_pointer_gestures_v1_interface, 3, gs, manager_bind,
				  false)) {
		free(gs);
		return false;
	}
	gs->gesture.notify = gestures_deliver;
	wl_signal_add(&c->seat->events.gesture, &gs->gesture);
	gs->compositor_destroy.notify = gestures_compositor_destroy;
	wl_signal_add(&c->events.destroy, &gs->compositor_destroy);
	return true;
}

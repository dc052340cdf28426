// SPDX-License-Identifier: MIT
// Drag and drop of wl_data_device: the pointer grab that carries a source over surfaces, the
// offers it makes to whatever is under it, the drop, and the drag icon's role.
#include <math.h>
#include <stdlib.h>

#include "data-device-private.h"
#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "view.h"
#include "seat.h"
#include "data-source.h"

struct drag_grab {
	struct garnet_pointer_grab base;
	struct garnet_seat *seat;
	struct wl_client *client;
	struct garnet_surface *focus;
	struct wl_listener focus_destroy, source_destroy;
	struct garnet_data_source *source;
};

static void drag_leave(struct drag_grab *drag)
{
	struct wl_resource *device;

	if (!drag->focus)
		return;
	wl_resource_for_each(device, &drag->seat->data_devices) {
		if (wl_resource_get_client(device) == wl_resource_get_client(drag->focus->resource))
			wl_data_device_send_leave(device);
	}
	garnet_list_unlink(&drag->focus_destroy.link);
	drag->focus = NULL;
	drag->seat->drag_offer = NULL;
}

static void drag_focus_destroyed(struct wl_listener *listener, void *data)
{
	struct drag_grab *drag = wl_container_of(listener, drag, focus_destroy);

	garnet_list_unlink(&drag->focus_destroy.link);
	drag->focus = NULL;
	drag->seat->drag_offer = NULL;
}

static void drag_enter(struct drag_grab *drag, struct garnet_surface *surface, double sx,
		       double sy)
{
	struct garnet_seat *seat = drag->seat;
	struct wl_resource *device, *offer;
	uint32_t serial;

	drag_leave(drag);
	if (!surface || !garnet_seat_may_deliver(seat, surface, GARNET_INPUT_POINTER))
		return;
	/* A drag without a source stays inside its own client. */
	if (!drag->source && wl_resource_get_client(surface->resource) != drag->client)
		return;
	drag->focus = surface;
	wl_signal_add(&surface->events.destroy, &drag->focus_destroy);
	serial = wl_display_next_serial(seat->compositor->display);
	wl_resource_for_each(device, &seat->data_devices) {
		if (wl_resource_get_client(device) != wl_resource_get_client(surface->resource))
			continue;
		offer = drag->source ? data_device_make_offer(seat, device, drag->source, true) : NULL;
		if (offer)
			seat->drag_offer = offer;
		wl_data_device_send_enter(device, serial, surface->resource,
					  wl_fixed_from_double(sx), wl_fixed_from_double(sy),
					  offer);
	}
}

static void drag_motion(struct garnet_pointer_grab *base, uint32_t time)
{
	struct drag_grab *drag = wl_container_of(base, drag, base);
	struct garnet_seat *seat = drag->seat;
	struct wl_resource *device;
	double sx = 0, sy = 0;
	struct garnet_surface *surface =
		garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);

	if (surface != drag->focus) {
		drag_enter(drag, surface, sx, sy);
		return;
	}
	if (!drag->focus)
		return;
	wl_resource_for_each(device, &seat->data_devices) {
		if (wl_resource_get_client(device) == wl_resource_get_client(drag->focus->resource))
			wl_data_device_send_motion(device, time, wl_fixed_from_double(sx),
						   wl_fixed_from_double(sy));
	}
}

static void drag_end(struct drag_grab *drag)
{
	struct garnet_seat *seat = drag->seat;

	drag_leave(drag);
	wl_list_remove(&drag->focus_destroy.link);
	wl_list_remove(&drag->source_destroy.link);
	seat->drag_source = NULL;
	garnet_seat_set_drag_icon(seat, NULL);
	garnet_seat_end_grab(seat);
	free(drag);
}

static void drag_button(struct garnet_pointer_grab *base, uint32_t time, uint32_t button,
			bool pressed)
{
	struct drag_grab *drag = wl_container_of(base, drag, base);
	struct garnet_seat *seat = drag->seat;
	struct garnet_data_source *source = drag->source;
	struct wl_resource *device;

	if (pressed || seat->button_count > 0)
		return;
	if (drag->focus && source && source->accepted && source->current_action) {
		wl_resource_for_each(device, &seat->data_devices) {
			if (wl_resource_get_client(device) ==
			    wl_resource_get_client(drag->focus->resource))
				wl_data_device_send_drop(device);
		}
		if (wl_resource_get_version(source->resource) >=
		    WL_DATA_SOURCE_DND_DROP_PERFORMED_SINCE_VERSION)
			wl_data_source_send_dnd_drop_performed(source->resource);
		/* The offer lives on for the target to read; only leave is skipped. */
		garnet_list_unlink(&drag->focus_destroy.link);
		drag->focus = NULL;
	} else if (source) {
		source->impl->cancel(source);
	}
	drag_end(drag);
}

static void drag_axis(struct garnet_pointer_grab *base, uint32_t time, uint32_t axis,
		      double value)
{
}

static void drag_cancel(struct garnet_pointer_grab *base)
{
	struct drag_grab *drag = wl_container_of(base, drag, base);

	drag_leave(drag);
	if (drag->source)
		drag->source->impl->cancel(drag->source);
	wl_list_remove(&drag->focus_destroy.link);
	wl_list_remove(&drag->source_destroy.link);
	drag->seat->drag_source = NULL;
	garnet_seat_set_drag_icon(drag->seat, NULL);
	free(drag);
}

static const struct garnet_pointer_grab_impl drag_grab_impl = {
	.motion = drag_motion,
	.button = drag_button,
	.axis = drag_axis,
	.cancel = drag_cancel,
};

static void drag_source_destroyed(struct wl_listener *listener, void *data)
{
	struct drag_grab *drag = wl_container_of(listener, drag, source_destroy);

	/* The drag continues without data: the target sees a plain leave. */
	garnet_list_unlink(&drag->source_destroy.link);
	drag->source = NULL;
	drag->seat->drag_source = NULL;
	drag_leave(drag);
}

static void drag_icon_commit(struct garnet_surface *surface)
{
	struct garnet_seat *seat = surface->compositor->seat;

	if (seat->drag_icon != surface)
		return;
	if (surface->current.dx || surface->current.dy) {
		garnet_surface_damage_tree(surface);
		seat->drag_icon_x += surface->current.dx;
		seat->drag_icon_y += surface->current.dy;
	}
	garnet_surface_damage_tree(surface);
	if (!wl_list_empty(&surface->current.frame_callbacks))
		garnet_compositor_schedule_repaint(surface->compositor);
}

/* The icon follows the pointer, above every window, for as long as its drag lasts. */
static bool drag_icon_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct garnet_seat *seat = surface->compositor->seat;

	if (!seat || seat->drag_icon != surface)
		return false;
	*x = (int32_t)floor(seat->x) + seat->drag_icon_x;
	*y = (int32_t)floor(seat->y) + seat->drag_icon_y;
	return true;
}

static const struct garnet_surface_role drag_icon_role = {
	.name = "wl_data_device-icon",
	.commit = drag_icon_commit,
	.position = drag_icon_position,
};

void data_device_start_drag(struct garnet_seat *seat, struct wl_client *client,
			    struct wl_resource *device, struct garnet_data_source *source,
			    struct garnet_surface *icon)
{
	struct drag_grab *drag;

	if (icon && !garnet_surface_set_role(icon, &drag_icon_role, NULL, device,
					     WL_DATA_DEVICE_ERROR_ROLE))
		return;
	drag = calloc(1, sizeof(*drag));
	if (!drag) {
		wl_resource_post_no_memory(device);
		return;
	}
	drag->base.impl = &drag_grab_impl;
	drag->seat = seat;
	drag->client = client;
	drag->source = source;
	garnet_listener_init(&drag->focus_destroy, drag_focus_destroyed);
	garnet_listener_init(&drag->source_destroy, drag_source_destroyed);
	if (drag->source) {
		drag->source->used = true;
		drag->source->accepted = false;
		drag->source->current_action = 0;
		wl_signal_add(&drag->source->events.destroy, &drag->source_destroy);
	}
	seat->drag_source = drag->source;
	garnet_seat_set_drag_icon(seat, icon);
	garnet_seat_set_pointer_focus(seat, NULL, 0, 0);
	garnet_seat_start_grab(seat, &drag->base);
	drag_motion(&drag->base, garnet_now_msec(seat->compositor));
}

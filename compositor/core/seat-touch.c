// SPDX-License-Identifier: MIT
// wl_touch: each touch point goes to the surface it went down on, frames only to who heard.

#include "compositor.h"
#include "surface.h"
#include "view.h"
#include "seat.h"
#include "consent.h"
#include "seat-private.h"

static struct garnet_touch_point *touch_point(struct garnet_seat *seat, int32_t id)
{
	struct seat_private *sp = seat_priv(seat);

	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		if (sp->touch[i].active && sp->touch[i].id == id)
			return &sp->touch[i];
	}
	return NULL;
}

static void touch_point_release(struct garnet_touch_point *tp)
{
	tp->active = false;
	if (tp->surface) {
		garnet_list_unlink(&tp->surface_destroy.link);
	}
	tp->surface = NULL;
}

void seat_touch_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_touch_point *tp = wl_container_of(listener, tp, surface_destroy);
	struct garnet_surface *surface = data;
	struct garnet_seat *seat = surface->compositor->seat;
	struct wl_resource *touch;
	uint32_t serial;

	/* The finger is still down, but what it touched is gone: for its client the touch
	 * ends here (the finger's real lift later goes nowhere). */
	if (seat && garnet_seat_may_deliver(seat, surface, GARNET_INPUT_TOUCH)) {
		serial = wl_display_next_serial(surface->compositor->display);
		seat_for_each_resource_of(touch, &seat_priv(seat)->touches, surface_client(surface)) {
			wl_touch_send_up(touch, serial, garnet_now_msec(surface->compositor),
					 tp->id);
			wl_touch_send_frame(touch);
		}
	}
	garnet_list_unlink(&tp->surface_destroy.link);
	tp->surface = NULL;
}

void garnet_seat_notify_touch_down(struct garnet_seat *seat, uint32_t time_msec, int32_t id,
				   double x, double y)
{
	struct garnet_touch_point *tp = NULL;
	struct garnet_surface *surface;
	struct wl_resource *touch;
	double sx, sy;
	uint32_t serial;

	wl_signal_emit(&seat->events.activity, seat);
	if (touch_point(seat, id))
		return;
	if (garnet_consent_press(seat->compositor, x, y))
		return;
	for (int i = 0; i < GARNET_TOUCH_POINTS && !tp; i++) {
		if (!seat_priv(seat)->touch[i].active)
			tp = &seat_priv(seat)->touch[i];
	}
	if (!tp)
		return;
	surface = garnet_scene_surface_at(seat->compositor, x, y, &sx, &sy);
	tp->active = true;
	tp->id = id;
	tp->surface = surface;
	if (!surface)
		return;
	wl_signal_add(&surface->events.destroy, &tp->surface_destroy);
	seat->compositor->shell_hooks->handle_click(seat->compositor->shell, surface);
	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_TOUCH))
		return;
	serial = wl_display_next_serial(seat->compositor->display);
	garnet_seat_record_input_serial(seat, surface_client(surface), serial);
	seat_for_each_resource_of(touch, &seat_priv(seat)->touches, surface_client(surface))
		wl_touch_send_down(touch, serial, time_msec, surface->resource, id,
				   wl_fixed_from_double(sx), wl_fixed_from_double(sy));
	tp->frame_client = surface_client(surface);
}

void garnet_seat_notify_touch_motion(struct garnet_seat *seat, uint32_t time_msec, int32_t id,
				     double x, double y)
{
	struct garnet_touch_point *tp = touch_point(seat, id);
	struct wl_resource *touch;
	int32_t ox, oy;

	if (!tp || !tp->surface || !garnet_surface_position(tp->surface, &ox, &oy) ||
	    !garnet_seat_may_deliver(seat, tp->surface, GARNET_INPUT_TOUCH))
		return;
	seat_for_each_resource_of(touch, &seat_priv(seat)->touches, surface_client(tp->surface))
		wl_touch_send_motion(touch, time_msec, id, wl_fixed_from_double(x - ox),
				     wl_fixed_from_double(y - oy));
	tp->frame_client = surface_client(tp->surface);
}

void garnet_seat_notify_touch_up(struct garnet_seat *seat, uint32_t time_msec, int32_t id)
{
	struct garnet_touch_point *tp = touch_point(seat, id);
	struct wl_resource *touch;
	uint32_t serial;

	if (!tp)
		return;
	if (tp->surface && garnet_seat_may_deliver(seat, tp->surface, GARNET_INPUT_TOUCH)) {
		serial = wl_display_next_serial(seat->compositor->display);
		garnet_seat_record_input_serial(seat, surface_client(tp->surface), serial);
		seat_for_each_resource_of(touch, &seat_priv(seat)->touches, surface_client(tp->surface))
			wl_touch_send_up(touch, serial, time_msec, id);
		tp->frame_client = surface_client(tp->surface);
	}
	touch_point_release(tp);
}

void garnet_seat_cancel_touch(struct garnet_seat *seat)
{
	struct seat_private *sp = seat_priv(seat);
	struct wl_resource *touch;

	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		struct garnet_touch_point *tp = &sp->touch[i];
		struct wl_client *client;

		if (!tp->active || !tp->surface)
			continue;
		client = surface_client(tp->surface);
		/* cancel ends every touch point of that client at once. */
		seat_for_each_resource_of(touch, &sp->touches, client)
			wl_touch_send_cancel(touch);
		for (int j = i; j < GARNET_TOUCH_POINTS; j++) {
			if (sp->touch[j].active && sp->touch[j].surface &&
			    surface_client(sp->touch[j].surface) == client) {
				/* Still down, but the finger's lift and moves go nowhere now. */
				garnet_list_unlink(&sp->touch[j].surface_destroy.link);
				sp->touch[j].surface = NULL;
				sp->touch[j].frame_client = NULL;
			}
		}
	}
}

void garnet_seat_notify_touch_frame(struct garnet_seat *seat)
{
	struct seat_private *sp = seat_priv(seat);
	struct wl_resource *touch;

	/* Only clients that were sent an event since the last frame hear about it. */
	wl_resource_for_each(touch, &sp->touches) {
		for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
			if (sp->touch[i].frame_client &&
			    wl_resource_get_client(touch) == sp->touch[i].frame_client) {
				wl_touch_send_frame(touch);
				break;
			}
		}
	}
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++)
		sp->touch[i].frame_client = NULL;
}

static const struct wl_touch_interface touch_impl = {
	.release = garnet_resource_destroy_request,
};

const struct seat_device seat_touch = {
	.iface = &wl_touch_interface,
	.impl = &touch_impl,
	.kind = GARNET_INPUT_TOUCH,
};

// SPDX-License-Identifier: MIT
// wl_pointer: pointer focus (enter/leave), motion, buttons and axes, through the seat's grab.

#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "seat.h"
#include "consent.h"
#include "seat-private.h"

void seat_pointer_frame(struct wl_resource *pointer)
{
	if (wl_resource_get_version(pointer) >= WL_POINTER_FRAME_SINCE_VERSION)
		wl_pointer_send_frame(pointer);
}

void seat_pointer_focus_destroyed(struct wl_listener *listener, void *data)
{
	struct seat_private *sp = wl_container_of(listener, sp, pointer_focus_destroy);
	struct garnet_seat *seat = &sp->base;

	garnet_list_unlink(&sp->pointer_focus_destroy.link);
	seat->pointer_focus = NULL;
	seat->button_count = 0;
	seat_set_cursor_hidden(seat, false);
}

void garnet_seat_set_pointer_focus(struct garnet_seat *seat, struct garnet_surface *surface,
				   double sx, double sy)
{
	struct seat_private *sp = seat_priv(seat);
	struct garnet_surface *old = seat->pointer_focus;
	struct wl_display *display = seat->compositor->display;
	struct wl_resource *pointer;
	uint32_t serial;

	/* Over the consent dialog the pointer is over no client: it enters again afterwards. */
	if (garnet_consent_active(seat->compositor))
		surface = NULL;
	seat->sx = sx;
	seat->sy = sy;
	if (old == surface)
		return;
	if (old) {
		garnet_list_unlink(&sp->pointer_focus_destroy.link);
		if (garnet_seat_may_deliver(seat, old, GARNET_INPUT_POINTER)) {
			serial = wl_display_next_serial(display);
			seat_for_each_resource_of(pointer, &sp->pointers, surface_client(old)) {
				wl_pointer_send_leave(pointer, serial, old->resource);
				seat_pointer_frame(pointer);
			}
		}
	}
	seat->pointer_focus = surface;
	/* A client's cursor image (or its wish for none) lasts only while the pointer is over
	 * that client; elsewhere garnet's arrow shows until the next client sets one. */
	if (seat->cursor && (!surface || surface_client(seat->cursor) != surface_client(surface)))
		seat_set_cursor_surface(seat, NULL);
	if (sp->cursor_hidden &&
	    (!surface || !old || surface_client(old) != surface_client(surface)))
		seat_set_cursor_hidden(seat, false);
	if (!surface)
		return;
	wl_signal_add(&surface->events.destroy, &sp->pointer_focus_destroy);
	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_POINTER))
		return;
	serial = wl_display_next_serial(display);
	sp->pointer_enter_serial = serial;
	seat_for_each_resource_of(pointer, &sp->pointers, surface_client(surface)) {
		wl_pointer_send_enter(pointer, serial, surface->resource, wl_fixed_from_double(sx),
				      wl_fixed_from_double(sy));
		seat_pointer_frame(pointer);
	}
}

void garnet_seat_send_motion(struct garnet_seat *seat, uint32_t time)
{
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	seat_for_each_resource_of(pointer, &seat_priv(seat)->pointers, surface_client(focus)) {
		wl_pointer_send_motion(pointer, time, wl_fixed_from_double(seat->sx),
				       wl_fixed_from_double(seat->sy));
		seat_pointer_frame(pointer);
	}
}

void garnet_seat_send_button(struct garnet_seat *seat, uint32_t time, uint32_t button,
			     bool pressed)
{
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;
	uint32_t serial;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	serial = wl_display_next_serial(seat->compositor->display);
	if (pressed)
		seat->grab_serial = serial;
	garnet_seat_record_input_serial(seat, surface_client(focus), serial);
	seat_for_each_resource_of(pointer, &seat_priv(seat)->pointers, surface_client(focus)) {
		wl_pointer_send_button(pointer, serial, time, button,
				       pressed ? WL_POINTER_BUTTON_STATE_PRESSED
					       : WL_POINTER_BUTTON_STATE_RELEASED);
		seat_pointer_frame(pointer);
	}
}

static void clamp_to_outputs(struct garnet_compositor *c, double *x, double *y)
{
	struct garnet_output *o;
	double best = -1, bx = *x, by = *y;

	wl_list_for_each(o, &c->outputs, link) {
		double cx = *x < o->x ? o->x : *x >= o->x + o->width ? o->x + o->width - 1 : *x;
		double cy = *y < o->y ? o->y : *y >= o->y + o->height ? o->y + o->height - 1 : *y;
		double d = (cx - *x) * (cx - *x) + (cy - *y) * (cy - *y);

		if (best < 0 || d < best) {
			best = d;
			bx = cx;
			by = cy;
		}
	}
	*x = bx;
	*y = by;
}

void garnet_seat_get_pointer_position(struct garnet_seat *seat, double *x, double *y)
{
	*x = seat->x;
	*y = seat->y;
}

static void move_pointer(struct garnet_seat *seat, uint32_t time_msec, double x, double y)
{
	clamp_to_outputs(seat->compositor, &x, &y);
	if (seat->constrain_motion && !seat->constrain_motion(seat->constrain_data, &x, &y))
		return;
	/* Held at an output's edge: nothing moved, nothing to tell. */
	if (x == seat->x && y == seat->y)
		return;
	if (garnet_compositor_cursor_on_planes(seat->compositor)) {
		/* The display moves the image; nothing under it changes. */
		seat->x = x;
		seat->y = y;
		garnet_compositor_cursor_moved(seat->compositor);
	} else {
		seat_damage_pointer_images(seat);
		seat->x = x;
		seat->y = y;
		seat_damage_pointer_images(seat);
	}
	garnet_consent_pointer_moved(seat->compositor, x, y);
	seat->grab->impl->motion(seat->grab, time_msec);
}

void garnet_seat_notify_motion_absolute(struct garnet_seat *seat, uint32_t time_msec, double x,
					double y)
{
	wl_signal_emit(&seat->events.activity, seat);
	move_pointer(seat, time_msec, x, y);
}

void garnet_seat_notify_motion(struct garnet_seat *seat, uint32_t time_msec, double dx, double dy,
			       double dx_unaccel, double dy_unaccel)
{
	struct garnet_seat_motion motion = {time_msec, dx, dy, dx_unaccel, dy_unaccel};

	wl_signal_emit(&seat->events.activity, seat);
	wl_signal_emit(&seat->events.motion, &motion);
	move_pointer(seat, time_msec, seat->x + dx, seat->y + dy);
}

void garnet_seat_notify_button(struct garnet_seat *seat, uint32_t time_msec, uint32_t button,
			       bool pressed)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (garnet_consent_pointer_button(seat->compositor, seat->x, seat->y, pressed))
		return;
	if (pressed) {
		seat->grab->impl->button(seat->grab, time_msec, button, true);
		seat->button_count++;
	} else {
		if (seat->button_count == 0)
			return;
		seat->button_count--;
		seat->grab->impl->button(seat->grab, time_msec, button, false);
	}
}

void garnet_seat_notify_virtual_button(struct garnet_seat *seat, uint32_t time_msec,
				       uint32_t button, bool pressed)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (pressed && garnet_consent_press(seat->compositor, seat->x, seat->y))
		return;
	seat->grab->impl->button(seat->grab, time_msec, button, pressed);
}

void garnet_seat_notify_axis(struct garnet_seat *seat, uint32_t time_msec, uint32_t axis,
			     double value)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (axis > WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return;
	seat->grab->impl->axis(seat->grab, time_msec, axis, value);
}

void garnet_seat_notify_axis_wheel(struct garnet_seat *seat, uint32_t time_msec, uint32_t axis,
				   double value, int32_t value120)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (axis > WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return;
	seat_priv(seat)->axis_value120 = value120;
	seat->grab->impl->axis(seat->grab, time_msec, axis, value);
	seat_priv(seat)->axis_value120 = 0;
}

void seat_pointer_send_axis(struct garnet_seat *seat, struct wl_resource *pointer, uint32_t time,
			    uint32_t axis, double value)
{
	int version = wl_resource_get_version(pointer);
	int32_t v120 = seat_priv(seat)->axis_value120;

	/* What a wheel adds comes before the axis event of its frame. A v5 to v7 client hears
	 * whole clicks only: a high-resolution wheel's part of a click is just the axis value. */
	if (v120 && version >= WL_POINTER_AXIS_SOURCE_SINCE_VERSION) {
		wl_pointer_send_axis_source(pointer, WL_POINTER_AXIS_SOURCE_WHEEL);
		if (version >= WL_POINTER_AXIS_VALUE120_SINCE_VERSION)
			wl_pointer_send_axis_value120(pointer, axis, v120);
		else if (v120 / 120 != 0)
			wl_pointer_send_axis_discrete(pointer, axis, v120 / 120);
	}
	wl_pointer_send_axis(pointer, time, axis, wl_fixed_from_double(value));
	seat_pointer_frame(pointer);
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = seat_pointer_set_cursor,
	.release = garnet_resource_destroy_request,
};

static void pointer_created(struct garnet_seat *seat, struct wl_resource *pointer,
			    struct garnet_surface *focus)
{
	if (!focus)
		return;
	wl_pointer_send_enter(pointer, seat_priv(seat)->pointer_enter_serial, focus->resource,
			      wl_fixed_from_double(seat->sx), wl_fixed_from_double(seat->sy));
	seat_pointer_frame(pointer);
}

const struct seat_device seat_pointer = {
	.iface = &wl_pointer_interface,
	.impl = &pointer_impl,
	.kind = GARNET_INPUT_POINTER,
	.created = pointer_created,
};

// SPDX-License-Identifier: MIT
// Pointer grabs: the default one (implicit grab while a button is down, focus follows the
// pointer otherwise), starting and ending others, taking all input for garnet itself.

#include "compositor.h"
#include "surface.h"
#include "view.h"
#include "seat.h"
#include "consent.h"
#include "seat-private.h"

static void focus_local_coords(struct garnet_seat *seat)
{
	int32_t x, y;

	if (seat->pointer_focus && garnet_surface_position(seat->pointer_focus, &x, &y)) {
		seat->sx = seat->x - x;
		seat->sy = seat->y - y;
	}
}

static void default_grab_motion(struct garnet_pointer_grab *grab, uint32_t time)
{
	struct garnet_seat *seat = grab->seat;
	struct garnet_surface *surface;
	double sx = 0, sy = 0;

	if (seat->button_count > 0) {
		/* Implicit grab: the surface that got the press keeps the pointer. */
		focus_local_coords(seat);
	} else {
		surface = garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);
		garnet_seat_set_pointer_focus(seat, surface, sx, sy);
	}
	garnet_seat_send_motion(seat, time);
}

static void default_grab_button(struct garnet_pointer_grab *grab, uint32_t time,
				uint32_t button, bool pressed)
{
	struct garnet_seat *seat = grab->seat;

	if (pressed && seat->button_count == 0) {
		seat_priv(seat)->grab_button = button;
		seat_priv(seat)->grab_time = time;
		seat_priv(seat)->grab_x = seat->x;
		seat_priv(seat)->grab_y = seat->y;
		seat->compositor->shell_hooks->handle_click(seat->compositor->shell,
							    seat->pointer_focus);
	}
	garnet_seat_send_button(seat, time, button, pressed);
	if (!pressed && seat->button_count == 0)
		garnet_seat_repick(seat);
}

static void default_grab_axis(struct garnet_pointer_grab *grab, uint32_t time, uint32_t axis,
			      double value)
{
	struct garnet_seat *seat = grab->seat;
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	seat_for_each_resource_of(pointer, &seat_priv(seat)->pointers, surface_client(focus))
		seat_pointer_send_axis(seat, pointer, time, axis, value);
}

static void default_grab_cancel(struct garnet_pointer_grab *grab)
{
}

const struct garnet_pointer_grab_impl seat_default_grab_impl = {
	.motion = default_grab_motion,
	.button = default_grab_button,
	.axis = default_grab_axis,
	.cancel = default_grab_cancel,
};

void garnet_seat_start_grab(struct garnet_seat *seat, struct garnet_pointer_grab *grab)
{
	if (seat->grab != &seat->default_grab)
		seat->grab->impl->cancel(seat->grab);
	grab->seat = seat;
	seat->grab = grab;
}

bool garnet_seat_pointer_is_garnets(struct garnet_seat *seat)
{
	return seat->compositor->locked || garnet_consent_active(seat->compositor);
}

void garnet_seat_take_input(struct garnet_seat *seat)
{
	if (seat->grab != &seat->default_grab) {
		seat->grab->impl->cancel(seat->grab);
		seat->grab = &seat->default_grab;
	}
	/* The keyboard is the focus authority's to move (shell/focus.c), here to nothing. */
	if (seat->compositor->shell)
		seat->compositor->shell_hooks->focus_surface(seat->compositor->shell, NULL);
	garnet_seat_set_pointer_focus(seat, NULL, 0, 0);
	garnet_seat_cancel_touch(seat);
	garnet_seat_cancel_gestures(seat);
}

void garnet_seat_end_grab(struct garnet_seat *seat)
{
	seat->grab = &seat->default_grab;
	garnet_seat_repick(seat);
}

void garnet_seat_repick(struct garnet_seat *seat)
{
	struct garnet_surface *surface, *old;
	double sx = 0, sy = 0, old_sx, old_sy;

	if (!seat || seat->grab != &seat->default_grab || seat->button_count > 0)
		return;
	old = seat->pointer_focus;
	old_sx = seat->sx;
	old_sy = seat->sy;
	surface = garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);
	garnet_seat_set_pointer_focus(seat, surface, sx, sy);
	/* The surface moved under a still pointer: to its client the pointer moved. */
	if (surface && surface == old && (sx != old_sx || sy != old_sy))
		garnet_seat_send_motion(seat, garnet_now_msec(seat->compositor));
}

/* SPDX-License-Identifier: MIT */
/* The seat: where backends hand in input. Events are routed to exactly one client by focus. */
#ifndef GARNET_SEAT_H
#define GARNET_SEAT_H

#include <stdint.h>
#include "garnet/compositor.h"

/* time_msec is the event time in milliseconds of the compositor's clock (CLOCK_MONOTONIC). */
/* An absolute device (tablet, touchpad in absolute mode, a nested compositor's pointer) put
 * the pointer at x, y: no relative motion comes of it. */
GARNET_EXPORT void garnet_seat_notify_motion_absolute(struct garnet_seat *seat, uint32_t time_msec,
						      double x, double y);
/* A relative device (a mouse) moved by dx, dy after acceleration, dx_unaccel, dy_unaccel as
 * the device reported it: the pointer moves by dx, dy within the outputs, and clients with a
 * relative pointer hear all four, even where the pointer itself cannot move (at an output's
 * edge, or locked). */
GARNET_EXPORT void garnet_seat_notify_motion(struct garnet_seat *seat, uint32_t time_msec,
					     double dx, double dy, double dx_unaccel,
					     double dy_unaccel);
/* A pointer button (linux/input-event-codes.h BTN_*) was pressed or released. */
GARNET_EXPORT void garnet_seat_notify_button(struct garnet_seat *seat, uint32_t time_msec,
					     uint32_t button, bool pressed);
/* A scroll of value (in wl_pointer.axis units) along axis (wl_pointer_axis); other axes are
 * ignored. */
GARNET_EXPORT void garnet_seat_notify_axis(struct garnet_seat *seat, uint32_t time_msec,
					   uint32_t axis, double value);
/* A wheel turned: value as for garnet_seat_notify_axis, value120 in 120ths of a click (what
 * libinput reports). Clients hear it as wl_pointer.axis_value120 (seat v8) or axis_discrete in
 * whole clicks (v5 to v7), with axis_source wheel. */
GARNET_EXPORT void garnet_seat_notify_axis_wheel(struct garnet_seat *seat, uint32_t time_msec,
						 uint32_t axis, double value, int32_t value120);
/* A keyboard key (evdev code, KEY_*) was pressed or released: a VT switch, garnet's lock
 * prompt and consent dialog, then the key bindings take it first; else the focused client. */
GARNET_EXPORT void garnet_seat_notify_key(struct garnet_seat *seat, uint32_t time_msec,
					  uint32_t key, bool pressed);
/* Touch point id went down at x, y (global logical coordinates); the surface there gets it
 * until it goes up. */
GARNET_EXPORT void garnet_seat_notify_touch_down(struct garnet_seat *seat, uint32_t time_msec,
						 int32_t id, double x, double y);
/* Touch point id moved to x, y. */
GARNET_EXPORT void garnet_seat_notify_touch_motion(struct garnet_seat *seat, uint32_t time_msec,
						   int32_t id, double x, double y);
/* Touch point id was lifted. */
GARNET_EXPORT void garnet_seat_notify_touch_up(struct garnet_seat *seat, uint32_t time_msec,
					       int32_t id);
/* The end of a set of touch events that belong together. */
GARNET_EXPORT void garnet_seat_notify_touch_frame(struct garnet_seat *seat);
/* A touchpad gesture (libinput's): a swipe or pinch of several fingers, or fingers held
 * still. It goes to the surface under the pointer when it began, and to nobody else. */
enum garnet_gesture_kind {
	GARNET_GESTURE_SWIPE,
	GARNET_GESTURE_PINCH,
	GARNET_GESTURE_HOLD,
};
enum garnet_gesture_phase {
	GARNET_GESTURE_BEGIN,
	GARNET_GESTURE_UPDATE, /* not for holds */
	GARNET_GESTURE_END,
};
struct garnet_gesture {
	enum garnet_gesture_kind kind;
	enum garnet_gesture_phase phase;
	uint32_t time_msec;
	uint32_t fingers;       /* begin */
	double dx, dy;          /* update: the fingers' centre moved by */
	double scale, rotation; /* update of a pinch: against the start, degrees clockwise */
	bool cancelled;         /* end */
};
GARNET_EXPORT void garnet_seat_notify_gesture(struct garnet_seat *seat,
					      const struct garnet_gesture *gesture);
/* Where the pointer is, in global logical coordinates (after clamping and constraints). */
GARNET_EXPORT void garnet_seat_get_pointer_position(struct garnet_seat *seat, double *x,
						    double *y);

#endif

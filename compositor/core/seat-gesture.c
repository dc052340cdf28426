// SPDX-License-Identifier: MIT
// Touchpad gestures as the seat hands them on: user activity, then whoever delivers them
// (protocols/pointer-gestures.c) to the surface under the pointer.
#include "seat.h"

void garnet_seat_notify_gesture(struct garnet_seat *seat, const struct garnet_gesture *gesture)
{
	wl_signal_emit(&seat->events.activity, seat);
	wl_signal_emit(&seat->events.gesture, (void *)gesture);
}

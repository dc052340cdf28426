// SPDX-License-Identifier: MIT
// Touchpad gestures as the seat hands them on: user activity, then whoever delivers them
// (protocols/pointer-gestures.c) to the surface under the pointer; and their end, cancelled,
// when garnet takes the input away (the lock, the consent dialog).
#include "seat.h"

void garnet_seat_notify_gesture(struct garnet_seat *seat, const struct garnet_gesture *gesture)
{
	wl_signal_emit(&seat->events.activity, seat);
	wl_signal_emit(&seat->events.gesture, (void *)gesture);
}

/* Not the user's input: no activity. A kind with no gesture under way ends nothing. */
void garnet_seat_cancel_gestures(struct garnet_seat *seat)
{
	static const enum garnet_gesture_kind kinds[] = {
		GARNET_GESTURE_SWIPE, GARNET_GESTURE_PINCH, GARNET_GESTURE_HOLD};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct garnet_gesture g = {
			.kind = kinds[i],
			.phase = GARNET_GESTURE_END,
			.time_msec = garnet_now_msec(seat->compositor),
			.cancelled = true,
		};

		wl_signal_emit(&seat->events.gesture, &g);
	}
}

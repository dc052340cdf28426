// SPDX-License-Identifier: MIT
// Locking the session after the user has been away: no input for the configured time locks
// the session (the trusted locker through the launch handler, as the lock binding does, or
// garnet's own lock screen), unless it is locked already. Any input starts the wait again.
#include <stdio.h>
#include <stdlib.h>

#include "../core/seat.h"
#include "../core/compositor.h"

struct idle_lock {
	struct garnet_compositor *compositor;
	struct wl_event_source *timer;
	int timeout_ms;
	struct wl_listener activity, compositor_destroy;
};

static int idle_expired(void *data)
{
	struct idle_lock *il = data;
	struct garnet_compositor *c = il->compositor;

	char reason[64];

	if (c->locked)
		return 0;
	snprintf(reason, sizeof(reason), "no input for %d s", il->timeout_ms / 1000);
	garnet_compositor_lock_session(c, reason);
	return 0;
}

static void user_active(struct wl_listener *listener, void *data)
{
	struct idle_lock *il = wl_container_of(listener, il, activity);

	wl_event_source_timer_update(il->timer, il->timeout_ms);
}

static void idle_lock_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct idle_lock *il = wl_container_of(listener, il, compositor_destroy);

	wl_event_source_remove(il->timer);
	wl_list_remove(&il->activity.link);
	wl_list_remove(&il->compositor_destroy.link);
	free(il);
}

bool garnet_compositor_lock_after_idle(struct garnet_compositor *c, int seconds)
{
	struct idle_lock *il;

	if (seconds <= 0)
		return true;
	il = calloc(1, sizeof(*il));
	if (!il)
		return false;
	il->compositor = c;
	il->timeout_ms = seconds * 1000;
	il->timer = wl_event_loop_add_timer(c->loop, idle_expired, il);
	if (!il->timer) {
		free(il);
		return false;
	}
	wl_event_source_timer_update(il->timer, il->timeout_ms);
	il->activity.notify = user_active;
	wl_signal_add(&c->seat->events.activity, &il->activity);
	il->compositor_destroy.notify = idle_lock_compositor_destroy;
	wl_signal_add(&c->events.destroy, &il->compositor_destroy);
	return true;
}

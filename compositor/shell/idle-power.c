// SPDX-License-Identifier: MIT
// Outputs darkened after the user has been away: no input for the configured time powers every
// output off (on the drm backend through KMS); the next input powers them on, whoever had
// darkened them. The screen lit by input shows what is there now, the lock screen included.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/seat.h"

struct idle_power {
	struct garnet_compositor *compositor;
	struct wl_event_source *timer;
	int timeout_ms;
	struct wl_listener activity, compositor_destroy;
};

static int idle_expired(void *data)
{
	struct idle_power *ip = data;
	struct garnet_output *output;

	garnet_log(ip->compositor, GARNET_LOG_INFO, "output", "no input for %d s: powering off",
		   ip->timeout_ms / 1000);
	wl_list_for_each (output, &ip->compositor->outputs, link)
		garnet_output_power(output, false, false);
	return 0;
}

static void user_active(struct wl_listener *listener, void *data)
{
	struct idle_power *ip = wl_container_of(listener, ip, activity);
	struct garnet_output *output;

	wl_list_for_each (output, &ip->compositor->outputs, link) {
		if (output->power_off)
			garnet_output_power(output, true, false);
	}
	if (ip->timer)
		wl_event_source_timer_update(ip->timer, ip->timeout_ms);
}

static void idle_power_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct idle_power *ip = wl_container_of(listener, ip, compositor_destroy);

	if (ip->timer)
		wl_event_source_remove(ip->timer);
	wl_list_remove(&ip->activity.link);
	wl_list_remove(&ip->compositor_destroy.link);
	free(ip);
}

/* Input lights the outputs even without an idle time: a client (an idle daemon) may have
 * darkened them. */
bool garnet_compositor_power_off_after_idle(struct garnet_compositor *c, int seconds)
{
	struct idle_power *ip = calloc(1, sizeof(*ip));

	if (!ip)
		return false;
	ip->compositor = c;
	if (seconds > 0) {
		ip->timeout_ms = seconds * 1000;
		ip->timer = wl_event_loop_add_timer(c->loop, idle_expired, ip);
		if (!ip->timer) {
			free(ip);
			return false;
		}
		wl_event_source_timer_update(ip->timer, ip->timeout_ms);
	}
	ip->activity.notify = user_active;
	wl_signal_add(&c->seat->events.activity, &ip->activity);
	ip->compositor_destroy.notify = idle_power_compositor_destroy;
	wl_signal_add(&c->events.destroy, &ip->compositor_destroy);
	return true;
}

struct wl_signal *garnet_compositor_get_activity_signal(struct garnet_compositor *c)
{
	return &c->seat->events.activity;
}

// SPDX-License-Identifier: MIT
// Idleness: ext_idle_notifier_v1 tells clients (screen lockers, power daemons) when the user has
// given no input for a while; zwp_idle_inhibit_manager_v1 lets a visible surface (a video
// player) hold idleness off. Both share one notion of "idle", kept per compositor.
#include <stdlib.h>

#include "../core/seat.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "ext-idle-notify-v1-server-protocol.h"
#include "idle-inhibit-unstable-v1-server-protocol.h"

struct idle {
	struct garnet_compositor *compositor;
	struct wl_global *notifier_global, *inhibit_global;
	struct wl_list notifications; /* idle_notification.link */
	struct wl_list inhibitors;    /* idle_inhibitor.link */
	struct wl_listener activity;
	struct wl_listener compositor_destroy;
};

struct idle_notification {
	struct idle *idle;
	struct wl_resource *resource;
	struct wl_event_source *timer;
	uint32_t timeout_ms;
	bool idled;
	bool trusted; /* the idle_notify permission: any timeout, events while locked */
	struct wl_list link;
};

/* While locked the user types only into the lock screen: untrusted clients learn nothing. */
static bool notification_silent(struct idle_notification *n)
{
	return !n->trusted && n->idle->compositor->locked;
}

struct idle_inhibitor {
	struct wl_resource *resource;
	struct garnet_surface *surface; /* NULL once the surface is destroyed */
	struct wl_listener surface_destroy;
	struct wl_list link;
};

/* An inhibitor counts only while its surface is on screen, as the protocol asks. */
static bool idle_inhibited(struct idle *idle)
{
	struct idle_inhibitor *inhibitor;

	wl_list_for_each(inhibitor, &idle->inhibitors, link)
		if (inhibitor->surface && garnet_surface_is_mapped(inhibitor->surface) &&
		    inhibitor->surface->output_mask)
			return true;
	return false;
}

static int notification_timeout(void *data)
{
	struct idle_notification *n = data;

	if (idle_inhibited(n->idle)) {
		/* Looked at again a full timeout later: inhibition ends without input. */
		wl_event_source_timer_update(n->timer, (int)n->timeout_ms);
		return 0;
	}
	if (notification_silent(n))
		return 0;
	n->idled = true;
	ext_idle_notification_v1_send_idled(n->resource);
	return 0;
}

static void notification_arm(struct idle_notification *n)
{
	/* A zero timer is disarmed in libwayland: a 0 ms timeout fires after 1 ms instead. */
	wl_event_source_timer_update(n->timer, n->timeout_ms ? (int)n->timeout_ms : 1);
}

static void idle_activity(struct wl_listener *listener, void *data)
{
	struct idle *idle = wl_container_of(listener, idle, activity);
	struct idle_notification *n;

	(void)data;
	wl_list_for_each(n, &idle->notifications, link) {
		if (n->idled && !notification_silent(n)) {
			n->idled = false;
			ext_idle_notification_v1_send_resumed(n->resource);
		}
		notification_arm(n);
	}
}

static void notification_resource_destroy(struct wl_resource *resource)
{
	struct idle_notification *n = wl_resource_get_user_data(resource);

	if (n->timer)
		wl_event_source_remove(n->timer);
	wl_list_remove(&n->link);
	free(n);
}

static const struct ext_idle_notification_v1_interface notification_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void notifier_get_idle_notification(struct wl_client *client, struct wl_resource *resource,
					    uint32_t id, uint32_t timeout, struct wl_resource *seat)
{
	struct idle *idle = wl_resource_get_user_data(resource);
	struct idle_notification *n = calloc(1, sizeof(*n));

	(void)seat; /* garnet has one seat */
	if (!n) {
		wl_resource_post_no_memory(resource);
		return;
	}
	n->resource = wl_resource_create(client, &ext_idle_notification_v1_interface,
					 wl_resource_get_version(resource), id);
	n->timer = wl_event_loop_add_timer(wl_display_get_event_loop(idle->compositor->display),
					   notification_timeout, n);
	if (!n->resource || !n->timer) {
		if (n->resource)
			wl_resource_destroy(n->resource);
		if (n->timer)
			wl_event_source_remove(n->timer);
		free(n);
		wl_resource_post_no_memory(resource);
		return;
	}
	n->idle = idle;
	n->trusted = idle->compositor->hooks.idle_notify &&
		     idle->compositor->hooks.idle_notify(idle->compositor->hooks.data, client);
	n->timeout_ms = n->trusted || timeout >= GARNET_IDLE_FLOOR_MS ? timeout
								  : GARNET_IDLE_FLOOR_MS;
	wl_list_insert(&idle->notifications, &n->link);
	wl_resource_set_implementation(n->resource, &notification_impl, n,
				       notification_resource_destroy);
	notification_arm(n);
}

static const struct ext_idle_notifier_v1_interface notifier_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_idle_notification = notifier_get_idle_notification,
};

static void notifier_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &ext_idle_notifier_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &notifier_impl, data, NULL);
}

static void inhibitor_surface_destroy(struct wl_listener *listener, void *data)
{
	struct idle_inhibitor *inhibitor = wl_container_of(listener, inhibitor, surface_destroy);

	(void)data;
	garnet_list_unlink(&inhibitor->surface_destroy.link);
	inhibitor->surface = NULL;
}

static void inhibitor_resource_destroy(struct wl_resource *resource)
{
	struct idle_inhibitor *inhibitor = wl_resource_get_user_data(resource);

	wl_list_remove(&inhibitor->surface_destroy.link);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
}

static const struct zwp_idle_inhibitor_v1_interface inhibitor_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void inhibit_create_inhibitor(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id, struct wl_resource *surface_resource)
{
	struct idle *idle = wl_resource_get_user_data(resource);
	struct idle_inhibitor *inhibitor = calloc(1, sizeof(*inhibitor));

	if (!inhibitor) {
		wl_resource_post_no_memory(resource);
		return;
	}
	inhibitor->resource = wl_resource_create(client, &zwp_idle_inhibitor_v1_interface,
						 wl_resource_get_version(resource), id);
	if (!inhibitor->resource) {
		free(inhibitor);
		wl_resource_post_no_memory(resource);
		return;
	}
	inhibitor->surface = garnet_surface_from_resource(surface_resource);
	inhibitor->surface_destroy.notify = inhibitor_surface_destroy;
	wl_signal_add(&inhibitor->surface->events.destroy, &inhibitor->surface_destroy);
	wl_list_insert(&idle->inhibitors, &inhibitor->link);
	wl_resource_set_implementation(inhibitor->resource, &inhibitor_impl, inhibitor,
				       inhibitor_resource_destroy);
}

static const struct zwp_idle_inhibit_manager_v1_interface inhibit_impl = {
	.destroy = garnet_resource_destroy_request,
	.create_inhibitor = inhibit_create_inhibitor,
};

static void inhibit_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_idle_inhibit_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &inhibit_impl, data, NULL);
}

/* Clients are gone by now (their resources freed their objects); only the state remains. */
static void idle_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct idle *idle = wl_container_of(listener, idle, compositor_destroy);

	(void)data;
	wl_list_remove(&idle->activity.link);
	wl_list_remove(&idle->compositor_destroy.link);
	free(idle);
}

bool garnet_idle_init(struct garnet_compositor *c)
{
	struct idle *idle = calloc(1, sizeof(*idle));

	if (!idle)
		return false;
	idle->compositor = c;
	wl_list_init(&idle->notifications);
	wl_list_init(&idle->inhibitors);
	idle->notifier_global = garnet_global_create(c, &ext_idle_notifier_v1_interface, 1, idle,
						     notifier_bind, false);
	idle->inhibit_global = garnet_global_create(c, &zwp_idle_inhibit_manager_v1_interface, 1,
						    idle, inhibit_bind, false);
	if (!idle->notifier_global || !idle->inhibit_global) {
		free(idle);
		return false;
	}
	idle->activity.notify = idle_activity;
	wl_signal_add(&c->seat->events.activity, &idle->activity);
	idle->compositor_destroy.notify = idle_compositor_destroy;
	wl_signal_add(&c->events.destroy, &idle->compositor_destroy);
	return true;
}

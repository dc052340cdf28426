// SPDX-License-Identifier: MIT
// garnet-rogue idle / registries: a client that times another window's keystrokes through
// ext-idle-notify with the shortest timeout, and one that asks for its registry again and
// again (each time a denial per privileged global, when garnet has no policy).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "ext-idle-notify-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"

struct idle_client {
	struct ext_idle_notifier_v1 *notifier;
	struct wl_seat *seat;
	FILE *log;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct idle_client *ic = data;

	(void)version;
	if (strcmp(interface, ext_idle_notifier_v1_interface.name) == 0)
		ic->notifier = wl_registry_bind(r, name, &ext_idle_notifier_v1_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !ic->seat)
		ic->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_idled(void *data, struct ext_idle_notification_v1 *n)
{
	struct idle_client *ic = data;

	fprintf(ic->log, "idled %ld\n", now_ms());
	fflush(ic->log);
}

static void on_resumed(void *data, struct ext_idle_notification_v1 *n)
{
	struct idle_client *ic = data;

	fprintf(ic->log, "resumed %ld\n", now_ms());
	fflush(ic->log);
}

static const struct ext_idle_notification_v1_listener notification_listener = {
	on_idled, on_resumed};

int rogue_idle(const char *path, uint32_t timeout_ms, int seconds)
{
	struct wl_display *display = rogue_connect();
	struct idle_client ic = {0};
	struct ext_idle_notification_v1 *n;
	long end, left;

	ic.log = fopen(path, "a");
	if (!ic.log)
		return 2;
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &ic);
	if (wl_display_roundtrip(display) < 0 || !ic.notifier || !ic.seat) {
		fprintf(ic.log, "no-global\n");
		fclose(ic.log);
		return 2;
	}
	n = ext_idle_notifier_v1_get_idle_notification(ic.notifier, timeout_ms, ic.seat);
	ext_idle_notification_v1_add_listener(n, &notification_listener, &ic);
	wl_display_roundtrip(display);
	fprintf(ic.log, "watching %u\n", timeout_ms);
	fflush(ic.log);
	end = now_ms() + seconds * 1000L;
	while ((left = end - now_ms()) > 0) {
		if (rogue_dispatch_timeout(display, (int)left) < 0)
			break;
	}
	fprintf(ic.log, "done\n");
	fclose(ic.log);
	wl_display_disconnect(display);
	return 0;
}

int rogue_registries(long count)
{
	struct wl_display *display = rogue_connect();

	for (long i = 0; i < count; i++) {
		struct wl_registry *r = wl_display_get_registry(display);

		if (wl_display_roundtrip(display) < 0)
			return 2;
		wl_registry_destroy(r);
	}
	wl_display_disconnect(display);
	return 0;
}

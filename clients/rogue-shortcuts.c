// SPDX-License-Identifier: MIT
// garnet-rogue shortcuts: the global-shortcut keylogger. It asks garnet_shortcuts_v1 for every
// action garnet knows and, as actions, for every letter and function key a keylogger would
// want, listens for what it was given, and last asks for a key combination by name. Launched
// as the trusted panel it is the legitimate holder the tests compare with.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "garnet-shortcuts-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"

static const char *const actions[] = {
	"play-pause",	  "play",	  "pause",	 "stop",	  "next-track",
	"previous-track", "volume-up",	  "volume-down", "mute",	  "mic-mute",
	"brightness-up",  "brightness-down",
};

struct asked {
	FILE *log;
	char name[32];
	int *bound;
};

static void on_bound(void *data, struct garnet_shortcut_v1 *s, const char *trigger)
{
	struct asked *a = data;

	fprintf(a->log, "bound %s %s\n", a->name, trigger);
	(*a->bound)++;
}

static void on_refused(void *data, struct garnet_shortcut_v1 *s, uint32_t reason)
{
	struct asked *a = data;

	fprintf(a->log, "refused %s %u\n", a->name, reason);
}

static void on_activated(void *data, struct garnet_shortcut_v1 *s, uint32_t time)
{
	struct asked *a = data;

	fprintf(a->log, "activated %s\n", a->name);
	fflush(a->log);
}

static const struct garnet_shortcut_v1_listener shortcut_listener = {
	on_bound, on_refused, on_activated,
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct garnet_shortcuts_manager_v1 **m = data;

	if (strcmp(interface, garnet_shortcuts_manager_v1_interface.name) == 0)
		*m = wl_registry_bind(r, name, &garnet_shortcuts_manager_v1_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void ask(struct garnet_shortcuts_manager_v1 *m, struct asked *a)
{
	struct garnet_shortcut_v1 *s = garnet_shortcuts_manager_v1_register_action(m, a->name);

	garnet_shortcut_v1_add_listener(s, &shortcut_listener, a);
}

/* Dispatches for about seconds, logging activations as they come. */
static int listen_for(struct wl_display *display, int seconds)
{
	struct timespec start, now;
	struct pollfd pfd = {wl_display_get_fd(display), POLLIN, 0};

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		if (wl_display_dispatch_pending(display) < 0 || wl_display_flush(display) < 0)
			return -1;
		if (poll(&pfd, 1, 100) > 0 && wl_display_dispatch(display) < 0)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < seconds);
	return 0;
}

int rogue_shortcuts(const char *path, int seconds)
{
	static struct asked asked[sizeof(actions) / sizeof(actions[0]) + 26 + 12];
	struct wl_display *display = rogue_connect();
	struct garnet_shortcuts_manager_v1 *m = NULL;
	FILE *log = fopen(path, "w");
	int n = 0, bound = 0;

	if (!log)
		return 2;
	setvbuf(log, NULL, _IOLBF, 0);
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &m);
	if (wl_display_roundtrip(display) < 0 || !m) {
		fprintf(log, "no-global\n");
		fclose(log);
		return 0;
	}
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		snprintf(asked[n++].name, sizeof(asked[0].name), "%s", actions[i]);
	for (char c = 'a'; c <= 'z'; c++)
		snprintf(asked[n++].name, sizeof(asked[0].name), "%c", c);
	for (int f = 1; f <= 12; f++)
		snprintf(asked[n++].name, sizeof(asked[0].name), "f%d", f);
	for (int i = 0; i < n; i++) {
		asked[i].log = log;
		asked[i].bound = &bound;
		ask(m, &asked[i]);
	}
	if (wl_display_roundtrip(display) < 0 || listen_for(display, seconds) < 0) {
		fprintf(log, "connection error\n");
		fclose(log);
		return 2;
	}
	/* A key combination by name is not an action: the connection ends with an error. */
	garnet_shortcuts_manager_v1_register_action(m, "super+l");
	if (wl_display_roundtrip(display) < 0 && wl_display_get_error(display) == EPROTO)
		fprintf(log, "protocol error for a key name\n");
	fprintf(log, "%d bound\n", bound);
	fclose(log);
	wl_display_disconnect(display);
	return bound > 0 ? 1 : 0;
}

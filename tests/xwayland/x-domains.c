// SPDX-License-Identifier: MIT
// x-domains: a Wayland client that asks garnet_xwayland_v1 for COUNT new X11 domains on one
// connection, as one that wants every display of the machine would, and says what it got:
// "ready NAME DISPLAY" or "refused REASON" a line each. It stays connected for SECONDS.
// usage: x-domains COUNT SECONDS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-xwayland-v1-client-protocol.h"

static struct garnet_xwayland_v1 *manager;
static int answers;

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	if (strcmp(interface, garnet_xwayland_v1_interface.name) == 0)
		manager = wl_registry_bind(r, name, &garnet_xwayland_v1_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void on_ready(void *data, struct garnet_xwayland_display_v1 *d, const char *name,
		     const char *display, const char *authority)
{
	printf("ready %s %s\n", name, display);
	answers++;
}

static void on_refused(void *data, struct garnet_xwayland_display_v1 *d, const char *reason)
{
	printf("refused %s\n", reason);
	answers++;
}

static const struct garnet_xwayland_display_v1_listener display_listener = {on_ready, on_refused};

int main(int argc, char **argv)
{
	struct wl_display *display = wl_display_connect(NULL);
	int count = argc == 3 ? atoi(argv[1]) : 0;

	if (!display || count <= 0) {
		fprintf(stderr, "usage: x-domains COUNT SECONDS (in a Wayland session)\n");
		return 2;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!manager) {
		fprintf(stderr, "x-domains: no garnet_xwayland_v1\n");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		struct garnet_xwayland_display_v1 *d =
			garnet_xwayland_v1_get_display(manager, "", "x-domains");

		garnet_xwayland_display_v1_add_listener(d, &display_listener, NULL);
	}
	while (answers < count && wl_display_dispatch(display) >= 0)
		;
	fflush(stdout);
	sleep((unsigned int)atoi(argv[2]));
	wl_display_disconnect(display);
	return 0;
}

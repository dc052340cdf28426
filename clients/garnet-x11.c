// SPDX-License-Identifier: MIT
// garnet-x11: runs an X11 program in a domain of its own (one Xwayland each), or in a shared
// domain that garnet.ini declares and the policy lets this program join (doc/xwayland.md).
// usage: garnet-x11 [--domain NAME] [--print] COMMAND [ARG...]
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-xwayland-v1-client-protocol.h"

struct x11 {
	struct garnet_xwayland_v1 *manager;
	bool answered, ready;
	char *name, *display, *authority;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct x11 *x = data;

	if (strcmp(interface, garnet_xwayland_v1_interface.name) == 0)
		x->manager = wl_registry_bind(r, name, &garnet_xwayland_v1_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void on_ready(void *data, struct garnet_xwayland_display_v1 *d, const char *name,
		     const char *display, const char *authority)
{
	struct x11 *x = data;

	x->answered = x->ready = true;
	x->name = strdup(name);
	x->display = strdup(display);
	x->authority = strdup(authority);
}

static void on_refused(void *data, struct garnet_xwayland_display_v1 *d, const char *reason)
{
	struct x11 *x = data;

	x->answered = true;
	fprintf(stderr, "garnet-x11: no X11 display: %s\n", reason);
}

static const struct garnet_xwayland_display_v1_listener display_listener = {on_ready, on_refused};

static int usage(void)
{
	fprintf(stderr, "usage: garnet-x11 [--domain NAME] [--print] COMMAND [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *domain = "";
	bool print = false;
	struct x11 x = {0};
	struct wl_display *display;
	struct wl_registry *registry;
	struct garnet_xwayland_display_v1 *answer;
	int i = 1, status = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--domain") == 0 && i + 1 < argc)
			domain = argv[++i];
		else if (strcmp(argv[i], "--print") == 0)
			print = true;
		else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else
			return usage();
	}
	if (i >= argc && !print)
		return usage();
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "garnet-x11: cannot connect to the Wayland display\n");
		return 1;
	}
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &x);
	wl_display_roundtrip(display);
	if (!x.manager) {
		fprintf(stderr, "garnet-x11: this compositor runs no X11 applications\n");
		wl_registry_destroy(registry);
		wl_display_disconnect(display);
		return 1;
	}
	answer = garnet_xwayland_v1_get_display(x.manager, domain, i < argc ? argv[i] : "x11");
	garnet_xwayland_display_v1_add_listener(answer, &display_listener, &x);
	while (!x.answered && wl_display_dispatch(display) >= 0)
		;
	garnet_xwayland_display_v1_destroy(answer);
	garnet_xwayland_v1_destroy(x.manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	if (!x.ready || !x.name || !x.display || !x.authority)
		status = 1;
	else if (print) {
		printf("domain %s\nDISPLAY=%s\nXAUTHORITY=%s\n", x.name, x.display, x.authority);
		fflush(stdout);
	}
	if (status == 0 && i < argc) {
		setenv("DISPLAY", x.display, 1);
		setenv("XAUTHORITY", x.authority, 1);
		execvp(argv[i], argv + i);
		fprintf(stderr, "garnet-x11: %s: %s\n", argv[i], strerror(errno));
		status = 127;
	}
	free(x.name);
	free(x.display);
	free(x.authority);
	return status;
}

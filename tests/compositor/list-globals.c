// SPDX-License-Identifier: MIT
// Prints the globals the compositor shows this client, one interface name a line: a program for
// tests to start through garnet (over WAYLAND_SOCKET or WAYLAND_DISPLAY).
#include <stdio.h>
#include <wayland-client.h>

static void global(void *data, struct wl_registry *registry, uint32_t name,
		   const char *interface, uint32_t version)
{
	printf("%s\n", interface);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener listener = {global, global_remove};

int main(void)
{
	struct wl_display *display = wl_display_connect(NULL);
	struct wl_registry *registry;

	if (!display) {
		fprintf(stderr, "list-globals: cannot connect\n");
		return 1;
	}
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &listener, NULL);
	wl_display_roundtrip(display);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return 0;
}

// SPDX-License-Identifier: MIT
// garnet-rogue rename-flood: a window that renames itself as fast as garnet reads, each title
// and app id as long as a message can carry, to fill every task bar's socket and keep the panel
// redrawing. Its last title starts "flood-end".
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

/* A 4 KB message, the most libwayland 1.21 carries. */
#define LONG_TITLE 4000

struct renamer {
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	uint32_t serial;
	bool configured;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct renamer *w = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		w->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		w->pixels =
			wl_registry_bind(r, name, &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		w->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		w->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void ping(void *data, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_listener = {ping};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct renamer *w = data;

	w->serial = serial;
	w->configured = true;
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

/* Every request out, waiting while garnet's side of the socket is full. */
static int flush_all(struct wl_display *display)
{
	struct pollfd pfd = {wl_display_get_fd(display), POLLOUT, 0};

	while (wl_display_flush(display) < 0) {
		if (errno != EAGAIN)
			return -1;
		poll(&pfd, 1, 1000);
	}
	return 0;
}

int rogue_rename_flood(const char *path, long count)
{
	struct wl_display *display = rogue_connect();
	struct renamer w = {0};
	static char title[LONG_TITLE + 1];
	struct xdg_toplevel *toplevel;
	struct wl_surface *surface;
	struct xdg_surface *xs;
	long sent = 0;
	FILE *log;

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &w);
	wl_display_roundtrip(display);
	if (!w.compositor || !w.pixels || !w.viewporter || !w.wm_base)
		return 2;
	xdg_wm_base_add_listener(w.wm_base, &wm_listener, &w);
	surface = wl_compositor_create_surface(w.compositor);
	xs = xdg_wm_base_get_xdg_surface(w.wm_base, surface);
	xdg_surface_add_listener(xs, &xs_listener, &w);
	toplevel = xdg_surface_get_toplevel(xs);
	xdg_toplevel_set_title(toplevel, "flood-start");
	wl_surface_commit(surface);
	while (!w.configured && wl_display_dispatch(display) >= 0)
		;
	xdg_surface_ack_configure(xs, w.serial);
	rogue_fill_surface(surface, w.pixels, w.viewporter, 100, 100);
	wl_display_roundtrip(display);
	for (; sent < count; sent++) {
		memset(title, 'a' + sent % 26, LONG_TITLE);
		xdg_toplevel_set_title(toplevel, title);
		if (flush_all(display) < 0)
			break;
		xdg_toplevel_set_app_id(toplevel, title);
		if (flush_all(display) < 0)
			break;
	}
	memcpy(title, "flood-end", 9);
	xdg_toplevel_set_title(toplevel, title);
	flush_all(display);
	log = fopen(path, "w");
	if (log) {
		fprintf(log, "renamed %ld\n", sent);
		fclose(log);
	}
	while (wl_display_dispatch(display) >= 0)
		;
	return 0;
}

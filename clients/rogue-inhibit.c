// SPDX-License-Identifier: MIT
// garnet-rogue's try at trapping the user: a window that inhibits garnet's keyboard shortcuts
// and logs what it hears ("active", "inactive", "key KEY STATE"), hoping to swallow the lock
// binding. Runs until killed or disconnected.
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct inhibit_rogue {
	FILE *log;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct zwp_keyboard_shortcuts_inhibit_manager_v1 *inhibit;
	struct wl_surface *surface;
	bool configured;
};

static void reg_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
		       uint32_t version)
{
	struct inhibit_rogue *g = data;

	if (strcmp(iface, wl_compositor_interface.name) == 0)
		g->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(iface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		g->pixels =
			wl_registry_bind(r, name, &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(iface, wp_viewporter_interface.name) == 0)
		g->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(iface, xdg_wm_base_interface.name) == 0)
		g->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(iface, wl_seat_interface.name) == 0)
		g->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	else if (strcmp(iface, zwp_keyboard_shortcuts_inhibit_manager_v1_interface.name) == 0)
		g->inhibit = wl_registry_bind(
			r, name, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, 1);
}

static const struct wl_registry_listener reg_listener = {reg_global, rogue_ignore_global_remove};

static void inhibitor_active(void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *i)
{
	struct inhibit_rogue *g = data;

	fprintf(g->log, "active\n");
	fflush(g->log);
}

static void inhibitor_inactive(void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *i)
{
	struct inhibit_rogue *g = data;

	fprintf(g->log, "inactive\n");
	fflush(g->log);
}

static const struct zwp_keyboard_shortcuts_inhibitor_v1_listener inhibitor_listener = {
	inhibitor_active, inhibitor_inactive};

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t f, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
		   uint32_t state)
{
	struct inhibit_rogue *g = d;

	fprintf(g->log, "key %u %u\n", key, state);
	fflush(g->log);
}

static const struct wl_keyboard_listener keyboard_listener = {
	kb_keymap,
	kb_enter,
	kb_leave,
	kb_key,
	rogue_ignore_keyboard_modifiers,
	rogue_ignore_keyboard_repeat,
};

static void wm_ping(void *d, struct xdg_wm_base *wm, uint32_t serial)
{
	xdg_wm_base_pong(wm, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static void xs_configure(void *d, struct xdg_surface *xs, uint32_t serial)
{
	struct inhibit_rogue *g = d;

	xdg_surface_ack_configure(xs, serial);
	if (!g->configured)
		rogue_fill_surface(g->surface, g->pixels, g->viewporter, 400, 300);
	g->configured = true;
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

int rogue_inhibit(const char *path)
{
	struct inhibit_rogue g = {0};
	struct wl_display *display = rogue_connect();
	struct xdg_surface *xs;

	g.log = fopen(path, "w");
	if (!g.log)
		return 2;
	wl_registry_add_listener(wl_display_get_registry(display), &reg_listener, &g);
	wl_display_roundtrip(display);
	if (!g.compositor || !g.wm_base || !g.seat || !g.pixels || !g.viewporter || !g.inhibit) {
		fprintf(g.log, "no-global\n");
		fclose(g.log);
		return 1;
	}
	xdg_wm_base_add_listener(g.wm_base, &wm_listener, &g);
	wl_keyboard_add_listener(wl_seat_get_keyboard(g.seat), &keyboard_listener, &g);
	g.surface = wl_compositor_create_surface(g.compositor);
	xs = xdg_wm_base_get_xdg_surface(g.wm_base, g.surface);
	xdg_surface_add_listener(xs, &xs_listener, &g);
	xdg_toplevel_set_title(xdg_surface_get_toplevel(xs), "inhibitor");
	zwp_keyboard_shortcuts_inhibitor_v1_add_listener(
		zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(g.inhibit, g.surface,
									    g.seat),
		&inhibitor_listener, &g);
	wl_surface_commit(g.surface);
	while (wl_display_dispatch(display) >= 0)
		;
	rogue_report_connection(display, "inhibit");
	fclose(g.log);
	return 0;
}

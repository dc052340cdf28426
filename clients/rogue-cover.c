// SPDX-License-Identifier: MIT
// garnet-rogue cover: a window that tries to stay on screen over the lock: a big red cursor
// surface, a drag with a big red icon, or a popup holding a grab, all set up before the lock.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define COVER_SIZE 400

enum cover_kind { COVER_CURSOR, COVER_DRAG, COVER_POPUP };

struct cover {
	enum cover_kind kind;
	FILE *log;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_data_device_manager *ddm;
	struct wl_data_device *device;
	struct wl_pointer *pointer;
	struct wl_surface *surface, *cover;
	struct xdg_surface *xs;
	int presses;
	bool mapped, started;
};

static void note(struct cover *c, const char *what)
{
	fprintf(c->log, "%s\n", what);
	fflush(c->log);
}

/* The colour of the attack: nothing of the lock is this red. */
static void fill_red(struct cover *c, struct wl_surface *surface, int32_t size)
{
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		c->pixels, 0xffffffffu, 0, 0, 0xffffffffu);
	struct wp_viewport *viewport = wp_viewporter_get_viewport(c->viewporter, surface);

	wp_viewport_set_destination(viewport, size, size);
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, 1, 1);
	wl_surface_commit(surface);
}

static void source_send(void *d, struct wl_data_source *s, const char *mime, int32_t fd)
{
}

static void source_cancelled(void *d, struct wl_data_source *s)
{
	note(d, "drag-cancelled");
}

static const struct wl_data_source_listener source_listener = {
	.target = rogue_ignore_source_target, .send = source_send, .cancelled = source_cancelled};

static void popup_done(void *d, struct xdg_popup *p)
{
	note(d, "popup-done");
}

static const struct xdg_popup_listener popup_listener = {.configure = rogue_ignore_popup_configure,
							 .popup_done = popup_done};

static void popup_xs_configure(void *d, struct xdg_surface *xs, uint32_t serial)
{
	struct cover *c = d;

	xdg_surface_ack_configure(xs, serial);
	fill_red(c, c->cover, COVER_SIZE);
	note(c, "popup-shown");
}

static const struct xdg_surface_listener popup_xs_listener = {popup_xs_configure};

/* On the held button press: the serial a drag or a popup grab needs. */
static void start(struct cover *c, uint32_t serial)
{
	if (c->started)
		return;
	c->started = true;
	c->cover = wl_compositor_create_surface(c->compositor);
	if (c->kind == COVER_DRAG) {
		struct wl_data_source *source = wl_data_device_manager_create_data_source(c->ddm);

		wl_data_source_add_listener(source, &source_listener, c);
		wl_data_source_offer(source, "text/plain");
		wl_data_device_start_drag(c->device, source, c->surface, c->cover, serial);
		fill_red(c, c->cover, COVER_SIZE);
		note(c, "dragging");
	} else if (c->kind == COVER_POPUP) {
		struct xdg_positioner *pos = xdg_wm_base_create_positioner(c->wm_base);
		struct xdg_surface *xs = xdg_wm_base_get_xdg_surface(c->wm_base, c->cover);
		struct xdg_popup *popup;

		xdg_positioner_set_size(pos, COVER_SIZE, COVER_SIZE);
		xdg_positioner_set_anchor_rect(pos, 500, 370, 1, 1);
		popup = xdg_surface_get_popup(xs, c->xs, pos);
		xdg_surface_add_listener(xs, &popup_xs_listener, c);
		xdg_popup_add_listener(popup, &popup_listener, c);
		xdg_popup_grab(popup, c->seat, serial);
		wl_surface_commit(c->cover);
		note(c, "grabbing");
	}
}

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
		    wl_fixed_t x, wl_fixed_t y)
{
	struct cover *c = d;
	struct wl_surface *cursor;

	note(c, "pointer-enter");
	if (c->kind != COVER_CURSOR || s != c->surface)
		return;
	cursor = wl_compositor_create_surface(c->compositor);
	fill_red(c, cursor, COVER_SIZE);
	wl_pointer_set_cursor(p, serial, cursor, COVER_SIZE / 2, COVER_SIZE / 2);
	note(c, "cursor-set");
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	note(d, "pointer-leave");
}

static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time,
		     uint32_t button, uint32_t state)
{
	struct cover *c = d;

	/* The driver clicks once, then presses and holds: a drag needs the button held. */
	if (state == WL_POINTER_BUTTON_STATE_PRESSED && ++c->presses == 2)
		start(c, serial);
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = p_enter,
	.leave = p_leave,
	.motion = rogue_ignore_pointer_motion,
	.button = p_button,
	.axis = rogue_ignore_pointer_axis,
	.frame = rogue_ignore_pointer_frame,
	.axis_source = rogue_ignore_pointer_axis_source,
	.axis_stop = rogue_ignore_pointer_axis_stop,
	.axis_discrete = rogue_ignore_pointer_axis_discrete};

static void xs_configure(void *d, struct xdg_surface *xs, uint32_t serial)
{
	struct cover *c = d;

	xdg_surface_ack_configure(xs, serial);
	if (c->mapped)
		return;
	rogue_fill_surface(c->surface, c->pixels, c->viewporter, 1024, 768);
	c->mapped = true;
	note(c, "mapped");
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

static const struct xdg_toplevel_listener tl_listener = {rogue_ignore_toplevel_configure,
							 rogue_ignore_toplevel_close};

static void ping(void *d, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {ping};

static void on_global(void *d, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct cover *c = d;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		c->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		c->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		c->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		c->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !c->seat)
		c->seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
	else if (strcmp(interface, wl_data_device_manager_interface.name) == 0)
		c->ddm = wl_registry_bind(r, name, &wl_data_device_manager_interface, 3);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

int rogue_cover(const char *path, const char *kind)
{
	struct wl_display *display = rogue_connect();
	struct cover c = {0};
	struct xdg_toplevel *toplevel;

	if (strcmp(kind, "cursor") == 0)
		c.kind = COVER_CURSOR;
	else if (strcmp(kind, "drag") == 0)
		c.kind = COVER_DRAG;
	else if (strcmp(kind, "popup") == 0)
		c.kind = COVER_POPUP;
	else
		return 2;
	c.log = fopen(path, "a");
	if (!c.log)
		return 2;
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &c);
	if (wl_display_roundtrip(display) < 0 || !c.compositor || !c.pixels || !c.viewporter ||
	    !c.wm_base || !c.seat || !c.ddm) {
		note(&c, "missing globals");
		return 2;
	}
	xdg_wm_base_add_listener(c.wm_base, &wm_base_listener, NULL);
	c.device = wl_data_device_manager_get_data_device(c.ddm, c.seat);
	c.pointer = wl_seat_get_pointer(c.seat);
	wl_pointer_add_listener(c.pointer, &pointer_listener, &c);
	c.surface = wl_compositor_create_surface(c.compositor);
	c.xs = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(c.xs, &xs_listener, &c);
	toplevel = xdg_surface_get_toplevel(c.xs);
	xdg_toplevel_add_listener(toplevel, &tl_listener, &c);
	wl_surface_commit(c.surface);
	while (wl_display_dispatch(display) >= 0)
		;
	note(&c, "disconnected");
	return 0;
}

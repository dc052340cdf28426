// SPDX-License-Identifier: MIT
// garnet-rogue flood / frames: a client that sends a million requests as fast as the socket
// takes them, and a window that keeps animating and logs when each frame callback arrives.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct globals {
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct globals *g = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		g->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		g->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		g->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		g->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void get_globals(struct wl_display *display, struct globals *g)
{
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, g);
	if (wl_display_roundtrip(display) < 0 || !g->compositor || !g->pixels ||
	    !g->viewporter || !g->wm_base) {
		fprintf(stderr, "garnet-rogue: missing globals\n");
		exit(2);
	}
}

/* Waits until the socket takes more; false when the connection is gone. */
static bool flush_all(struct wl_display *display)
{
	while (wl_display_flush(display) < 0) {
		struct pollfd p = {wl_display_get_fd(display), POLLOUT, 0};

		if (errno != EAGAIN || wl_display_get_error(display))
			return false;
		if (poll(&p, 1, 5000) <= 0 || (p.revents & (POLLERR | POLLHUP)))
			return false;
	}
	return true;
}

int rogue_flood(long count)
{
	struct wl_display *display = rogue_connect();
	struct globals g = {0};
	struct wl_surface *surface;
	long sent = 0;
	int err;

	get_globals(display, &g);
	surface = wl_compositor_create_surface(g.compositor);
	/* Damage never committed, at ever new places: cheap to send, and without a budget each
	 * one would grow the surface's pending state. */
	for (sent = 0; sent < count; sent++) {
		wl_surface_damage_buffer(surface, (int32_t)(sent % 4096) * 2,
					 (int32_t)(sent / 4096 % 4096) * 2, 1, 1);
		/* libwayland-client's buffer holds 4096 bytes (170 of these requests) and fails
		 * for good when a request does not fit, so flush well before. */
		if ((sent & 63) == 63 && !flush_all(display))
			break;
	}
	/* A refused write (EPIPE) leaves the protocol error unread: the roundtrip reads it. */
	if (sent < count || flush_all(display))
		wl_display_roundtrip(display);
	err = wl_display_get_error(display);
	printf("sent %ld of %ld requests; %s\n", sent, count,
	       err == EPROTO ? "protocol error" : err ? strerror(err) : "still connected");
	wl_display_disconnect(display);
	return err ? 0 : 1;
}

struct animation {
	FILE *log;
	struct wl_surface *surface;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wl_buffer *buffers[2];
	unsigned frames;
	bool started;
};

static void on_frame(void *data, struct wl_callback *cb, uint32_t time);

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static void draw(struct animation *a);

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct animation *a = data;

	xdg_surface_ack_configure(xs, serial);
	if (!a->started) {
		a->started = true;
		draw(a);
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {xs_configure};

static const struct wl_callback_listener frame_listener = {on_frame};

static void draw(struct animation *a)
{
	wl_callback_add_listener(wl_surface_frame(a->surface), &frame_listener, a);
	wl_surface_attach(a->surface, a->buffers[a->frames & 1], 0, 0);
	wl_surface_damage_buffer(a->surface, 0, 0, 1, 1);
	wl_surface_commit(a->surface);
}

static void on_frame(void *data, struct wl_callback *cb, uint32_t time)
{
	struct animation *a = data;
	struct timespec now;

	wl_callback_destroy(cb);
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(a->log, "frame %lld\n", (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
	fflush(a->log);
	a->frames++;
	draw(a);
}

int rogue_frames(const char *path, int seconds)
{
	struct wl_display *display = rogue_connect();
	struct globals g = {0};
	struct animation a = {0};
	struct wp_viewport *viewport;
	struct xdg_surface *xs;
	struct timespec start, now;

	a.log = fopen(path, "a");
	if (!a.log) {
		perror(path);
		return 2;
	}
	get_globals(display, &g);
	a.surface = wl_compositor_create_surface(g.compositor);
	a.buffers[0] = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		g.pixels, 0xffffffffu, 0, 0, 0xffffffffu);
	a.buffers[1] = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		g.pixels, 0, 0xffffffffu, 0, 0xffffffffu);
	viewport = wp_viewporter_get_viewport(g.viewporter, a.surface);
	wp_viewport_set_destination(viewport, 64, 64);
	xdg_wm_base_add_listener(g.wm_base, &wm_listener, &a);
	xs = xdg_wm_base_get_xdg_surface(g.wm_base, a.surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, &a);
	xdg_toplevel_set_title(xdg_surface_get_toplevel(xs), "garnet-rogue frames");
	wl_surface_commit(a.surface);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = {wl_display_get_fd(display), POLLIN, 0};

		wl_display_flush(display);
		if (poll(&p, 1, 100) > 0 && wl_display_dispatch(display) < 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= seconds)
			break;
	}
	fprintf(a.log, "done %u\n", a.frames);
	fclose(a.log);
	wl_display_disconnect(display);
	return 0;
}

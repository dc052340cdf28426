// SPDX-License-Identifier: MIT
// garnet-rogue paste: an ordinary Wayland window that the "user" gives the keyboard
// (garnet_test stands in for the click) and that pastes the clipboard or primary selection
// it is then offered, as text, into a file; the other end of X's selections in the tests.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-test-client-protocol.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct paste {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_data_device_manager *manager;
	struct zwp_primary_selection_device_manager_v1 *primary_manager;
	struct garnet_test *test;
	struct wl_surface *surface;
	bool primary, mapped, focused, activated;
	/* the selection offered, once it came with the keyboard, and its text type */
	struct wl_data_offer *offer;
	struct zwp_primary_selection_offer_v1 *primary_offer;
	char mime[64];
	bool offered;
};

static void take_mime(struct paste *p, const char *mime)
{
	if (strcmp(mime, "text/plain;charset=utf-8") == 0 ||
	    (!p->mime[0] && strncmp(mime, "text/plain", 10) == 0))
		snprintf(p->mime, sizeof(p->mime), "%s", mime);
}

static void offer_mime(void *d, struct wl_data_offer *o, const char *mime)
{
	take_mime(d, mime);
}

static const struct wl_data_offer_listener offer_listener = {
	offer_mime, rogue_ignore_offer_actions, rogue_ignore_offer_actions};

static void dd_data_offer(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	struct paste *p = d;

	p->mime[0] = '\0';
	wl_data_offer_add_listener(offer, &offer_listener, d);
}

static void dd_selection(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	struct paste *p = d;

	if (p->primary)
		return;
	p->offer = offer;
	p->offered = true;
}

static const struct wl_data_device_listener device_listener = {
	dd_data_offer,
	rogue_ignore_data_device_enter,
	rogue_ignore_data_device_event,
	rogue_ignore_data_device_motion,
	rogue_ignore_data_device_event,
	dd_selection,
};

static void primary_offer_mime(void *d, struct zwp_primary_selection_offer_v1 *o,
			       const char *mime)
{
	take_mime(d, mime);
}

static const struct zwp_primary_selection_offer_v1_listener primary_offer_listener = {
	primary_offer_mime};

static void pd_data_offer(void *d, struct zwp_primary_selection_device_v1 *dev,
			  struct zwp_primary_selection_offer_v1 *offer)
{
	struct paste *p = d;

	p->mime[0] = '\0';
	zwp_primary_selection_offer_v1_add_listener(offer, &primary_offer_listener, d);
}

static void pd_selection(void *d, struct zwp_primary_selection_device_v1 *dev,
			 struct zwp_primary_selection_offer_v1 *offer)
{
	struct paste *p = d;

	if (!p->primary)
		return;
	p->primary_offer = offer;
	p->offered = true;
}

static const struct zwp_primary_selection_device_v1_listener primary_device_listener = {
	pd_data_offer, pd_selection};

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	((struct paste *)d)->focused = true;
}

static const struct wl_keyboard_listener keyboard_listener = {
	kb_keymap,
	kb_enter,
	rogue_ignore_keyboard_leave,
	rogue_ignore_keyboard_key,
	rogue_ignore_keyboard_modifiers,
	rogue_ignore_keyboard_repeat,
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct paste *p = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		p->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		p->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		p->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		p->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !p->seat)
		p->seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
	else if (strcmp(interface, wl_data_device_manager_interface.name) == 0)
		p->manager = wl_registry_bind(r, name, &wl_data_device_manager_interface, 3);
	else if (strcmp(interface, zwp_primary_selection_device_manager_v1_interface.name) == 0)
		p->primary_manager = wl_registry_bind(
			r, name, &zwp_primary_selection_device_manager_v1_interface, 1);
	else if (strcmp(interface, garnet_test_interface.name) == 0)
		p->test = wl_registry_bind(r, name, &garnet_test_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct paste *p = data;

	xdg_surface_ack_configure(xs, serial);
	if (p->mapped)
		return;
	rogue_fill_surface(p->surface, p->pixels, p->viewporter, 100, 100);
	p->mapped = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {xs_configure};
static const struct xdg_toplevel_listener toplevel_listener = {rogue_ignore_toplevel_configure,
							       rogue_ignore_toplevel_close};

/* Reads the offer into out until the source closes it, or 30 s pass. */
static int read_into(struct paste *p, FILE *out)
{
	char buf[65536];
	int fds[2];
	time_t until = time(NULL) + 30;

	if (!p->mime[0] || pipe(fds) < 0)
		return 1;
	if (p->primary)
		zwp_primary_selection_offer_v1_receive(p->primary_offer, p->mime, fds[1]);
	else
		wl_data_offer_receive(p->offer, p->mime, fds[1]);
	close(fds[1]);
	wl_display_flush(p->display);
	while (time(NULL) < until) {
		struct pollfd pfd = {fds[0], POLLIN, 0};
		ssize_t n;

		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		fwrite(buf, 1, (size_t)n, out);
	}
	close(fds[0]);
	return 0;
}

int rogue_paste(const char *path, bool primary)
{
	struct paste p = {.primary = primary};
	struct xdg_surface *xs;
	struct xdg_toplevel *toplevel;
	FILE *out;
	int status;

	p.display = rogue_connect();
	wl_registry_add_listener(wl_display_get_registry(p.display), &registry_listener, &p);
	if (wl_display_roundtrip(p.display) < 0 || !p.compositor || !p.pixels || !p.viewporter ||
	    !p.wm_base || !p.seat || !p.manager || !p.primary_manager || !p.test) {
		fprintf(stderr, "garnet-rogue: missing globals for a paste window\n");
		return 2;
	}
	xdg_wm_base_add_listener(p.wm_base, &wm_listener, &p);
	wl_keyboard_add_listener(wl_seat_get_keyboard(p.seat), &keyboard_listener, &p);
	wl_data_device_add_listener(wl_data_device_manager_get_data_device(p.manager, p.seat),
				    &device_listener, &p);
	zwp_primary_selection_device_v1_add_listener(
		zwp_primary_selection_device_manager_v1_get_device(p.primary_manager, p.seat),
		&primary_device_listener, &p);
	p.surface = wl_compositor_create_surface(p.compositor);
	xs = xdg_wm_base_get_xdg_surface(p.wm_base, p.surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, &p);
	toplevel = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &p);
	wl_surface_commit(p.surface);
	while (!(p.focused && p.offered)) {
		if (wl_display_roundtrip(p.display) < 0)
			return 2;
		/* The "user" clicks the window. */
		if (p.mapped && !p.activated) {
			garnet_test_activate_surface(p.test, p.surface);
			p.activated = true;
		}
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 2;
	}
	status = read_into(&p, out);
	fclose(out);
	return status;
}

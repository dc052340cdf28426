// SPDX-License-Identifier: MIT
// garnet-rogue clip-victim / clip-sniff: the clipboard attack. The victim copies a secret and
// pastes it back; the sniffer keeps the offer it got while it had the keyboard and reads it
// once it has lost the keyboard.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-test-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define SECRET "secret-4711"

struct clip {
	FILE *log;
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_data_device_manager *manager;
	struct garnet_test *test;
	struct wl_data_device *device;
	struct wl_data_offer *offer; /* the last selection offered */
	struct wl_surface *surface;
	int32_t width, height;
	bool victim, mapped, copied, focused;
	int enters;
};

static void note(struct clip *c, const char *what, const char *arg)
{
	fprintf(c->log, "%s%s%s\n", what, arg ? " " : "", arg ? arg : "");
	fflush(c->log);
}

/* Asks for the offer as text and reads what arrives within two seconds. */
static void read_offer(struct clip *c, struct wl_data_offer *offer, const char *what)
{
	char buf[256] = "";
	size_t got = 0;
	int fds[2];

	if (pipe(fds) < 0)
		return;
	wl_data_offer_receive(offer, "text/plain", fds[1]);
	close(fds[1]);
	wl_display_flush(c->display);
	for (;;) {
		struct pollfd p[2] = {{fds[0], POLLIN, 0},
				      {wl_display_get_fd(c->display), POLLIN, 0}};
		ssize_t n;

		if (poll(p, 2, 2000) <= 0)
			break;
		if (p[1].revents & POLLIN) {
			if (wl_display_dispatch(c->display) < 0)
				break;
		}
		if (!(p[0].revents & (POLLIN | POLLHUP)))
			continue;
		n = read(fds[0], buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	buf[got] = '\0';
	fprintf(c->log, "%s %zu %s\n", what, got, buf);
	fflush(c->log);
}

static void source_send(void *d, struct wl_data_source *s, const char *mime, int32_t fd)
{
	note(d, "send", mime);
	if (write(fd, SECRET, strlen(SECRET)) < 0) {
		/* the reader went away */
	}
	close(fd);
}

static void source_cancelled(void *d, struct wl_data_source *s)
{
	note(d, "cancelled", NULL);
}

static void source_nothing(void *d, struct wl_data_source *s)
{
}

static void source_action(void *d, struct wl_data_source *s, uint32_t a)
{
}

static const struct wl_data_source_listener source_listener = {
	rogue_ignore_source_target,
	source_send,
	source_cancelled,
	source_nothing,
	source_nothing,
	source_action,
};

static const struct wl_data_offer_listener offer_listener = {
	rogue_ignore_offer_mime, rogue_ignore_offer_actions, rogue_ignore_offer_actions};

static void dd_data_offer(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	wl_data_offer_add_listener(offer, &offer_listener, d);
}

static void dd_selection(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	struct clip *c = d;

	note(c, "selection", offer ? "offer" : "none");
	if (c->offer && c->offer != offer)
		wl_data_offer_destroy(c->offer);
	c->offer = offer;
	/* The victim pastes what it copied: its own copy and paste work. */
	if (c->victim && offer && c->copied)
		read_offer(c, offer, "pasted");
}

static const struct wl_data_device_listener device_listener = {
	dd_data_offer,
	rogue_ignore_data_device_enter,
	rogue_ignore_data_device_event,
	rogue_ignore_data_device_motion,
	rogue_ignore_data_device_event,
	dd_selection,
};

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	struct clip *c = d;
	struct wl_data_source *source;

	c->focused = true;
	c->enters++;
	note(c, "keyboard-enter", NULL);
	if (!c->victim || c->copied)
		return;
	source = wl_data_device_manager_create_data_source(c->manager);
	wl_data_source_add_listener(source, &source_listener, c);
	wl_data_source_offer(source, "text/plain");
	wl_data_device_set_selection(c->device, source, serial);
	c->copied = true;
	note(c, "copied", NULL);
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	struct clip *c = d;

	c->focused = false;
	note(c, "keyboard-leave", NULL);
	/* The sniffer, no longer focused, reads the offer it kept. */
	if (!c->victim && c->offer)
		read_offer(c, c->offer, "sniffed");
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
		   uint32_t state)
{
	char line[32];

	snprintf(line, sizeof(line), "%u %u", key, state);
	note(d, "key", line);
}

static const struct wl_keyboard_listener keyboard_listener = {
	kb_keymap,
	kb_enter,
	kb_leave,
	kb_key,
	rogue_ignore_keyboard_modifiers,
	rogue_ignore_keyboard_repeat,
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct clip *c = data;

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
		c->manager = wl_registry_bind(r, name, &wl_data_device_manager_interface, 3);
	else if (strcmp(interface, garnet_test_interface.name) == 0)
		c->test = wl_registry_bind(r, name, &garnet_test_interface, 1);
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
	struct clip *c = data;

	xdg_surface_ack_configure(xs, serial);
	if (c->mapped)
		return;
	rogue_fill_surface(c->surface, c->pixels, c->viewporter, c->width, c->height);
	c->mapped = true;
	note(c, "mapped", NULL);
}

static const struct xdg_surface_listener xdg_surface_listener = {xs_configure};

static const struct xdg_toplevel_listener toplevel_listener = {rogue_ignore_toplevel_configure,
							       rogue_ignore_toplevel_close};

int rogue_clipboard(const char *path, const char *refocus, bool victim)
{
	struct clip c = {.victim = victim, .width = victim ? 1024 : 100, .height = victim ? 768 : 100};
	struct xdg_surface *xs;
	struct xdg_toplevel *toplevel;
	bool refocused = false;

	c.display = rogue_connect();
	c.log = fopen(path, "a");
	if (!c.log) {
		perror(path);
		return 2;
	}
	wl_registry_add_listener(wl_display_get_registry(c.display), &registry_listener, &c);
	if (wl_display_roundtrip(c.display) < 0 || !c.compositor || !c.pixels || !c.viewporter ||
	    !c.wm_base || !c.seat || !c.manager) {
		fprintf(stderr, "garnet-rogue: missing globals for a clipboard window\n");
		return 2;
	}
	xdg_wm_base_add_listener(c.wm_base, &wm_listener, &c);
	wl_keyboard_add_listener(wl_seat_get_keyboard(c.seat), &keyboard_listener, &c);
	c.device = wl_data_device_manager_get_data_device(c.manager, c.seat);
	wl_data_device_add_listener(c.device, &device_listener, &c);
	c.surface = wl_compositor_create_surface(c.compositor);
	xs = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, &c);
	toplevel = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &c);
	wl_surface_commit(c.surface);
	for (;;) {
		struct pollfd p = {wl_display_get_fd(c.display), POLLIN, 0};

		wl_display_flush(c.display);
		if (poll(&p, 1, 100) > 0 && wl_display_dispatch(c.display) < 0)
			break;
		/* The "user" clicks the victim again: through the test protocol, as a stand-in
		 * for a click. */
		if (victim && refocus && !refocused && c.test && access(refocus, F_OK) == 0) {
			garnet_test_activate_surface(c.test, c.surface);
			refocused = true;
			note(&c, "refocused", NULL);
		}
	}
	fclose(c.log);
	return 0;
}

// SPDX-License-Identifier: MIT
// garnet-rogue layer / layer-abuse: zwlr_layer_shell_v1 from the client side. As an untrusted
// client a layer surface is the attack (an overlay that imitates a dialog or covers the lock, a
// surface that holds the keyboard exclusively); started as the panel it is the trusted one.
// layer-abuse sends what no client should (sizes, margins, ids) and reports how it ended.
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

struct layer_client {
	FILE *log;
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct zwlr_layer_shell_v1 *shell;
	struct wl_seat *seat;
	struct wl_output *output;
	struct wl_surface *surface;
	struct zwlr_layer_surface_v1 *layer;
	uint32_t width, height, colour;
	bool mapped, closed, configured;
};

__attribute__((format(printf, 2, 3))) static void say(struct layer_client *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(l->log, fmt, ap);
	va_end(ap);
	fputc('\n', l->log);
	fflush(l->log);
}

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct layer_client *l = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		l->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		l->pixels =
			wl_registry_bind(r, name, &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		l->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0)
		l->shell = wl_registry_bind(r, name, &zwlr_layer_shell_v1_interface,
					    version < 4 ? version : 4);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !l->seat)
		l->seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !l->output)
		l->output = wl_registry_bind(r, name, &wl_output_interface, 3);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void fill(struct layer_client *l)
{
	uint32_t c = l->colour;
	uint32_t r = ((c >> 16) & 0xff) * 0x01010101u, g = ((c >> 8) & 0xff) * 0x01010101u,
		 b = (c & 0xff) * 0x01010101u;
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		l->pixels, r, g, b, 0xffffffffu);
	struct wp_viewport *viewport = wp_viewporter_get_viewport(l->viewporter, l->surface);

	wp_viewport_set_destination(viewport, (int32_t)l->width, (int32_t)l->height);
	wl_surface_attach(l->surface, buffer, 0, 0);
	wl_surface_damage_buffer(l->surface, 0, 0, 1, 1);
	wl_surface_commit(l->surface);
	wp_viewport_destroy(viewport);
}

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *layer, uint32_t serial,
			    uint32_t width, uint32_t height)
{
	struct layer_client *l = data;

	say(l, "configure %u %u", width, height);
	zwlr_layer_surface_v1_ack_configure(layer, serial);
	l->configured = true;
	if (width)
		l->width = width;
	if (height)
		l->height = height;
	if (l->pixels && l->viewporter) {
		fill(l);
		if (!l->mapped)
			say(l, "mapped");
		l->mapped = true;
	}
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *layer)
{
	struct layer_client *l = data;

	say(l, "closed");
	l->closed = true;
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {layer_configure, layer_closed};

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	say(d, "keyboard-enter");
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	say(d, "keyboard-leave");
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t t, uint32_t key,
		   uint32_t state)
{
	say(d, "key %u %u", key, state);
}

static const struct wl_keyboard_listener keyboard_listener = {
	kb_keymap,
	kb_enter,
	kb_leave,
	kb_key,
	rogue_ignore_keyboard_modifiers,
	rogue_ignore_keyboard_repeat,
};

static void ptr_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
		      wl_fixed_t x, wl_fixed_t y)
{
	say(d, "pointer-enter");
}

static void ptr_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
}

static void ptr_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t t, uint32_t b,
		       uint32_t state)
{
	say(d, "button %u %u", b, state);
}

static const struct wl_pointer_listener pointer_listener = {
	ptr_enter,
	ptr_leave,
	rogue_ignore_pointer_motion,
	ptr_button,
	rogue_ignore_pointer_axis,
	rogue_ignore_pointer_frame,
	rogue_ignore_pointer_axis_source,
	rogue_ignore_pointer_axis_stop,
	rogue_ignore_pointer_axis_discrete,
};

static uint32_t parse_anchor(const char *s)
{
	uint32_t a = 0;

	for (; *s; s++) {
		a |= *s == 't'	 ? ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP
		     : *s == 'b' ? ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM
		     : *s == 'l' ? ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT
		     : *s == 'r' ? ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT
				 : 0;
	}
	return a;
}

static int parse_layer(const char *s)
{
	static const char *const names[] = {"background", "bottom", "top", "overlay"};

	for (int i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0)
			return i;
	}
	return -1;
}

static bool setup(struct layer_client *l)
{
	struct wl_registry *registry;

	l->display = rogue_connect();
	registry = wl_display_get_registry(l->display);
	wl_registry_add_listener(registry, &registry_listener, l);
	wl_display_roundtrip(l->display);
	if (!l->shell || !l->compositor) {
		say(l, "no-global");
		return false;
	}
	l->surface = wl_compositor_create_surface(l->compositor);
	return true;
}

static int finish(struct layer_client *l)
{
	uint32_t id;
	const struct wl_interface *iface;
	int err = wl_display_get_error(l->display);

	if (err == EPROTO) {
		uint32_t code = wl_display_get_protocol_error(l->display, &iface, &id);

		say(l, "protocol-error %s %u", iface ? iface->name : "?", code);
	} else if (err) {
		say(l, "disconnected %s", strerror(err));
	}
	return err ? 1 : 0;
}

/* layer FILE LAYER [keyboard=none|exclusive|on_demand] [anchor=tblr] [size=WxH] [zone=N]
 * [margin=N] [colour=0xRRGGBB] [seconds=N]: one layer surface, logging configure, mapped,
 * closed, keyboard and pointer events, until killed, closed, or SECONDS. */
int rogue_layer(int argc, char **argv)
{
	struct layer_client l = {.colour = 0xff0000, .width = 200, .height = 100};
	uint32_t anchor = 0, keyboard = 0;
	int32_t zone = 0, margin = 0, layer, seconds = 3600;
	struct wl_keyboard *kb;
	struct wl_pointer *ptr;
	time_t end;

	if (argc < 4)
		return 2;
	l.log = fopen(argv[2], "a");
	layer = parse_layer(argv[3]);
	if (!l.log || layer < 0)
		return 2;
	for (int i = 4; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "keyboard=", 9) == 0)
			keyboard = strcmp(a + 9, "exclusive") == 0   ? 1
				   : strcmp(a + 9, "on_demand") == 0 ? 2
								     : 0;
		else if (strncmp(a, "anchor=", 7) == 0)
			anchor = parse_anchor(a + 7);
		else if (strncmp(a, "size=", 5) == 0)
			sscanf(a + 5, "%ux%u", &l.width, &l.height);
		else if (strncmp(a, "zone=", 5) == 0)
			zone = (int32_t)strtol(a + 5, NULL, 0);
		else if (strncmp(a, "margin=", 7) == 0)
			margin = (int32_t)strtol(a + 7, NULL, 0);
		else if (strncmp(a, "colour=", 7) == 0)
			l.colour = (uint32_t)strtoul(a + 7, NULL, 0);
		else if (strncmp(a, "seconds=", 8) == 0)
			seconds = (int32_t)strtol(a + 8, NULL, 0);
	}
	if (!setup(&l))
		return 1;
	if (l.seat) {
		kb = wl_seat_get_keyboard(l.seat);
		wl_keyboard_add_listener(kb, &keyboard_listener, &l);
		ptr = wl_seat_get_pointer(l.seat);
		wl_pointer_add_listener(ptr, &pointer_listener, &l);
	}
	l.layer = zwlr_layer_shell_v1_get_layer_surface(l.shell, l.surface, NULL, (uint32_t)layer,
							"garnet-rogue");
	zwlr_layer_surface_v1_add_listener(l.layer, &layer_listener, &l);
	/* A size of 0 along an axis with both its edges anchored: as long as the output. */
	zwlr_layer_surface_v1_set_size(l.layer, (anchor & 12) == 12 && l.width == 0 ? 0 : l.width,
				       (anchor & 3) == 3 && l.height == 0 ? 0 : l.height);
	zwlr_layer_surface_v1_set_anchor(l.layer, anchor);
	zwlr_layer_surface_v1_set_exclusive_zone(l.layer, zone);
	zwlr_layer_surface_v1_set_margin(l.layer, margin, margin, margin, margin);
	zwlr_layer_surface_v1_set_keyboard_interactivity(l.layer, keyboard);
	wl_surface_commit(l.surface);
	end = time(NULL) + seconds;
	while (!l.closed && time(NULL) < end) {
		struct pollfd pfd = {wl_display_get_fd(l.display), POLLIN, 0};

		wl_display_flush(l.display);
		if (poll(&pfd, 1, 200) > 0 && wl_display_dispatch(l.display) < 0)
			break;
		wl_display_dispatch_pending(l.display);
	}
	return finish(&l);
}

/* layer-abuse ATTACK: what no layer-shell client should send. Prints "protocol-error
 * INTERFACE CODE", "closed", "configure W H" or "alive" (garnet answered a round trip after
 * the attack, without an error). */
int rogue_layer_abuse(const char *attack)
{
	struct layer_client l = {.log = stdout, .colour = 0xff0000, .width = 100, .height = 100};
	struct zwlr_layer_surface_v1 *layer;
	const uint32_t lr = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	const uint32_t t = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP;

	if (!setup(&l))
		return 1;
	if (strcmp(attack, "bad-layer") == 0) {
		layer = zwlr_layer_shell_v1_get_layer_surface(l.shell, l.surface, NULL, 7, "x");
		goto out;
	}
	layer = zwlr_layer_shell_v1_get_layer_surface(l.shell, l.surface, l.output,
						      ZWLR_LAYER_SHELL_V1_LAYER_TOP, "x");
	l.layer = layer;
	zwlr_layer_surface_v1_add_listener(layer, &layer_listener, &l);
	zwlr_layer_surface_v1_set_size(layer, l.width, l.height);
	if (strcmp(attack, "zero-size") == 0) {
		zwlr_layer_surface_v1_set_size(layer, 0, 0);
		wl_surface_commit(l.surface);
	} else if (strcmp(attack, "bad-anchor") == 0) {
		zwlr_layer_surface_v1_set_anchor(layer, 0x30);
	} else if (strcmp(attack, "bad-keyboard") == 0) {
		zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 7);
	} else if (strcmp(attack, "buffer-before-configure") == 0 && l.pixels) {
		zwlr_layer_surface_v1_set_anchor(layer, t);
		wl_surface_attach(l.surface,
				  wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
					  l.pixels, 0, 0, 0, 0xffffffffu),
				  0, 0);
		wl_surface_commit(l.surface);
	} else if (strcmp(attack, "huge-zone") == 0 || strcmp(attack, "huge-margin") == 0) {
		bool zone = strcmp(attack, "huge-zone") == 0;

		zwlr_layer_surface_v1_set_size(layer, 0, 30);
		zwlr_layer_surface_v1_set_anchor(layer, t | lr);
		zwlr_layer_surface_v1_set_exclusive_zone(layer, zone ? INT32_MAX : 30);
		zwlr_layer_surface_v1_set_margin(layer, zone ? 0 : INT32_MAX, zone ? 0 : INT32_MAX,
						 INT32_MAX, zone ? 0 : INT32_MAX);
		wl_surface_commit(l.surface);
		wl_display_roundtrip(l.display);
		wl_display_roundtrip(l.display);
		wl_display_roundtrip(l.display);
	} else if (strcmp(attack, "destroyed-surface") == 0) {
		zwlr_layer_surface_v1_set_anchor(layer, t);
		wl_surface_commit(l.surface);
		wl_display_roundtrip(l.display);
		wl_display_roundtrip(l.display);
		wl_surface_destroy(l.surface);
		l.surface = NULL;
		zwlr_layer_surface_v1_set_size(layer, 0, 0);
		zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 1);
		zwlr_layer_surface_v1_ack_configure(layer, 12345);
		zwlr_layer_surface_v1_set_layer(layer, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY);
		zwlr_layer_surface_v1_destroy(layer);
	} else if (strcmp(attack, "reused-surface") == 0) {
		/* The second role on the same surface. */
		zwlr_layer_shell_v1_get_layer_surface(l.shell, l.surface, NULL,
						      ZWLR_LAYER_SHELL_V1_LAYER_TOP, "x");
	} else {
		fprintf(stderr, "unknown attack %s\n", attack);
		return 2;
	}
out:
	if (wl_display_roundtrip(l.display) >= 0)
		say(&l, "alive");
	return finish(&l);
}

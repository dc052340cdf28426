// SPDX-License-Identifier: MIT
// garnet-rogue's attacks on the keyboard focus: popup grabs with forged or stale serials or on
// parents that are not shown (a keylogger and clipboard thief), activation tokens replayed,
// kept, made without focus or flooded; and the honest menu and launched program that must
// still work. Each connection is a client of its own; everything it sees goes to the log.
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define MAX_GUESSES 600

struct conn {
	const char *name;
	FILE *log;
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_keyboard *keyboard;
	struct wl_pointer *pointer;
	struct wl_data_device_manager *ddm;
	struct wl_data_device *data_device;
	struct xdg_activation_v1 *activation;
	/* the window */
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	int32_t width, height;
	bool configured;
	/* the popup that grabs, if any */
	struct wl_surface *popup_surface;
	bool popup_done;
	uint32_t press_serial; /* the latest button press */
	bool pressed, focused;
	char token[128];
};

static void say(struct conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct conn *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(c->log, "%s ", c->name);
	va_start(ap, fmt);
	vfprintf(c->log, fmt, ap);
	va_end(ap);
	fputc('\n', c->log);
	fflush(c->log);
}

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t f, int32_t fd, uint32_t size)
{
	close(fd);
}

static const char *which(struct conn *c, struct wl_surface *s)
{
	return s && s == c->surface ? "window" : s && s == c->popup_surface ? "popup" : "other";
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	struct conn *c = d;

	c->focused = true;
	say(c, "keyboard-enter %s", which(c, s));
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	struct conn *c = d;

	c->focused = false;
	say(c, "keyboard-leave %s", which(c, s));
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
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

static void p_enter(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
		    wl_fixed_t x, wl_fixed_t y)
{
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
}

static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time,
		     uint32_t button, uint32_t state)
{
	struct conn *c = d;

	if (state != WL_POINTER_BUTTON_STATE_PRESSED)
		return;
	c->press_serial = serial;
	c->pressed = true;
	say(c, "button");
}

static const struct wl_pointer_listener pointer_listener = {
	p_enter,
	p_leave,
	rogue_ignore_pointer_motion,
	p_button,
	rogue_ignore_pointer_axis,
	rogue_ignore_pointer_frame,
	rogue_ignore_pointer_axis_source,
	rogue_ignore_pointer_axis_stop,
	rogue_ignore_pointer_axis_discrete,
};

/* Reads what the selection holds, as the thief would. */
static void read_selection(struct conn *c, struct wl_data_offer *offer)
{
	int fds[2];
	char buf[256];
	ssize_t n = 0;
	struct pollfd pfd;

	if (pipe(fds) < 0)
		return;
	wl_data_offer_receive(offer, "text/plain", fds[1]);
	close(fds[1]);
	wl_display_flush(c->display);
	pfd = (struct pollfd){.fd = fds[0], .events = POLLIN};
	if (poll(&pfd, 1, 2000) > 0)
		n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	say(c, "selection-data '%s'", buf);
}

static const struct wl_data_offer_listener offer_listener = {
	rogue_ignore_offer_mime, rogue_ignore_offer_actions, rogue_ignore_offer_actions};

static void dd_data_offer(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	wl_data_offer_add_listener(offer, &offer_listener, d);
}

static void dd_selection(void *d, struct wl_data_device *dd, struct wl_data_offer *offer)
{
	struct conn *c = d;

	if (!offer)
		return;
	say(c, "selection-offer");
	read_selection(c, offer);
	wl_data_offer_destroy(offer);
}

static const struct wl_data_device_listener data_device_listener = {
	dd_data_offer,
	rogue_ignore_data_device_enter,
	rogue_ignore_data_device_event,
	rogue_ignore_data_device_motion,
	rogue_ignore_data_device_event,
	dd_selection,
};

static void wm_ping(void *d, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_ping};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct conn *c = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		c->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		c->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		c->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		c->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 && !c->seat)
		c->seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
	else if (strcmp(interface, wl_data_device_manager_interface.name) == 0)
		c->ddm = wl_registry_bind(r, name, &wl_data_device_manager_interface, 3);
	else if (strcmp(interface, xdg_activation_v1_interface.name) == 0)
		c->activation = wl_registry_bind(r, name, &xdg_activation_v1_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static bool conn_open(struct conn *c, const char *name, FILE *log)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->log = log;
	c->display = rogue_connect();
	wl_registry_add_listener(wl_display_get_registry(c->display), &registry_listener, c);
	if (wl_display_roundtrip(c->display) < 0 || !c->compositor || !c->wm_base || !c->seat)
		return false;
	c->keyboard = wl_seat_get_keyboard(c->seat);
	wl_keyboard_add_listener(c->keyboard, &keyboard_listener, c);
	c->pointer = wl_seat_get_pointer(c->seat);
	wl_pointer_add_listener(c->pointer, &pointer_listener, c);
	if (c->ddm) {
		c->data_device = wl_data_device_manager_get_data_device(c->ddm, c->seat);
		wl_data_device_add_listener(c->data_device, &data_device_listener, c);
	}
	return wl_display_roundtrip(c->display) >= 0;
}

static void xs_configure(void *d, struct xdg_surface *xs, uint32_t serial)
{
	struct conn *c = d;

	xdg_surface_ack_configure(xs, serial);
	if (!c->configured) {
		c->configured = true;
		rogue_fill_surface(c->surface, c->pixels, c->viewporter, c->width, c->height);
	}
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

static const struct xdg_toplevel_listener tl_listener = {rogue_ignore_toplevel_configure,
							 rogue_ignore_toplevel_close};

static void window_map(struct conn *c, int32_t width, int32_t height)
{
	c->width = width;
	c->height = height;
	c->surface = wl_compositor_create_surface(c->compositor);
	c->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, c->surface);
	xdg_surface_add_listener(c->xdg_surface, &xs_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_add_listener(c->toplevel, &tl_listener, c);
	wl_surface_commit(c->surface);
	while (!c->configured && wl_display_dispatch(c->display) >= 0)
		;
	wl_display_roundtrip(c->display);
	say(c, "mapped");
}

/* Runs the connection's events for ms milliseconds. */
static void pump(struct conn *c, int ms)
{
	struct timespec tick = {0, 20 * 1000 * 1000};

	for (int i = 0; i < ms / 20; i++) {
		wl_display_dispatch_pending(c->display);
		wl_display_flush(c->display);
		if (poll(&(struct pollfd){.fd = wl_display_get_fd(c->display), .events = POLLIN},
			 1, 0) > 0)
			wl_display_dispatch(c->display);
		else
			nanosleep(&tick, NULL);
	}
}

static void wait_until(struct conn *c, const bool *flag, int ms)
{
	for (int i = 0; i < ms / 20 && !*flag; i++)
		pump(c, 20);
}

/* ---- popup grabs ---- */

struct popup {
	struct conn *c;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_popup *popup;
	bool configured, done;
};

static void popup_xs_configure(void *d, struct xdg_surface *xs, uint32_t serial)
{
	struct popup *p = d;

	xdg_surface_ack_configure(xs, serial);
	if (!p->configured && !p->done) {
		p->configured = true;
		rogue_fill_surface(p->surface, p->c->pixels, p->c->viewporter, 50, 50);
	}
}

static const struct xdg_surface_listener popup_xs_listener = {popup_xs_configure};

static void popup_done(void *d, struct xdg_popup *pp)
{
	struct popup *p = d;

	p->done = true;
	p->c->popup_done = true;
}

static void popup_repositioned(void *d, struct xdg_popup *pp, uint32_t token)
{
}

static const struct xdg_popup_listener popup_listener = {rogue_ignore_popup_configure, popup_done,
							 popup_repositioned};

/* A popup of parent (NULL: none) that grabs with serial; shown (committed) only if show. */
static struct popup *popup_grab(struct conn *c, struct xdg_surface *parent, uint32_t serial,
				bool show)
{
	struct popup *p = calloc(1, sizeof(*p));
	struct xdg_positioner *pos = xdg_wm_base_create_positioner(c->wm_base);

	p->c = c;
	xdg_positioner_set_size(pos, 50, 50);
	xdg_positioner_set_anchor_rect(pos, 0, 0, 1, 1);
	p->surface = wl_compositor_create_surface(c->compositor);
	c->popup_surface = p->surface;
	p->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, p->surface);
	xdg_surface_add_listener(p->xdg_surface, &popup_xs_listener, p);
	p->popup = xdg_surface_get_popup(p->xdg_surface, parent, pos);
	xdg_popup_add_listener(p->popup, &popup_listener, p);
	xdg_positioner_destroy(pos);
	xdg_popup_grab(p->popup, c->seat, serial);
	if (show)
		wl_surface_commit(p->surface);
	return p;
}

/* popup FILE PARENT SERIAL: PARENT is none (window-less), window (its own mapped window,
 * 1024x768) or unmapped (a toplevel never committed); SERIAL is forged (every serial from 1
 * to MAX_GUESSES, one popup each), click (the press of the next click on its window) or stale
 * (that press, used after the keyboard went to another client). Logs for 6 seconds. */
int rogue_popup(const char *path, const char *parent, const char *serial)
{
	FILE *log = fopen(path, "w");
	struct conn c;
	struct xdg_surface *parent_xs = NULL;
	bool forged = strcmp(serial, "forged") == 0;

	if (!log || !conn_open(&c, "rogue", log))
		return 2;
	if (strcmp(parent, "window") == 0 || strcmp(parent, "unmapped") == 0) {
		window_map(&c, 1024, 768);
		parent_xs = c.xdg_surface;
	}
	if (strcmp(parent, "unmapped") == 0) {
		struct wl_surface *s = wl_compositor_create_surface(c.compositor);

		parent_xs = xdg_wm_base_get_xdg_surface(c.wm_base, s);
		xdg_surface_get_toplevel(parent_xs);
	}
	if (!forged) {
		wait_until(&c, &c.pressed, 10000);
		if (!c.pressed)
			say(&c, "no-press");
	}
	if (strcmp(serial, "stale") == 0) {
		/* After the user turned to another window. */
		for (int i = 0; i < 250 && c.focused; i++)
			pump(&c, 20);
		say(&c, "lost-focus");
	}
	if (forged) {
		for (uint32_t s = 1; s <= MAX_GUESSES; s++)
			popup_grab(&c, parent_xs, s, parent_xs != NULL);
	} else {
		popup_grab(&c, parent_xs, c.press_serial, true);
	}
	wl_display_roundtrip(c.display);
	say(&c, "grabbed");
	pump(&c, 6000);
	say(&c, c.popup_done ? "popup-done" : "popup-kept");
	return 0;
}

/* ---- activation tokens ---- */

static void token_done(void *data, struct xdg_activation_token_v1 *t, const char *name)
{
	snprintf(data, 128, "%s", name);
}

static const struct xdg_activation_token_v1_listener token_listener = {token_done};

/* A token of c's, with serial unless use_serial is false, its name in out (128 bytes). */
static void make_token(struct conn *c, bool use_serial, uint32_t serial, char *out)
{
	struct xdg_activation_token_v1 *t = xdg_activation_v1_get_activation_token(c->activation);

	out[0] = '\0';
	xdg_activation_token_v1_add_listener(t, &token_listener, out);
	if (use_serial)
		xdg_activation_token_v1_set_serial(t, serial, c->seat);
	xdg_activation_token_v1_commit(t);
	wl_display_roundtrip(c->display);
	xdg_activation_token_v1_destroy(t);
}

/* c activates its window with token; logs whether the keyboard came ("focus WHAT yes/no"). */
static void try_activate(struct conn *c, const char *token, const char *what)
{
	bool before = c->focused;

	xdg_activation_v1_activate(c->activation, token, c->surface);
	wl_display_roundtrip(c->display);
	pump(c, 300);
	say(c, "focus %s %s", what, !before && c->focused ? "yes" : "no");
}

/* activation FILE replay|expire: L maps (1024x768) and waits for the user's click, then
 * makes tokens with that press's serial. replay: A uses one (it must work), B uses it again,
 * B makes one without the keyboard, L disconnects and B uses the token L made. expire: A uses
 * a token 10.5 s after it was made. */
int rogue_activation(const char *path, const char *step)
{
	FILE *log = fopen(path, "w");
	struct conn l, a, b;
	char t1[128], t2[128], t3[128];

	if (!log || !conn_open(&l, "L", log) || !l.activation)
		return 2;
	window_map(&l, 1024, 768);
	wait_until(&l, &l.pressed, 10000);
	say(&l, l.pressed && l.focused ? "pressed" : "no-press");
	make_token(&l, true, l.press_serial, t1);
	make_token(&l, true, l.press_serial, t3);
	if (!conn_open(&a, "A", log) || !conn_open(&b, "B", log))
		return 2;
	window_map(&a, 50, 50);
	window_map(&b, 50, 50);
	pump(&a, 200);
	pump(&b, 200);
	if (strcmp(step, "expire") == 0) {
		pump(&a, 10500);
		try_activate(&a, t1, "expired-token");
		return 0;
	}
	try_activate(&a, t1, "valid-token");
	try_activate(&b, t1, "used-token");
	make_token(&b, true, l.press_serial, t2);
	try_activate(&b, t2, "token-without-focus");
	wl_display_disconnect(l.display);
	pump(&a, 300);
	try_activate(&b, t3, "token-of-gone-client");
	return 0;
}

/* token-flood FILE COUNT: a focused window, after the user's click, asks for COUNT tokens with
 * that press's serial, destroying each object as it goes. */
int rogue_token_flood(const char *path, long count)
{
	FILE *log = fopen(path, "w");
	struct conn c;
	char name[128];

	if (!log || !conn_open(&c, "rogue", log) || !c.activation)
		return 2;
	window_map(&c, 1024, 768);
	wait_until(&c, &c.pressed, 10000);
	say(&c, c.pressed ? "pressed" : "no-press");
	for (long i = 0; i < count; i++) {
		struct xdg_activation_token_v1 *t =
			xdg_activation_v1_get_activation_token(c.activation);

		xdg_activation_token_v1_add_listener(t, &token_listener, name);
		xdg_activation_token_v1_set_serial(t, c.press_serial, c.seat);
		xdg_activation_token_v1_commit(t);
		xdg_activation_token_v1_destroy(t);
		if (i % 2000 == 1999 && wl_display_roundtrip(c.display) < 0) {
			say(&c, "cut-off %ld", i);
			return 0;
		}
	}
	wl_display_roundtrip(c.display);
	say(&c, "flooded %ld", count);
	pump(&c, 60000);
	return 0;
}

/* launched FILE: a program garnet started, which activates its first window with the token
 * garnet gave it in XDG_ACTIVATION_TOKEN. */
int rogue_launched(const char *path)
{
	FILE *log = fopen(path, "w");
	const char *token = getenv("XDG_ACTIVATION_TOKEN");
	struct conn c;

	if (!log || !conn_open(&c, "launched", log) || !c.activation)
		return 2;
	say(&c, "token %s", token && *token ? "given" : "none");
	window_map(&c, 100, 100);
	pump(&c, 300);
	say(&c, "focus at-map %s", c.focused ? "yes" : "no");
	if (token && *token && !c.focused)
		try_activate(&c, token, "launch-token");
	pump(&c, 60000);
	return 0;
}

// SPDX-License-Identifier: MIT
// garnet-rogue window: a plain window (one colour, any size) that writes every input event it
// gets to a file. Used both as the spying rogue and as the victim whose input it wants.
// With ROGUE_SHM=1 set, its colour is in a wl_shm buffer of a memfd without seals, as most
// toolkits make theirs, rather than a single-pixel buffer.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct window {
	FILE *log;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct zwp_text_input_manager_v3 *text_inputs; /* bound only for a text field */
	struct zwp_text_input_v3 *text_input;
	char committed[256];
	struct wl_surface *surface;
	int32_t width, height;
	uint32_t rgb;
	bool mapped, text_field;
};

static void note(struct window *w, const char *what)
{
	fprintf(w->log, "%s\n", what);
	fflush(w->log);
}

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t format, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	note(d, "keyboard-enter");
}

static void kb_leave(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s)
{
	note(d, "keyboard-leave");
}

static void kb_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t time, uint32_t key,
		   uint32_t state)
{
	char line[64];

	snprintf(line, sizeof(line), "key %u %u", key, state);
	note(d, line);
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
	note(d, "pointer-enter");
}

static void p_leave(void *d, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
	note(d, "pointer-leave");
}

static void p_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
	note(d, "motion");
}

static void p_button(void *d, struct wl_pointer *p, uint32_t serial, uint32_t time,
		     uint32_t button, uint32_t state)
{
	note(d, "button");
}

static void p_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t v)
{
	note(d, "axis");
}

static const struct wl_pointer_listener pointer_listener = {
	p_enter,
	p_leave,
	p_motion,
	p_button,
	p_axis,
	rogue_ignore_pointer_frame,
	rogue_ignore_pointer_axis_source,
	rogue_ignore_pointer_axis_stop,
	rogue_ignore_pointer_axis_discrete,
};

static void t_down(void *d, struct wl_touch *t, uint32_t serial, uint32_t time,
		   struct wl_surface *s, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	note(d, "touch-down");
}

static void t_up(void *d, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	note(d, "touch-up");
}

static void t_motion(void *d, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x,
		     wl_fixed_t y)
{
	note(d, "touch-motion");
}

static const struct wl_touch_listener touch_listener = {
	t_down, t_up, t_motion, rogue_ignore_touch_event, rogue_ignore_touch_event};

/* ---- a text field: enabled whenever it has the focus; logs what it is given ---- */

static void ti_enter(void *d, struct zwp_text_input_v3 *ti, struct wl_surface *s)
{
	zwp_text_input_v3_enable(ti);
	zwp_text_input_v3_set_cursor_rectangle(ti, 0, 0, 1, 20);
	zwp_text_input_v3_commit(ti);
	note(d, "text-enter");
}

static void ti_leave(void *d, struct zwp_text_input_v3 *ti, struct wl_surface *s)
{
	zwp_text_input_v3_disable(ti);
	zwp_text_input_v3_commit(ti);
}

static void ti_preedit(void *d, struct zwp_text_input_v3 *ti, const char *text, int32_t begin,
		       int32_t end)
{
}

static void ti_commit_string(void *d, struct zwp_text_input_v3 *ti, const char *text)
{
	struct window *w = d;

	snprintf(w->committed, sizeof(w->committed), "%s", text ? text : "");
}

static void ti_delete(void *d, struct zwp_text_input_v3 *ti, uint32_t before, uint32_t after)
{
}

static void ti_done(void *d, struct zwp_text_input_v3 *ti, uint32_t serial)
{
	struct window *w = d;
	char line[300];

	if (!w->committed[0])
		return;
	snprintf(line, sizeof(line), "text %s", w->committed);
	note(w, line);
	w->committed[0] = '\0';
}

static const struct zwp_text_input_v3_listener text_input_listener = {
	ti_enter, ti_leave, ti_preedit, ti_commit_string, ti_delete, ti_done,
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct window *w = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		w->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		w->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		w->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		w->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		w->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !w->seat)
		w->seat = wl_registry_bind(r, name, &wl_seat_interface, 5);
	else if (w->text_field && strcmp(interface, zwp_text_input_manager_v3_interface.name) == 0)
		w->text_inputs = wl_registry_bind(r, name, &zwp_text_input_manager_v3_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

void rogue_fill_surface(struct wl_surface *surface,
			struct wp_single_pixel_buffer_manager_v1 *pixels,
			struct wp_viewporter *viewporter, int32_t width, int32_t height)
{
	rogue_fill_surface_rgb(surface, pixels, viewporter, width, height, 0x4080c0);
}

void rogue_fill_surface_rgb(struct wl_surface *surface,
			    struct wp_single_pixel_buffer_manager_v1 *pixels,
			    struct wp_viewporter *viewporter, int32_t width, int32_t height,
			    uint32_t rgb)
{
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		pixels, ((rgb >> 16) & 0xff) * 0x01010101u, ((rgb >> 8) & 0xff) * 0x01010101u,
		(rgb & 0xff) * 0x01010101u, 0xffffffffu);
	struct wp_viewport *viewport = wp_viewporter_get_viewport(viewporter, surface);

	wp_viewport_set_destination(viewport, width, height);
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, 1, 1);
	wl_surface_commit(surface);
}

/* The colour in a wl_shm buffer of the window's size; false when it cannot be made. */
static bool fill_surface_shm(struct window *w)
{
	size_t stride = (size_t)w->width * 4, size = stride * (size_t)w->height;
	int fd = memfd_create("garnet-rogue-window", MFD_CLOEXEC);
	uint32_t *pixels;
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		return false;
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		close(fd);
		return false;
	}
	for (size_t i = 0; i < size / 4; i++)
		pixels[i] = 0xff000000u | w->rgb;
	munmap(pixels, size);
	pool = wl_shm_create_pool(w->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, w->width, w->height, (int32_t)stride,
					   WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(w->surface, buffer, 0, 0);
	wl_surface_damage_buffer(w->surface, 0, 0, w->width, w->height);
	wl_surface_commit(w->surface);
	return true;
}

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct window *w = data;
	const char *shm = getenv("ROGUE_SHM");

	xdg_surface_ack_configure(xs, serial);
	if (w->mapped)
		return;
	if (shm && strcmp(shm, "1") == 0 && w->shm && fill_surface_shm(w))
		note(w, "shm buffer");
	else
		rogue_fill_surface_rgb(w->surface, w->pixels, w->viewporter, w->width, w->height,
				       w->rgb);
	w->mapped = true;
	note(w, "mapped");
}

static const struct xdg_surface_listener xdg_surface_listener = {xs_configure};

/* The size garnet asks for (a maximized window's is what the panels leave of the output). */
static void toplevel_configure(void *data, struct xdg_toplevel *tl, int32_t width, int32_t height,
			       struct wl_array *states)
{
	char line[64];

	if (!width && !height)
		return;
	snprintf(line, sizeof(line), "configure %d %d", width, height);
	note(data, line);
}

static const struct xdg_toplevel_listener toplevel_listener = {toplevel_configure,
							       rogue_ignore_toplevel_close};

int rogue_window(const char *path, int32_t width, int32_t height, bool text_field, uint32_t rgb)
{
	struct window w = {.width = width, .height = height, .text_field = text_field, .rgb = rgb};
	struct wl_display *display = rogue_connect();
	struct xdg_surface *xs;
	struct xdg_toplevel *toplevel;
	const char *title;

	w.log = fopen(path, "a");
	if (!w.log) {
		perror(path);
		return 2;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &w);
	if (wl_display_roundtrip(display) < 0 || !w.compositor || !w.pixels || !w.viewporter ||
	    !w.wm_base || !w.seat) {
		fprintf(stderr, "garnet-rogue: missing globals for a window\n");
		return 2;
	}
	xdg_wm_base_add_listener(w.wm_base, &wm_listener, &w);
	if (text_field && !w.text_inputs) {
		fprintf(stderr, "garnet-rogue: no text input manager for a text field\n");
		return 2;
	}
	if (w.text_inputs) {
		w.text_input = zwp_text_input_manager_v3_get_text_input(w.text_inputs, w.seat);
		zwp_text_input_v3_add_listener(w.text_input, &text_input_listener, &w);
	}
	wl_keyboard_add_listener(wl_seat_get_keyboard(w.seat), &keyboard_listener, &w);
	wl_pointer_add_listener(wl_seat_get_pointer(w.seat), &pointer_listener, &w);
	wl_touch_add_listener(wl_seat_get_touch(w.seat), &touch_listener, &w);
	w.surface = wl_compositor_create_surface(w.compositor);
	xs = xdg_wm_base_get_xdg_surface(w.wm_base, w.surface);
	xdg_surface_add_listener(xs, &xdg_surface_listener, &w);
	toplevel = xdg_surface_get_toplevel(xs);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &w);
	/* A victim's title is what the user reads in it (ROGUE_TITLE): a secret to others. */
	title = getenv("ROGUE_TITLE");
	xdg_toplevel_set_title(toplevel, title ? title : "garnet-rogue");
	wl_surface_commit(w.surface);
	while (wl_display_dispatch(display) >= 0)
		;
	fclose(w.log);
	return 0;
}

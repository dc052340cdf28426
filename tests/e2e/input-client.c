// SPDX-License-Identifier: MIT
// A window of one colour that writes every input event it receives to a log, one line each,
// so an end-to-end test can check from the client side what reached it.
//   input-client WIDTH HEIGHT 0xRRGGBB LOGFILE [--presentation]
// With --presentation it asks for presentation feedback on one more frame after mapping and logs
// "presented SECONDS NANOSECONDS" (or "discarded").
// Log lines: "mapped", "pointer-enter", "pointer-leave", "button CODE 0|1", "keyboard-enter",
// "keyboard-leave", "key CODE 0|1".
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct app {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct xdg_wm_base *wm_base;
	struct wp_presentation *presentation;
	bool want_presentation;
	struct wl_surface *surface;
	int32_t width, height;
	uint32_t colour;
	bool mapped, closed;
	FILE *log;
};

static void say(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(app->log, fmt, ap);
	va_end(ap);
	fputc('\n', app->log);
	fflush(app->log);
}

static void draw(struct app *app)
{
	int32_t stride = app->width * 4;
	size_t size = (size_t)stride * (size_t)app->height;
	int fd = memfd_create("input-client", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	uint32_t *pixels;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		fprintf(stderr, "input-client: shared memory: %s\n", strerror(errno));
		exit(1);
	}
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		fprintf(stderr, "input-client: mmap: %s\n", strerror(errno));
		exit(1);
	}
	for (size_t i = 0; i < size / 4; i++)
		pixels[i] = 0xff000000u | app->colour;
	munmap(pixels, size);
	pool = wl_shm_create_pool(app->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, app->width, app->height, stride,
					   WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(app->surface, buffer, 0, 0);
	wl_surface_damage_buffer(app->surface, 0, 0, app->width, app->height);
	wl_surface_commit(app->surface);
}

static void feedback_sync_output(void *data, struct wp_presentation_feedback *fb,
				 struct wl_output *output)
{
}

static void feedback_presented(void *data, struct wp_presentation_feedback *fb, uint32_t sec_hi,
			       uint32_t sec_lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi,
			       uint32_t seq_lo, uint32_t flags)
{
	say(data, "presented %llu %u", (unsigned long long)sec_hi << 32 | sec_lo, nsec);
	wp_presentation_feedback_destroy(fb);
}

static void feedback_discarded(void *data, struct wp_presentation_feedback *fb)
{
	say(data, "discarded");
	wp_presentation_feedback_destroy(fb);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
	.sync_output = feedback_sync_output,
	.presented = feedback_presented,
	.discarded = feedback_discarded,
};

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct app *app = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	if (app->mapped)
		return;
	draw(app);
	app->mapped = true;
	wl_display_roundtrip(app->display);
	say(app, "mapped");
	if (app->want_presentation && app->presentation) {
		/* A frame that changes something, so it is painted and flipped. */
		app->colour ^= 0x000010;
		wp_presentation_feedback_add_listener(
			wp_presentation_feedback(app->presentation, app->surface),
			&feedback_listener, app);
		draw(app);
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
			       struct wl_array *states)
{
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct app *app = data;

	app->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial,
			  struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y)
{
	say(data, "pointer-enter");
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial,
			  struct wl_surface *surface)
{
	say(data, "pointer-leave");
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x,
			   wl_fixed_t y)
{
	say(data, "pointer-motion %.0f %.0f", wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
			   uint32_t button, uint32_t state)
{
	say(data, "button %u %u", button, state);
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
			 wl_fixed_t value)
{
	say(data, "axis %u %.0f", axis, wl_fixed_to_double(value));
}

/* wl_seat v8: every event of the bound version needs a handler. */
static void pointer_frame(void *data, struct wl_pointer *p)
{
}

static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
	say(data, "axis-source %u", source);
}

static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
}

static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t d)
{
	say(data, "discrete %u %d", axis, d);
}

static void pointer_axis_value120(void *data, struct wl_pointer *p, uint32_t axis, int32_t v)
{
	say(data, "value120 %u %d", axis, v);
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter,
	.leave = pointer_leave,
	.motion = pointer_motion,
	.button = pointer_button,
	.axis = pointer_axis,
	.frame = pointer_frame,
	.axis_source = pointer_axis_source,
	.axis_stop = pointer_axis_stop,
	.axis_discrete = pointer_axis_discrete,
	.axis_value120 = pointer_axis_value120,
};

static void keyboard_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
			    uint32_t size)
{
	close(fd);
}

static void keyboard_enter(void *data, struct wl_keyboard *k, uint32_t serial,
			   struct wl_surface *surface, struct wl_array *keys)
{
	say(data, "keyboard-enter");
}

static void keyboard_leave(void *data, struct wl_keyboard *k, uint32_t serial,
			   struct wl_surface *surface)
{
	say(data, "keyboard-leave");
}

static void keyboard_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
			 uint32_t key, uint32_t state)
{
	say(data, "key %u %u", key, state);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *k, uint32_t serial,
			       uint32_t depressed, uint32_t latched, uint32_t locked,
			       uint32_t group)
{
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = keyboard_keymap,
	.enter = keyboard_enter,
	.leave = keyboard_leave,
	.key = keyboard_key,
	.modifiers = keyboard_modifiers,
	.repeat_info = keyboard_repeat_info,
};

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time,
		       struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	say(data, "touch-down %d", id);
}

static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	say(data, "touch-up %d", id);
}

static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id,
			 wl_fixed_t x, wl_fixed_t y)
{
}

static void touch_frame(void *data, struct wl_touch *t)
{
}

static void touch_cancel(void *data, struct wl_touch *t)
{
}

static void touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major,
			wl_fixed_t minor)
{
}

static void touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t orientation)
{
}

static const struct wl_touch_listener touch_listener = {
	.down = touch_down,
	.up = touch_up,
	.motion = touch_motion,
	.frame = touch_frame,
	.cancel = touch_cancel,
	.shape = touch_shape,
	.orientation = touch_orientation,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct app *app = data;

	if (strcmp(interface, "wl_compositor") == 0) {
		app->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, "wl_shm") == 0) {
		app->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, "wp_presentation") == 0) {
		app->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
	} else if (strcmp(interface, "wl_seat") == 0 && !app->seat) {
		app->seat = wl_registry_bind(registry, name, &wl_seat_interface,
					     version < 8 ? version : 8);
	} else if (strcmp(interface, "xdg_wm_base") == 0) {
		app->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(app->wm_base, &wm_base_listener, app);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							       registry_global_remove};

int main(int argc, char **argv)
{
	struct app app = {0};
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;

	if (argc == 6 && strcmp(argv[5], "--presentation") == 0) {
		app.want_presentation = true;
		argc--;
	}
	if (argc != 5 || (app.width = atoi(argv[1])) <= 0 || (app.height = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: input-client WIDTH HEIGHT 0xRRGGBB LOGFILE [--presentation]\n");
		return 2;
	}
	app.colour = (uint32_t)strtoul(argv[3], NULL, 0) & 0xffffff;
	app.log = fopen(argv[4], "a");
	if (!app.log) {
		fprintf(stderr, "input-client: %s: %s\n", argv[4], strerror(errno));
		return 1;
	}
	app.display = wl_display_connect(NULL);
	if (!app.display) {
		fprintf(stderr, "input-client: cannot connect to the Wayland display\n");
		return 1;
	}
	wl_registry_add_listener(wl_display_get_registry(app.display), &registry_listener, &app);
	wl_display_roundtrip(app.display);
	if (!app.compositor || !app.shm || !app.wm_base || !app.seat) {
		fprintf(stderr, "input-client: missing wl_compositor, wl_shm, wl_seat or "
				"xdg_wm_base\n");
		return 1;
	}
	/* Both devices are asked for at once: garnet's seat always has them. */
	wl_pointer_add_listener(wl_seat_get_pointer(app.seat), &pointer_listener, &app);
	wl_keyboard_add_listener(wl_seat_get_keyboard(app.seat), &keyboard_listener, &app);
	wl_touch_add_listener(wl_seat_get_touch(app.seat), &touch_listener, &app);
	app.surface = wl_compositor_create_surface(app.compositor);
	xdg_surface = xdg_wm_base_get_xdg_surface(app.wm_base, app.surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, &app);
	toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &app);
	xdg_toplevel_set_title(toplevel, "input-client");
	wl_surface_commit(app.surface);
	while (!app.closed && wl_display_dispatch(app.display) >= 0)
		;
	say(&app, "disconnected");
	return 0;
}

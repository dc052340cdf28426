// SPDX-License-Identifier: MIT
// garnet-osk: a sample on-screen keyboard. It is the seat's input method (launched by garnet
// as the input-method [launcher] entry: no other client can be one), shows its keys as an
// input popup, which garnet draws under the text cursor of the focused text field while that
// field wants input, and commits the letter of each key clicked into that field.
//
// usage: garnet-osk
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "input-method-unstable-v2-client-protocol.h"

#define KEY_SIZE 24
#define COLUMNS 10
#define ROWS 3
#define WIDTH (COLUMNS * KEY_SIZE)
#define HEIGHT (ROWS * KEY_SIZE)

static const char *const rows[ROWS] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};

/* 5x5 glyphs, a bit per pixel, top row in the high bits: enough to tell the keys apart. */
static const uint32_t glyphs[26] = {
	0x0e8fe31, 0x1e8fa3e, 0x0f8420f, 0x1e8c63e, 0x1f87a1f, 0x1f87a10, 0x0f85e2f,
	0x118fe31, 0x0e2108e, 0x0710a4c, 0x1197251, 0x108421f, 0x11dd631, 0x11cd671,
	0x0e8c62e, 0x1e8fa10, 0x0e8d66f, 0x1e8fa51, 0x0f8383e, 0x1f21084, 0x118c62e,
	0x118c544, 0x118d771, 0x1151151, 0x1151084, 0x1f1111f,
};

struct osk {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct zwp_input_method_manager_v2 *manager;
	struct zwp_input_method_v2 *im;
	struct wl_surface *surface;
	uint32_t dones;
	bool active, unavailable;
	double x, y;
};

static void die(const char *what)
{
	fprintf(stderr, "garnet-osk: %s\n", what);
	exit(1);
}

/* ---- drawing ---- */

static void fill(uint32_t *pixels, int x0, int y0, int w, int h, uint32_t argb)
{
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			pixels[y * WIDTH + x] = argb;
}

static void draw_glyph(uint32_t *pixels, int x0, int y0, char letter)
{
	uint32_t bits = glyphs[letter - 'a'];

	for (int row = 0; row < 5; row++) {
		for (int col = 0; col < 5; col++) {
			if (bits & (1u << (24 - (row * 5 + col))))
				fill(pixels, x0 + col * 2, y0 + row * 2, 2, 2, 0xffffffff);
		}
	}
}

static struct wl_buffer *draw_keyboard(struct osk *o)
{
	size_t size = (size_t)WIDTH * HEIGHT * 4;
	int fd = memfd_create("garnet-osk", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	uint32_t *pixels;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die("no memory for the keys");
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED)
		die("no memory for the keys");
	fill(pixels, 0, 0, WIDTH, HEIGHT, 0xff202428);
	for (int r = 0; r < ROWS; r++) {
		for (int c = 0; rows[r][c]; c++) {
			int x = c * KEY_SIZE, y = r * KEY_SIZE;

			fill(pixels, x + 1, y + 1, KEY_SIZE - 2, KEY_SIZE - 2, 0xff3c4450);
			draw_glyph(pixels, x + 7, y + 7, rows[r][c]);
		}
	}
	munmap(pixels, size);
	pool = wl_shm_create_pool(o->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, WIDTH * 4,
					   WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buffer;
}

/* The letter under surface point x, y, or 0. */
static char key_at(double x, double y)
{
	int c = (int)(x / KEY_SIZE), r = (int)(y / KEY_SIZE);

	if (x < 0 || y < 0 || r >= ROWS || c >= (int)strlen(rows[r]))
		return 0;
	return rows[r][c];
}

/* ---- pointer: clicks on the keys ---- */

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial,
			  struct wl_surface *s, wl_fixed_t x, wl_fixed_t y)
{
	struct osk *o = data;

	o->x = wl_fixed_to_double(x);
	o->y = wl_fixed_to_double(y);
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x,
			   wl_fixed_t y)
{
	struct osk *o = data;

	o->x = wl_fixed_to_double(x);
	o->y = wl_fixed_to_double(y);
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
			   uint32_t button, uint32_t state)
{
	struct osk *o = data;
	char text[2] = {key_at(o->x, o->y), '\0'};

	if (button != BTN_LEFT || state != WL_POINTER_BUTTON_STATE_PRESSED || !text[0] ||
	    !o->active)
		return;
	zwp_input_method_v2_commit_string(o->im, text);
	zwp_input_method_v2_commit(o->im, o->dones);
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
			 wl_fixed_t value)
{
}

static void pointer_frame(void *data, struct wl_pointer *p)
{
}

static void pointer_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
}

static void pointer_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
}

static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis,
				  int32_t discrete)
{
}

/* Every event of wl_pointer version 5, the version bound. */
static const struct wl_pointer_listener pointer_listener = {
	pointer_enter,	     pointer_leave,	 pointer_motion,	pointer_button,
	pointer_axis,	     pointer_frame,	 pointer_axis_source, pointer_axis_stop,
	pointer_axis_discrete,
};

/* ---- the input method ---- */

static void im_activate(void *data, struct zwp_input_method_v2 *im)
{
	((struct osk *)data)->active = true;
}

static void im_deactivate(void *data, struct zwp_input_method_v2 *im)
{
	((struct osk *)data)->active = false;
}

static void im_surrounding(void *data, struct zwp_input_method_v2 *im, const char *text,
			   uint32_t cursor, uint32_t anchor)
{
}

static void im_cause(void *data, struct zwp_input_method_v2 *im, uint32_t cause)
{
}

static void im_content_type(void *data, struct zwp_input_method_v2 *im, uint32_t hint,
			    uint32_t purpose)
{
}

static void im_done(void *data, struct zwp_input_method_v2 *im)
{
	((struct osk *)data)->dones++;
}

static void im_unavailable(void *data, struct zwp_input_method_v2 *im)
{
	((struct osk *)data)->unavailable = true;
}

static const struct zwp_input_method_v2_listener im_listener = {
	im_activate, im_deactivate, im_surrounding, im_cause, im_content_type, im_done,
	im_unavailable,
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct osk *o = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		o->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		o->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !o->seat)
		o->seat = wl_registry_bind(registry, name, &wl_seat_interface, 5);
	else if (strcmp(interface, zwp_input_method_manager_v2_interface.name) == 0)
		o->manager = wl_registry_bind(registry, name,
					      &zwp_input_method_manager_v2_interface, 1);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							       registry_global_remove};

int main(void)
{
	struct osk o = {0};
	struct wl_registry *registry;
	struct wl_buffer *buffer;

	o.display = wl_display_connect(NULL);
	if (!o.display)
		die("cannot connect to a Wayland display");
	registry = wl_display_get_registry(o.display);
	wl_registry_add_listener(registry, &registry_listener, &o);
	wl_display_roundtrip(o.display);
	if (!o.compositor || !o.shm || !o.seat)
		die("the compositor lacks wl_compositor, wl_shm or wl_seat");
	if (!o.manager)
		die("no input method manager: garnet offers it only to its input-method launcher");
	o.im = zwp_input_method_manager_v2_get_input_method(o.manager, o.seat);
	zwp_input_method_v2_add_listener(o.im, &im_listener, &o);
	o.pointer = wl_seat_get_pointer(o.seat);
	wl_pointer_add_listener(o.pointer, &pointer_listener, &o);
	o.surface = wl_compositor_create_surface(o.compositor);
	zwp_input_method_v2_get_input_popup_surface(o.im, o.surface);
	buffer = draw_keyboard(&o);
	wl_surface_attach(o.surface, buffer, 0, 0);
	wl_surface_damage(o.surface, 0, 0, WIDTH, HEIGHT);
	wl_surface_commit(o.surface);
	while (!o.unavailable && wl_display_dispatch(o.display) >= 0)
		;
	if (o.unavailable)
		die("the seat has an input method already");
	wl_buffer_destroy(buffer);
	wl_display_disconnect(o.display);
	return 0;
}

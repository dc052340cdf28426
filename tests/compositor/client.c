// SPDX-License-Identifier: MIT
// The client side of compositor tests: connect, bind, buffers, surfaces, input logs.
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define POSITIVE_WAIT_MS 5000

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One round of reading with a timeout; false when the connection failed. */
static bool dispatch_once(struct client *c, int timeout_ms)
{
	struct pollfd pfd = {.fd = wl_display_get_fd(c->display), .events = POLLIN};

	while (wl_display_prepare_read(c->display) != 0) {
		if (wl_display_dispatch_pending(c->display) < 0)
			return false;
	}
	if (wl_display_flush(c->display) < 0 && errno != EAGAIN) {
		wl_display_cancel_read(c->display);
		return false;
	}
	if (poll(&pfd, 1, timeout_ms) > 0) {
		if (wl_display_read_events(c->display) < 0)
			return false;
	} else {
		wl_display_cancel_read(c->display);
	}
	return wl_display_dispatch_pending(c->display) >= 0;
}

bool client_dispatch_until(struct client *c, const bool *flag)
{
	int64_t deadline = now_ms() + POSITIVE_WAIT_MS;

	while (!*flag) {
		int64_t left = deadline - now_ms();

		if (left <= 0 || !dispatch_once(c, (int)left))
			return false;
	}
	return true;
}

void client_dispatch_for(struct client *c, int msec)
{
	int64_t deadline = now_ms() + msec;

	for (int64_t left = msec; left > 0; left = deadline - now_ms()) {
		if (!dispatch_once(c, (int)left))
			return;
	}
}

void client_roundtrip(struct client *c)
{
	if (wl_display_roundtrip(c->display) < 0)
		test_fail(c->test, __FILE__, __LINE__, "roundtrip failed: %s (protocol error %u)",
			  strerror(wl_display_get_error(c->display)),
			  wl_display_get_protocol_error(c->display, NULL, NULL));
}

void client_expect_protocol_error(struct client *c, const struct wl_interface *iface,
				  uint32_t code)
{
	const struct wl_interface *got_iface = NULL;
	uint32_t got_code, id;

	/* The error may still be on its way. */
	while (wl_display_get_error(c->display) == 0) {
		if (wl_display_roundtrip(c->display) < 0)
			break;
	}
	if (wl_display_get_error(c->display) != EPROTO)
		test_fail(c->test, __FILE__, __LINE__, "expected a protocol error on %s, got %s",
			  iface ? iface->name : "a destroyed object", strerror(wl_display_get_error(c->display)));
	got_code = wl_display_get_protocol_error(c->display, &got_iface, &id);
	/* Without an interface: the error is on an object the client already destroyed. */
	if (got_code != code ||
	    (iface && (!got_iface || strcmp(got_iface->name, iface->name) != 0)))
		test_fail(c->test, __FILE__, __LINE__,
			  "expected protocol error %u on %s, got %u on %s", code,
			  iface ? iface->name : "a destroyed object",
			  got_code, got_iface ? got_iface->name : "(none)");
}

void client_expect_display_error(struct client *c)
{
	while (wl_display_get_error(c->display) == 0 && wl_display_roundtrip(c->display) >= 0)
		;
	if (wl_display_get_error(c->display) != EINVAL)
		test_fail(c->test, __FILE__, __LINE__, "expected an error on wl_display, got %s",
			  strerror(wl_display_get_error(c->display)));
}

/* ---- outputs ---- */

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
			    int32_t ph, int32_t subpixel, const char *make, const char *model,
			    int32_t transform)
{
	struct client_output *out = data;

	out->transform = transform;
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
			int32_t refresh)
{
	struct client_output *out = data;

	out->width = w;
	out->height = h;
}

static void output_done(void *data, struct wl_output *o)
{
}

static void output_scale(void *data, struct wl_output *o, int32_t scale)
{
	struct client_output *out = data;

	out->scale = scale;
}

static void output_name(void *data, struct wl_output *o, const char *name)
{
	struct client_output *out = data;

	snprintf(out->name, sizeof(out->name), "%s", name);
}

static void output_description(void *data, struct wl_output *o, const char *d)
{
}

static const struct wl_output_listener output_listener = {
	output_geometry, output_mode, output_done, output_scale, output_name, output_description,
};

struct client_output *client_first_output(struct client *c)
{
	struct client_output *out;

	if (wl_list_empty(&c->outputs))
		test_fail(c->test, __FILE__, __LINE__, "no wl_output");
	out = wl_container_of(c->outputs.prev, out, link);
	return out;
}

/* ---- seat ---- */

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial,
			  struct wl_surface *surface, wl_fixed_t sx, wl_fixed_t sy)
{
	struct input_log *log = data;

	log->pointer_focus = surface;
	log->pointer_enter_serial = serial;
	log->sx = wl_fixed_to_double(sx);
	log->sy = wl_fixed_to_double(sy);
	log->enters++;
}

static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial,
			  struct wl_surface *surface)
{
	struct input_log *log = data;

	log->pointer_focus = NULL;
	log->leaves++;
}

static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t sx,
			   wl_fixed_t sy)
{
	struct input_log *log = data;

	log->sx = wl_fixed_to_double(sx);
	log->sy = wl_fixed_to_double(sy);
	log->motions++;
}

static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
			   uint32_t button, uint32_t state)
{
	struct input_log *log = data;

	log->buttons++;
	log->last_button = button;
	log->last_button_state = state;
	log->last_button_serial = serial;
}

static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis,
			 wl_fixed_t value)
{
	struct input_log *log = data;

	log->axes++;
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

static void pointer_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t d)
{
}

static const struct wl_pointer_listener pointer_listener = {
	pointer_enter, pointer_leave,	    pointer_motion,    pointer_button,
	pointer_axis,  pointer_frame,	    pointer_axis_source, pointer_axis_stop,
	pointer_axis_discrete,
};

static void keyboard_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
			    uint32_t size)
{
	struct input_log *log = data;

	log->keymap_size = (int)size;
	log->keymaps++;
	close(fd);
}

static void keyboard_enter(void *data, struct wl_keyboard *k, uint32_t serial,
			   struct wl_surface *surface, struct wl_array *keys)
{
	struct input_log *log = data;
	uint32_t *key;

	log->keyboard_focus = surface;
	log->keyboard_enters++;
	log->enter_key_count = 0;
	wl_array_for_each(key, keys) {
		if (log->enter_key_count < 16)
			log->enter_keys[log->enter_key_count++] = *key;
	}
}

static void keyboard_leave(void *data, struct wl_keyboard *k, uint32_t serial,
			   struct wl_surface *surface)
{
	struct input_log *log = data;

	log->keyboard_focus = NULL;
	log->keyboard_leaves++;
}

static void keyboard_key(void *data, struct wl_keyboard *k, uint32_t serial, uint32_t time,
			 uint32_t key, uint32_t state)
{
	struct input_log *log = data;

	log->keys++;
	log->last_key = key;
	log->last_key_state = state;
}

static void keyboard_modifiers(void *data, struct wl_keyboard *k, uint32_t serial,
			       uint32_t depressed, uint32_t latched, uint32_t locked,
			       uint32_t group)
{
	struct input_log *log = data;

	log->modifier_events++;
	log->mods_depressed = depressed;
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
	struct input_log *log = data;

	log->repeat_rate = rate;
	log->repeat_delay = delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
	keyboard_keymap, keyboard_enter,     keyboard_leave,
	keyboard_key,	 keyboard_modifiers, keyboard_repeat_info,
};

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time,
		       struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	struct input_log *log = data;

	log->touch_downs++;
	log->touch_surface = surface;
}

static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id)
{
	struct input_log *log = data;

	log->touch_ups++;
}

static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x,
			 wl_fixed_t y)
{
	struct input_log *log = data;

	log->touch_motions++;
}

static void touch_frame(void *data, struct wl_touch *t)
{
	struct input_log *log = data;

	log->touch_frames++;
}

static void touch_cancel(void *data, struct wl_touch *t)
{
	((struct input_log *)data)->touch_cancels++;
}

static void touch_shape(void *data, struct wl_touch *t, int32_t id, wl_fixed_t major,
			wl_fixed_t minor)
{
}

static void touch_orientation(void *data, struct wl_touch *t, int32_t id, wl_fixed_t o)
{
}

static const struct wl_touch_listener touch_listener = {
	touch_down, touch_up, touch_motion, touch_frame, touch_cancel, touch_shape,
	touch_orientation,
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct client *c = data;

	if ((caps & WL_SEAT_CAPABILITY_POINTER) && !c->pointer) {
		c->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(c->pointer, &pointer_listener, &c->input);
	}
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !c->keyboard) {
		c->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(c->keyboard, &keyboard_listener, &c->input);
	}
	if ((caps & WL_SEAT_CAPABILITY_TOUCH) && !c->touch) {
		c->touch = wl_seat_get_touch(seat);
		wl_touch_add_listener(c->touch, &touch_listener, &c->input);
	}
}

static void seat_name(void *data, struct wl_seat *seat, const char *name)
{
}

static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

/* ---- other globals ---- */

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	struct client *c = data;

	if (format < 32)
		c->shm_formats |= 1u << format;
}

static const struct wl_shm_listener shm_listener = {shm_format};

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	struct client *c = data;

	c->pings++;
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void test_output_stats(void *data, struct garnet_test *test, uint32_t frames,
			      uint32_t renders, uint32_t area, int32_t width, int32_t height,
			      uint32_t painted_surfaces)
{
	struct client *c = data;

	c->stats[0] = frames;
	c->stats[1] = renders;
	c->stats[2] = area;
	c->stats[3] = (uint32_t)width;
	c->stats[4] = (uint32_t)height;
	c->stats[5] = painted_surfaces;
}

static void test_repaint_window(void *data, struct garnet_test *test, uint32_t window_us,
				int32_t render_p90_us)
{
	struct client *c = data;

	c->repaint_window_us = window_us;
	c->render_p90_us = render_p90_us;
}

static const struct garnet_test_listener test_listener = {test_output_stats,
							   test_repaint_window};

static void presentation_clock(void *data, struct wp_presentation *p, uint32_t clock)
{
	struct client *c = data;

	c->presentation_clock = clock;
	c->has_presentation_clock = true;
}

static const struct wp_presentation_listener presentation_listener = {presentation_clock};

static void data_offer_offer(void *data, struct wl_data_offer *offer, const char *mime)
{
	struct client *c = data;

	if (!c->selection_mime[0])
		snprintf(c->selection_mime, sizeof(c->selection_mime), "%s", mime);
}

static void data_offer_source_actions(void *data, struct wl_data_offer *o, uint32_t a)
{
}

static void data_offer_action(void *data, struct wl_data_offer *o, uint32_t a)
{
}

static const struct wl_data_offer_listener data_offer_listener = {
	data_offer_offer, data_offer_source_actions, data_offer_action,
};

static void data_device_data_offer(void *data, struct wl_data_device *d,
				   struct wl_data_offer *offer)
{
	struct client *c = data;

	c->selection_mime[0] = '\0';
	wl_data_offer_add_listener(offer, &data_offer_listener, c);
}

static void data_device_enter(void *data, struct wl_data_device *d, uint32_t serial,
			      struct wl_surface *s, wl_fixed_t x, wl_fixed_t y,
			      struct wl_data_offer *offer)
{
	/* This data device takes no part in drags; tests of drags use their own. */
	if (offer)
		wl_data_offer_destroy(offer);
}

static void data_device_leave(void *data, struct wl_data_device *d)
{
}

static void data_device_motion(void *data, struct wl_data_device *d, uint32_t t, wl_fixed_t x,
			       wl_fixed_t y)
{
}

static void data_device_drop(void *data, struct wl_data_device *d)
{
}

static void data_device_selection(void *data, struct wl_data_device *d,
				  struct wl_data_offer *offer)
{
	struct client *c = data;

	if (c->selection_offer && c->selection_offer != offer)
		wl_data_offer_destroy(c->selection_offer);
	c->selection_offer = offer;
	c->selection_events++;
}

static const struct wl_data_device_listener data_device_listener = {
	data_device_data_offer, data_device_enter, data_device_leave,
	data_device_motion,	data_device_drop,  data_device_selection,
};

#define BIND(iface, version) wl_registry_bind(registry, name, &iface, version)

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct client *c = data;

	if (strcmp(interface, "wl_compositor") == 0) {
		c->compositor = BIND(wl_compositor_interface, 5);
	} else if (strcmp(interface, "wl_subcompositor") == 0) {
		c->subcompositor = BIND(wl_subcompositor_interface, 1);
	} else if (strcmp(interface, "wl_shm") == 0) {
		c->shm = BIND(wl_shm_interface, 1);
		wl_shm_add_listener(c->shm, &shm_listener, c);
	} else if (strcmp(interface, "wl_seat") == 0) {
		c->seat = BIND(wl_seat_interface, 7);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	} else if (strcmp(interface, "wl_output") == 0) {
		struct client_output *out = calloc(1, sizeof(*out));

		out->wl_output = BIND(wl_output_interface, 4);
		wl_output_add_listener(out->wl_output, &output_listener, out);
		wl_list_insert(&c->outputs, &out->link);
	} else if (strcmp(interface, "garnet_test") == 0) {
		c->garnet_test = BIND(garnet_test_interface, 6);
		garnet_test_add_listener(c->garnet_test, &test_listener, c);
	} else if (strcmp(interface, "xdg_wm_base") == 0) {
		c->wm_base = BIND(xdg_wm_base_interface, 4);
		xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
	} else if (strcmp(interface, "wp_viewporter") == 0) {
		c->viewporter = BIND(wp_viewporter_interface, 1);
	} else if (strcmp(interface, "wp_presentation") == 0) {
		c->presentation = BIND(wp_presentation_interface, 1);
		wp_presentation_add_listener(c->presentation, &presentation_listener, c);
	} else if (strcmp(interface, "wp_single_pixel_buffer_manager_v1") == 0) {
		c->single_pixel = BIND(wp_single_pixel_buffer_manager_v1_interface, 1);
	} else if (strcmp(interface, "wl_data_device_manager") == 0) {
		c->data_device_manager = BIND(wl_data_device_manager_interface, 3);
	} else if (strcmp(interface, "zwp_primary_selection_device_manager_v1") == 0) {
		c->primary_manager = BIND(zwp_primary_selection_device_manager_v1_interface, 1);
	} else if (strcmp(interface, "zxdg_decoration_manager_v1") == 0) {
		c->decoration_manager = BIND(zxdg_decoration_manager_v1_interface, 1);
	} else if (strcmp(interface, "zxdg_output_manager_v1") == 0) {
		c->xdg_output_manager = BIND(zxdg_output_manager_v1_interface, 3);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	registry_global,
	registry_global_remove,
};

static struct client *connect_to(struct test_context *t, const char *name)
{
	struct client *c = calloc(1, sizeof(*c));

	c->test = t;
	wl_list_init(&c->outputs);
	c->display = wl_display_connect(name);
	if (!c->display)
		test_fail(t, __FILE__, __LINE__, "cannot connect to %s: %s", name, strerror(errno));
	return c;
}

struct client *client_create_bare(struct test_context *t)
{
	return connect_to(t, test_socket(t));
}

static struct client *bind_everything(struct client *c)
{
	c->registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(c->registry, &registry_listener, c);
	client_roundtrip(c);
	client_roundtrip(c); /* events of the bound globals */
	if (c->seat && c->data_device_manager) {
		c->data_device =
			wl_data_device_manager_get_data_device(c->data_device_manager, c->seat);
		wl_data_device_add_listener(c->data_device, &data_device_listener, c);
		client_roundtrip(c);
	}
	return c;
}

struct client *client_create(struct test_context *t)
{
	return bind_everything(client_create_bare(t));
}

struct client *client_connect_path(struct test_context *t, const char *path)
{
	return bind_everything(connect_to(t, path));
}

struct had_global {
	const char *name;
	bool found;
	uint32_t global_name;
};

static void probe_global(void *data, struct wl_registry *registry, uint32_t name,
			 const char *interface, uint32_t version)
{
	struct had_global *h = data;

	if (strcmp(interface, h->name) == 0) {
		h->found = true;
		h->global_name = name;
	}
}

static const struct wl_registry_listener probe_listener = {probe_global, registry_global_remove};

uint32_t client_find_global(struct client *c, const char *interface)
{
	struct had_global h = {interface, false, 0};
	struct wl_registry *registry = wl_display_get_registry(c->display);

	wl_registry_add_listener(registry, &probe_listener, &h);
	client_roundtrip(c);
	wl_registry_destroy(registry);
	return h.global_name;
}

bool client_has_global(struct client *c, const char *interface)
{
	struct had_global h = {interface, false, 0};
	struct wl_registry *registry = wl_display_get_registry(c->display);

	wl_registry_add_listener(registry, &probe_listener, &h);
	client_roundtrip(c);
	wl_registry_destroy(registry);
	return h.found;
}

void client_destroy(struct client *c)
{
	struct client_output *out, *tmp;

	wl_list_for_each_safe(out, tmp, &c->outputs, link) {
		wl_list_remove(&out->link);
		wl_output_destroy(out->wl_output);
		free(out);
	}
	/* libwayland frees proxies only when asked, disconnected or not. */
#define DESTROY(p, fn)                                                                             \
	if (p)                                                                                     \
		fn(p)
	DESTROY(c->selection_offer, wl_data_offer_destroy);
	DESTROY(c->data_device, wl_data_device_destroy);
	DESTROY(c->pointer, wl_pointer_destroy);
	DESTROY(c->keyboard, wl_keyboard_destroy);
	DESTROY(c->touch, wl_touch_destroy);
	DESTROY(c->seat, wl_seat_destroy);
	DESTROY(c->compositor, wl_compositor_destroy);
	DESTROY(c->subcompositor, wl_subcompositor_destroy);
	DESTROY(c->shm, wl_shm_destroy);
	DESTROY(c->data_device_manager, wl_data_device_manager_destroy);
	DESTROY(c->primary_manager, zwp_primary_selection_device_manager_v1_destroy);
	DESTROY(c->garnet_test, garnet_test_destroy);
	DESTROY(c->wm_base, xdg_wm_base_destroy);
	DESTROY(c->viewporter, wp_viewporter_destroy);
	DESTROY(c->presentation, wp_presentation_destroy);
	DESTROY(c->single_pixel, wp_single_pixel_buffer_manager_v1_destroy);
	DESTROY(c->decoration_manager, zxdg_decoration_manager_v1_destroy);
	DESTROY(c->xdg_output_manager, zxdg_output_manager_v1_destroy);
	DESTROY(c->registry, wl_registry_destroy);
#undef DESTROY
	/* Disconnecting drops every proxy on the compositor side. */
	wl_display_disconnect(c->display);
	free(c);
}

/* ---- buffers ---- */

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	struct buffer *b = data;

	b->released = true;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

struct buffer *buffer_create(struct client *c, int32_t width, int32_t height, uint32_t format)
{
	struct buffer *b = calloc(1, sizeof(*b));
	struct wl_shm_pool *pool;

	b->width = width;
	b->height = height;
	b->stride = width * 4;
	b->size = (size_t)b->stride * (size_t)height;
	b->format = format;
	b->fd = memfd_create("garnet-test-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (b->fd < 0 || ftruncate(b->fd, (off_t)b->size) < 0)
		test_fail(c->test, __FILE__, __LINE__, "memfd: %s", strerror(errno));
	b->data = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
	if (b->data == MAP_FAILED)
		test_fail(c->test, __FILE__, __LINE__, "mmap: %s", strerror(errno));
	pool = wl_shm_create_pool(c->shm, b->fd, (int32_t)b->size);
	b->wl_buffer = wl_shm_pool_create_buffer(pool, 0, width, height, b->stride, format);
	wl_buffer_add_listener(b->wl_buffer, &buffer_listener, b);
	wl_shm_pool_destroy(pool);
	b->image = pixman_image_create_bits(
		format == WL_SHM_FORMAT_XRGB8888 ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8, width,
		height, b->data, b->stride);
	return b;
}

void buffer_fill_rect(struct buffer *b, int32_t x, int32_t y, int32_t w, int32_t h,
		      uint32_t argb)
{
	uint32_t *p = b->data;

	for (int32_t j = y; j < y + h && j < b->height; j++) {
		for (int32_t i = x; i < x + w && i < b->width; i++)
			p[j * (b->stride / 4) + i] = argb;
	}
}

void buffer_fill(struct buffer *b, uint32_t argb)
{
	buffer_fill_rect(b, 0, 0, b->width, b->height, argb);
}

void buffer_destroy(struct buffer *b)
{
	if (!b)
		return;
	pixman_image_unref(b->image);
	wl_buffer_destroy(b->wl_buffer);
	munmap(b->data, b->size);
	close(b->fd);
	free(b);
}

/* ---- surfaces ---- */

static void surface_enter(void *data, struct wl_surface *wl_surface, struct wl_output *output)
{
	struct client_surface *s = data;

	s->entered_outputs++;
}

static void surface_leave(void *data, struct wl_surface *wl_surface, struct wl_output *output)
{
	struct client_surface *s = data;

	s->entered_outputs--;
}

static const struct wl_surface_listener surface_listener = {surface_enter, surface_leave};

struct client_surface *surface_create(struct client *c)
{
	struct client_surface *s = calloc(1, sizeof(*s));

	s->client = c;
	s->wl_surface = wl_compositor_create_surface(c->compositor);
	wl_surface_add_listener(s->wl_surface, &surface_listener, s);
	return s;
}

void surface_destroy(struct client_surface *s)
{
	if (!s)
		return;
	if (s->xdg_toplevel)
		xdg_toplevel_destroy(s->xdg_toplevel);
	if (s->xdg_surface)
		xdg_surface_destroy(s->xdg_surface);
	wl_surface_destroy(s->wl_surface);
	free(s);
}

void surface_show(struct client_surface *s, struct buffer *b)
{
	wl_surface_attach(s->wl_surface, b ? b->wl_buffer : NULL, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(s->wl_surface);
}

struct client_surface *surface_create_placed(struct client *c, int32_t x, int32_t y, int32_t w,
					     int32_t h, uint32_t argb,
					     struct buffer **buffer_out)
{
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, w, h, WL_SHM_FORMAT_ARGB8888);

	buffer_fill(b, argb);
	garnet_test_move_surface(c->garnet_test, s->wl_surface, x, y);
	surface_show(s, b);
	client_roundtrip(c);
	if (buffer_out)
		*buffer_out = b;
	else
		buffer_destroy(b);
	return s;
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	bool *done = data;

	*done = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener frame_listener = {frame_done};

bool surface_commit_and_wait_frame(struct client_surface *s)
{
	bool *done = calloc(1, sizeof(*done));
	struct wl_callback *cb = wl_surface_frame(s->wl_surface);
	bool ok;

	wl_callback_add_listener(cb, &frame_listener, done);
	wl_surface_commit(s->wl_surface);
	ok = client_dispatch_until(s->client, done);
	if (!ok) {
		/* The callback may still come; it must not write to freed memory. */
		wl_callback_destroy(cb);
	}
	free(done);
	return ok;
}

/* ---- xdg toplevels ---- */

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct client_surface *s = data;

	s->configure_serial = serial;
	s->configure_count++;
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width,
			       int32_t height, struct wl_array *states)
{
	struct client_surface *s = data;
	uint32_t *state;

	s->configure_width = width;
	s->configure_height = height;
	s->activated = s->maximized = s->fullscreen = s->resizing = false;
	wl_array_for_each(state, states) {
		if (*state == XDG_TOPLEVEL_STATE_ACTIVATED)
			s->activated = true;
		else if (*state == XDG_TOPLEVEL_STATE_MAXIMIZED)
			s->maximized = true;
		else if (*state == XDG_TOPLEVEL_STATE_FULLSCREEN)
			s->fullscreen = true;
		else if (*state == XDG_TOPLEVEL_STATE_RESIZING)
			s->resizing = true;
	}
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	struct client_surface *s = data;

	s->closed = true;
}

static void toplevel_configure_bounds(void *data, struct xdg_toplevel *t, int32_t w, int32_t h)
{
}

static void toplevel_wm_capabilities(void *data, struct xdg_toplevel *t, struct wl_array *caps)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	toplevel_configure,
	toplevel_close,
	toplevel_configure_bounds,
	toplevel_wm_capabilities,
};

bool toplevel_wait_configure(struct client_surface *s)
{
	uint32_t before = s->configure_count;
	int64_t deadline = now_ms() + POSITIVE_WAIT_MS;

	while (s->configure_count == before) {
		int64_t left = deadline - now_ms();

		if (left <= 0 || !dispatch_once(s->client, (int)left))
			return false;
	}
	return true;
}

void surface_track_configure(struct client_surface *s)
{
	xdg_surface_add_listener(s->xdg_surface, &xdg_surface_listener, s);
}

struct client_surface *toplevel_create_uncommitted(struct client *c)
{
	struct client_surface *s = surface_create(c);

	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	xdg_surface_add_listener(s->xdg_surface, &xdg_surface_listener, s);
	s->xdg_toplevel = xdg_surface_get_toplevel(s->xdg_surface);
	xdg_toplevel_add_listener(s->xdg_toplevel, &toplevel_listener, s);
	return s;
}

struct client_surface *toplevel_create(struct client *c, int32_t w, int32_t h, uint32_t argb,
				       struct buffer **buffer_out)
{
	struct client_surface *s = toplevel_create_uncommitted(c);
	struct buffer *b;

	wl_surface_commit(s->wl_surface);
	if (!toplevel_wait_configure(s))
		test_fail(c->test, __FILE__, __LINE__, "no initial configure");
	if (s->configure_width > 0 && s->configure_height > 0) {
		w = s->configure_width;
		h = s->configure_height;
	}
	xdg_surface_ack_configure(s->xdg_surface, s->configure_serial);
	b = buffer_create(c, w, h, WL_SHM_FORMAT_ARGB8888);
	buffer_fill(b, argb);
	surface_show(s, b);
	client_roundtrip(c);
	if (buffer_out)
		*buffer_out = b;
	else
		buffer_destroy(b);
	return s;
}

/* ---- capture ---- */

static void capture_done(void *data, struct wl_callback *callback, uint32_t frame)
{
	bool *done = data;

	*done = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener capture_listener = {capture_done};

pixman_image_t *capture_output(struct client *c, struct client_output *output)
{
	struct buffer *b;
	struct wl_callback *cb;
	pixman_image_t *copy;
	bool done = false;

	query_output_stats(c, output);
	b = buffer_create(c, (int32_t)c->stats[3], (int32_t)c->stats[4], WL_SHM_FORMAT_XRGB8888);
	cb = garnet_test_capture_output(c->garnet_test, output->wl_output, b->wl_buffer);
	wl_callback_add_listener(cb, &capture_listener, &done);
	if (!client_dispatch_until(c, &done))
		test_fail(c->test, __FILE__, __LINE__, "capture did not complete");
	copy = pixman_image_create_bits(PIXMAN_x8r8g8b8, b->width, b->height, NULL, 0);
	pixman_image_composite32(PIXMAN_OP_SRC, b->image, NULL, copy, 0, 0, 0, 0, 0, 0, b->width,
				 b->height);
	buffer_destroy(b);
	return copy;
}

void query_output_stats(struct client *c, struct client_output *output)
{
	garnet_test_query_output(c->garnet_test, output->wl_output);
	client_roundtrip(c);
}

void query_repaint(struct client *c, struct client_output *output)
{
	garnet_test_query_repaint(c->garnet_test, output->wl_output);
	client_roundtrip(c);
}

void client_tap_key(struct client *c, uint32_t key)
{
	garnet_test_key(c->garnet_test, key, WL_KEYBOARD_KEY_STATE_PRESSED);
	garnet_test_key(c->garnet_test, key, WL_KEYBOARD_KEY_STATE_RELEASED);
}

uint32_t image_pixel(pixman_image_t *image, int32_t x, int32_t y)
{
	uint32_t *data = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;

	return data[y * stride + x] | 0xff000000u;
}

bool image_find(pixman_image_t *image, uint32_t rgb, int32_t skip_y1, int32_t skip_y2,
		int32_t *x, int32_t *y)
{
	int32_t w = pixman_image_get_width(image), h = pixman_image_get_height(image);

	for (int32_t py = 0; py < h; py++) {
		for (int32_t px = 0; px < w && (py < skip_y1 || py >= skip_y2); px++) {
			if ((image_pixel(image, px, py) & 0xffffff) == rgb) {
				*x = px;
				*y = py;
				return true;
			}
		}
	}
	return false;
}

void check_compositor_serves(struct test_context *t)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 10, 10, 0xff00ff00, NULL);
	pixman_image_t *shot = capture_output(c, client_first_output(c));

	check_int(t, image_pixel(shot, 5, 5), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

static void runtime_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", getenv("XDG_RUNTIME_DIR"), name);
}

void runtime_file_remove(const char *name)
{
	char path[512];

	runtime_path(path, sizeof(path), name);
	unlink(path);
}

void runtime_file_wait(struct test_context *t, const char *name, char *buf, size_t size)
{
	char path[512];
	FILE *f = NULL;
	size_t n;

	runtime_path(path, sizeof(path), name);
	for (int i = 0; i < 250 && !(f = fopen(path, "r")); i++)
		usleep(20000);
	if (!f)
		test_fail(t, __FILE__, __LINE__, "%s did not appear", path);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
}

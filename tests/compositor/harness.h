/* SPDX-License-Identifier: MIT */
/* The compositor test harness: each test gets a fresh in-process garnet on the headless backend
 * (test mode, repaint on demand) and runs its body as a real Wayland client in a thread. */
#ifndef GARNET_TEST_HARNESS_H
#define GARNET_TEST_HARNESS_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <wayland-client.h>

#include "garnet-test-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "primary-selection-unstable-v1-client-protocol.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct garnet_compositor;
struct test_context;

struct test_output_config {
	int32_t width, height, scale, transform, refresh_mhz;
};

struct test {
	const char *name;
	void (*run)(struct test_context *t);
	/* Runs on the compositor's thread before the client starts (e.g. security hooks). */
	void (*setup)(struct garnet_compositor *c, struct test_context *t);
	struct test_output_config outputs[2];
	bool builtin_cursor; /* draw garnet's own arrow (off: pixels under the pointer are the
			      * surfaces') */
};

#define ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))

void test_register(const struct test *test);

/* TEST(name) { body } registers a test with one 320x240 output. TEST_WITH(name, setup,
 * outputs...) lets a test choose its outputs and a server-side setup function. */
#define TEST_WITH(name, setup_fn, ...)                                                             \
	static void name(struct test_context *t);                                                  \
	__attribute__((constructor)) static void register_##name(void)                            \
	{                                                                                          \
		static const struct test test = {#name, name, setup_fn, {__VA_ARGS__}};          \
		test_register(&test);                                                              \
	}                                                                                          \
	static void name(struct test_context *t)

#define DEFAULT_OUTPUT {320, 240, 1, 0, 0}
#define TEST(name) TEST_WITH(name, NULL, DEFAULT_OUTPUT)

/* TEST_WITH_BUILTIN_CURSOR(name) { body }: one 320x240 output and garnet's arrow drawn. */
#define TEST_WITH_BUILTIN_CURSOR(name)                                                             \
	static void name(struct test_context *t);                                                  \
	__attribute__((constructor)) static void register_##name(void)                            \
	{                                                                                          \
		static const struct test test = {#name, name, NULL, {DEFAULT_OUTPUT}, true};      \
		test_register(&test);                                                              \
	}                                                                                          \
	static void name(struct test_context *t)

/* Assertions fail the current test and end its client thread. */
void test_fail(struct test_context *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), noreturn));
#define check(t, cond)                                                                             \
	do {                                                                                       \
		if (!(cond))                                                                       \
			test_fail(t, __FILE__, __LINE__, "check failed: %s", #cond);               \
	} while (0)
#define check_int(t, a, op, b)                                                                     \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (!(a_ op b_))                                                                   \
			test_fail(t, __FILE__, __LINE__, "%s %s %s: %lld vs %lld", #a, #op, #b,    \
				  a_, b_);                                                         \
	} while (0)

/* Runs fn on the compositor's thread, between two dispatches of its loop, and waits for it:
 * for what no protocol can do (unplug an output). */
void test_run_on_compositor(struct test_context *t,
			    void (*fn)(struct garnet_compositor *c, void *data), void *data);
const char *test_socket(struct test_context *t);
const char *test_name(struct test_context *t);
/* Server-side data a setup function may leave for the test body (heap memory, freed by the
 * harness after the compositor is destroyed). */
void *test_data(struct test_context *t);
void test_set_data(struct test_context *t, void *data);

/* ---- clients ---- */
struct client_output {
	struct wl_output *wl_output;
	int32_t width, height, scale, transform;
	char name[64];
	struct wl_list link;
};

struct client_surface {
	struct client *client;
	struct wl_surface *wl_surface;
	int entered_outputs;
	/* xdg shell, when made a toplevel */
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *xdg_toplevel;
	uint32_t configure_serial, configure_count;
	int32_t configure_width, configure_height;
	bool activated, maximized, fullscreen, resizing;
	bool closed;
};

struct input_log {
	/* pointer */
	struct wl_surface *pointer_focus;
	uint32_t pointer_enter_serial;
	double sx, sy;
	int enters, leaves, motions, buttons, axes;
	uint32_t last_button, last_button_state, last_button_serial;
	/* keyboard */
	struct wl_surface *keyboard_focus;
	int keyboard_enters, keyboard_leaves, keys, modifier_events;
	uint32_t enter_keys[16];
	int enter_key_count;
	uint32_t last_key, last_key_state, mods_depressed;
	int keymap_size, keymaps; /* the last keymap's size, how many came */
	int32_t repeat_rate, repeat_delay;
	/* touch */
	int touch_downs, touch_ups, touch_motions, touch_frames, touch_cancels;
	struct wl_surface *touch_surface;
};

struct client {
	struct test_context *test;
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_subcompositor *subcompositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard;
	struct wl_touch *touch;
	struct wl_data_device_manager *data_device_manager;
	struct wl_data_device *data_device;
	struct zwp_primary_selection_device_manager_v1 *primary_manager;
	struct garnet_test *garnet_test;
	struct xdg_wm_base *wm_base;
	struct wp_viewporter *viewporter;
	struct wp_presentation *presentation;
	struct wp_single_pixel_buffer_manager_v1 *single_pixel;
	struct zxdg_decoration_manager_v1 *decoration_manager;
	struct zxdg_output_manager_v1 *xdg_output_manager;
	struct wl_list outputs; /* client_output.link */
	uint32_t shm_formats;   /* bit per format < 32 that wl_shm announced */
	uint32_t presentation_clock;
	bool has_presentation_clock;
	struct input_log input;
	/* last garnet_test.output_stats: frames, renders, painted area, width, height, painted
	 * surfaces */
	uint32_t stats[6];
	/* last garnet_test.repaint_window, in microseconds (p90 -1: nothing measured yet) */
	uint32_t repaint_window_us;
	int32_t render_p90_us;
	uint32_t pings;
	/* selection */
	struct wl_data_offer *selection_offer;
	char selection_mime[64];
	int selection_events;
};

/* Connects and binds every global garnet offers (garnet_test included), then roundtrips. */
struct client *client_create(struct test_context *t);
/* Like client_create, through another socket (an absolute path). */
struct client *client_connect_path(struct test_context *t, const char *path);
/* Connects without binding anything and without roundtrip. */
struct client *client_create_bare(struct test_context *t);
void client_destroy(struct client *c);
void client_roundtrip(struct client *c);
/* Dispatches until *flag becomes true or the connection fails; false on failure. */
bool client_dispatch_until(struct client *c, const bool *flag);
struct client_output *client_first_output(struct client *c);
/* Asserts the connection ended with a protocol error on interface with code (iface NULL: on an
 * object the client has already destroyed, so its interface is unknown to it). */
void client_expect_protocol_error(struct client *c, const struct wl_interface *iface,
				  uint32_t code);
/* Asserts the connection ended with an error on wl_display itself (invalid_method and the
 * like), which libwayland reports to the client as EINVAL rather than EPROTO. */
void client_expect_display_error(struct client *c);
bool client_has_global(struct client *c, const char *interface);
/* The registry name of a global, 0 when it is not offered. */
uint32_t client_find_global(struct client *c, const char *interface);

struct buffer {
	struct wl_buffer *wl_buffer;
	void *data;
	size_t size;
	int32_t width, height, stride;
	uint32_t format;
	int fd;
	pixman_image_t *image;
	bool released;
};

struct buffer *buffer_create(struct client *c, int32_t width, int32_t height, uint32_t format);
void buffer_fill(struct buffer *b, uint32_t argb);
void buffer_fill_rect(struct buffer *b, int32_t x, int32_t y, int32_t w, int32_t h,
		      uint32_t argb);
void buffer_destroy(struct buffer *b);

struct client_surface *surface_create(struct client *c);
void surface_destroy(struct client_surface *s);
/* Attaches, damages everything, commits. */
void surface_show(struct client_surface *s, struct buffer *b);
/* A role-less surface placed by the test protocol at x, y with a solid colour buffer. */
struct client_surface *surface_create_placed(struct client *c, int32_t x, int32_t y,
					     int32_t w, int32_t h, uint32_t argb,
					     struct buffer **buffer_out);
/* Requests a frame callback, commits, and waits for it; false if none came within the wait. */
bool surface_commit_and_wait_frame(struct client_surface *s);

/* xdg-shell: a toplevel that has been configured and mapped with a buffer of w x h. */
struct client_surface *toplevel_create(struct client *c, int32_t w, int32_t h, uint32_t argb,
				       struct buffer **buffer_out);
/* Records xdg_surface.configure serials of s->xdg_surface in s. */
void surface_track_configure(struct client_surface *s);
/* xdg_surface and xdg_toplevel with listeners, before the initial commit. */
struct client_surface *toplevel_create_uncommitted(struct client *c);
/* Waits for the next configure of an xdg toplevel (false if none arrives). */
bool toplevel_wait_configure(struct client_surface *s);

/* Capture of an output as an image (owned by the caller: pixman_image_unref). */
pixman_image_t *capture_output(struct client *c, struct client_output *output);
/* A hardware key pressed and released, through garnet_test (not flushed). */
void client_tap_key(struct client *c, uint32_t key);
void query_output_stats(struct client *c, struct client_output *output);
/* Fills c->repaint_window_us and c->render_p90_us for output. */
void query_repaint(struct client *c, struct client_output *output);
uint32_t image_pixel(pixman_image_t *image, int32_t x, int32_t y);
/* The first pixel (row by row) of colour rgb (0xRRGGBB), outside rows skip_y1..skip_y2-1;
 * false when there is none. */
bool image_find(pixman_image_t *image, uint32_t rgb, int32_t skip_y1, int32_t skip_y2,
		int32_t *x, int32_t *y);

/* Compares image with tests/reference/NAME.png (per-channel tolerance); on a difference writes
 * NAME-actual.png and NAME-diff.png to the output directory and fails. With
 * GARNET_TEST_UPDATE_REFERENCES=1 it writes the reference instead. */
void check_screenshot(struct test_context *t, pixman_image_t *image, const char *name);
bool png_write(const char *path, pixman_image_t *image);
pixman_image_t *png_read(const char *path);

/* Files that programs started by the compositor write into XDG_RUNTIME_DIR (whole, by rename):
 * wait (up to 5 s) for one, read it into buf and remove it. */
void runtime_file_remove(const char *name);
void runtime_file_wait(struct test_context *t, const char *name, char *buf, size_t size);

/* Asserts a new client can still show a surface and see it on the output. */
void check_compositor_serves(struct test_context *t);

/* Milliseconds waited for something that should not happen. */
#define NEGATIVE_WAIT_MS 100
void client_dispatch_for(struct client *c, int msec);

#endif

// SPDX-License-Identifier: MIT
// Input routing: keyboard only to the focused client, pointer only to the surface under it (or
// the implicit grab), enter carrying held keys and modifiers. Two clients in every test where it
// matters, so "the other one saw nothing" is asserted, not assumed.
#include <linux/input-event-codes.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "harness.h"

static void key(struct client *c, uint32_t code, bool pressed)
{
	garnet_test_key(c->garnet_test, code,
			pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
}

TEST(keyboard_gets_keymap_and_repeat_info)
{
	struct client *c = client_create(t);

	check(t, c->keyboard != NULL);
	check_int(t, c->input.keymap_size, >, 1000);
	check_int(t, c->input.repeat_rate, ==, 40);
	check_int(t, c->input.repeat_delay, ==, 400);
	client_destroy(c);
}

TEST(keyboard_input_never_reaches_unfocused_client)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = toplevel_create(a, 50, 50, 0xffff0000, NULL);
	struct client_surface *sb = toplevel_create(b, 50, 50, 0xff00ff00, NULL);

	client_roundtrip(a);
	check(t, b->input.keyboard_focus == sb->wl_surface);
	check(t, a->input.keyboard_focus == NULL);
	key(a, KEY_A, true);
	key(a, KEY_A, false);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, b->input.keys, ==, 2);
	check_int(t, a->input.keys, ==, 0);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(enter_carries_held_keys_and_modifiers)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 50, 50, 0xffff0000, NULL);
	struct client_surface *b = toplevel_create(c, 50, 50, 0xff00ff00, NULL);

	key(c, KEY_LEFTSHIFT, true);
	key(c, KEY_B, true);
	client_roundtrip(c);
	check_int(t, c->input.mods_depressed, !=, 0);
	garnet_test_activate_surface(c->garnet_test, a->wl_surface);
	client_roundtrip(c);
	check(t, c->input.keyboard_focus == a->wl_surface);
	check_int(t, c->input.enter_key_count, ==, 2);
	check(t, (c->input.enter_keys[0] == KEY_LEFTSHIFT && c->input.enter_keys[1] == KEY_B) ||
			 (c->input.enter_keys[1] == KEY_LEFTSHIFT && c->input.enter_keys[0] == KEY_B));
	/* modifiers follows enter: shift is still down. */
	check_int(t, c->input.mods_depressed, !=, 0);
	key(c, KEY_B, false);
	key(c, KEY_LEFTSHIFT, false);
	client_roundtrip(c);
	check_int(t, c->input.mods_depressed, ==, 0);
	surface_destroy(b);
	surface_destroy(a);
	client_destroy(c);
}

TEST(pointer_events_go_only_to_surface_under_pointer)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 150, 0, 100, 100, 0xff00ff00, NULL);

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(20));
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(12), wl_fixed_from_int(22));
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	garnet_test_pointer_axis(a->garnet_test, WL_POINTER_AXIS_VERTICAL_SCROLL,
				 wl_fixed_from_int(5));
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, a->input.pointer_focus == sa->wl_surface);
	check_int(t, a->input.enters, ==, 1);
	check_int(t, a->input.motions, >=, 1);
	check_int(t, a->input.buttons, ==, 2);
	check_int(t, a->input.axes, ==, 1);
	check_int(t, (int)a->input.sx, ==, 12);
	check_int(t, (int)a->input.sy, ==, 22);
	check_int(t, b->input.enters + b->input.motions + b->input.buttons + b->input.axes, ==, 0);

	/* Over b: a gets leave, b gets enter with surface-local coordinates. */
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(160), wl_fixed_from_int(30));
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, a->input.leaves, ==, 1);
	check(t, b->input.pointer_focus == sb->wl_surface);
	check_int(t, (int)b->input.sx, ==, 10);
	check_int(t, (int)b->input.sy, ==, 30);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(implicit_grab_keeps_pointer_on_pressed_surface)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 150, 0, 100, 100, 0xff00ff00, NULL);
	int a_motions;

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(a);
	a_motions = a->input.motions;
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(170), wl_fixed_from_int(10));
	client_roundtrip(a);
	client_roundtrip(b);
	/* Dragged over b while held: a keeps the pointer and sees where it is. */
	check(t, a->input.pointer_focus == sa->wl_surface);
	check_int(t, a->input.motions, ==, a_motions + 1);
	check_int(t, (int)a->input.sx, ==, 170);
	check_int(t, b->input.enters, ==, 0);
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, a->input.buttons, ==, 2);
	check(t, b->input.pointer_focus == sb->wl_surface);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(pointer_leaves_surface_that_is_destroyed_and_enters_the_one_below)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 0, 0, 100, 100, 0xff00ff00, NULL);

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, b->input.pointer_focus == sb->wl_surface);
	surface_destroy(sb);
	client_roundtrip(b);
	client_roundtrip(a);
	check(t, a->input.pointer_focus == sa->wl_surface);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(touch_goes_to_touched_surface_only)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 150, 0, 100, 100, 0xff00ff00, NULL);

	garnet_test_touch_down(a->garnet_test, 1, wl_fixed_from_int(160), wl_fixed_from_int(10));
	garnet_test_touch_frame(a->garnet_test);
	garnet_test_touch_motion(a->garnet_test, 1, wl_fixed_from_int(20), wl_fixed_from_int(10));
	garnet_test_touch_frame(a->garnet_test);
	garnet_test_touch_up(a->garnet_test, 1);
	garnet_test_touch_frame(a->garnet_test);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, b->input.touch_downs, ==, 1);
	check_int(t, b->input.touch_motions, ==, 1);
	check_int(t, b->input.touch_ups, ==, 1);
	check_int(t, b->input.touch_frames, >=, 2);
	check(t, b->input.touch_surface == sb->wl_surface);
	check_int(t, a->input.touch_downs + a->input.touch_motions + a->input.touch_ups, ==, 0);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(set_cursor_with_stale_serial_is_ignored)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *cursor = surface_create(c);
	struct client_surface *other = surface_create(c);
	struct wl_subsurface *sub;

	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(c);
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial, cursor->wl_surface, 0, 0);
	/* With a wrong serial nothing happens, so 'other' keeps no role and may still become a
	 * subsurface. */
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial + 100, other->wl_surface,
			      0, 0);
	sub = wl_subcompositor_get_subsurface(c->subcompositor, other->wl_surface, s->wl_surface);
	client_roundtrip(c);
	/* The cursor surface has its role now: it cannot become a subsurface. */
	wl_subsurface_destroy(sub);
	sub = wl_subcompositor_get_subsurface(c->subcompositor, cursor->wl_surface, s->wl_surface);
	client_expect_protocol_error(c, &wl_subcompositor_interface,
				     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);
	wl_subsurface_destroy(sub);
	surface_destroy(other);
	surface_destroy(cursor);
	surface_destroy(s);
	client_destroy(c);
}

static void add_bindings(struct garnet_compositor *compositor, struct test_context *t)
{
	char error[128];

	if (!garnet_compositor_add_binding(compositor, "alt", "Tab", "cycle", NULL, error,
					   sizeof(error)) ||
	    !garnet_compositor_add_binding(compositor, "super+shift", "q", "close", NULL, error,
					   sizeof(error)) ||
	    !garnet_compositor_add_binding(compositor, "super", "Return", "exec",
					   "echo \"$WAYLAND_DISPLAY\" > \"$XDG_RUNTIME_DIR/exec.tmp\" && "
					   "mv \"$XDG_RUNTIME_DIR/exec.tmp\" \"$XDG_RUNTIME_DIR/exec-binding\"",
					   error, sizeof(error)) ||
	    !garnet_compositor_add_binding(compositor, "super", "x", "exec",
					   "exec > \"$XDG_RUNTIME_DIR/spawn.tmp\"; "
					   "ls /proc/$$/fd; mv \"$XDG_RUNTIME_DIR/spawn.tmp\" "
					   "\"$XDG_RUNTIME_DIR/spawn-check\"",
					   error, sizeof(error)))
		abort();
}

TEST_WITH(bound_key_cycles_focus_and_never_reaches_a_client, add_bindings, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 50, 50, 0xffff0000, NULL);
	struct client_surface *b = toplevel_create(c, 50, 50, 0xff00ff00, NULL);

	key(c, KEY_LEFTALT, true);
	key(c, KEY_TAB, true);
	client_roundtrip(c);
	check(t, c->input.keyboard_focus == a->wl_surface);
	check(t, a->activated);
	check(t, !b->activated);
	/* The new focus hears about alt, which is held, but not about Tab. */
	check_int(t, c->input.enter_key_count, ==, 1);
	check_int(t, c->input.enter_keys[0], ==, KEY_LEFTALT);
	key(c, KEY_TAB, false);
	key(c, KEY_LEFTALT, false);
	client_roundtrip(c);
	check_int(t, c->input.keys, ==, 2); /* alt down (to b), alt up (to a) */
	check(t, c->input.last_key == KEY_LEFTALT);
	surface_destroy(b);
	surface_destroy(a);
	client_destroy(c);
}

TEST_WITH(exec_binding_starts_command_with_wayland_display, add_bindings, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 50, 50, 0xffff0000, NULL);
	char got[128];

	runtime_file_remove("exec-binding");
	key(c, KEY_LEFTMETA, true);
	key(c, KEY_ENTER, true);
	key(c, KEY_ENTER, false);
	key(c, KEY_LEFTMETA, false);
	client_roundtrip(c);
	runtime_file_wait(t, "exec-binding", got, sizeof(got));
	check(t, strncmp(got, test_socket(t), strlen(test_socket(t))) == 0);
	check_int(t, c->input.keys, ==, 2);
	surface_destroy(a);
	client_destroy(c);
}

TEST_WITH(started_programs_inherit_no_descriptors, add_bindings, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	char fds[128];

	runtime_file_remove("spawn-check");
	key(c, KEY_LEFTMETA, true);
	key(c, KEY_X, true);
	key(c, KEY_X, false);
	key(c, KEY_LEFTMETA, false);
	client_roundtrip(c);
	runtime_file_wait(t, "spawn-check", fds, sizeof(fds));
	/* The shell's own descriptors (listed without a pipe, which would add its own): stdin,
	 * stdout (the file) and stderr. None of the compositor's sockets or buffers. */
	if (strcmp(fds, "0\n1\n2\n") != 0)
		test_fail(t, __FILE__, __LINE__, "descriptors of the started shell: %s", fds);
	client_destroy(c);
}

TEST_WITH(close_binding_asks_focused_window_to_close, add_bindings, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 50, 50, 0xffff0000, NULL);

	key(c, KEY_LEFTMETA, true);
	key(c, KEY_LEFTSHIFT, true);
	key(c, KEY_Q, true);
	key(c, KEY_Q, false);
	key(c, KEY_LEFTSHIFT, false);
	key(c, KEY_LEFTMETA, false);
	client_roundtrip(c);
	check(t, a->closed);
	check_int(t, c->input.keys, ==, 4);
	surface_destroy(a);
	client_destroy(c);
}

TEST(cursor_surface_is_drawn_at_the_pointer_and_gets_frame_callbacks)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *cursor = surface_create(c);
	struct buffer *b = buffer_create(c, 8, 8, WL_SHM_FORMAT_ARGB8888);
	pixman_image_t *shot;

	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(c);
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial, cursor->wl_surface, 1, 1);
	buffer_fill(b, 0xffffffff);
	wl_surface_attach(cursor->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(cursor->wl_surface, 0, 0, 8, 8);
	/* An animated cursor waits for its frame callback: it must come. */
	check(t, surface_commit_and_wait_frame(cursor));
	/* Drawn on top with its hotspot (1, 1) on the pointer, and it follows the pointer. */
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 9, 9), ==, 0xffffffffu);
	check_int(t, image_pixel(shot, 16, 16), ==, 0xffffffffu);
	check_int(t, image_pixel(shot, 17, 17), ==, 0xffff0000u);
	pixman_image_unref(shot);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(50), wl_fixed_from_int(50));
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 9, 9), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 49, 49), ==, 0xffffffffu);
	pixman_image_unref(shot);
	/* A frame callback of a cursor that did not change still comes. */
	check(t, surface_commit_and_wait_frame(cursor));
	/* A null cursor hides it. */
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial, NULL, 0, 0);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 49, 49), ==, 0xffff0000u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(cursor);
	surface_destroy(s);
	client_destroy(c);
}

/* garnet's arrow: tip (outline) at the pointer, white inside one pixel right, two down. */
static void check_arrow_at(struct test_context *t, pixman_image_t *shot, int32_t x, int32_t y)
{
	check_int(t, image_pixel(shot, x, y), ==, 0xff000000u);
	check_int(t, image_pixel(shot, x + 1, y + 2), ==, 0xffffffffu);
}

TEST_WITH_BUILTIN_CURSOR(builtin_arrow_shows_where_no_client_cursor_is_set)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *cursor = surface_create(c);
	struct buffer *b = buffer_create(c, 8, 8, WL_SHM_FORMAT_ARGB8888);
	pixman_image_t *shot;

	/* Over the desktop. */
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(150), wl_fixed_from_int(150));
	shot = capture_output(c, client_first_output(c));
	check_arrow_at(t, shot, 150, 150);
	check_int(t, image_pixel(shot, 149, 149), ==, 0xff203040u);
	pixman_image_unref(shot);
	/* Over a client that has not set a cursor: the arrow moved, nothing left behind. */
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(c);
	shot = capture_output(c, client_first_output(c));
	check_arrow_at(t, shot, 10, 10);
	check_int(t, image_pixel(shot, 150, 150), ==, 0xff203040u);
	check_int(t, image_pixel(shot, 151, 152), ==, 0xff203040u);
	pixman_image_unref(shot);
	/* The client asks for no cursor: none is drawn over it. */
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial, NULL, 0, 0);
	client_roundtrip(c);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10, 10), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 11, 12), ==, 0xffff0000u);
	pixman_image_unref(shot);
	/* That wish ends where the client's surface does. */
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(150), wl_fixed_from_int(150));
	shot = capture_output(c, client_first_output(c));
	check_arrow_at(t, shot, 150, 150);
	pixman_image_unref(shot);
	/* A client cursor replaces the arrow. */
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(20));
	client_roundtrip(c);
	buffer_fill(b, 0xff00ff00u);
	wl_surface_attach(cursor->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(cursor->wl_surface, 0, 0, 8, 8);
	wl_surface_commit(cursor->wl_surface);
	wl_pointer_set_cursor(c->pointer, c->input.pointer_enter_serial, cursor->wl_surface, 0, 0);
	client_roundtrip(c);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 20, 20), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 21, 22), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 29, 29), ==, 0xffff0000u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(cursor);
	surface_destroy(s);
	client_destroy(c);
}

/* What one wl_pointer of a given version heard of a wheel. */
struct wheel_log {
	int axes, sources, discretes, value120s, frames;
	uint32_t source;
	int32_t discrete, value120;
	wl_fixed_t value;
};

static void wl_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s,
		     wl_fixed_t x, wl_fixed_t y)
{
}
static void wl_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *s)
{
}
static void wl_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y)
{
}
static void wl_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time,
		      uint32_t button, uint32_t state)
{
}
static void wl_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t v)
{
	struct wheel_log *log = data;

	log->axes++;
	log->value = v;
}
static void wl_frame(void *data, struct wl_pointer *p)
{
	struct wheel_log *log = data;

	log->frames++;
}
static void wl_axis_source(void *data, struct wl_pointer *p, uint32_t source)
{
	struct wheel_log *log = data;

	log->sources++;
	log->source = source;
}
static void wl_axis_stop(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
}
static void wl_axis_discrete(void *data, struct wl_pointer *p, uint32_t axis, int32_t discrete)
{
	struct wheel_log *log = data;

	log->discretes++;
	log->discrete = discrete;
}
static void wl_axis_value120(void *data, struct wl_pointer *p, uint32_t axis, int32_t value120)
{
	struct wheel_log *log = data;

	log->value120s++;
	log->value120 = value120;
}
static const struct wl_pointer_listener wheel_listener = {
	wl_enter,	wl_leave,	 wl_motion,	   wl_button,	     wl_axis,
	wl_frame,	wl_axis_source, wl_axis_stop, wl_axis_discrete, wl_axis_value120,
};

struct versioned_pointer {
	struct wl_seat *seat;
	struct wl_pointer *pointer;
};

static struct versioned_pointer pointer_of_version(struct client *c, uint32_t version,
						   struct wheel_log *log)
{
	struct versioned_pointer vp;

	vp.seat = wl_registry_bind(c->registry, client_find_global(c, "wl_seat"),
				   &wl_seat_interface, version);
	vp.pointer = wl_seat_get_pointer(vp.seat);
	wl_pointer_add_listener(vp.pointer, &wheel_listener, log);
	return vp;
}

static void versioned_pointer_destroy(struct versioned_pointer vp)
{
	wl_pointer_destroy(vp.pointer);
	wl_seat_destroy(vp.seat);
}

TEST(a_wheel_click_is_value120_to_v8_discrete_to_v5_and_a_plain_axis_before)
{
	struct client *a = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct wheel_log v8 = {0}, v7 = {0}, v4 = {0};
	struct versioned_pointer p8 = pointer_of_version(a, 8, &v8);
	struct versioned_pointer p7 = pointer_of_version(a, 7, &v7);
	struct versioned_pointer p4 = pointer_of_version(a, 4, &v4);

	client_roundtrip(a);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(a);
	garnet_test_pointer_axis_wheel(a->garnet_test, WL_POINTER_AXIS_VERTICAL_SCROLL, 240);
	client_roundtrip(a);
	check_int(t, v8.value120s, ==, 1);
	check_int(t, v8.value120, ==, 240);
	check_int(t, v8.discretes, ==, 0);
	check_int(t, v8.sources, ==, 1);
	check_int(t, v8.source, ==, WL_POINTER_AXIS_SOURCE_WHEEL);
	check_int(t, v8.axes, ==, 1);
	check_int(t, v8.value, ==, wl_fixed_from_int(30));
	check_int(t, v7.value120s, ==, 0);
	check_int(t, v7.discretes, ==, 1);
	check_int(t, v7.discrete, ==, 2);
	check_int(t, v7.axes, ==, 1);
	check_int(t, v4.axes, ==, 1);
	check_int(t, v4.value, ==, wl_fixed_from_int(30));
	/* Half a click of a high-resolution wheel: no whole click for v5 to v7. */
	garnet_test_pointer_axis_wheel(a->garnet_test, WL_POINTER_AXIS_VERTICAL_SCROLL, -60);
	client_roundtrip(a);
	check_int(t, v8.value120, ==, -60);
	check_int(t, v7.discretes, ==, 1);
	check_int(t, v7.axes, ==, 2);
	/* A scroll that is no wheel's (a touchpad): just the axis. */
	garnet_test_pointer_axis(a->garnet_test, WL_POINTER_AXIS_VERTICAL_SCROLL,
				 wl_fixed_from_int(5));
	client_roundtrip(a);
	check_int(t, v8.value120s, ==, 2);
	check_int(t, v8.axes, ==, 3);
	check_int(t, v8.sources, ==, 2);
	versioned_pointer_destroy(p8);
	versioned_pointer_destroy(p7);
	versioned_pointer_destroy(p4);
	surface_destroy(sa);
	client_destroy(a);
}

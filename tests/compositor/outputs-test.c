// SPDX-License-Identifier: MIT
// Outputs that go away: surfaces leave them, windows come back onto the outputs that remain,
// clients keep working.
#include <errno.h>
#include <string.h>

#include "garnet/compositor.h"
#include "garnet/output.h"
#include "harness.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"

static void unplug_second_output(struct garnet_compositor *c, void *data)
{
	garnet_output_destroy(garnet_compositor_find_output(c, "HEADLESS-2"));
}

static struct client_output *output_named(struct client *c, const char *name)
{
	struct client_output *out;

	wl_list_for_each(out, &c->outputs, link) {
		if (strcmp(out->name, name) == 0)
			return out;
	}
	test_fail(c->test, __FILE__, __LINE__, "no output %s", name);
}

TEST_WITH(unplugged_output_sends_leave_and_brings_windows_back, NULL, {320, 240, 1, 0, 0},
	  {320, 240, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct client_surface *win = toplevel_create(c, 60, 40, 0xffff0000, NULL);
	struct client_surface *plain = surface_create_placed(c, 400, 100, 20, 20, 0xff00ff00, NULL);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, win->wl_surface, 500, 50);
	client_roundtrip(c);
	check_int(t, win->entered_outputs, ==, 1);
	check_int(t, plain->entered_outputs, ==, 1);

	test_run_on_compositor(t, unplug_second_output, NULL);
	client_roundtrip(c);
	/* The plain surface is on no output now; the window was brought onto the first. */
	check_int(t, plain->entered_outputs, ==, 0);
	check_int(t, win->entered_outputs, ==, 1);
	shot = capture_output(c, output_named(c, "HEADLESS-1"));
	check_int(t, image_pixel(shot, 1, 1), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 59, 39), ==, 0xffff0000u);
	pixman_image_unref(shot);
	/* Input still works on what is left. */
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == win->wl_surface);
	surface_destroy(plain);
	surface_destroy(win);
	client_destroy(c);
}

TEST_WITH(unplugging_an_output_ends_its_pending_frame_callbacks_and_captures, NULL,
	  {320, 240, 1, 0, 0}, {320, 240, 1, 0, 1000})
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 400, 10, 20, 20, 0xff00ff00, NULL);
	struct wl_callback *cb = wl_surface_frame(s->wl_surface);

	/* The second output paints once a second: the callback is still waiting when it goes. */
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	test_run_on_compositor(t, unplug_second_output, NULL);
	client_roundtrip(c);
	check_compositor_serves(t);
	wl_callback_destroy(cb);
	surface_destroy(s);
	client_destroy(c);
}

static void note_power_mode(void *data, struct zwlr_output_power_v1 *control, uint32_t mode)
{
	*(int *)data = (int)mode;
}

static void note_power_failed(void *data, struct zwlr_output_power_v1 *control)
{
	*(int *)data = -1;
}

static const struct zwlr_output_power_v1_listener power_listener = {note_power_mode,
								     note_power_failed};

static void second_output_powered(struct garnet_compositor *c, void *data)
{
	*(bool *)data = garnet_output_is_powered(garnet_compositor_find_output(c, "HEADLESS-2"));
}

TEST_WITH(a_power_control_darkens_its_output_and_fails_when_it_is_unplugged, NULL,
	  {320, 240, 1, 0, 0}, {320, 240, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct zwlr_output_power_manager_v1 *m =
		wl_registry_bind(c->registry, client_find_global(c, "zwlr_output_power_manager_v1"),
				 &zwlr_output_power_manager_v1_interface, 1);
	struct zwlr_output_power_v1 *power = zwlr_output_power_manager_v1_get_output_power(
		m, output_named(c, "HEADLESS-2")->wl_output);
	int mode = -2;
	bool powered = true;

	zwlr_output_power_v1_add_listener(power, &power_listener, &mode);
	client_roundtrip(c);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	zwlr_output_power_v1_set_mode(power, ZWLR_OUTPUT_POWER_V1_MODE_OFF);
	client_roundtrip(c);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_OFF);
	test_run_on_compositor(t, second_output_powered, &powered);
	check(t, !powered);
	zwlr_output_power_v1_set_mode(power, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	client_roundtrip(c);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	test_run_on_compositor(t, unplug_second_output, NULL);
	client_roundtrip(c);
	check_int(t, mode, ==, -1);
	/* Inert once failed: a request changes nothing and is no error. */
	zwlr_output_power_v1_set_mode(power, ZWLR_OUTPUT_POWER_V1_MODE_OFF);
	client_roundtrip(c);
	check_compositor_serves(t);
	zwlr_output_power_v1_destroy(power);
	zwlr_output_power_manager_v1_destroy(m);
	client_destroy(c);
}

TEST_WITH(an_unknown_power_mode_is_a_protocol_error, NULL, {320, 240, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct zwlr_output_power_manager_v1 *m =
		wl_registry_bind(c->registry, client_find_global(c, "zwlr_output_power_manager_v1"),
				 &zwlr_output_power_manager_v1_interface, 1);
	struct zwlr_output_power_v1 *power = zwlr_output_power_manager_v1_get_output_power(
		m, client_first_output(c)->wl_output);

	zwlr_output_power_v1_set_mode(power, 7);
	wl_display_roundtrip(c->display);
	check_int(t, wl_display_get_error(c->display), ==, EPROTO);
	check_compositor_serves(t);
	zwlr_output_power_v1_destroy(power);
	zwlr_output_power_manager_v1_destroy(m);
	client_destroy(c);
}

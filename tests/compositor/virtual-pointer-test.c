// SPDX-License-Identifier: MIT
// zwlr_virtual_pointer_v1 through the seat: motion, buttons and scrolling reach the surface
// under the pointer as a mouse's would, kept within the outputs; buttons still held when the
// pointer goes are released, the user's own are not; the security hook refuses it; misuse is an
// error.
#include <linux/input-event-codes.h>

#include "garnet/security.h"
#include "harness.h"

#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

static struct zwlr_virtual_pointer_v1 *virtual_pointer(struct client *c)
{
	uint32_t name = client_find_global(c, "zwlr_virtual_pointer_manager_v1");
	struct zwlr_virtual_pointer_manager_v1 *m;
	struct zwlr_virtual_pointer_v1 *vp;

	check(c->test, name != 0);
	m = wl_registry_bind(c->registry, name, &zwlr_virtual_pointer_manager_v1_interface, 2);
	vp = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(m, c->seat);
	zwlr_virtual_pointer_manager_v1_destroy(m);
	return vp;
}

static void sync(struct client *maker, struct client *target)
{
	client_roundtrip(maker);
	client_roundtrip(target);
}

TEST(virtual_pointer_moves_clicks_and_scrolls_like_a_mouse)
{
	struct client *a = client_create(t), *maker = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(maker);

	client_roundtrip(a);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 500, 250, 1000, 1000);
	zwlr_virtual_pointer_v1_frame(vp);
	sync(maker, a);
	check(t, a->input.pointer_focus == sa->wl_surface);
	check_int(t, (int)a->input.sx, ==, 160);
	check_int(t, (int)a->input.sy, ==, 60);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_axis(vp, 0, WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_int(15));
	zwlr_virtual_pointer_v1_frame(vp);
	sync(maker, a);
	check_int(t, a->input.buttons, ==, 2);
	check_int(t, a->input.last_button, ==, BTN_LEFT);
	check_int(t, a->input.axes, >=, 1);
	/* Far beyond the output, relatively and absolutely: the pointer stops at its edge. */
	zwlr_virtual_pointer_v1_motion(vp, 0, wl_fixed_from_int(1000000),
				       wl_fixed_from_int(1000000));
	sync(maker, a);
	check(t, a->input.sx < 320 && a->input.sx >= 319);
	check(t, a->input.sy < 240 && a->input.sy >= 239);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 4000000000u, 0, 10, 10);
	sync(maker, a);
	check(t, a->input.sx < 320 && a->input.sx >= 319);
	check_int(t, (int)a->input.sy, ==, 0);
	zwlr_virtual_pointer_v1_destroy(vp);
	surface_destroy(sa);
	client_destroy(maker);
	client_destroy(a);
}

TEST(buttons_held_by_a_virtual_pointer_are_released_when_it_goes)
{
	struct client *a = client_create(t), *maker = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(maker);

	client_roundtrip(a);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 1, 1, 2, 2);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_RIGHT, WL_POINTER_BUTTON_STATE_PRESSED);
	sync(maker, a);
	check_int(t, a->input.buttons, ==, 1);
	/* The client vanishes without a word: only its proxy is freed here. */
	wl_proxy_destroy((struct wl_proxy *)vp);
	client_destroy(maker);
	client_roundtrip(a);
	check_int(t, a->input.buttons, ==, 2);
	check_int(t, a->input.last_button, ==, BTN_RIGHT);
	check_int(t, a->input.last_button_state, ==, WL_POINTER_BUTTON_STATE_RELEASED);
	surface_destroy(sa);
	client_destroy(a);
}

TEST(virtual_pointer_cannot_let_go_of_the_users_button)
{
	struct client *a = client_create(t), *maker = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(maker);

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(a);
	check_int(t, a->input.buttons, ==, 1);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	sync(maker, a);
	check_int(t, a->input.buttons, ==, 1);
	check_int(t, a->input.last_button_state, ==, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(a);
	check_int(t, a->input.buttons, ==, 2);
	zwlr_virtual_pointer_v1_destroy(vp);
	surface_destroy(sa);
	client_destroy(maker);
	client_destroy(a);
}

/* A permitted client that keeps a button down must not hold the user's pointer on its
 * surface: the real mouse still moves between windows and clicks where it is. */
TEST(a_virtual_button_held_down_does_not_pin_the_real_pointer)
{
	struct client *a = client_create(t), *maker = client_create(t);
	struct client_surface *left = surface_create_placed(a, 0, 0, 160, 240, 0xff0000ff, NULL);
	struct client_surface *right = surface_create_placed(a, 160, 0, 160, 240, 0xff00ff00, NULL);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(maker);

	client_roundtrip(a);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 10, 10, 320, 240);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	sync(maker, a);
	check(t, a->input.pointer_focus == left->wl_surface);
	check_int(t, a->input.buttons, ==, 1);
	/* The user's mouse goes right, clicks there. */
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(200), wl_fixed_from_int(10));
	client_roundtrip(a);
	check(t, a->input.pointer_focus == right->wl_surface);
	garnet_test_pointer_button(a->garnet_test, BTN_RIGHT, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(a->garnet_test, BTN_RIGHT, WL_POINTER_BUTTON_STATE_RELEASED);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(10));
	client_roundtrip(a);
	check(t, a->input.pointer_focus == left->wl_surface);
	check_int(t, a->input.buttons, ==, 3);
	/* The virtual pointer's own release still comes, once. */
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	sync(maker, a);
	check_int(t, a->input.buttons, ==, 4);
	check_int(t, a->input.last_button, ==, BTN_LEFT);
	check_int(t, a->input.last_button_state, ==, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_destroy(vp);
	surface_destroy(left);
	surface_destroy(right);
	client_destroy(maker);
	client_destroy(a);
}

/* Pointer buttons are BTN_MISC..BTN_TASK (what libinput reports of a mouse); a key code or a
 * made-up number is no button. */
TEST(virtual_pointer_button_code_that_is_no_pointer_button_is_an_error)
{
	static const uint32_t bad[] = {0, KEY_A, BTN_TASK + 1, BTN_TOUCH, 0xffffffffu};

	for (size_t i = 0; i < ARRAY_LENGTH(bad); i++) {
		struct client *a = client_create(t), *c = client_create(t);
		struct client_surface *sa =
			surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
		struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(c);

		client_roundtrip(a);
		zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 1, 1, 2, 2);
		zwlr_virtual_pointer_v1_button(vp, 0, bad[i], WL_POINTER_BUTTON_STATE_PRESSED);
		client_expect_display_error(c);
		client_roundtrip(a);
		check_int(t, a->input.buttons, ==, 0);
		zwlr_virtual_pointer_v1_destroy(vp);
		client_destroy(c);
		surface_destroy(sa);
		client_destroy(a);
	}
	check_compositor_serves(t);
}

TEST(virtual_pointer_axis_that_is_none_is_an_error)
{
	struct client *c = client_create(t);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(c);

	zwlr_virtual_pointer_v1_axis(vp, 0, 7, wl_fixed_from_int(1));
	client_expect_protocol_error(c, &zwlr_virtual_pointer_v1_interface,
				     ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS);
	zwlr_virtual_pointer_v1_destroy(vp);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(virtual_pointer_axis_source_that_is_none_is_an_error)
{
	struct client *c = client_create(t);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(c);

	zwlr_virtual_pointer_v1_axis_source(vp, 99);
	client_expect_protocol_error(c, &zwlr_virtual_pointer_v1_interface,
				     ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE);
	zwlr_virtual_pointer_v1_destroy(vp);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(virtual_pointer_button_state_that_is_neither_is_an_error)
{
	struct client *c = client_create(t);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(c);

	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, 5);
	client_expect_display_error(c);
	zwlr_virtual_pointer_v1_destroy(vp);
	client_destroy(c);
	check_compositor_serves(t);
}

/* A security layer that shows the manager (as the policy shows it to a trusted client that
 * holds other privileged globals) but refuses the pointer itself. */
static bool show_globals(void *data, const struct wl_client *client,
			 const struct wl_interface *interface, bool privileged)
{
	return true;
}

static bool allow_bind(void *data, struct wl_client *client, const struct wl_interface *interface)
{
	return true;
}

static bool refuse(void *data, struct wl_client *client)
{
	return false;
}

static void setup_refuse_pointer(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.global_visible = show_globals,
					      .bind_privileged = allow_bind,
					      .inject_pointer = refuse};

	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(virtual_pointer_refused_by_the_security_layer_is_an_error, setup_refuse_pointer,
	  DEFAULT_OUTPUT)
{
	struct client *a = client_create(t), *c = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct zwlr_virtual_pointer_v1 *vp = virtual_pointer(c);

	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, 1, 1, 2, 2);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_expect_protocol_error(c, &wl_display_interface, WL_DISPLAY_ERROR_IMPLEMENTATION);
	client_roundtrip(a);
	check_int(t, a->input.buttons, ==, 0);
	zwlr_virtual_pointer_v1_destroy(vp);
	client_destroy(c);
	surface_destroy(sa);
	client_destroy(a);
}

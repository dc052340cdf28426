// SPDX-License-Identifier: MIT
// xdg-shell: configure sequences, window states, popups, and the protocol errors of the spec.
#include <linux/input-event-codes.h>

#include "harness.h"

TEST(toplevel_initial_commit_gets_configure_and_maps_after_ack)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 100, 80, 0xffff0000, NULL);
	pixman_image_t *shot = capture_output(c, client_first_output(c));

	check_int(t, s->configure_count, >=, 1);
	/* New windows are centred and focused (so clients waiting for enter can go on). */
	check_int(t, image_pixel(shot, 160, 120), ==, 0xffff0000u);
	check(t, s->activated);
	check(t, c->input.keyboard_focus == s->wl_surface);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST(buffer_before_configure_ack_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 10, 10, WL_SHM_FORMAT_ARGB8888);

	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	s->xdg_toplevel = xdg_surface_get_toplevel(s->xdg_surface);
	surface_show(s, b);
	client_expect_protocol_error(c, &xdg_surface_interface,
				     XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(xdg_surface_for_a_surface_with_a_buffer_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 10, 10, WL_SHM_FORMAT_ARGB8888);

	surface_show(s, b);
	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	client_expect_protocol_error(c, &xdg_wm_base_interface,
				     XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(commit_without_role_object_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);

	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	wl_surface_commit(s->wl_surface);
	client_expect_protocol_error(c, &xdg_surface_interface, XDG_SURFACE_ERROR_NOT_CONSTRUCTED);
	surface_destroy(s);
	client_destroy(c);
}

TEST(ack_of_unknown_serial_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_surface_ack_configure(s->xdg_surface, s->configure_serial + 1000);
	client_expect_protocol_error(c, &xdg_surface_interface, XDG_SURFACE_ERROR_INVALID_SERIAL);
	surface_destroy(s);
	client_destroy(c);
}

TEST(surface_with_other_role_cannot_become_xdg_surface)
{
	struct client *c = client_create(t);
	struct client_surface *parent = surface_create(c), *s = surface_create(c);
	struct wl_subsurface *sub =
		wl_subcompositor_get_subsurface(c->subcompositor, s->wl_surface, parent->wl_surface);

	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	client_expect_protocol_error(c, &xdg_wm_base_interface, XDG_WM_BASE_ERROR_ROLE);
	wl_subsurface_destroy(sub);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(destroying_wm_base_with_surfaces_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_wm_base_destroy(c->wm_base);
	c->wm_base = NULL;
	client_expect_protocol_error(c, NULL, XDG_WM_BASE_ERROR_DEFUNCT_SURFACES);
	surface_destroy(s);
	client_destroy(c);
}

TEST(destroying_xdg_surface_before_toplevel_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_surface_destroy(s->xdg_surface);
	s->xdg_surface = NULL;
	client_expect_protocol_error(c, NULL, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT);
	surface_destroy(s);
	client_destroy(c);
}

TEST(invalid_resize_edge_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_toplevel_resize(s->xdg_toplevel, c->seat, 0, 3);
	client_expect_protocol_error(c, &xdg_toplevel_interface,
				     XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE);
	surface_destroy(s);
	client_destroy(c);
}

TEST(negative_min_size_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_toplevel_set_min_size(s->xdg_toplevel, -1, 10);
	client_expect_protocol_error(c, &xdg_toplevel_interface, XDG_TOPLEVEL_ERROR_INVALID_SIZE);
	surface_destroy(s);
	client_destroy(c);
}

TEST(toplevel_as_own_parent_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 20, 20, 0xff00ff00, NULL);

	xdg_toplevel_set_parent(s->xdg_toplevel, s->xdg_toplevel);
	client_expect_protocol_error(c, &xdg_toplevel_interface,
				     XDG_TOPLEVEL_ERROR_INVALID_PARENT);
	surface_destroy(s);
	client_destroy(c);
}

TEST(parent_destroyed_before_child_leaves_child_working)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 20, 20, 0xff00ff00, NULL);
	struct client_surface *child = toplevel_create(c, 20, 20, 0xffff0000, NULL);
	struct client_surface *other = toplevel_create(c, 20, 20, 0xff0000ff, NULL);

	xdg_toplevel_set_parent(child->xdg_toplevel, parent->xdg_toplevel);
	client_roundtrip(c);
	surface_destroy(parent);
	client_roundtrip(c);
	/* The child's parent link is gone with the parent: re-parenting walks no stale one. */
	xdg_toplevel_set_parent(other->xdg_toplevel, child->xdg_toplevel);
	xdg_toplevel_set_parent(child->xdg_toplevel, NULL);
	client_roundtrip(c);
	surface_destroy(other);
	surface_destroy(child);
	client_destroy(c);
}

TEST(incomplete_positioner_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 50, 50, 0xff00ff00, NULL);
	struct client_surface *s = surface_create(c);
	struct xdg_positioner *p = xdg_wm_base_create_positioner(c->wm_base);

	xdg_positioner_set_size(p, 10, 10);
	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	struct xdg_popup *popup = xdg_surface_get_popup(s->xdg_surface, parent->xdg_surface, p);

	client_expect_protocol_error(c, &xdg_wm_base_interface,
				     XDG_WM_BASE_ERROR_INVALID_POSITIONER);
	xdg_popup_destroy(popup);
	xdg_positioner_destroy(p);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(zero_positioner_size_is_an_error)
{
	struct client *c = client_create(t);
	struct xdg_positioner *p = xdg_wm_base_create_positioner(c->wm_base);

	xdg_positioner_set_size(p, 0, 10);
	client_expect_protocol_error(c, &xdg_positioner_interface,
				     XDG_POSITIONER_ERROR_INVALID_INPUT);
	xdg_positioner_destroy(p);
	client_destroy(c);
}

TEST(maximize_configures_output_size_and_unmaximize_restores)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 60, 40, 0xff00ff00, NULL);

	xdg_toplevel_set_maximized(s->xdg_toplevel);
	check(t, toplevel_wait_configure(s));
	check(t, s->maximized);
	check_int(t, s->configure_width, ==, 320);
	check_int(t, s->configure_height, ==, 240);
	xdg_toplevel_unset_maximized(s->xdg_toplevel);
	check(t, toplevel_wait_configure(s));
	check(t, !s->maximized);
	check_int(t, s->configure_width, ==, 60);
	surface_destroy(s);
	client_destroy(c);
}

TEST(maximize_before_initial_commit_is_in_the_initial_configure)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create_uncommitted(c);

	xdg_toplevel_set_maximized(s->xdg_toplevel);
	client_roundtrip(c);
	check_int(t, s->configure_count, ==, 0);
	wl_surface_commit(s->wl_surface);
	check(t, toplevel_wait_configure(s));
	check_int(t, s->configure_count, ==, 1);
	check(t, s->maximized);
	check_int(t, s->configure_width, ==, 320);
	surface_destroy(s);
	client_destroy(c);
}

TEST(fullscreen_window_covers_output)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 60, 40, 0xff00ff00, NULL);
	struct buffer *b;
	pixman_image_t *shot;

	xdg_toplevel_set_fullscreen(s->xdg_toplevel, NULL);
	check(t, toplevel_wait_configure(s));
	check(t, s->fullscreen);
	xdg_surface_ack_configure(s->xdg_surface, s->configure_serial);
	b = buffer_create(c, s->configure_width, s->configure_height, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(b, 0xff0000ff);
	surface_show(s, b);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 0, 0), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 319, 239), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(new_toplevel_takes_focus_and_old_one_is_deactivated)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 40, 40, 0xffff0000, NULL);
	struct client_surface *b = toplevel_create(c, 40, 40, 0xff00ff00, NULL);

	client_roundtrip(c);
	check(t, !a->activated);
	check(t, b->activated);
	check(t, c->input.keyboard_focus == b->wl_surface);
	surface_destroy(b);
	client_roundtrip(c);
	/* The remaining window gets focus back. */
	check(t, a->activated);
	check(t, c->input.keyboard_focus == a->wl_surface);
	surface_destroy(a);
	client_destroy(c);
}

TEST(click_focuses_and_raises_window)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *b = toplevel_create(c, 100, 100, 0xff00ff00, NULL);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, a->wl_surface, 0, 0);
	garnet_test_move_surface(c->garnet_test, b->wl_surface, 50, 50);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(c);
	check(t, a->activated);
	check(t, !b->activated);
	check(t, c->input.keyboard_focus == a->wl_surface);
	shot = capture_output(c, client_first_output(c));
	/* a is on top now where they overlap. */
	check_int(t, image_pixel(shot, 75, 75), ==, 0xffff0000u);
	pixman_image_unref(shot);
	surface_destroy(b);
	surface_destroy(a);
	client_destroy(c);
}

TEST(interactive_move_follows_pointer)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 40, 40, 0xffff0000, NULL);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(20));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(c);
	xdg_toplevel_move(s->xdg_toplevel, c->seat, c->input.last_button_serial);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(120), wl_fixed_from_int(70));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 110, 60), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 15, 15), !=, 0xffff0000u);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST(interactive_resize_configures_new_size)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 40, 40, 0xffff0000, NULL);

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(45), wl_fixed_from_int(45));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(c);
	xdg_toplevel_resize(s->xdg_toplevel, c->seat, c->input.last_button_serial,
			    XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT);
	check(t, toplevel_wait_configure(s));
	check(t, s->resizing);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(75), wl_fixed_from_int(65));
	check(t, toplevel_wait_configure(s));
	check_int(t, s->configure_width, ==, 70);
	check_int(t, s->configure_height, ==, 60);
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	check(t, toplevel_wait_configure(s));
	check(t, !s->resizing);
	surface_destroy(s);
	client_destroy(c);
}

TEST(surface_offset_moves_toplevel)
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = toplevel_create(c, 40, 40, 0xffff0000, &b);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 100, 100);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_offset(s->wl_surface, -30, 20);
	wl_surface_damage(s->wl_surface, 0, 0, 40, 40);
	wl_surface_commit(s->wl_surface);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 70, 120), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 109, 159), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 115, 105), !=, 0xffff0000u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(move_with_stale_serial_is_ignored)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 40, 40, 0xffff0000, NULL);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(20));
	client_roundtrip(c);
	/* No button is held: a client cannot start a move by itself. */
	xdg_toplevel_move(s->xdg_toplevel, c->seat, c->input.pointer_enter_serial);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(120), wl_fixed_from_int(70));
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 15, 15), ==, 0xffff0000u);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST(minimize_hides_window_and_moves_focus)
{
	struct client *c = client_create(t);
	struct client_surface *a = toplevel_create(c, 40, 40, 0xffff0000, NULL);
	struct client_surface *b = toplevel_create(c, 40, 40, 0xff00ff00, NULL);

	xdg_toplevel_set_minimized(b->xdg_toplevel);
	client_roundtrip(c);
	check(t, c->input.keyboard_focus == a->wl_surface);
	check_int(t, b->entered_outputs, ==, 0);
	surface_destroy(b);
	surface_destroy(a);
	client_destroy(c);
}

TEST(focus_pings_client)
{
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 40, 40, 0xffff0000, NULL);

	client_roundtrip(c);
	check_int(t, c->pings, >=, 1);
	surface_destroy(s);
	client_destroy(c);
}

struct popup_state {
	int32_t x, y, w, h;
	bool configured, done;
	uint32_t serial;
};

static void popup_configure(void *data, struct xdg_popup *p, int32_t x, int32_t y, int32_t w,
			    int32_t h)
{
	struct popup_state *ps = data;

	ps->x = x;
	ps->y = y;
	ps->w = w;
	ps->h = h;
}

static void popup_done(void *data, struct xdg_popup *p)
{
	struct popup_state *ps = data;

	ps->done = true;
}

static void popup_repositioned(void *data, struct xdg_popup *p, uint32_t token)
{
}

static const struct xdg_popup_listener popup_listener = {popup_configure, popup_done,
							  popup_repositioned};

static void popup_surface_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct popup_state *ps = data;

	ps->serial = serial;
	ps->configured = true;
}

static const struct xdg_surface_listener popup_surface_listener = {popup_surface_configure};

static struct xdg_popup *make_popup(struct client *c, struct client_surface *parent,
				    struct client_surface *s, struct popup_state *ps,
				    int32_t ax, int32_t ay, uint32_t constraints, bool grab)
{
	struct xdg_positioner *p = xdg_wm_base_create_positioner(c->wm_base);
	struct xdg_popup *popup;
	struct buffer *b;

	xdg_positioner_set_size(p, 50, 30);
	xdg_positioner_set_anchor_rect(p, ax, ay, 1, 1);
	xdg_positioner_set_anchor(p, XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT);
	xdg_positioner_set_gravity(p, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
	xdg_positioner_set_constraint_adjustment(p, constraints);
	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	xdg_surface_add_listener(s->xdg_surface, &popup_surface_listener, ps);
	popup = xdg_surface_get_popup(s->xdg_surface, parent->xdg_surface, p);
	xdg_popup_add_listener(popup, &popup_listener, ps);
	if (grab)
		xdg_popup_grab(popup, c->seat, c->input.last_button_serial);
	xdg_positioner_destroy(p);
	wl_surface_commit(s->wl_surface);
	if (!client_dispatch_until(c, &ps->configured))
		test_fail(c->test, __FILE__, __LINE__, "popup not configured");
	xdg_surface_ack_configure(s->xdg_surface, ps->serial);
	b = buffer_create(c, 50, 30, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(b, 0xff0000ff);
	surface_show(s, b);
	client_roundtrip(c);
	buffer_destroy(b);
	return popup;
}

TEST(popup_is_placed_by_positioner)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s = surface_create(c);
	struct popup_state ps = {0};
	struct xdg_popup *popup;
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, parent->wl_surface, 10, 10);
	popup = make_popup(c, parent, s, &ps, 20, 20, 0, false);
	check_int(t, ps.x, ==, 21);
	check_int(t, ps.y, ==, 21);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10 + 21, 10 + 21), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 10 + 70, 10 + 50), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 10 + 71, 10 + 52), ==, 0xffff0000u);
	pixman_image_unref(shot);
	xdg_popup_destroy(popup);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(popup_flips_when_it_would_leave_the_output)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s = surface_create(c);
	struct popup_state ps = {0};
	struct xdg_popup *popup;

	garnet_test_move_surface(c->garnet_test, parent->wl_surface, 200, 140);
	client_roundtrip(c);
	popup = make_popup(c, parent, s, &ps, 95, 95,
			   XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X |
				   XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y,
			   false);
	/* Bottom-right would end at 200+96+50 > 320 and 140+96+30 > 240: flipped to the top-left
	 * of the anchor, where it fits. */
	check_int(t, ps.x, ==, 95 - 50);
	check_int(t, ps.y, ==, 95 - 30);
	xdg_popup_destroy(popup);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(click_outside_grabbing_popup_dismisses_it)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s = surface_create(c);
	struct popup_state ps = {0};
	struct xdg_popup *popup;

	garnet_test_move_surface(c->garnet_test, parent->wl_surface, 0, 0);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(5), wl_fixed_from_int(5));
	garnet_test_pointer_button(c->garnet_test, BTN_RIGHT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(c);
	popup = make_popup(c, parent, s, &ps, 5, 5, 0, true);
	garnet_test_pointer_button(c->garnet_test, BTN_RIGHT, WL_POINTER_BUTTON_STATE_RELEASED);
	check(t, c->input.keyboard_focus == s->wl_surface);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(300), wl_fixed_from_int(200));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(c);
	check(t, ps.done);
	xdg_popup_destroy(popup);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(grab_after_popup_commit_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s = surface_create(c);
	struct popup_state ps = {0};
	struct xdg_popup *popup = make_popup(c, parent, s, &ps, 5, 5, 0, false);

	xdg_popup_grab(popup, c->seat, 0);
	client_expect_protocol_error(c, &xdg_popup_interface, XDG_POPUP_ERROR_INVALID_GRAB);
	xdg_popup_destroy(popup);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(destroying_popup_below_another_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s1 = surface_create(c), *s2 = surface_create(c);
	struct popup_state ps1 = {0}, ps2 = {0};
	struct xdg_popup *p1 = make_popup(c, parent, s1, &ps1, 5, 5, 0, false);
	struct xdg_popup *p2 = make_popup(c, s1, s2, &ps2, 5, 5, 0, false);

	xdg_popup_destroy(p1);
	client_expect_protocol_error(c, &xdg_wm_base_interface,
				     XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP);
	xdg_popup_destroy(p2);
	surface_destroy(s2);
	surface_destroy(s1);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(popup_reposition_answers_with_token_and_configure)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 100, 100, 0xffff0000, NULL);
	struct client_surface *s = surface_create(c);
	struct popup_state ps = {0};
	struct xdg_popup *popup = make_popup(c, parent, s, &ps, 5, 5, 0, false);
	struct xdg_positioner *p = xdg_wm_base_create_positioner(c->wm_base);

	xdg_positioner_set_size(p, 20, 20);
	xdg_positioner_set_anchor_rect(p, 40, 30, 1, 1);
	ps.configured = false;
	xdg_popup_reposition(popup, p, 7);
	check(t, client_dispatch_until(c, &ps.configured));
	check_int(t, ps.x, ==, 30);
	check_int(t, ps.y, ==, 20);
	check_int(t, ps.w, ==, 20);
	xdg_positioner_destroy(p);
	xdg_popup_destroy(popup);
	surface_destroy(s);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(popup_as_its_own_parent_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct xdg_positioner *p = xdg_wm_base_create_positioner(c->wm_base);
	struct xdg_popup *popup;

	xdg_positioner_set_size(p, 10, 10);
	xdg_positioner_set_anchor_rect(p, 0, 0, 1, 1);
	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	popup = xdg_surface_get_popup(s->xdg_surface, s->xdg_surface, p);
	client_expect_protocol_error(c, &xdg_wm_base_interface,
				     XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT);
	xdg_popup_destroy(popup);
	xdg_positioner_destroy(p);
	surface_destroy(s);
	client_destroy(c);
}

// SPDX-License-Identifier: MIT
// Protocols common clients expect beyond the core: fractional scale, idle notification, idle
// inhibition, activation, relative pointer, pointer constraints, text input, input method and
// global shortcuts, driven by a real libwayland client against libgarnet in-process.
#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "garnet/security.h"
#include "harness.h"

#include "ext-idle-notify-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "garnet-shortcuts-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "input-method-unstable-v2-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"

static void *bind_global(struct client *c, const struct wl_interface *iface)
{
	uint32_t name = client_find_global(c, iface->name);

	check(c->test, name != 0);
	return wl_registry_bind(c->registry, name, iface, 1);
}

static void preferred_scale(void *data, struct wp_fractional_scale_v1 *fs, uint32_t scale)
{
	uint32_t *out = data;

	(void)fs;
	*out = scale;
}

static const struct wp_fractional_scale_v1_listener scale_listener = {preferred_scale};

TEST_WITH(fractional_scale_is_the_output_scale, NULL, {640, 480, 2, 0, 0})
{
	struct client *c = client_create(t);
	struct wp_fractional_scale_manager_v1 *m =
		bind_global(c, &wp_fractional_scale_manager_v1_interface);
	struct client_surface *s = surface_create_placed(c, 10, 10, 32, 32, 0xff0000ff, NULL);
	struct wp_fractional_scale_v1 *fs = wp_fractional_scale_manager_v1_get_fractional_scale(
		m, s->wl_surface);
	uint32_t scale = 0;

	wp_fractional_scale_v1_add_listener(fs, &scale_listener, &scale);
	client_roundtrip(c);
	check_int(t, scale, ==, 2 * 120);
	wp_fractional_scale_v1_destroy(fs);
	wp_fractional_scale_manager_v1_destroy(m);
	surface_destroy(s);
	client_destroy(c);
}

TEST(second_fractional_scale_for_a_surface_is_an_error)
{
	struct client *c = client_create(t);
	struct wp_fractional_scale_manager_v1 *m =
		bind_global(c, &wp_fractional_scale_manager_v1_interface);
	struct client_surface *s = surface_create(c);
	struct wp_fractional_scale_v1 *first =
		wp_fractional_scale_manager_v1_get_fractional_scale(m, s->wl_surface);
	struct wp_fractional_scale_v1 *second =
		wp_fractional_scale_manager_v1_get_fractional_scale(m, s->wl_surface);

	client_expect_protocol_error(
		c, &wp_fractional_scale_manager_v1_interface,
		WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS);
	wp_fractional_scale_v1_destroy(first);
	wp_fractional_scale_v1_destroy(second);
	wp_fractional_scale_manager_v1_destroy(m);
	surface_destroy(s);
	client_destroy(c);
}

struct idle_state {
	bool idled, resumed;
};

static void idled(void *data, struct ext_idle_notification_v1 *n)
{
	struct idle_state *st = data;

	(void)n;
	st->idled = true;
}

static void resumed(void *data, struct ext_idle_notification_v1 *n)
{
	struct idle_state *st = data;

	(void)n;
	st->resumed = true;
}

static const struct ext_idle_notification_v1_listener idle_listener = {idled, resumed};

static struct ext_idle_notification_v1 *watch_idle(struct client *c, uint32_t timeout_ms,
						   struct idle_state *st)
{
	struct ext_idle_notifier_v1 *notifier = bind_global(c, &ext_idle_notifier_v1_interface);
	struct ext_idle_notification_v1 *n =
		ext_idle_notifier_v1_get_idle_notification(notifier, timeout_ms, c->seat);

	ext_idle_notification_v1_add_listener(n, &idle_listener, st);
	ext_idle_notifier_v1_destroy(notifier);
	return n;
}

static bool allow_idle(void *data, struct wl_client *client)
{
	return true;
}

/* The clients below are idle daemons: the policy lets them choose any timeout. */
static void trust_idle(struct garnet_compositor *c, struct test_context *t)
{
	garnet_compositor_set_security_hooks(c, &(struct garnet_security_hooks){
		.idle_notify = allow_idle});
}

TEST(untrusted_idle_timeout_is_raised_to_the_floor)
{
	struct client *c = client_create(t);
	struct idle_state st = {0};
	struct ext_idle_notification_v1 *n = watch_idle(c, 1, &st);

	client_dispatch_for(c, 500);
	check(t, !st.idled);
	ext_idle_notification_v1_destroy(n);
	client_destroy(c);
}

TEST_WITH(idle_after_timeout_and_resumed_by_input, trust_idle, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct idle_state st = {0};
	struct ext_idle_notification_v1 *n = watch_idle(c, 600, &st);

	/* Input before the timeout restarts it (margins wide enough for a loaded machine). */
	client_dispatch_for(c, 350);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(5), wl_fixed_from_int(5));
	client_dispatch_for(c, 350);
	check(t, !st.idled);
	check(t, client_dispatch_until(c, &st.idled));
	check(t, !st.resumed);
	client_tap_key(c, 30);
	check(t, client_dispatch_until(c, &st.resumed));
	ext_idle_notification_v1_destroy(n);
	client_destroy(c);
}

TEST_WITH(visible_inhibitor_holds_idle_off, trust_idle, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct zwp_idle_inhibit_manager_v1 *m =
		bind_global(c, &zwp_idle_inhibit_manager_v1_interface);
	struct client_surface *s = surface_create_placed(c, 0, 0, 32, 32, 0xff00ff00, NULL);
	struct zwp_idle_inhibitor_v1 *inhibitor =
		zwp_idle_inhibit_manager_v1_create_inhibitor(m, s->wl_surface);
	struct idle_state st = {0};
	struct ext_idle_notification_v1 *n = watch_idle(c, 50, &st);

	client_dispatch_for(c, 300);
	check(t, !st.idled);
	zwp_idle_inhibitor_v1_destroy(inhibitor);
	check(t, client_dispatch_until(c, &st.idled));
	ext_idle_notification_v1_destroy(n);
	zwp_idle_inhibit_manager_v1_destroy(m);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(inhibitor_of_a_hidden_surface_does_not_count, trust_idle, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct zwp_idle_inhibit_manager_v1 *m =
		bind_global(c, &zwp_idle_inhibit_manager_v1_interface);
	struct client_surface *s = surface_create(c);
	struct idle_state st = {0};
	struct zwp_idle_inhibitor_v1 *inhibitor =
		zwp_idle_inhibit_manager_v1_create_inhibitor(m, s->wl_surface);
	struct ext_idle_notification_v1 *n = watch_idle(c, 50, &st);

	check(t, client_dispatch_until(c, &st.idled));
	ext_idle_notification_v1_destroy(n);
	zwp_idle_inhibitor_v1_destroy(inhibitor);
	zwp_idle_inhibit_manager_v1_destroy(m);
	surface_destroy(s);
	client_destroy(c);
}

static void token_done(void *data, struct xdg_activation_token_v1 *token, const char *name)
{
	char *out = data;

	(void)token;
	snprintf(out, 64, "%s", name);
}

static const struct xdg_activation_token_v1_listener token_listener = {token_done};

/* A committed activation token of client c, in name (64 bytes), with the serial of the user's
 * click on its window s (moved to 0,0 for it), or with no click when s is NULL. */
static void get_token(struct client *c, struct client_surface *s,
		      struct xdg_activation_v1 *activation, char *name)
{
	struct xdg_activation_token_v1 *token;
	uint32_t serial = 0;

	if (s) {
		garnet_test_move_surface(c->garnet_test, s->wl_surface, 0, 0);
		garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(5),
					   wl_fixed_from_int(5));
		garnet_test_pointer_button(c->garnet_test, 0x110 /* BTN_LEFT */,
					   WL_POINTER_BUTTON_STATE_PRESSED);
		client_roundtrip(c);
		serial = c->input.last_button_serial; /* the press's: a release proves nothing */
		garnet_test_pointer_button(c->garnet_test, 0x110, WL_POINTER_BUTTON_STATE_RELEASED);
		client_roundtrip(c);
	}
	token = xdg_activation_v1_get_activation_token(activation);
	name[0] = '\0';
	xdg_activation_token_v1_add_listener(token, &token_listener, name);
	xdg_activation_token_v1_set_serial(token, serial, c->seat);
	xdg_activation_token_v1_set_app_id(token, "org.example.launcher");
	xdg_activation_token_v1_commit(token);
	client_roundtrip(c);
	check(c->test, strlen(name) >= 16);
	xdg_activation_token_v1_destroy(token);
}

TEST(focused_client_token_activates_another_window_once)
{
	struct client *b = client_create(t), *a = client_create(t);
	struct client_surface *sb = toplevel_create(b, 40, 40, 0xff0000ff, NULL);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct xdg_activation_v1 *act_a = bind_global(a, &xdg_activation_v1_interface);
	struct xdg_activation_v1 *act_b = bind_global(b, &xdg_activation_v1_interface);
	char name[64];

	/* New toplevels take focus: a, created last, has it. */
	client_roundtrip(b);
	check(t, a->input.keyboard_focus == sa->wl_surface);
	get_token(a, sa, act_a, name);
	xdg_activation_v1_activate(act_b, name, sb->wl_surface);
	client_roundtrip(b);
	check(t, b->input.keyboard_focus == sb->wl_surface);

	/* Spent: a second use does nothing. */
	xdg_activation_v1_activate(act_a, name, sa->wl_surface);
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, b->input.keyboard_focus == sb->wl_surface);
	check(t, a->input.keyboard_focus != sa->wl_surface);
	xdg_activation_v1_destroy(act_a);
	xdg_activation_v1_destroy(act_b);
	surface_destroy(sa);
	surface_destroy(sb);
	client_destroy(a);
	client_destroy(b);
}

TEST(unfocused_client_cannot_take_focus_with_a_token)
{
	struct client *b = client_create(t), *a = client_create(t);
	struct client_surface *sb = toplevel_create(b, 40, 40, 0xff0000ff, NULL);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct xdg_activation_v1 *act_b = bind_global(b, &xdg_activation_v1_interface);
	char name[64];

	get_token(b, NULL, act_b, name);
	xdg_activation_v1_activate(act_b, name, sb->wl_surface);
	xdg_activation_v1_activate(act_b, "not-a-token", sb->wl_surface);
	client_roundtrip(b);
	client_roundtrip(a);
	check(t, a->input.keyboard_focus == sa->wl_surface);
	check(t, b->input.keyboard_focus != sb->wl_surface);
	xdg_activation_v1_destroy(act_b);
	surface_destroy(sa);
	surface_destroy(sb);
	client_destroy(a);
	client_destroy(b);
}

TEST(token_changed_after_commit_is_an_error)
{
	struct client *c = client_create(t);
	struct xdg_activation_v1 *act = bind_global(c, &xdg_activation_v1_interface);
	struct xdg_activation_token_v1 *token = xdg_activation_v1_get_activation_token(act);

	xdg_activation_token_v1_commit(token);
	xdg_activation_token_v1_set_app_id(token, "late");
	client_expect_protocol_error(c, &xdg_activation_token_v1_interface,
				     XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED);
	xdg_activation_token_v1_destroy(token);
	xdg_activation_v1_destroy(act);
	client_destroy(c);
}

struct relative_state {
	int events;
	double dx, dy, ux, uy;
};

static void relative_motion(void *data, struct zwp_relative_pointer_v1 *rp, uint32_t utime_hi,
			    uint32_t utime_lo, wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t dx_unaccel,
			    wl_fixed_t dy_unaccel)
{
	struct relative_state *st = data;

	(void)rp;
	(void)utime_hi;
	(void)utime_lo;
	st->events++;
	st->dx += wl_fixed_to_double(dx);
	st->dy += wl_fixed_to_double(dy);
	st->ux += wl_fixed_to_double(dx_unaccel);
	st->uy += wl_fixed_to_double(dy_unaccel);
}

static const struct zwp_relative_pointer_v1_listener relative_listener = {relative_motion};

static struct zwp_relative_pointer_v1 *watch_relative(struct client *c, struct relative_state *st)
{
	struct zwp_relative_pointer_manager_v1 *m =
		bind_global(c, &zwp_relative_pointer_manager_v1_interface);
	struct zwp_relative_pointer_v1 *rp =
		zwp_relative_pointer_manager_v1_get_relative_pointer(m, c->pointer);

	zwp_relative_pointer_v1_add_listener(rp, &relative_listener, st);
	zwp_relative_pointer_manager_v1_destroy(m);
	return rp;
}

static void move_by(struct client *c, int dx, int dy, int ux, int uy)
{
	garnet_test_pointer_motion_relative(c->garnet_test, wl_fixed_from_int(dx),
					    wl_fixed_from_int(dy), wl_fixed_from_int(ux),
					    wl_fixed_from_int(uy));
}

TEST(relative_motion_goes_to_the_focused_client_only)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct relative_state sa = {0}, sb = {0};
	struct client_surface *s_a = surface_create_placed(a, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *s_b = surface_create_placed(b, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct zwp_relative_pointer_v1 *rp_a = watch_relative(a, &sa);
	struct zwp_relative_pointer_v1 *rp_b = watch_relative(b, &sb);

	client_roundtrip(b);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(a);
	/* An absolute device's motion is no relative motion. */
	check_int(t, sa.events, ==, 0);
	move_by(a, 5, 20, 2, 8);
	move_by(a, -3, 1, -1, 1);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, sa.events, ==, 2);
	check_int(t, sa.dx, ==, 2);
	check_int(t, sa.dy, ==, 21);
	/* The device's own figures come as the unaccelerated ones. */
	check_int(t, sa.ux, ==, 1);
	check_int(t, sa.uy, ==, 9);
	check_int(t, sb.events, ==, 0);
	zwp_relative_pointer_v1_destroy(rp_a);
	zwp_relative_pointer_v1_destroy(rp_b);
	surface_destroy(s_a);
	surface_destroy(s_b);
	client_destroy(a);
	client_destroy(b);
}

TEST(relative_motion_goes_on_where_the_pointer_cannot)
{
	struct client *c = client_create(t);
	struct relative_state st = {0};
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct zwp_relative_pointer_v1 *rp = watch_relative(c, &st);
	int motions;

	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(0), wl_fixed_from_int(10));
	client_roundtrip(c);
	motions = c->input.motions;
	/* At the output's left edge the pointer stays, the mouse's motion still counts. */
	move_by(c, -40, 0, -20, 0);
	client_roundtrip(c);
	check_int(t, st.events, ==, 1);
	check_int(t, st.dx, ==, -40);
	check_int(t, st.ux, ==, -20);
	check_int(t, c->input.motions, ==, motions);
	zwp_relative_pointer_v1_destroy(rp);
	surface_destroy(s);
	client_destroy(c);
}

/* ---- pointer constraints ---- */

struct constraint_state {
	int locked, unlocked, confined, unconfined;
};

static void on_locked(void *data, struct zwp_locked_pointer_v1 *lp)
{
	((struct constraint_state *)data)->locked++;
}

static void on_unlocked(void *data, struct zwp_locked_pointer_v1 *lp)
{
	((struct constraint_state *)data)->unlocked++;
}

static const struct zwp_locked_pointer_v1_listener locked_listener = {on_locked, on_unlocked};

static void on_confined(void *data, struct zwp_confined_pointer_v1 *cp)
{
	((struct constraint_state *)data)->confined++;
}

static void on_unconfined(void *data, struct zwp_confined_pointer_v1 *cp)
{
	((struct constraint_state *)data)->unconfined++;
}

static const struct zwp_confined_pointer_v1_listener confined_listener = {on_confined,
									  on_unconfined};

/* A surface of c at (0, 0) with the keyboard focus and the pointer at (10, 10) over it. */
static struct client_surface *focused_surface(struct client *c, uint32_t argb)
{
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, argb, NULL);

	garnet_test_activate_surface(c->garnet_test, s->wl_surface);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(c);
	check(c->test, c->input.keyboard_focus == s->wl_surface);
	check(c->test, c->input.pointer_focus == s->wl_surface);
	return s;
}

TEST(locked_pointer_stays_put_until_focus_moves_away)
{
	struct client *c = client_create(t), *other = client_create(t);
	struct client_surface *s = focused_surface(c, 0xff0000ff);
	struct client_surface *o = surface_create_placed(other, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct zwp_pointer_constraints_v1 *pc = bind_global(c, &zwp_pointer_constraints_v1_interface);
	struct relative_state rel = {0};
	struct zwp_relative_pointer_v1 *rp = watch_relative(c, &rel);
	struct constraint_state st = {0};
	struct zwp_locked_pointer_v1 *lp;
	int motions;

	lp = zwp_pointer_constraints_v1_lock_pointer(pc, s->wl_surface, c->pointer, NULL,
						     ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	zwp_locked_pointer_v1_add_listener(lp, &locked_listener, &st);
	zwp_locked_pointer_v1_set_cursor_position_hint(lp, wl_fixed_from_int(50),
						       wl_fixed_from_int(60));
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	check_int(t, st.locked, ==, 1);
	/* Moves are reported as relative motion only; the pointer stays. */
	motions = c->input.motions;
	move_by(c, 240, 30, 240, 30);
	client_roundtrip(c);
	check_int(t, c->input.motions, ==, motions);
	check(t, c->input.pointer_focus == s->wl_surface);
	check_int(t, rel.dx, ==, 240);
	check_int(t, rel.dy, ==, 30);
	client_roundtrip(other);
	check(t, other->input.pointer_focus == NULL);
	/* The keyboard goes elsewhere: the lock ends, the pointer is at the hint, and moves. */
	garnet_test_activate_surface(other->garnet_test, o->wl_surface);
	client_roundtrip(other);
	client_roundtrip(c);
	check_int(t, st.unlocked, ==, 1);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(51), wl_fixed_from_int(60));
	client_roundtrip(c);
	check_int(t, c->input.motions, ==, motions + 1);
	check_int(t, c->input.sx, ==, 51);
	/* Oneshot: focus back does not lock again. */
	garnet_test_activate_surface(c->garnet_test, s->wl_surface);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(20));
	client_roundtrip(c);
	check_int(t, st.locked, ==, 1);
	check_int(t, c->input.sx, ==, 20);
	zwp_locked_pointer_v1_destroy(lp);
	zwp_relative_pointer_v1_destroy(rp);
	zwp_pointer_constraints_v1_destroy(pc);
	surface_destroy(o);
	surface_destroy(s);
	client_destroy(other);
	client_destroy(c);
}

TEST(confined_pointer_stays_in_its_region)
{
	struct client *c = client_create(t);
	struct client_surface *s = focused_surface(c, 0xff0000ff);
	struct zwp_pointer_constraints_v1 *pc = bind_global(c, &zwp_pointer_constraints_v1_interface);
	struct wl_region *region = wl_compositor_create_region(c->compositor);
	struct constraint_state st = {0};
	struct zwp_confined_pointer_v1 *cp;

	wl_region_add(region, 5, 5, 50, 50);
	cp = zwp_pointer_constraints_v1_confine_pointer(
		pc, s->wl_surface, c->pointer, region,
		ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	wl_region_destroy(region);
	zwp_confined_pointer_v1_add_listener(cp, &confined_listener, &st);
	client_roundtrip(c);
	check_int(t, st.confined, ==, 1);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(200), wl_fixed_from_int(30));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == s->wl_surface);
	check_int(t, c->input.sx, ==, 54);
	check_int(t, c->input.sy, ==, 30);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(40));
	client_roundtrip(c);
	check_int(t, c->input.sx, ==, 20);
	check_int(t, c->input.sy, ==, 40);
	/* A new region applies with the next commit. */
	region = wl_compositor_create_region(c->compositor);
	wl_region_add(region, 30, 30, 10, 10);
	zwp_confined_pointer_v1_set_region(cp, region);
	wl_region_destroy(region);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(0), wl_fixed_from_int(0));
	client_roundtrip(c);
	check_int(t, c->input.sx, ==, 5);
	wl_surface_commit(s->wl_surface);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(0), wl_fixed_from_int(0));
	client_roundtrip(c);
	check_int(t, c->input.sx, ==, 30);
	check_int(t, c->input.sy, ==, 30);
	/* Persistent: losing and regaining the keyboard confines again. */
	garnet_test_activate_surface(c->garnet_test, NULL);
	client_roundtrip(c);
	check_int(t, st.unconfined, ==, 1);
	garnet_test_activate_surface(c->garnet_test, s->wl_surface);
	client_roundtrip(c);
	check_int(t, st.confined, ==, 2);
	zwp_confined_pointer_v1_destroy(cp);
	zwp_pointer_constraints_v1_destroy(pc);
	surface_destroy(s);
	client_destroy(c);
}

TEST(background_window_cannot_trap_the_pointer)
{
	struct client *victim = client_create(t), *rogue = client_create(t);
	struct client_surface *r = surface_create_placed(rogue, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *v = surface_create_placed(victim, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct zwp_pointer_constraints_v1 *pc =
		bind_global(rogue, &zwp_pointer_constraints_v1_interface);
	struct constraint_state st = {0};
	struct zwp_locked_pointer_v1 *lp;

	/* The victim has the keyboard; the pointer passes over the rogue's window. */
	garnet_test_activate_surface(victim->garnet_test, v->wl_surface);
	client_roundtrip(victim);
	garnet_test_pointer_motion(rogue->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(rogue);
	check(t, rogue->input.pointer_focus == r->wl_surface);
	lp = zwp_pointer_constraints_v1_lock_pointer(pc, r->wl_surface, rogue->pointer, NULL,
						     ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(lp, &locked_listener, &st);
	client_roundtrip(rogue);
	garnet_test_pointer_motion(rogue->garnet_test, wl_fixed_from_int(40), wl_fixed_from_int(10));
	garnet_test_pointer_motion(rogue->garnet_test, wl_fixed_from_int(210), wl_fixed_from_int(10));
	client_roundtrip(rogue);
	client_roundtrip(victim);
	check_int(t, st.locked, ==, 0);
	check(t, victim->input.pointer_focus == v->wl_surface);
	zwp_locked_pointer_v1_destroy(lp);
	zwp_pointer_constraints_v1_destroy(pc);
	surface_destroy(v);
	surface_destroy(r);
	client_destroy(rogue);
	client_destroy(victim);
}

TEST(second_constraint_on_a_surface_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct zwp_pointer_constraints_v1 *pc = bind_global(c, &zwp_pointer_constraints_v1_interface);
	struct zwp_locked_pointer_v1 *lp;
	struct zwp_confined_pointer_v1 *cp;

	lp = zwp_pointer_constraints_v1_lock_pointer(pc, s->wl_surface, c->pointer, NULL,
						     ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	cp = zwp_pointer_constraints_v1_confine_pointer(
		pc, s->wl_surface, c->pointer, NULL, ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	client_expect_protocol_error(c, &zwp_pointer_constraints_v1_interface,
				     ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED);
	zwp_confined_pointer_v1_destroy(cp);
	zwp_locked_pointer_v1_destroy(lp);
	zwp_pointer_constraints_v1_destroy(pc);
	surface_destroy(s);
	client_destroy(c);
	check_compositor_serves(t);
}

/* ---- text input ---- */

struct text_state {
	struct wl_surface *entered;
	int enters, leaves, dones;
	uint32_t serial;
	char preedit[64], commit[64];
	int32_t preedit_begin, preedit_end;
	uint32_t delete_before, delete_after;
};

static void ti_enter(void *data, struct zwp_text_input_v3 *ti, struct wl_surface *surface)
{
	struct text_state *st = data;

	st->entered = surface;
	st->enters++;
}

static void ti_leave(void *data, struct zwp_text_input_v3 *ti, struct wl_surface *surface)
{
	struct text_state *st = data;

	st->entered = NULL;
	st->leaves++;
}

static void ti_preedit(void *data, struct zwp_text_input_v3 *ti, const char *text, int32_t begin,
		       int32_t end)
{
	struct text_state *st = data;

	snprintf(st->preedit, sizeof(st->preedit), "%s", text ? text : "");
	st->preedit_begin = begin;
	st->preedit_end = end;
}

static void ti_commit_string(void *data, struct zwp_text_input_v3 *ti, const char *text)
{
	struct text_state *st = data;

	snprintf(st->commit, sizeof(st->commit), "%s", text ? text : "");
}

static void ti_delete(void *data, struct zwp_text_input_v3 *ti, uint32_t before, uint32_t after)
{
	struct text_state *st = data;

	st->delete_before = before;
	st->delete_after = after;
}

static void ti_done(void *data, struct zwp_text_input_v3 *ti, uint32_t serial)
{
	struct text_state *st = data;

	st->dones++;
	st->serial = serial;
}

static const struct zwp_text_input_v3_listener text_listener = {
	ti_enter, ti_leave, ti_preedit, ti_commit_string, ti_delete, ti_done,
};

static struct zwp_text_input_v3 *text_input_create(struct client *c, struct text_state *st)
{
	struct zwp_text_input_manager_v3 *m = bind_global(c, &zwp_text_input_manager_v3_interface);
	struct zwp_text_input_v3 *ti = zwp_text_input_manager_v3_get_text_input(m, c->seat);

	zwp_text_input_v3_add_listener(ti, &text_listener, st);
	zwp_text_input_manager_v3_destroy(m);
	client_roundtrip(c);
	return ti;
}

TEST(text_input_follows_the_keyboard_focus_and_gets_the_input_methods_text)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *sb = surface_create_placed(b, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct text_state ta = {0}, tb = {0};
	struct zwp_text_input_v3 *ti_a = text_input_create(a, &ta);
	struct zwp_text_input_v3 *ti_b = text_input_create(b, &tb);

	garnet_test_activate_surface(a->garnet_test, sa->wl_surface);
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, ta.entered == sa->wl_surface);
	check_int(t, tb.enters, ==, 0);
	/* Enabled, with its state, in one commit (the first of this object). */
	zwp_text_input_v3_enable(ti_a);
	zwp_text_input_v3_set_surrounding_text(ti_a, "hello world", 5, 5);
	zwp_text_input_v3_set_content_type(ti_a, ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE,
					   ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL);
	zwp_text_input_v3_commit(ti_a);
	client_roundtrip(a);
	garnet_test_text_input_edit(a->garnet_test, "wor", 0, 3, ",", 0, 0);
	client_roundtrip(a);
	check_int(t, ta.dones, ==, 1);
	check_int(t, ta.serial, ==, 1);
	check(t, strcmp(ta.preedit, "wor") == 0);
	check_int(t, ta.preedit_end, ==, 3);
	check(t, strcmp(ta.commit, ",") == 0);
	/* b's text input, not enabled and not focused, hears nothing. */
	client_roundtrip(b);
	check_int(t, tb.dones, ==, 0);
	/* The keyboard goes to b: a leaves, b enters, and text goes nowhere until b enables. */
	garnet_test_activate_surface(b->garnet_test, sb->wl_surface);
	client_roundtrip(b);
	client_roundtrip(a);
	check_int(t, ta.leaves, ==, 1);
	check(t, tb.entered == sb->wl_surface);
	garnet_test_text_input_edit(b->garnet_test, "", 0, 0, "secret", 0, 0);
	client_roundtrip(b);
	client_roundtrip(a);
	check_int(t, tb.dones, ==, 0);
	check_int(t, ta.dones, ==, 1);
	check(t, strcmp(ta.commit, ",") == 0);
	/* b enables twice (two commits); the serial counts commits. */
	zwp_text_input_v3_enable(ti_b);
	zwp_text_input_v3_commit(ti_b);
	zwp_text_input_v3_set_cursor_rectangle(ti_b, 1, 2, 3, 4);
	zwp_text_input_v3_commit(ti_b);
	client_roundtrip(b);
	garnet_test_text_input_edit(b->garnet_test, "", 0, 0, "ok", 2, 1);
	client_roundtrip(b);
	check_int(t, tb.dones, ==, 1);
	check_int(t, tb.serial, ==, 2);
	check(t, strcmp(tb.commit, "ok") == 0);
	check_int(t, tb.delete_before, ==, 2);
	check_int(t, tb.delete_after, ==, 1);
	/* Disabled: nothing more. */
	zwp_text_input_v3_disable(ti_b);
	zwp_text_input_v3_commit(ti_b);
	client_roundtrip(b);
	garnet_test_text_input_edit(b->garnet_test, "", 0, 0, "late", 0, 0);
	client_roundtrip(b);
	check_int(t, tb.dones, ==, 1);
	zwp_text_input_v3_destroy(ti_b);
	zwp_text_input_v3_destroy(ti_a);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(surrounding_text_offsets_outside_the_text_are_an_error)
{
	struct client *c = client_create(t);
	struct text_state st = {0};
	struct zwp_text_input_v3 *ti = text_input_create(c, &st);

	zwp_text_input_v3_set_surrounding_text(ti, "abc", 4, 0);
	client_expect_display_error(c);
	zwp_text_input_v3_destroy(ti);
	client_destroy(c);
	check_compositor_serves(t);
}

/* ---- input method ---- */

struct im_state {
	int activates, deactivates, dones, unavailable;
	char surrounding[64];
	int grab_keys, grab_keymaps;
	uint32_t last_grab_key;
};

static void im_activate(void *data, struct zwp_input_method_v2 *im)
{
	((struct im_state *)data)->activates++;
}

static void im_deactivate(void *data, struct zwp_input_method_v2 *im)
{
	((struct im_state *)data)->deactivates++;
}

static void im_surrounding(void *data, struct zwp_input_method_v2 *im, const char *text,
			   uint32_t cursor, uint32_t anchor)
{
	struct im_state *st = data;

	snprintf(st->surrounding, sizeof(st->surrounding), "%s", text);
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
	((struct im_state *)data)->dones++;
}

static void im_unavailable(void *data, struct zwp_input_method_v2 *im)
{
	((struct im_state *)data)->unavailable++;
}

static const struct zwp_input_method_v2_listener im_listener = {
	im_activate, im_deactivate, im_surrounding, im_cause, im_content_type, im_done,
	im_unavailable,
};

static void grab_keymap(void *data, struct zwp_input_method_keyboard_grab_v2 *g,
			uint32_t format, int32_t fd, uint32_t size)
{
	((struct im_state *)data)->grab_keymaps++;
	close(fd);
}

static void grab_key(void *data, struct zwp_input_method_keyboard_grab_v2 *g, uint32_t serial,
		     uint32_t time, uint32_t key, uint32_t state)
{
	struct im_state *st = data;

	st->grab_keys++;
	st->last_grab_key = key;
}

static void grab_modifiers(void *data, struct zwp_input_method_keyboard_grab_v2 *g,
			   uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked,
			   uint32_t group)
{
}

static void grab_repeat(void *data, struct zwp_input_method_keyboard_grab_v2 *g, int32_t rate,
			int32_t delay)
{
}

static const struct zwp_input_method_keyboard_grab_v2_listener grab_listener = {
	grab_keymap, grab_key, grab_modifiers, grab_repeat,
};

static struct zwp_input_method_v2 *input_method_create(struct client *c, struct im_state *st)
{
	struct zwp_input_method_manager_v2 *m =
		bind_global(c, &zwp_input_method_manager_v2_interface);
	struct zwp_input_method_v2 *im = zwp_input_method_manager_v2_get_input_method(m, c->seat);

	zwp_input_method_v2_add_listener(im, &im_listener, st);
	zwp_input_method_manager_v2_destroy(m);
	client_roundtrip(c);
	return im;
}

/* A focused surface of c with a text input enabled on it, holding "hello". */
static struct zwp_text_input_v3 *text_field(struct client *c, struct client_surface *s,
					    struct text_state *st)
{
	struct zwp_text_input_v3 *ti = text_input_create(c, st);

	garnet_test_activate_surface(c->garnet_test, s->wl_surface);
	client_roundtrip(c);
	zwp_text_input_v3_enable(ti);
	zwp_text_input_v3_set_surrounding_text(ti, "hello", 5, 5);
	zwp_text_input_v3_commit(ti);
	client_roundtrip(c);
	return ti;
}

TEST(input_method_writes_only_into_the_focused_enabled_text_field)
{
	struct client *a = client_create(t), *b = client_create(t), *ime = client_create(t);
	struct client *other = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *sb = surface_create_placed(b, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct text_state ta = {0};
	struct zwp_text_input_v3 *ti = text_field(a, sa, &ta);
	struct im_state st = {0}, second = {0};
	struct zwp_input_method_v2 *im = input_method_create(ime, &st);
	struct zwp_input_method_v2 *im2 = input_method_create(other, &second);

	check_int(t, second.unavailable, ==, 1);
	check_int(t, st.activates, ==, 1);
	check(t, strcmp(st.surrounding, "hello") == 0);
	check_int(t, st.dones, ==, 1);
	zwp_input_method_v2_commit_string(im, " world");
	zwp_input_method_v2_commit(im, 1);
	client_roundtrip(ime);
	client_roundtrip(a);
	check(t, strcmp(ta.commit, " world") == 0);
	check_int(t, ta.dones, ==, 1);
	/* A commit for a state it has not seen yet (stale serial) goes nowhere. */
	zwp_input_method_v2_commit_string(im, "stale");
	zwp_input_method_v2_commit(im, 0);
	client_roundtrip(ime);
	client_roundtrip(a);
	check_int(t, ta.dones, ==, 1);
	/* The keyboard goes to b, which has no text field: deactivated, and text goes nowhere. */
	garnet_test_activate_surface(b->garnet_test, sb->wl_surface);
	client_roundtrip(b);
	client_roundtrip(ime);
	check_int(t, st.deactivates, ==, 1);
	zwp_input_method_v2_commit_string(im, "leak");
	zwp_input_method_v2_commit(im, (uint32_t)st.dones);
	client_roundtrip(ime);
	client_roundtrip(a);
	check_int(t, ta.dones, ==, 1);
	check(t, strcmp(ta.commit, " world") == 0);
	zwp_input_method_v2_destroy(im2);
	zwp_input_method_v2_destroy(im);
	zwp_text_input_v3_destroy(ti);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(other);
	client_destroy(ime);
	client_destroy(b);
	client_destroy(a);
}

TEST(keyboard_grab_takes_keys_only_while_a_text_field_is_active)
{
	struct client *a = client_create(t), *ime = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct text_state ta = {0};
	struct zwp_text_input_v3 *ti = text_field(a, sa, &ta);
	struct im_state st = {0};
	struct zwp_input_method_v2 *im = input_method_create(ime, &st);
	struct zwp_input_method_keyboard_grab_v2 *grab = zwp_input_method_v2_grab_keyboard(im);
	int keys;

	zwp_input_method_keyboard_grab_v2_add_listener(grab, &grab_listener, &st);
	client_roundtrip(ime);
	check_int(t, st.grab_keymaps, ==, 1);
	keys = a->input.keys;
	client_tap_key(a, KEY_A);
	client_roundtrip(a);
	client_roundtrip(ime);
	check_int(t, st.grab_keys, ==, 2);
	check_int(t, st.last_grab_key, ==, KEY_A);
	check_int(t, a->input.keys, ==, keys);
	/* The text field is disabled: keys are the focused client's again. */
	zwp_text_input_v3_disable(ti);
	zwp_text_input_v3_commit(ti);
	client_roundtrip(a);
	client_tap_key(a, KEY_B);
	client_roundtrip(a);
	client_roundtrip(ime);
	check_int(t, st.grab_keys, ==, 2);
	check_int(t, a->input.keys, ==, keys + 2);
	zwp_input_method_keyboard_grab_v2_release(grab);
	zwp_input_method_v2_destroy(im);
	zwp_text_input_v3_destroy(ti);
	surface_destroy(sa);
	client_destroy(ime);
	client_destroy(a);
}

TEST(input_method_popup_shows_under_the_text_cursor_while_active)
{
	struct client *a = client_create(t), *ime = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 200, 100, 0xff0000ff, NULL);
	struct text_state ta = {0};
	struct zwp_text_input_v3 *ti = text_field(a, sa, &ta);
	struct im_state st = {0};
	struct zwp_input_method_v2 *im;
	struct client_surface *popup = surface_create(ime);
	struct buffer *b = buffer_create(ime, 20, 10, WL_SHM_FORMAT_XRGB8888);
	struct zwp_input_popup_surface_v2 *ps;
	pixman_image_t *shot;

	zwp_text_input_v3_set_cursor_rectangle(ti, 30, 40, 2, 12);
	zwp_text_input_v3_commit(ti);
	client_roundtrip(a);
	im = input_method_create(ime, &st);
	ps = zwp_input_method_v2_get_input_popup_surface(im, popup->wl_surface);
	buffer_fill(b, 0xffffff00u);
	check(t, ps != NULL);
	surface_show(popup, b);
	client_roundtrip(ime);
	shot = capture_output(a, client_first_output(a));
	/* Just under the cursor rectangle of the text field (30, 40, 2x12). */
	check_int(t, image_pixel(shot, 31, 53), ==, 0xffffff00u);
	check_int(t, image_pixel(shot, 29, 51), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	/* Not while no text field is active. */
	zwp_text_input_v3_disable(ti);
	zwp_text_input_v3_commit(ti);
	client_roundtrip(a);
	client_roundtrip(ime);
	shot = capture_output(a, client_first_output(a));
	check_int(t, image_pixel(shot, 31, 53), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	zwp_input_popup_surface_v2_destroy(ps);
	buffer_destroy(b);
	surface_destroy(popup);
	zwp_input_method_v2_destroy(im);
	zwp_text_input_v3_destroy(ti);
	surface_destroy(sa);
	client_destroy(ime);
	client_destroy(a);
}

/* ---- global shortcuts ---- */

struct shortcut_state {
	char trigger[64];
	int bound, activations;
	int32_t refusal;
};

static void sc_bound(void *data, struct garnet_shortcut_v1 *sc, const char *trigger)
{
	struct shortcut_state *st = data;

	st->bound++;
	snprintf(st->trigger, sizeof(st->trigger), "%s", trigger);
}

static void sc_refused(void *data, struct garnet_shortcut_v1 *sc, uint32_t reason)
{
	((struct shortcut_state *)data)->refusal = (int32_t)reason;
}

static void sc_activated(void *data, struct garnet_shortcut_v1 *sc, uint32_t time)
{
	((struct shortcut_state *)data)->activations++;
}

static const struct garnet_shortcut_v1_listener shortcut_listener = {sc_bound, sc_refused,
									sc_activated};

static struct garnet_shortcut_v1 *shortcut(struct client *c, const char *action,
					   struct shortcut_state *st)
{
	struct garnet_shortcuts_manager_v1 *m =
		bind_global(c, &garnet_shortcuts_manager_v1_interface);
	struct garnet_shortcut_v1 *sc = garnet_shortcuts_manager_v1_register_action(m, action);

	st->refusal = -1;
	garnet_shortcut_v1_add_listener(sc, &shortcut_listener, st);
	garnet_shortcuts_manager_v1_destroy(m);
	client_roundtrip(c);
	return sc;
}

static void play_key(struct garnet_compositor *c, struct test_context *t)
{
	char error[128];

	if (!garnet_compositor_add_binding(c, "", "XF86AudioPlay", "shortcut", "play-pause",
					   error, sizeof(error)))
		abort();
}

TEST_WITH(shortcut_holder_hears_the_action_and_no_client_gets_the_key, play_key, DEFAULT_OUTPUT)
{
	struct client *player = client_create(t), *other = client_create(t);
	struct client_surface *s = surface_create_placed(other, 0, 0, 100, 100, 0xff00ff00, NULL);
	struct shortcut_state st = {0}, taken = {0}, unknown = {0}, unset = {0};
	struct garnet_shortcut_v1 *sc = shortcut(player, "play-pause", &st);
	struct garnet_shortcut_v1 *sc2 = shortcut(other, "play-pause", &taken);
	struct garnet_shortcut_v1 *sc3 = shortcut(other, "launch-missiles", &unknown);
	struct garnet_shortcut_v1 *sc4 = shortcut(other, "stop", &unset);
	int keys;

	check_int(t, st.bound, ==, 1);
	check(t, strcmp(st.trigger, "XF86AudioPlay") == 0);
	check_int(t, taken.refusal, ==, GARNET_SHORTCUT_V1_REFUSAL_TAKEN);
	check_int(t, unknown.refusal, ==, GARNET_SHORTCUT_V1_REFUSAL_UNKNOWN_ACTION);
	check_int(t, unset.refusal, ==, GARNET_SHORTCUT_V1_REFUSAL_NOT_CONFIGURED);
	/* The focused window does not get the key; the holder gets the action. */
	garnet_test_activate_surface(other->garnet_test, s->wl_surface);
	client_roundtrip(other);
	keys = other->input.keys;
	client_tap_key(other, KEY_PLAYPAUSE);
	client_roundtrip(other);
	client_roundtrip(player);
	check_int(t, st.activations, ==, 1);
	check_int(t, other->input.keys, ==, keys);
	/* Given up: the key is the focused client's again. */
	garnet_shortcut_v1_destroy(sc);
	client_roundtrip(player);
	client_tap_key(other, KEY_PLAYPAUSE);
	client_roundtrip(other);
	check_int(t, other->input.keys, ==, keys + 2);
	garnet_shortcut_v1_destroy(sc4);
	garnet_shortcut_v1_destroy(sc3);
	garnet_shortcut_v1_destroy(sc2);
	surface_destroy(s);
	client_destroy(other);
	client_destroy(player);
}

static bool deny_shortcuts(void *data, struct wl_client *client, const char *action)
{
	return false;
}

static void play_key_denied(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.global_shortcut = deny_shortcuts};

	play_key(c, t);
	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(shortcut_the_policy_refuses_is_denied, play_key_denied, DEFAULT_OUTPUT)
{
	struct client *c = client_create(t);
	struct shortcut_state st = {0};
	struct garnet_shortcut_v1 *sc = shortcut(c, "play-pause", &st);

	check_int(t, st.bound, ==, 0);
	check_int(t, st.refusal, ==, GARNET_SHORTCUT_V1_REFUSAL_DENIED);
	garnet_shortcut_v1_destroy(sc);
	client_destroy(c);
}

TEST(shortcut_named_like_a_key_is_an_error)
{
	struct client *c = client_create(t);
	struct garnet_shortcuts_manager_v1 *m =
		bind_global(c, &garnet_shortcuts_manager_v1_interface);
	struct garnet_shortcut_v1 *sc = garnet_shortcuts_manager_v1_register_action(m, "ctrl+a");

	client_expect_protocol_error(c, &garnet_shortcuts_manager_v1_interface,
				     GARNET_SHORTCUTS_MANAGER_V1_ERROR_INVALID_ACTION);
	garnet_shortcut_v1_destroy(sc);
	garnet_shortcuts_manager_v1_destroy(m);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(input_popup_on_a_surface_with_another_role_is_an_error)
{
	struct client *ime = client_create(t);
	struct client_surface *s = surface_create_placed(ime, 0, 0, 20, 20, 0xff00ff00, NULL);
	struct im_state st = {0};
	struct zwp_input_method_v2 *im = input_method_create(ime, &st);
	struct zwp_input_popup_surface_v2 *ps;

	ps = zwp_input_method_v2_get_input_popup_surface(im, s->wl_surface);
	client_expect_protocol_error(ime, &zwp_input_method_v2_interface,
				     ZWP_INPUT_METHOD_V2_ERROR_ROLE);
	zwp_input_popup_surface_v2_destroy(ps);
	zwp_input_method_v2_destroy(im);
	surface_destroy(s);
	client_destroy(ime);
	check_compositor_serves(t);
}

TEST(constraint_lifetime_that_is_neither_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct zwp_pointer_constraints_v1 *pc = bind_global(c, &zwp_pointer_constraints_v1_interface);
	struct zwp_locked_pointer_v1 *lp;

	lp = zwp_pointer_constraints_v1_lock_pointer(pc, s->wl_surface, c->pointer, NULL, 7);
	client_expect_display_error(c);
	zwp_locked_pointer_v1_destroy(lp);
	zwp_pointer_constraints_v1_destroy(pc);
	surface_destroy(s);
	client_destroy(c);
	check_compositor_serves(t);
}

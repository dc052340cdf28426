// SPDX-License-Identifier: MIT
// Protocols common clients expect beyond the core: fractional scale, idle notification, idle
// inhibition and activation, driven by a real libwayland client against libgarnet in-process.
#include <stdio.h>
#include <string.h>

#include "harness.h"

#include "ext-idle-notify-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "relative-pointer-unstable-v1-client-protocol.h"
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

TEST(idle_after_timeout_and_resumed_by_input)
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
	garnet_test_key(c->garnet_test, 30, WL_KEYBOARD_KEY_STATE_PRESSED);
	garnet_test_key(c->garnet_test, 30, WL_KEYBOARD_KEY_STATE_RELEASED);
	check(t, client_dispatch_until(c, &st.resumed));
	ext_idle_notification_v1_destroy(n);
	client_destroy(c);
}

TEST(visible_inhibitor_holds_idle_off)
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

TEST(inhibitor_of_a_hidden_surface_does_not_count)
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

/* A committed activation token of client c, in name (64 bytes). */
static void get_token(struct client *c, struct xdg_activation_v1 *activation, char *name)
{
	struct xdg_activation_token_v1 *token = xdg_activation_v1_get_activation_token(activation);

	name[0] = '\0';
	xdg_activation_token_v1_add_listener(token, &token_listener, name);
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
	get_token(a, act_a, name);
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

	get_token(b, act_b, name);
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
	double dx, dy;
};

static void relative_motion(void *data, struct zwp_relative_pointer_v1 *rp, uint32_t utime_hi,
			    uint32_t utime_lo, wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t dx_unaccel,
			    wl_fixed_t dy_unaccel)
{
	struct relative_state *st = data;

	(void)rp;
	(void)utime_hi;
	(void)utime_lo;
	(void)dx_unaccel;
	(void)dy_unaccel;
	st->events++;
	st->dx += wl_fixed_to_double(dx);
	st->dy += wl_fixed_to_double(dy);
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
	sa = (struct relative_state){0};
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(15), wl_fixed_from_int(30));
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(12), wl_fixed_from_int(31));
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, sa.events, ==, 2);
	check_int(t, sa.dx, ==, 2);
	check_int(t, sa.dy, ==, 21);
	check_int(t, sb.events, ==, 0);
	zwp_relative_pointer_v1_destroy(rp_a);
	zwp_relative_pointer_v1_destroy(rp_b);
	surface_destroy(s_a);
	surface_destroy(s_b);
	client_destroy(a);
	client_destroy(b);
}

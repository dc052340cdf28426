// SPDX-License-Identifier: MIT
// Protocols common clients expect beyond the core: fractional scale, idle notification and idle
// inhibition, driven by a real libwayland client against libgarnet in-process.
#include "harness.h"

#include "ext-idle-notify-v1-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"

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
	client_destroy(c);
}

TEST(second_fractional_scale_for_a_surface_is_an_error)
{
	struct client *c = client_create(t);
	struct wp_fractional_scale_manager_v1 *m =
		bind_global(c, &wp_fractional_scale_manager_v1_interface);
	struct client_surface *s = surface_create(c);

	wp_fractional_scale_manager_v1_get_fractional_scale(m, s->wl_surface);
	wp_fractional_scale_manager_v1_get_fractional_scale(m, s->wl_surface);
	client_expect_protocol_error(
		c, &wp_fractional_scale_manager_v1_interface,
		WP_FRACTIONAL_SCALE_MANAGER_V1_ERROR_FRACTIONAL_SCALE_EXISTS);
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
	struct ext_idle_notification_v1 *n = watch_idle(c, 100, &st);

	/* Input before the timeout restarts it. */
	client_dispatch_for(c, 60);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(5), wl_fixed_from_int(5));
	client_dispatch_for(c, 60);
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
	client_destroy(c);
}

TEST(inhibitor_of_a_hidden_surface_does_not_count)
{
	struct client *c = client_create(t);
	struct zwp_idle_inhibit_manager_v1 *m =
		bind_global(c, &zwp_idle_inhibit_manager_v1_interface);
	struct client_surface *s = surface_create(c);
	struct idle_state st = {0};
	struct ext_idle_notification_v1 *n;

	zwp_idle_inhibit_manager_v1_create_inhibitor(m, s->wl_surface);
	n = watch_idle(c, 50, &st);
	check(t, client_dispatch_until(c, &st.idled));
	ext_idle_notification_v1_destroy(n);
	client_destroy(c);
}

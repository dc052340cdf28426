// SPDX-License-Identifier: MIT
// ext-session-lock-v1 as the protocol promises it to the locker: `locked` comes only once every
// output shows a frame painted after the lock, and an unlock before `locked` is an error. And
// what happens when the locker dies: garnet's own prompt, until the password is right.
#include <linux/input-event-codes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "garnet/compositor.h"
#include "harness.h"

#include "ext-session-lock-v1-client-protocol.h"

/* 60 Hz: frames take time, so a `locked` sent before any frame would be seen as such. */
#define PACED_OUTPUT {320, 240, 1, 0, 60000}

static void on_locked(void *data, struct ext_session_lock_v1 *lock)
{
	*(bool *)data = true;
}

static void on_finished(void *data, struct ext_session_lock_v1 *lock)
{
}

static const struct ext_session_lock_v1_listener lock_listener = {on_locked, on_finished};

static struct ext_session_lock_v1 *lock_session(struct client *c, bool *locked)
{
	uint32_t name = client_find_global(c, "ext_session_lock_manager_v1");
	struct ext_session_lock_manager_v1 *m;
	struct ext_session_lock_v1 *lock;

	check(c->test, name != 0);
	m = wl_registry_bind(c->registry, name, &ext_session_lock_manager_v1_interface, 1);
	lock = ext_session_lock_manager_v1_lock(m);
	ext_session_lock_v1_add_listener(lock, &lock_listener, locked);
	ext_session_lock_manager_v1_destroy(m);
	return lock;
}

TEST_WITH(locked_comes_after_a_frame_that_shows_the_lock, NULL, PACED_OUTPUT)
{
	struct client *c = client_create(t);
	struct client_output *output = client_first_output(c);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xffff0000, NULL);
	struct ext_session_lock_v1 *lock;
	pixman_image_t *shot;
	bool locked = false;
	uint32_t frames;

	check(t, surface_commit_and_wait_frame(s));
	query_output_stats(c, output);
	frames = c->stats[0];
	lock = lock_session(c, &locked);
	check(t, client_dispatch_until(c, &locked));
	/* By the time the locker hears it, a new frame is on screen... */
	query_output_stats(c, output);
	check_int(t, c->stats[0], >, frames);
	/* ...and it shows nothing of the session. */
	shot = capture_output(c, output);
	check_int(t, image_pixel(shot, 10, 10), !=, 0xffff0000u);
	pixman_image_unref(shot);
	ext_session_lock_v1_unlock_and_destroy(lock);
	client_roundtrip(c);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(unlock_before_locked_is_an_error, NULL, PACED_OUTPUT)
{
	struct client *c = client_create(t);
	bool locked = false;
	struct ext_session_lock_v1 *lock = lock_session(c, &locked);

	/* In the same flush as the lock: no frame can have been shown in between. */
	ext_session_lock_v1_unlock_and_destroy(lock);
	/* On an object the client destroyed already: its interface is unknown to the client. */
	client_expect_protocol_error(c, NULL, EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK);
	check(t, !locked);
	client_destroy(c);
}

TEST_WITH(destroy_after_locked_is_an_error, NULL, PACED_OUTPUT)
{
	struct client *c = client_create(t);
	bool locked = false;
	struct ext_session_lock_v1 *lock = lock_session(c, &locked);

	check(t, client_dispatch_until(c, &locked));
	ext_session_lock_v1_destroy(lock);
	client_expect_protocol_error(c, NULL, EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY);
	client_destroy(c);
}

TEST_WITH(destroy_before_locked_gives_the_lock_up_and_the_session_stays_locked, NULL,
	  PACED_OUTPUT)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xffff0000, NULL);
	bool locked = false;
	struct ext_session_lock_v1 *lock;
	pixman_image_t *shot;

	check(t, surface_commit_and_wait_frame(s));
	/* In the same flush as the lock: `locked` cannot have been sent yet. */
	lock = lock_session(c, &locked);
	ext_session_lock_v1_destroy(lock);
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	check(t, !locked);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10, 10), !=, 0xffff0000u);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

/* ---- garnet's own lock screen, for a lock whose locker died ---- */

struct typed {
	char password[64];
	int calls;
};

static void remember_password(void *data, const char *password)
{
	struct typed *typed = data;

	snprintf(typed->password, sizeof(typed->password), "%s", password);
	typed->calls++;
}

static void with_authenticator(struct garnet_compositor *c, struct test_context *t)
{
	struct typed *typed = calloc(1, sizeof(*typed));

	test_set_data(t, typed);
	garnet_compositor_set_authenticator(c, remember_password, typed);
}

static void answer_wrong(struct garnet_compositor *c, void *data)
{
	garnet_compositor_unlock_result(c, false);
}

static void answer_right(struct garnet_compositor *c, void *data)
{
	garnet_compositor_unlock_result(c, true);
}

static void type(struct client *c, const uint32_t *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		client_tap_key(c, keys[i]);
	client_roundtrip(c);
}

/* The prompt on a 320x240 output: 320x48 in the middle, a 2-pixel frame, a dot per character
 * from x 8. */
#define PROMPT_Y 96
static uint32_t pixel_at(struct client *c, int32_t x, int32_t y)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	uint32_t p = image_pixel(shot, x, y) & 0xffffff;

	pixman_image_unref(shot);
	return p;
}

TEST_WITH(a_dead_lockers_session_shows_garnets_prompt_until_the_password_is_right,
	  with_authenticator, DEFAULT_OUTPUT)
{
	static const uint32_t ab_return[] = {KEY_A, KEY_B, KEY_ENTER};
	struct typed *typed = test_data(t);
	struct client *victim = client_create(t);
	struct client_surface *window = toplevel_create(victim, 100, 100, 0xffff0000, NULL);
	struct client *locker = client_create(t);
	struct ext_session_lock_v1 *lock;
	bool locked = false;
	int32_t wx, wy;
	int keys;
	pixman_image_t *shot;

	client_roundtrip(victim);
	check(t, victim->input.keyboard_focus == window->wl_surface);
	/* Where the window shows, outside the prompt's rows. */
	shot = capture_output(victim, client_first_output(victim));
	check(t, image_find(shot, 0xff0000, PROMPT_Y, PROMPT_Y + 48, &wx, &wy));
	pixman_image_unref(shot);
	lock = lock_session(locker, &locked);
	check(t, client_dispatch_until(locker, &locked));
	/* The locker dies without unlocking (the proxy freed here, no request sent). */
	wl_proxy_destroy((struct wl_proxy *)lock);
	client_destroy(locker);
	client_roundtrip(victim);
	keys = victim->input.keys;

	/* garnet's prompt, and nothing of the session. */
	check_int(t, pixel_at(victim, 0, PROMPT_Y), ==, 0xd0d0d0);
	check_int(t, pixel_at(victim, 5, PROMPT_Y + 5), ==, 0x202428);
	check_int(t, pixel_at(victim, wx, wy), !=, 0xff0000);

	/* Two characters are two dots; Return hands the password over and greys the frame. */
	type(victim, ab_return, 2);
	check_int(t, pixel_at(victim, 10, PROMPT_Y + 23), ==, 0xffffff);
	check_int(t, pixel_at(victim, 22, PROMPT_Y + 23), ==, 0xffffff);
	check_int(t, pixel_at(victim, 34, PROMPT_Y + 23), ==, 0x202428);
	type(victim, ab_return + 2, 1);
	check_int(t, typed->calls, ==, 1);
	check(t, strcmp(typed->password, "ab") == 0);
	check_int(t, pixel_at(victim, 0, PROMPT_Y), ==, 0x808080);

	/* Wrong: a red frame, still locked. */
	test_run_on_compositor(t, answer_wrong, NULL);
	check_int(t, pixel_at(victim, 0, PROMPT_Y), ==, 0xc03030);
	check_int(t, pixel_at(victim, wx, wy), !=, 0xff0000);

	/* Right: the session shows again and the window gets the keyboard back. */
	type(victim, ab_return, 3);
	check_int(t, typed->calls, ==, 2);
	test_run_on_compositor(t, answer_right, NULL);
	client_roundtrip(victim);
	check_int(t, pixel_at(victim, wx, wy), ==, 0xff0000);
	check(t, victim->input.keyboard_focus == window->wl_surface);
	/* None of the typing reached the window. */
	check_int(t, victim->input.keys, ==, keys);
	surface_destroy(window);
	client_destroy(victim);
}

TEST_WITH(every_output_shows_garnets_prompt, with_authenticator, DEFAULT_OUTPUT, DEFAULT_OUTPUT)
{
	struct client *locker = client_create(t), *c = client_create(t);
	struct ext_session_lock_v1 *lock;
	struct client_output *out;
	bool locked = false;
	int shown = 0;

	lock = lock_session(locker, &locked);
	check(t, client_dispatch_until(locker, &locked));
	wl_proxy_destroy((struct wl_proxy *)lock);
	client_destroy(locker);
	client_roundtrip(c);
	wl_list_for_each(out, &c->outputs, link) {
		pixman_image_t *shot = capture_output(c, out);

		shown += (image_pixel(shot, 5, PROMPT_Y + 5) & 0xffffff) == 0x202428;
		pixman_image_unref(shot);
	}
	check_int(t, shown, ==, 2);
	client_destroy(c);
}

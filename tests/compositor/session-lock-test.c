// SPDX-License-Identifier: MIT
// ext-session-lock-v1 as the protocol promises it to the locker: `locked` comes only once every
// output shows a frame painted after the lock, and an unlock before `locked` is an error.
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
